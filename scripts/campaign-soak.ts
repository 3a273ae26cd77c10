// Campaign soak: a whole `tms serve` process under SOAK_CLIENTS clients (default 50) PATCHing distinct and identical
// units for SOAK_SECONDS (default 60), while upstream commits touch the same strings and sends webhooks, and a
// manager commits (push_on_commit) every SOAK_COMMIT_EVERY_MS. At the end: every 200-acknowledged edit is upstream,
// pending, or a kept conflict; 0 × 5xx; no lock left held; PATCH p50/p99 written down. KeePassXC corpus when present.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processIo } from '../src/cli/io.js';
import { runServe } from '../src/cli/serve.js';
import { loadConfig } from '../src/config/config.js';
import { openStore } from '../src/store/index.js';
import { createUser } from '../src/store/users.repo.js';
import { syncProject } from '../src/sync/index.js';
import { commitToUpstream, createUpstream, gitCli } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { Campaign, envNumber, percentile } from './campaign/lib.js';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
const POOL_LANGUAGE = 'de';
const DE_FILE = `share/translations/keepassxc_${POOL_LANGUAGE}.ts`;

interface Unit {
  id: number;
  position: number;
  source: string[];
  target: string[];
  read_only: boolean;
  pending: boolean;
}

async function main(): Promise<number> {
  const campaign = new Campaign('soak');
  const clients = envNumber('SOAK_CLIENTS', 50);
  const seconds = envNumber('SOAK_SECONDS', 60);
  const commitEvery = envNumber('SOAK_COMMIT_EVERY_MS', 3000);
  const upstreamEvery = envNumber('SOAK_UPSTREAM_EVERY_MS', 4000);
  const corpus = path.join(process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus'), 'keepassxreboot-keepassxc', 'share', 'translations');
  const work = path.join(os.tmpdir(), `tms-campaign-soak-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  const files: Record<string, Uint8Array> = {};
  if (existsSync(corpus)) {
    for (const n of readdirSync(corpus).filter((n) => /^keepassxc_.*\.ts$/.test(n))) files[`share/translations/${n}`] = readFileSync(path.join(corpus, n));
  } else {
    for (const lang of ['de', 'cs'])
      files[`share/translations/keepassxc_${lang}.ts`] = readFileSync(path.join(root, 'fixtures', 'demo', 'app', 'translations', `app_${lang}.ts`));
  }
  const upstream = path.join(work, 'upstream', 'keepassxc.git');
  await createUpstream({ dir: upstream, files });
  const gitServer = await startGitServer({ root: path.join(work, 'upstream') });
  const repoUrl = gitServer.url('keepassxc.git');
  const configFile = path.join(work, 'tms.config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      database: 'tms.sqlite',
      repos_dir: 'repos',
      log_level: 'warn',
      lock_timeout_ms: 120_000,
      projects: [
        {
          name: 'KeePassXC',
          slug: 'keepassxc',
          components: [
            { name: 'KeePassXC', slug: 'keepassxc', repo: repoUrl, branch: 'main', filemask: 'share/translations/keepassxc_*.ts', file_format: 'ts' },
          ],
        },
      ],
    }),
  );
  const config = loadConfig(configFile);
  const store = await openStore(config.database);
  const [synced] = await syncProject(store, config, 'keepassxc');
  if (!synced?.ok) throw new Error(`setup sync failed: ${synced?.error}`);
  const admin = (await store.write((tx) => createUser(tx, { username: 'manager', email: 'manager@example.org', admin: true }))).token;
  const tokens: string[] = [];
  for (let i = 0; i < clients; i++) tokens.push((await store.write((tx) => createUser(tx, { username: `c${i}`, email: `c${i}@example.org` }))).token);
  await store.close();

  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', self, 'serve', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let serverErr = '';
  const base = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const look = (d: Buffer) => {
      seen += d.toString();
      const m = /serving the API on (http:\/\/[^/]+)\/api\//.exec(seen);
      if (m) resolve(m[1]!);
    };
    server.stdout!.on('data', look);
    server.stderr!.on('data', (d: Buffer) => {
      look(d);
      serverErr += d.toString();
    });
    server.once('exit', (code) => reject(new Error(`tms serve exited with ${code}: ${serverErr.slice(-2000)}`)));
  });
  const statuses = new Map<number, number>();
  const api = async (method: string, url: string, token: string | null, body?: unknown) => {
    const r = await fetch(base + url, {
      method,
      headers: { ...(token ? { Authorization: `Token ${token}` } : {}), 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (r.status >= 500) campaign.violate(`${method} ${url}: ${r.status}`);
    return { status: r.status, json: (await r.json().catch(() => null)) as Record<string, unknown> | null };
  };

  const unitsOf = async (lang: string): Promise<Unit[]> => {
    const out: Unit[] = [];
    let url: string | null = `/api/translations/keepassxc/keepassxc/${lang}/units/?page_size=1000`;
    while (url) {
      const r = await api('GET', url.replace(base, ''), admin);
      out.push(...((r.json?.results as Unit[]) ?? []));
      url = (r.json?.next as string | null) ?? null;
    }
    return out.filter((u) => !u.read_only && u.source.length === 1);
  };
  const languages = Object.keys(files)
    .map((f) => /keepassxc_(.+)\.ts$/.exec(f)![1]!)
    .filter((l) => l !== 'en');
  // the shared pool: 20 German strings every client edits and upstream changes too; distinct units: per client
  const de = await unitsOf(POOL_LANGUAGE);
  const pool = de.filter((_, i) => i % 7 === 3).slice(0, 20);
  const poolIds = new Set(pool.map((u) => u.id));
  const others: Unit[] = [];
  for (const lang of languages.filter((l) => l !== POOL_LANGUAGE).slice(0, 6)) others.push(...(await unitsOf(lang)));
  const perClient = Math.max(1, Math.floor(others.length / clients));
  const own = tokens.map((_, c) => others.slice(c * perClient, (c + 1) * perClient));
  campaign.note(`${clients} clients, ${pool.length} shared units, ${perClient} own units each, ${seconds} s`);

  const end = Date.now() + seconds * 1000;
  const acknowledged = new Map<number, string[]>(); // unit → acknowledged targets in answer order
  const upstreamTexts = new Map<number, Set<string>>();
  const latencies: number[] = [];
  let conflictsReported = 0;
  const commitResults: string[] = [];

  const clientLoops = tokens.map(async (token, c) => {
    let n = 0;
    while (Date.now() < end) {
      const shared = n % 2 === 1 || own[c]!.length === 0;
      const unit = shared ? pool[(c + n) % pool.length]! : own[c]![n % own[c]!.length]!;
      const target = `soak c${c} n${n}`;
      const started = performance.now();
      const r = await api('PATCH', `/api/units/${unit.id}/`, token, { target: [target], state: 20 });
      latencies.push(performance.now() - started);
      campaign.count('patches');
      if (r.status === 200) {
        const list = acknowledged.get(unit.id) ?? [];
        list.push(target);
        acknowledged.set(unit.id, list);
        campaign.count('acknowledged');
      } else if (r.status !== 423) {
        campaign.count(`patch_${r.status}`);
      }
      n++;
    }
  });
  const manager = (async () => {
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, commitEvery));
      const r = await api('POST', '/api/components/keepassxc/keepassxc/repository/', admin, { operation: 'commit' });
      campaign.count('manager_commits');
      const detail = String(r.json?.detail ?? '');
      const kept = /(\d+) local edit\(s\) met upstream changes/.exec(detail);
      if (kept) conflictsReported += Number(kept[1]);
      commitResults.push(`${r.status} ${r.json?.result}`);
      if (r.json?.result !== true) campaign.note(`manager commit: ${r.status} ${detail.replace(/\n/g, ' | ').slice(0, 200)}`);
    }
  })();
  const mover = (async () => {
    let round = 0;
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, upstreamEvery));
      round++;
      // upstream rewrites the translation of a few shared strings (by their source text), in the file as it stands on
      // the commit it builds on: tms pushes to the same file meanwhile, and a file read before that push would undo it
      const rewrite = (text: string) => {
        let changed = text;
        for (const unit of pool.filter((_, i) => (i + round) % Math.min(5, pool.length) === 0)) {
          const upstreamText = `upstream r${round} u${unit.id}`;
          const source = unit.source[0]!.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
          const at = changed.indexOf(`<source>${source}</source>`);
          if (at < 0) continue;
          const open = changed.indexOf('<translation', at);
          const close = changed.indexOf('</translation>', open);
          if (open < 0 || close < 0 || changed.slice(at, open).includes('</message>')) continue;
          changed = `${changed.slice(0, open)}<translation>${upstreamText}${changed.slice(close)}`;
          const set = upstreamTexts.get(unit.id) ?? new Set();
          set.add(upstreamText);
          upstreamTexts.set(unit.id, set);
        }
        return changed;
      };
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await commitToUpstream(upstream, async (current) => ({ [DE_FILE]: rewrite(await current(DE_FILE)) }));
          campaign.count('upstream_commits');
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      const hook = await fetch(`${base}/hooks/github/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push', 'X-GitHub-Delivery': `soak-${round}` },
        body: JSON.stringify({ ref: 'refs/heads/main', repository: { name: 'keepassxc', owner: { login: 'soak' }, clone_url: repoUrl, url: repoUrl } }),
      });
      campaign.count(`webhooks_${hook.status}`);
      if (hook.status >= 500) campaign.violate(`webhook: ${hook.status}`);
    }
  })();
  await Promise.all([...clientLoops, manager, mover]);

  // the end: the update queue drains, a final commit and push go through (no lock left held), then the ledger
  for (let i = 0; i < 600; i++) {
    const h = await fetch(`${base}/healthz`).then((r) => r.json() as Promise<{ queue: { running: number; queued: number } }>);
    if (h.queue.running + h.queue.queued === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const finalStarted = performance.now();
  const final = await api('POST', '/api/components/keepassxc/keepassxc/repository/', admin, { operation: 'push' });
  const finalMs = performance.now() - finalStarted;
  if (final.json?.result !== true) campaign.violate(`the final push failed: ${final.status} ${String(final.json?.detail ?? '').slice(0, 300)}`);
  const kept = /(\d+) local edit\(s\) met upstream changes/.exec(String(final.json?.detail ?? ''));
  if (kept) conflictsReported += Number(kept[1]);

  const upstreamFiles = new Map<string, string>();
  const fileOf = async (lang: string) => {
    const file = `share/translations/keepassxc_${lang}.ts`;
    if (!upstreamFiles.has(file)) upstreamFiles.set(file, (await gitCli(upstream, ['show', `main:${file}`])).toString());
    return upstreamFiles.get(file)!;
  };
  const langOf = new Map<number, string>();
  for (const u of pool) langOf.set(u.id, POOL_LANGUAGE);
  for (const lang of languages.filter((l) => l !== POOL_LANGUAGE).slice(0, 6)) for (const u of await unitsOf(lang)) langOf.set(u.id, lang);
  let lost = 0;
  let pendingAtEnd = 0;
  for (const [id, targets] of acknowledged) {
    const unit = (await api('GET', `/api/units/${id}/`, admin)).json as unknown as Unit;
    const text = await fileOf(langOf.get(id)!);
    const inUpstream = (t: string) => text.includes(`>${t}<`);
    if (poolIds.has(id)) {
      // many writers: what stands at the end is one of the acknowledged texts (or upstream's), pending or upstream
      const candidates = [...targets, ...(upstreamTexts.get(id) ?? [])];
      const ok = (unit.pending && candidates.includes(unit.target[0]!)) || candidates.some(inUpstream);
      if (unit.pending) pendingAtEnd++;
      if (!ok) {
        lost++;
        if (lost <= 3)
          campaign.violate(`shared unit ${id}: none of its ${targets.length} acknowledged texts is pending or upstream (now ${JSON.stringify(unit.target)})`);
      }
    } else {
      // one writer: its last acknowledged text is upstream or pending
      const last = targets[targets.length - 1]!;
      if (unit.pending) pendingAtEnd++;
      if (!((unit.pending && unit.target[0] === last) || inUpstream(last))) {
        lost++;
        if (lost <= 3) campaign.violate(`unit ${id}: the last acknowledged edit ${JSON.stringify(last)} is neither pending nor upstream`);
      }
    }
  }
  campaign.count('units_checked', acknowledged.size);
  if (lost > 3) campaign.violate(`${lost} units lost their acknowledged edits`);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await gitServer.close();
  rmSync(work, { recursive: true, force: true });
  const byStatus = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}:${n}`)
    .join(',');
  return campaign.finish({
    clients,
    duration_s: seconds,
    patch_p50_ms: percentile(latencies, 50).toFixed(1),
    patch_p99_ms: percentile(latencies, 99).toFixed(1),
    patch_max_ms: Math.max(0, ...latencies).toFixed(0),
    conflicts_reported: conflictsReported,
    pending_at_end: pendingAtEnd,
    final_push_ms: finalMs.toFixed(0),
    statuses: byStatus,
  });
}

if (process.argv[2] === 'serve') {
  process.exitCode = await runServe(loadConfig(process.argv[3]!), processIo, { host: '127.0.0.1', port: 0 });
  process.exit();
} else {
  process.exitCode = await main();
}
