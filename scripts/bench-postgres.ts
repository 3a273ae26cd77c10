// `npm run bench:postgres`: the same tms on SQLite and on PostgreSQL, measured in one run. A throwaway PostgreSQL
// server (test/helpers/postgres-server.ts: unix socket, fsync off) and the KeePassXC corpus served over loopback smart HTTP
// (as bench:e2e serves it); then, per engine:
//   - cold `tms sync` (whole bin/tms processes: clone, parse, store; a fresh database each run; median of BENCH_RUNS)
//   - one `tms serve --workers 1` node: GET of single units, and one pass over every distinct 100-unit page (nothing
//     cached yet), with autocannon
//   - PostgreSQL only: two nodes on different ports over the one database, reads spread over both (two loads at once),
//     against one node alone
//   - latency: one node on PostgreSQL through a TCP proxy that delays each chunk 0.5 ms each way (1 ms of round trip,
//     a database on another host) against the same proxy without delay: distinct 5-unit pages of flameshot's Qt TS
//     component (8 translations, from the corpus), nothing cached (each URL asked once), BENCH_RUNS loads of each in
//     turns; with BENCH_BASELINE=<another tms checkout, built> the same for that build too (before/after)
// Every ratio is printed against its reference. The load generator runs in this process, on the same cores.
// BENCH_RUNS (cold syncs per engine, and latency loads, 3), BENCH_DURATION (seconds a load, 10), BENCH_CONNECTIONS
// (32); BENCH_ONLY=sync measures the cold syncs only, BENCH_ONLY=latency the latency only.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { type PostgresServer, startPostgres } from '../test/helpers/postgres-server.js';
import { type LoadResult, autocannon, corpusDir, keepassxcFiles, keepassxcProjects, root, serveUrl } from './bench-lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ONLY_SYNC = process.env.BENCH_ONLY === 'sync';
const ONLY_LATENCY = process.env.BENCH_ONLY === 'latency';
const BASELINE = process.env.BENCH_BASELINE;

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
  return tmsRunOf(root, configFile, ...args);
}

/** `tms …` of the tms in `checkout` (this one or BENCH_BASELINE's) as a whole process: its wall time in seconds. */
async function tmsRunOf(checkout: string, configFile: string, ...args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(checkout, 'bin', 'tms'), '--config', configFile, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
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

const failed = (r: LoadResult) => r.errors + r.non2xx + r.timeouts;

// --- latency: one node through a delaying proxy, distinct 5-unit pages of one component, nothing cached
/** The proxy in a process of its own (the load generator's event loop must not delay it); its port. */
async function startProxy(delayMs: number): Promise<{ port: number; stop(): void }> {
  const socket = path.join(pg!.dir, '.s.PGSQL.5432');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'helpers', 'latency-proxy.ts'), socket, String(delayMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(child);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the proxy exited with ${code}`)));
  });
  return {
    port,
    stop: () => {
      child.kill('SIGKILL');
      children.delete(child);
    },
  };
}

/** `tms serve --workers 1` of the tms in `checkout` (this one or BENCH_BASELINE's) with `configFile`. */
async function serveWith(checkout: string, configFile: string): Promise<{ base: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(checkout, 'bin', 'tms'), '--config', configFile, 'serve', '--port', '0', '--workers', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

async function latency(): Promise<void> {
  const corpus = corpusDir('bench:postgres');
  const source = path.join(corpus, 'flameshot-org-flameshot', 'data', 'translations');
  const flameshot = Object.fromEntries(
    readdirSync(source)
      .filter((n) => n.endsWith('.ts'))
      .map((n) => [`data/translations/${n}`, readFileSync(path.join(source, n))]),
  );
  await createUpstream({ dir: path.join(work, 'upstream', 'flameshot.git'), files: flameshot });
  const projects = [
    {
      name: 'Flameshot',
      slug: 'flameshot',
      components: [
        { name: 'Flameshot', slug: 'flameshot', repo: gitServer.url('flameshot.git'), branch: 'main', filemask: 'data/translations/*.ts', file_format: 'ts' },
      ],
    },
  ];
  const configOf = (name: string, database: string) => {
    const dir = path.join(work, name);
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'tms.config.json');
    writeFileSync(file, JSON.stringify({ database, repos_dir: 'repos', rate_limit: { anonymous: '', user: '' }, projects }));
    return file;
  };
  const builds = [{ label: 'this tms', checkout: root }, ...(BASELINE ? [{ label: `baseline (${BASELINE})`, checkout: BASELINE }] : [])];
  // a database for each build, synced by it (a build refuses a schema newer than its own)
  const databases = new Map<string, string>();
  for (const [i, build] of builds.entries()) {
    const direct = createDatabase(pg!, `tms_latency_${i}`);
    await tmsRunOf(build.checkout, configOf(`latency-sync-${i}`, direct), 'sync', 'flameshot');
    databases.set(build.label, new URL(direct).pathname.slice(1));
  }
  // every distinct 5-unit page of every translation
  const listing = await serveWith(root, configOf('latency-list', pg!.url(databases.get('this tms')!)));
  const translations = (await (await fetch(`${listing.base}/api/components/flameshot/flameshot/translations/?page_size=1000`)).json()) as {
    results: { url: string; total: number }[];
  };
  await listing.stop();
  const pages: string[] = [];
  for (const t of translations.results) {
    const unitsUrl = new URL(t.url).pathname.replace(/\/$/, '/units/');
    for (let p = 1; p <= Math.ceil(t.total / 5); p++) pages.push(`${unitsUrl}?page_size=5&page=${p}`);
  }
  const units = translations.results.reduce((n, t) => n + t.total, 0);
  // every request its own URL (a cycle through the pages, numbered): the response cache never answers
  let asked = 0;
  const distinct = [{ setupRequest: (r: { path: string }) => ({ ...r, path: `${pages[asked % pages.length]}&n=${asked++}` }) }];
  const results = new Map<string, { delay: number; rps: number; p99: number; failed: number }[]>();
  for (let run = 0; run < RUNS; run++) {
    for (const build of builds) {
      for (const delay of [0, 0.5]) {
        const proxy = await startProxy(delay);
        const node = await serveWith(
          build.checkout,
          configOf(`latency-${run}-${delay}`, `postgresql://postgres@127.0.0.1:${proxy.port}/${databases.get(build.label)}`),
        );
        // the node's first requests (catalog, accounts) are not measured
        for (let i = 0; i < 5; i++) await fetch(`${node.base}${pages[i]}&warm=${i}`);
        const r = await autocannon({ url: node.base, connections: CONNECTIONS, duration: DURATION, requests: distinct });
        await node.stop();
        proxy.stop();
        const list = results.get(build.label) ?? [];
        list.push({ delay, rps: r.requests.average, p99: r.latency.p99, failed: failed(r) });
        results.set(build.label, list);
        console.log(
          `  ${build.label}, run ${run + 1}, ${delay} ms each way: ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms, ${failed(r)} failed`,
        );
      }
    }
  }
  report(
    `latency: one PostgreSQL node (\`tms serve --workers 1\`) through a TCP proxy, ${pages.length} distinct 5-unit pages of flameshot (${units} units in ${translations.results.length} translations), every request uncached, ${CONNECTIONS} connections, ${DURATION} s a load, ${RUNS} runs each (median):`,
  );
  for (const [label, list] of results) {
    const at = (d: number) => median(list.filter((x) => x.delay === d).map((x) => x.rps));
    const p99 = (d: number) => median(list.filter((x) => x.delay === d).map((x) => x.p99));
    const runs = (d: number) =>
      list
        .filter((x) => x.delay === d)
        .map((x) => x.rps.toFixed(0))
        .join(', ');
    report(
      `  ${label}: no delay ${at(0).toFixed(0)} req/s (${runs(0)}), p99 ${p99(0)} ms; 0.5 ms each way ${at(0.5).toFixed(0)} req/s (${runs(0.5)}), p99 ${p99(0.5)} ms`,
    );
    report(`  ${label}: 1 ms round trip / no delay: ${ratio(at(0.5), at(0))} (target ≥ 0.7×)`);
  }
}

if (ONLY_LATENCY) {
  await latency();
  await gitServer.close();
  process.exit(0);
}

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
  return serveWith(root, configFile);
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

await latency();
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
