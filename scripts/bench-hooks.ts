// `npm run bench:hooks`: webhook-to-visible latency on the KeePassXC corpus: upstream commit → signed GitHub hook → string in the API.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config/config.js';
import { createUpdateQueue } from '../src/hooks/queue.js';
import { createHookHandler } from '../src/hooks/router.js';
import { type ComponentUpdate, createComponentUpdater } from '../src/hooks/updater.js';
import { startServer } from '../src/server/server.js';
import { openStore } from '../src/store/index.js';
import { syncProject } from '../src/sync/index.js';
import { createUpstream, gitCli, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { sendGithubPush } from './bench-lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
const source = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
if (!existsSync(source)) {
  console.log(`bench:hooks: the KeePassXC corpus is not at ${source}; set TMS_CORPUS. Nothing measured.`);
  process.exit(0);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const SECRET = 'bench-s3cret';
const DE = 'share/translations/keepassxc_de.ts';

const work = await tempDir('tms-bench-hooks-');
const files = Object.fromEntries(
  readdirSync(source)
    .filter((n) => /^keepassxc_.*\.ts$/.test(n))
    .map((n) => [`share/translations/${n}`, readFileSync(path.join(source, n))]),
);
const upstream = path.join(work, 'upstream', 'keepassxc.git');
await createUpstream({ dir: upstream, files });
execFileSync('git', ['gc', '-q'], { cwd: upstream });
const gitServer = await startGitServer({ root: path.join(work, 'upstream') });
// the "developer" pushing upstream: a clone of its own
const dev = path.join(work, 'dev');
await gitCli(work, ['clone', '-q', upstream, dev]);

const config = parseConfig(
  JSON.stringify({
    database: 'tms.sqlite',
    repos_dir: 'repos',
    hooks: { enabled: true, secret: SECRET },
    // the polling below is anonymous and fast: Weblate's anonymous throttle (100/day) would answer it with 429s
    rate_limit: { anonymous: '' },
    projects: [
      {
        name: 'KeePassXC',
        slug: 'keepassxc',
        components: [
          {
            name: 'KeePassXC',
            slug: 'keepassxc',
            repo: gitServer.url('keepassxc.git'),
            branch: 'main',
            filemask: 'share/translations/keepassxc_*.ts',
            file_format: 'ts',
            source_language: 'en',
          },
        ],
      },
    ],
  }),
  path.join(work, 'tms.config.json'),
);
const store = await openStore(config.database);
const t = performance.now();
const [first] = await syncProject(store, config, 'keepassxc');
if (!first!.ok) throw new Error(`first sync failed: ${first!.error}`);
console.log(`first sync (clone + parse ${first!.added} units): ${((performance.now() - t) / 1000).toFixed(1)} s`);

const pulls: { ms: number; update: ComponentUpdate }[] = [];
const queue = createUpdateQueue({
  update: createComponentUpdater({ store, getConfig: () => config }),
  lock: false,
  onDone: (_p, _c, update, ms) => pulls.push({ ms, update: update as ComponentUpdate }),
  onError: (e) => console.error('update failed:', e),
});
const hooks = createHookHandler({ store, getConfig: () => config, queue });
const httpServer = await startServer({ store, config, host: '127.0.0.1', port: 0, hooks, log: (m) => console.error(m) });
const base = httpServer.url;

const original = files[DE]!.toString('utf8');
const added: string[] = [];

/** The German file with the round's new messages appended to its last context. */
function germanWith(messages: string[]): string {
  const extra = messages
    .map((m) => `    <message>\n        <source>Bench source ${m}</source>\n        <translation>Bench-Text ${m}</translation>\n    </message>\n`)
    .join('');
  const at = original.lastIndexOf('</context>');
  return original.slice(0, at) + extra + original.slice(at);
}

async function visible(marker: string): Promise<boolean> {
  const q = encodeURIComponent(`target:"Bench-Text ${marker}"`);
  const res = await fetch(`${base}/api/translations/keepassxc/keepassxc/de/units/?q=${q}`);
  if (res.status !== 200) throw new Error(`the units search answered ${res.status}: ${await res.text()}`);
  const page = (await res.json()) as { count: number };
  return page.count > 0;
}

async function round(n: number): Promise<{ ack: number; visible: number; pull: number; resync: number }> {
  const marker = `r${n}-${Date.now()}`;
  added.push(marker);
  writeFileSync(path.join(dev, DE), germanWith(added));
  await gitCli(dev, ['commit', '-q', '-am', `Bench round ${n}`]);
  await gitCli(dev, ['push', '-q', 'origin', 'main']);
  const pullsBefore = pulls.length;
  const started = performance.now();
  const ack = await sendGithubPush(base, SECRET, gitServer.url('keepassxc'));
  if (ack.status !== 200) throw new Error(`hook answered ${ack.status}`);
  for (;;) {
    if (await visible(marker)) break;
    if (performance.now() - started > 30_000) throw new Error(`round ${n}: the string did not appear within 30 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const seen = performance.now() - started;
  await queue.idle();
  const mine = pulls.slice(pullsBefore);
  const pull = mine.reduce((ms, p) => ms + p.ms, 0);
  const resync = mine.reduce((ms, p) => ms + (p.update.sync?.seconds ?? 0) * 1000, 0);
  return { ack: ack.ms, visible: seen, pull, resync };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const fmt = (values: number[]) =>
  `p50 ${quantile(values, 0.5)!.toFixed(0)} ms, p95 ${quantile(values, 0.95)!.toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`;

await round(0); // warm-up: not counted
const results: Awaited<ReturnType<typeof round>>[] = [];
for (let n = 1; n <= ROUNDS; n++) results.push(await round(n));
console.log(`rounds: ${ROUNDS} (after one warm-up), each a commit adding one string to ${DE} (${(original.length / 1024).toFixed(0)} KiB)`);
console.log(`hook answered (signed, matched, change 53, queued): ${fmt(results.map((r) => r.ack))}`);
console.log(`webhook → string visible in the API:              ${fmt(results.map((r) => r.visible))} (target p95 < 1000 ms)`);
console.log(`the pull itself (fetch + rebase + re-sync):         ${fmt(results.map((r) => r.pull))}`);
console.log(`  of which the re-sync (ref check, parse 1 file, store): ${fmt(results.map((r) => r.resync))}`);
const last = pulls[pulls.length - 1]?.update;
console.log(`last pull: ${last?.kind}, ${last?.sync?.parsed} file(s) parsed, units +${last?.sync?.added} ~${last?.sync?.changed} -${last?.sync?.removed}`);

// a burst: 20 deliveries of one push at once
added.push(`burst-${Date.now()}`);
writeFileSync(path.join(dev, DE), germanWith(added));
await gitCli(dev, ['commit', '-q', '-am', 'Bench burst']);
await gitCli(dev, ['push', '-q', 'origin', 'main']);
const before = pulls.length;
const acks = await Promise.all(Array.from({ length: 20 }, () => sendGithubPush(base, SECRET, gitServer.url('keepassxc'))));
await queue.idle();
console.log(`burst of 20 hooks at once: answered in ${fmt(acks.map((a) => a.ms))}; ${pulls.length - before} pull(s) ran`);

await queue.close();
await httpServer.close();
await gitServer.close();
await store.close();
rmSync(work, { recursive: true, force: true });
console.log(`\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
