// `npm run bench:writes`: editUnit latency on ≥100k stored units and commitPending of 1,000 edits over 10 files (KeePassXC corpus).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openComponent } from '../src/component/handle.js';
import { parseConfig } from '../src/config/config.js';
import { State } from '../src/domain/unit.js';
import { GitWorker, commitPending, editUnit, pushComponent } from '../src/operations/index.js';
import { openStore } from '../src/store/index.js';
import { createUser } from '../src/store/users.repo.js';
import { syncProject } from '../src/sync/index.js';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { sqlOn } from '../test/helpers/store.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
const source = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
if (!existsSync(source)) {
  console.log(`bench:writes: the KeePassXC corpus is not at ${source}; set TMS_CORPUS. Nothing measured.`);
  process.exit(0);
}
const COPIES = Number(process.env.BENCH_COPIES ?? 2);
const EDITS = Number(process.env.BENCH_EDITS ?? 2000);

const work = await tempDir('tms-bench-writes-');
const files = Object.fromEntries(
  readdirSync(source)
    .filter((n) => /^keepassxc_.*\.ts$/.test(n))
    .map((n) => [`share/translations/${n}`, readFileSync(path.join(source, n))]),
);
await createUpstream({ dir: path.join(work, 'upstream', 'keepassxc.git'), files });
execFileSync('git', ['gc', '-q'], { cwd: path.join(work, 'upstream', 'keepassxc.git') });
const server = await startGitServer({ root: path.join(work, 'upstream') });
const components = Array.from({ length: COPIES }, (_, i) => ({
  name: `KeePassXC ${i}`,
  slug: `keepassxc-${i}`,
  repo: server.url('keepassxc.git'),
  branch: 'main',
  // the commit is timed on its own; the push is timed separately below
  filemask: 'share/translations/keepassxc_*.ts',
  file_format: 'ts',
  source_language: 'en',
  push_on_commit: false,
}));
const config = parseConfig(
  JSON.stringify({ database: 'writes.sqlite', repos_dir: 'repos', projects: [{ name: 'KeePassXC', slug: 'keepassxc', components }] }),
  path.join(work, 'tms.config.json'),
);
const store = await openStore(config.database);
const sql = sqlOn(store);
const synced = await syncProject(store, config, 'keepassxc');
for (const r of synced) if (!r.ok) throw new Error(`${r.component}: ${r.error}`);
const { user, token } = await store.write((tx) => createUser(tx, { username: 'bench', fullName: 'Bench Translator', email: 'bench@example.test' }));
const total = (await sql.value('SELECT count(*) FROM units')) as number;
const project = config.projects[0];

const lines: string[] = [];
const report = (line: string) => {
  lines.push(line);
  console.log(line);
};
report(`store: ${COPIES} components × ${Object.keys(files).length} files = ${total.toLocaleString('en')} units`);

interface Candidate {
  id: number;
  translation_id: number;
  target: string;
  component_id: number;
}
// Singular units of real translations that are not read-only.
const candidates = (await sql.rows(`SELECT u.id, u.translation_id, u.target, t.component_id FROM units u JOIN translations t ON t.id = u.translation_id
   WHERE t.is_source = 0 AND u.state <> ${State.READONLY} AND instr(u.source, char(30, 30)) = 0 ORDER BY u.id`)) as Candidate[];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

// commitPending: 1,000 edits spread over 10 files of the first component
{
  const first = project!.components[0];
  const componentId = candidates.find((c) => c.component_id)!.component_id;
  const byTranslation = new Map<number, Candidate[]>();
  for (const c of candidates) {
    if (c.component_id !== componentId) continue;
    let list = byTranslation.get(c.translation_id);
    if (!list) byTranslation.set(c.translation_id, (list = []));
    list.push(c);
  }
  const chosen = [...byTranslation.values()].slice(0, 10).flatMap((list) => list.filter((_, i) => i % 20 === 0).slice(0, 100));
  for (const c of chosen) await editUnit(store, { unitId: c.id, target: [`${c.target} (bench)`], state: State.TRANSLATED, user });
  // the git work runs in a worker thread that `tms serve` starts when it starts
  const tw = performance.now();
  const git = new GitWorker();
  await git.start();
  report(`git worker start (once per process): ${(performance.now() - tw).toFixed(0)} ms`);
  const t0 = performance.now();
  const result = await commitPending(await openComponent(store, config, project!, first!, { git }));
  const commitMs = performance.now() - t0;
  if (!result.result) throw new Error(result.detail);
  const fileCount = new Set(result.commits.flatMap((c) => c.files)).size;
  report(`commitPending: ${result.units} edits in ${fileCount} files, ${result.commits.length} commit(s): ${commitMs.toFixed(0)} ms (target < 1,000 ms)`);

  await editUnit(store, { unitId: chosen[0]!.id, target: ['one more (bench)'], state: State.TRANSLATED, user });
  const t1 = performance.now();
  await commitPending(await openComponent(store, config, project!, first!, { git }));
  report(`commitPending: 1 edit: ${(performance.now() - t1).toFixed(0)} ms`);

  const t2 = performance.now();
  const pushed = await pushComponent(await openComponent(store, config, project!, first!, { git }));
  if (!pushed.result) throw new Error(pushed.detail);
  report(`pushComponent of those 2 commits over loopback smart HTTP: ${(performance.now() - t2).toFixed(0)} ms`);
}

// editUnit latency: EDITS edits at random over both components (seeded), after a warm-up
{
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = () => candidates[Math.floor(random() * candidates.length)];
  for (let i = 0; i < 200; i++) {
    const c = pick();
    await editUnit(store, { unitId: c!.id, target: [`warm ${i}`], state: State.TRANSLATED, user });
  }
  const times: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const c = pick();
    const t = performance.now();
    await editUnit(store, { unitId: c!.id, target: [`edit ${i}`], state: i % 5 === 0 ? State.FUZZY : State.TRANSLATED, user });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const changes = (await sql.value('SELECT count(*) FROM changes')) as number;
  report(
    `editUnit: ${EDITS} edits, p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms, ` +
      `p99 ${percentile(times, 99).toFixed(2)} ms, max ${times[times.length - 1]!.toFixed(2)} ms (target p95 < 20 ms); ${changes.toLocaleString('en')} change rows`,
  );
}

// PATCH /api/units/<id>/ through the HTTP API (server in this process, requests one at a time over keep-alive)
{
  const { startServer } = await import('../src/server/server.js');
  const api = await startServer({ store, config, host: '127.0.0.1', port: 0, log: () => {} });
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = () => candidates[Math.floor(random() * candidates.length)];
  const patch = async (id: number, target: string) => {
    const res = await fetch(`${api.url}/api/units/${id}/`, {
      method: 'PATCH',
      headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ target: [target], state: 20 }),
    });
    if (res.status !== 200) throw new Error(`PATCH ${id}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  for (let i = 0; i < 100; i++) await patch(pick()!.id, `http warm ${i}`);
  const times: number[] = [];
  const n = Math.min(EDITS, 1000);
  for (let i = 0; i < n; i++) {
    const c = pick();
    const t = performance.now();
    await patch(c!.id, `http edit ${i}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  report(
    `PATCH /api/units/<id>/ over HTTP: ${n} requests, p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms, ` +
      `p99 ${percentile(times, 99).toFixed(2)} ms (target p95 < 20 ms)`,
  );
  await api.close();
}

await store.close();
await server.close();
rmSync(work, { recursive: true, force: true });
console.log(`\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
