// `npm run bench:postgres`: the same tms on SQLite and on PostgreSQL, measured in one run. A throwaway PostgreSQL
// server (test/helpers/postgres-server.ts: unix socket, fsync off) and the KeePassXC corpus served over loopback smart HTTP
// (as bench:e2e serves it); then, per engine:
//   - cold `tms sync` (whole bin/tms processes: clone, parse, store; a fresh database each run; median of BENCH_RUNS)
//   - one `tms serve --workers 1` node: GET of single units, and one pass over every distinct 100-unit page (nothing
//     cached yet), with autocannon
//   - PostgreSQL only: two nodes on different ports over the one database, reads spread over both (two loads at once),
//     against one node alone
// Every ratio is printed against its reference. The load generator runs in this process, on the same cores.
// BENCH_RUNS (cold syncs per engine, 3), BENCH_DURATION (seconds a load, 10), BENCH_CONNECTIONS (32); BENCH_ONLY=sync
// measures the cold syncs only.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { type PostgresServer, startPostgres } from '../test/helpers/postgres-server.js';
import { type LoadResult, autocannon, keepassxcFiles, keepassxcProjects, root, serveUrl } from './bench-lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ONLY_SYNC = process.env.BENCH_ONLY === 'sync';
const tms = path.join(root, 'bin', 'tms');

const files = keepassxcFiles('bench:postgres');
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const work = await tempDir('tms-bench-postgres-');
let pg: PostgresServer | undefined;
const children = new Set<ReturnType<typeof spawn>>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  pg?.remove();
  rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

pg = startPostgres(['tms_bench']);
await createUpstream({ dir: path.join(work, 'upstream', 'one.git'), files });
execFileSync('git', ['repack', '-adfq'], { cwd: path.join(work, 'upstream', 'one.git') });
const gitServer = await startGitServer({ root: path.join(work, 'upstream') });
const repo = gitServer.url('one.git');

/** One more database (with pg_trgm) on the server; its URL. */
function createDatabase(server: PostgresServer, name: string): string {
  server.psql('postgres', `CREATE DATABASE ${name}`);
  server.psql(name, 'CREATE EXTENSION pg_trgm');
  return server.url(name);
}

/** A configuration in a fresh folder: the store `database` (a SQLite file or a PostgreSQL URL). */
function config(name: string, database: string): string {
  const dir = path.join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'tms.config.json');
  // the load comes from one address: Weblate's anonymous throttle would answer it with 429s
  writeFileSync(file, JSON.stringify({ database, repos_dir: 'repos', rate_limit: { anonymous: '', user: '' }, projects: keepassxcProjects(repo) }));
  return file;
}

/** Wall seconds of one `tms` process (asynchronous: the git server answering it runs in this process). */
async function tmsRun(configFile: string, ...args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [tms, '--config', configFile, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (status !== 0) throw new Error(`tms ${args.join(' ')} failed (${status}): ${stderr}`);
  return (performance.now() - started) / 1000;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const lines: string[] = [];
const report = (line: string) => {
  lines.push(line);
  console.log(line);
};
const ratio = (x: number, of: number) => `×${(x / of).toFixed(2)}`;

// --- cold sync, the engines in turns (a change of the machine's load meets both alike)
const cold = { sqlite: [] as number[], postgres: [] as number[] };
const stores = { sqlite: '', postgres: '' };
for (let i = 0; i < RUNS; i++) {
  stores.sqlite = config(`sqlite-${i}`, 'tms.sqlite');
  cold.sqlite.push(await tmsRun(stores.sqlite, 'sync', 'keepassxc'));
  stores.postgres = config(`postgres-${i}`, createDatabase(pg, `tms_cold_${i}`));
  cold.postgres.push(await tmsRun(stores.postgres, 'sync', 'keepassxc'));
}
const coldSqlite = median(cold.sqlite);
const coldPostgres = median(cold.postgres);
report(`cold \`tms sync\` (clone + parse + store, whole process), median of ${RUNS}:`);
report(`  SQLite ${coldSqlite.toFixed(2)} s (${cold.sqlite.map((s) => s.toFixed(2)).join(', ')})`);
report(`  PostgreSQL ${coldPostgres.toFixed(2)} s (${cold.postgres.map((s) => s.toFixed(2)).join(', ')})`);
report(`  PostgreSQL / SQLite: ${ratio(coldPostgres, coldSqlite)} (target ≤ 2×)`);

if (ONLY_SYNC) {
  await gitServer.close();
  process.exit(0);
}

// --- serving
interface Node {
  base: string;
  stop(): Promise<void>;
}
async function serve(configFile: string): Promise<Node> {
  const child = spawn(process.execPath, [tms, '--config', configFile, 'serve', '--port', '0', '--workers', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const base = await serveUrl(child);
  return {
    base,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      children.delete(child);
    },
  };
}

/** Every unit's path and every distinct 100-unit page, as the API lists them. */
async function paths(base: string): Promise<{ units: string[]; pages: string[] }> {
  const translations = (await (await fetch(`${base}/api/translations/?page_size=1000`)).json()) as { results: { url: string; total: number }[] };
  const pages: string[] = [];
  for (const t of translations.results) {
    const unitsUrl = new URL(t.url).pathname.replace(/\/$/, '/units/');
    for (let p = 1; p <= Math.ceil(t.total / 100); p++) pages.push(`${unitsUrl}?page_size=100&page=${p}`);
  }
  const ids = ((await (await fetch(`${base}/api/units/?page_size=1000`)).json()) as { results: { id: number }[] }).results.map((u) => u.id);
  return { units: ids.map((id) => `/api/units/${id}/`), pages };
}

const cycle = (list: string[]) => {
  let cursor = 0;
  return [{ setupRequest: (r: { path: string }) => ({ ...r, path: list[cursor++ % list.length]! }) }];
};
const failed = (r: LoadResult) => r.errors + r.non2xx + r.timeouts;
const loadLine = (r: LoadResult, rps = r.requests.average) => `${rps.toFixed(0)} req/s, p99 ${r.latency.p99} ms, ${failed(r)} failed`;

/** Requests per second over `list` for DURATION seconds. */
function unitLoad(base: string, list: string[]): Promise<LoadResult> {
  return autocannon({ url: base, connections: CONNECTIONS, duration: DURATION, requests: cycle(list) });
}

/** One pass over every page, nothing cached: requests per second to the last answer. */
async function coldPages(base: string, pages: string[]): Promise<{ rps: number; result: LoadResult }> {
  const start = performance.now();
  let end = start;
  const run = autocannon({ url: base, connections: CONNECTIONS, amount: pages.length, requests: cycle(pages) });
  run.on('response', () => {
    end = performance.now();
  });
  const result = await run;
  return { rps: pages.length / ((end - start) / 1000), result };
}

const figures: Record<'sqlite' | 'postgres', { unit: LoadResult; pages: { rps: number; result: LoadResult } }> = {} as never;
let pgPaths: { units: string[]; pages: string[] } | undefined;
for (const engine of ['sqlite', 'postgres'] as const) {
  const node = await serve(stores[engine]);
  const p = await paths(node.base);
  if (engine === 'postgres') pgPaths = p;
  const pages = await coldPages(node.base, p.pages);
  const unit = await unitLoad(node.base, p.units);
  figures[engine] = { unit, pages };
  await node.stop();
}
report(`one node (\`tms serve --workers 1\`), ${CONNECTIONS} connections:`);
report(
  `  GET single unit (${pgPaths!.units.length} distinct, ${DURATION} s): SQLite ${loadLine(figures.sqlite.unit)}; PostgreSQL ${loadLine(figures.postgres.unit)}`,
);
report(`  GET single unit PostgreSQL / SQLite: ${ratio(figures.postgres.unit.requests.average, figures.sqlite.unit.requests.average)} (target ≥ 0.5×)`);
report(
  `  ${pgPaths!.pages.length} distinct 100-unit pages, uncached (one pass): SQLite ${loadLine(figures.sqlite.pages.result, figures.sqlite.pages.rps)}; PostgreSQL ${loadLine(figures.postgres.pages.result, figures.postgres.pages.rps)}`,
);
report(`  uncached pages PostgreSQL / SQLite: ${ratio(figures.postgres.pages.rps, figures.sqlite.pages.rps)}`);

// --- two nodes on the one PostgreSQL database: each a fresh process (its cache cold), single-unit reads over both
{
  const one = await serve(stores.postgres);
  const alone = await unitLoad(one.base, pgPaths!.units);
  const other = await serve(stores.postgres);
  const half = Math.ceil(pgPaths!.units.length / 2);
  const both = await Promise.all([
    autocannon({ url: one.base, connections: CONNECTIONS / 2, duration: DURATION, requests: cycle(pgPaths!.units.slice(0, half)) }),
    autocannon({ url: other.base, connections: CONNECTIONS / 2, duration: DURATION, requests: cycle(pgPaths!.units.slice(half)) }),
  ]);
  await Promise.all([one.stop(), other.stop()]);
  const sum = both[0].requests.average + both[1].requests.average;
  report(`two PostgreSQL nodes (two \`tms serve --workers 1\` on different ports, one database), GET single unit, ${CONNECTIONS} connections in all:`);
  report(`  one node ${loadLine(alone)}; two nodes ${sum.toFixed(0)} req/s (${both.map((b) => loadLine(b)).join(' + ')})`);
  report(`  two nodes / one node: ${ratio(sum, alone.requests.average)} (target ≥ 1.6×)`);
}

// --- the same with uncached 100-unit pages (the server's work, not the load generator's, bounds these): one fresh node
// over every page, then two fresh nodes over half the pages each, at once; requests per second to the last answer
{
  const pages = pgPaths!.pages;
  const one = await serve(stores.postgres);
  const alone = await coldPages(one.base, pages);
  await one.stop();
  const [a, b] = [await serve(stores.postgres), await serve(stores.postgres)];
  const half = Math.ceil(pages.length / 2);
  const start = performance.now();
  const both = await Promise.all([coldPages(a.base, pages.slice(0, half)), coldPages(b.base, pages.slice(half))]);
  const seconds = (performance.now() - start) / 1000;
  await Promise.all([a.stop(), b.stop()]);
  // the later of the two passes ends the measure (a pass's own end is its last answer; autocannon resolves later)
  const spread = pages.length / Math.min(seconds, Math.max(...both.map((x, i) => (i === 0 ? half : pages.length - half) / x.rps)));
  report(`two PostgreSQL nodes, ${pages.length} distinct 100-unit pages uncached (one pass, half the pages each), ${CONNECTIONS} connections a node:`);
  report(`  one node ${loadLine(alone.result, alone.rps)}; two nodes ${spread.toFixed(0)} req/s`);
  report(`  two nodes / one node: ${ratio(spread, alone.rps)} (target ≥ 1.6×)`);
}

await gitServer.close();
const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(
  `\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load ${load}; ` +
    `KeePassXC ${Object.keys(files).length} files`,
);
process.exit(0);
