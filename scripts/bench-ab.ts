// `npm run bench:ab -- <another tms checkout, built>`: this tms against another build on SQLite, in turns, so that a
// shared machine's changing load meets both alike. KeePassXC (72k units) over loopback smart HTTP; then
//   - cold `tms sync` of each build into a fresh database, BENCH_RUNS times each, alternating (wall and CPU time; on
//     both engines also the time until its strings are visible: the SQLite file, or the PostgreSQL database, polled by
//     a connection of this process (BENCH_VISIBLE=0: not polled, the server's CPU then without the poll's queries));
//   - one `tms serve --workers 1` of each build on a copy of one database synced by the other build, and per request kind short loads
//     (BENCH_DURATION seconds, autocannon, BENCH_CONNECTIONS) of one then the other, BENCH_ROUNDS rounds, the first
//     build of a round alternating: GET of single units, 100-unit pages (of a translation, of /api/units/), component
//     statistics and the change log, each request its own URL (nothing answered from the response cache), and single
//     units asked again (cached); beside them, per request kind, an anchor: a bare node:http server answering one
//     answer of the kind (this build's bytes and headers) from memory, what the HTTP layer alone costs here.
// Printed: each build's median and the median of the per-round ratios (this / other), the figure to read on a noisy
// machine; and the serving processes' CPU time a request (from /proc, Linux), which the machine's load moves less. The
// load generator runs in this process. The cold syncs' CPU time is given for the whole process and for its main thread,
// the one that writes the store (scripts/thread-cpu.cjs). BENCH_RUNS (cold syncs, 5; 0 skips them), BENCH_ROUNDS (6; 0: none),
// BENCH_DURATION (3), BENCH_CONNECTIONS (32), BENCH_SYNC_ARGS (added to each cold sync: `--threads 2`); BENCH_KINDS=<words> keeps the request kinds whose name has one of them
// (e.g. BENCH_KINDS=cached); BENCH_THIS_ENV=<NAME=value …> is added to this build's serving process's environment only
// (the same build on both sides then measures a setting, e.g. a glibc tunable). BENCH_ENGINE=postgres: the cold syncs into fresh databases of a throwaway PostgreSQL
// server (test/helpers/postgres-server.ts) instead, the server's CPU time for each given beside the process's, and
// after each the plan of a deep `/api/units/` page's ids (EXPLAIN (ANALYZE, BUFFERS): heap fetches and time); the
// serving loads on copies of one synced database there (PostgreSQL's CPU a request given beside tms's).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PgDb } from '../src/store/pg/pg-db.js';
import { FIRST_LOAD_TABLES } from '../src/store/sync.repo.js';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { type PostgresServer, startPostgres } from '../test/helpers/postgres-server.js';
import { type LoadResult, autocannon, keepassxcFiles, keepassxcProjects, root, serveUrl } from './bench-lib.js';

const other = process.argv[2];
if (!other || !existsSync(path.join(other, 'bin', 'tms'))) {
  console.error('usage: npm run bench:ab -- <another tms checkout, built (npm run build)>');
  process.exit(2);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const POSTGRES = process.env.BENCH_ENGINE === 'postgres';
const THIS_ENV = Object.fromEntries(
  (process.env.BENCH_THIS_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

const files = keepassxcFiles('bench:ab');
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const work = await tempDir('tms-bench-ab-');
const children = new Set<ChildProcess>();
let pg: PostgresServer | undefined;
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  pg?.remove();
  rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

await createUpstream({ dir: path.join(work, 'upstream', 'one.git'), files });
execFileSync('git', ['repack', '-adfq'], { cwd: path.join(work, 'upstream', 'one.git') });
const gitServer = await startGitServer({ root: path.join(work, 'upstream') });
const builds = [
  { name: 'this', checkout: root },
  { name: 'other', checkout: path.resolve(other) },
];

if (POSTGRES) pg = startPostgres([]);
let databases = 0;
/** A fresh database (with pg_trgm) on the throwaway PostgreSQL server; its URL. */
function pgDatabase(): string {
  const name = `tms_ab_${++databases}`;
  pg!.psql('postgres', `CREATE DATABASE ${name}`);
  pg!.psql(name, 'CREATE EXTENSION pg_trgm');
  return pg!.url(name);
}

/** CPU seconds of the PostgreSQL server so far: the postmaster's own and its sessions', ended (reaped) or running. */
function pgCpuSeconds(): number {
  const pid = Number(readFileSync(path.join(pg!.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100 + cpuSeconds(pid);
}

function config(name: string, database = 'tms.sqlite'): string {
  const dir = path.join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'tms.config.json');
  writeFileSync(
    file,
    JSON.stringify({ database, repos_dir: 'repos', rate_limit: { anonymous: '', user: '' }, projects: keepassxcProjects(gitServer.url('one.git')) }),
  );
  return file;
}

/**
 * The plan of the ids of `/api/units/?page=361` for a caller who sees everything (unit-records.repo.ts unitRecords:
 * the ids skipped through units_pkey), run twice (the second warm): its heap fetches and execution time.
 */
function deepPagePlan(url: string): string {
  const db = new PgDb(url, 'bench');
  try {
    const plan = () =>
      (db.prepare('EXPLAIN (ANALYZE, BUFFERS) SELECT u.id FROM units u ORDER BY 1 LIMIT 100 OFFSET 36000').pluck().all() as string[]).join('\n');
    plan();
    const text = plan();
    const scan = /(Index Only Scan|Index Scan|Seq Scan|Bitmap Heap Scan)/.exec(text)?.[1] ?? 'scan';
    const fetches = /Heap Fetches: (\d+)/.exec(text)?.[1];
    const ms = /Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? '?';
    return `${scan}${fetches === undefined ? '' : `, heap fetches ${fetches}`}, ${ms} ms`;
  } finally {
    db.close();
  }
}

/** A VACUUM (ANALYZE) of the tables a first load fills (those the database has): its wall time and the server's CPU. */
function timedSettle(url: string): string {
  const db = new PgDb(url, 'bench');
  try {
    const tables = FIRST_LOAD_TABLES.filter((t) => db.prepare('SELECT to_regclass(?) IS NOT NULL').pluck().get(t));
    const cpu = pgCpuSeconds();
    const started = performance.now();
    db.exec(`VACUUM (ANALYZE) ${tables.join(', ')}`);
    return `${((performance.now() - started) / 1000).toFixed(2)} s, the server's CPU ${(pgCpuSeconds() - cpu).toFixed(2)} s`;
  } finally {
    db.close();
  }
}

/** CPU seconds of this process's waited-for children so far (cutime + cstime of /proc/self/stat, Linux). */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** The CPU seconds (user + system, its threads and children included) of the last `tmsRun`. */
let lastRunCpu = 0;
/** The main thread's share of it (the thread that writes the store: a sync's time when every other thread has a core). */
let lastRunMainCpu = 0;
const THREAD_CPU = path.join(root, 'scripts', 'thread-cpu.cjs');
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);
/** BENCH_SYNC_ARGS: arguments added to each cold `tms sync` (e.g. `--threads 2`). */
const SYNC_ARGS = (process.env.BENCH_SYNC_ARGS ?? '').split(/\s+/).filter(Boolean);

/** Seconds from the last `tmsRun`'s start until its strings were visible to another connection (`watch`: its SQLite file or PostgreSQL database). */
let lastRunVisible = Number.NaN;

/**
 * Whether SQLite `file` holds a committed unit (read by a connection of this process, as a server beside the sync
 * reads); on PostgreSQL (`session`, one connection to the database for the whole run) whether the database does.
 */
function unitsVisible(file: string, session?: PgDb): boolean {
  if (session) {
    try {
      return Number(session.prepare('SELECT count(*) FROM (SELECT 1 FROM units LIMIT 1) u').pluck().get()) === 1;
    } catch {
      return false; // its schema not there yet
    }
  }
  if (!existsSync(file)) return false;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT EXISTS (SELECT 1 FROM units)').pluck().get() === 1;
  } catch {
    return false; // its schema not there yet
  } finally {
    db.close();
  }
}

async function tmsRun(checkout: string, configFile: string, ...args: string[]): Promise<number> {
  return tmsRunWatching(undefined, checkout, configFile, ...args);
}

/** tmsRun, and while it runs (every 10 ms) whether `watch`, a SQLite file or a PostgreSQL URL, shows its units yet (lastRunVisible). */
async function tmsRunWatching(watch: string | undefined, checkout: string, configFile: string, ...args: string[]): Promise<number> {
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  const child = spawn(process.execPath, ['--require', THREAD_CPU, path.join(checkout, 'bin', 'tms'), '--config', configFile, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d));
  lastRunVisible = Number.NaN;
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  if (watch) {
    let done = false;
    void closed.then(() => (done = true));
    const session = watch.startsWith('postgresql:') ? new PgDb(watch, 'bench') : undefined;
    try {
      while (!done) {
        if (unitsVisible(watch, session)) {
          lastRunVisible = (performance.now() - started) / 1000;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      session?.close();
    }
  }
  const status = await closed;
  if (status !== 0) throw new Error(`tms ${args.join(' ')} failed (${status}): ${stderr}`);
  lastRunCpu = childrenCpuSeconds() - cpuBefore;
  lastRunMainCpu = Number(/thread-cpu main=(\d+)/.exec(stderr)?.[1] ?? Number.NaN) / TICKS;
  return (performance.now() - started) / 1000;
}

/** CPU seconds used so far by process `pid` and its descendants (the serving workers), from /proc (Linux). */
function cpuSeconds(pid: number): number {
  let ticks = 0;
  const visit = (p: number) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
      for (const task of readdirSync(`/proc/${p}/task`)) {
        for (const child of readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) visit(Number(child));
      }
    } catch {
      // gone meanwhile
    }
  };
  visit(pid);
  return ticks / 100;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const fmt = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 0 });

// --- cold sync, alternating
const cold = new Map<string, number[]>(builds.map((b) => [b.name, []]));
const coldCpu = new Map<string, number[]>(builds.map((b) => [b.name, []]));
const coldMainCpu = new Map<string, number[]>(builds.map((b) => [b.name, []]));
const coldPgCpu = new Map<string, number[]>(builds.map((b) => [b.name, []]));
const coldVisible = new Map<string, number[]>(builds.map((b) => [b.name, []]));
const deepPage = new Map<string, string[]>(builds.map((b) => [b.name, []]));
const settling: string[] = [];
for (let i = 0; i < RUNS; i++) {
  for (const b of i % 2 === 0 ? builds : [...builds].reverse()) {
    const database = POSTGRES ? pgDatabase() : undefined;
    const file = config(`cold-${b.name}-${i}`, database);
    const pgBefore = POSTGRES ? pgCpuSeconds() : 0;
    const watch = process.env.BENCH_VISIBLE === '0' ? undefined : (database ?? path.join(path.dirname(file), 'tms.sqlite'));
    cold.get(b.name)!.push(await tmsRunWatching(watch, b.checkout, file, 'sync', 'keepassxc', ...SYNC_ARGS));
    coldVisible.get(b.name)!.push(lastRunVisible);
    // the sessions end with the process; the postmaster reaps them a moment later
    if (POSTGRES) await new Promise((resolve) => setTimeout(resolve, 300));
    coldPgCpu.get(b.name)!.push(POSTGRES ? pgCpuSeconds() - pgBefore : 0);
    coldCpu.get(b.name)!.push(lastRunCpu);
    coldMainCpu.get(b.name)!.push(lastRunMainCpu);
    if (database) deepPage.get(b.name)!.push(deepPagePlan(database));
    // the build that does not settle its first load: what a VACUUM (ANALYZE) of those tables costs, and the page after it
    if (database && b.name === 'other') settling.push(`${timedSettle(database)}, then ${deepPagePlan(database)}`);
  }
}
const coldRatios = cold.get('this')!.map((t, i) => t / cold.get('other')![i]!);
const coldCpuRatios = coldCpu.get('this')!.map((t, i) => t / coldCpu.get('other')![i]!);
if (RUNS > 0)
  console.log(
    `cold tms sync (whole process), median of ${RUNS}: this ${median(cold.get('this')!).toFixed(2)} s, other ${median(cold.get('other')!).toFixed(2)} s; ` +
      `time this / other: median ×${median(coldRatios).toFixed(3)} (runs: ${coldRatios.map((r) => r.toFixed(2)).join(', ')})`,
  );
if (RUNS > 0)
  console.log(
    `  its CPU time (user + system, git's included): this ${median(coldCpu.get('this')!).toFixed(2)} s, other ${median(coldCpu.get('other')!).toFixed(2)} s; ` +
      `this / other: median ×${median(coldCpuRatios).toFixed(3)} (runs: ${coldCpuRatios.map((r) => r.toFixed(2)).join(', ')})`,
  );
const coldMainRatios = coldMainCpu.get('this')!.map((t, i) => t / coldMainCpu.get('other')![i]!);
if (RUNS > 0)
  console.log(
    `  its main thread's CPU time (the writing thread): this ${median(coldMainCpu.get('this')!).toFixed(2)} s, other ${median(coldMainCpu.get('other')!).toFixed(2)} s; ` +
      `this / other: median ×${median(coldMainRatios).toFixed(3)} (runs: ${coldMainRatios.map((r) => r.toFixed(2)).join(', ')})`,
  );
if (RUNS > 0 && process.env.BENCH_VISIBLE !== '0') {
  const visibleRatios = coldVisible.get('this')!.map((t, i) => t / coldVisible.get('other')![i]!);
  console.log(
    `  its strings visible to another connection after (from the start, polled every 10 ms): this ${median(coldVisible.get('this')!).toFixed(2)} s, ` +
      `other ${median(coldVisible.get('other')!).toFixed(2)} s; this / other: median ×${median(visibleRatios).toFixed(3)} (runs: ${visibleRatios.map((r) => r.toFixed(2)).join(', ')})`,
  );
}
const coldPgRatios = coldPgCpu.get('this')!.map((t, i) => t / coldPgCpu.get('other')![i]!);
const coldBothRatios = coldPgCpu.get('this')!.map((t, i) => (t + coldCpu.get('this')![i]!) / (coldPgCpu.get('other')![i]! + coldCpu.get('other')![i]!));
if (RUNS > 0 && POSTGRES) {
  console.log(
    `  the PostgreSQL server's CPU time meanwhile: this ${median(coldPgCpu.get('this')!).toFixed(2)} s, other ${median(coldPgCpu.get('other')!).toFixed(2)} s; ` +
      `this / other: median ×${median(coldPgRatios).toFixed(3)} (runs: ${coldPgRatios.map((r) => r.toFixed(2)).join(', ')})`,
  );
  console.log(
    `  tms and PostgreSQL together: this / other: median ×${median(coldBothRatios).toFixed(3)} (runs: ${coldBothRatios.map((r) => r.toFixed(2)).join(', ')})`,
  );
}
if (RUNS > 0 && POSTGRES) {
  for (const b of builds) console.log(`  a deep /api/units/ page's ids right after the sync (offset 36,000), ${b.name}: ${deepPage.get(b.name)!.join('; ')}`);
  console.log(`  other's database, VACUUM (ANALYZE) of a first load's tables by hand: ${settling.join('; ')}`);
}
if (ROUNDS === 0) process.exit(0);

// --- serving: one synced database, a copy for each build; synced by the other build, whose schema this one migrates
// on open when it is older (an older tms refuses a newer schema). On PostgreSQL the copies are databases made from
// the synced one as a template.
const synced = config('served', POSTGRES ? pgDatabase() : undefined);
await tmsRun(other, synced, 'sync', 'keepassxc');
// a template database must have no session left: the sync's end with it, reaped a moment later
if (POSTGRES) await new Promise((resolve) => setTimeout(resolve, 1000));
const servedDb = path.join(work, 'served', 'tms.sqlite');
const nodes = new Map<string, { base: string; child: ChildProcess }>();
for (const b of builds) {
  const dir = path.join(work, `serve-${b.name}`);
  mkdirSync(dir, { recursive: true });
  let database = 'tms.sqlite';
  if (POSTGRES) {
    const name = `tms_ab_serve_${b.name}`;
    pg!.psql('postgres', `CREATE DATABASE ${name} TEMPLATE tms_ab_${databases}`);
    database = pg!.url(name);
  } else for (const suffix of ['', '-wal']) if (existsSync(servedDb + suffix)) copyFileSync(servedDb + suffix, path.join(dir, `tms.sqlite${suffix}`));
  const file = path.join(dir, 'tms.config.json');
  writeFileSync(
    file,
    JSON.stringify({
      database,
      repos_dir: 'repos',
      rate_limit: { anonymous: '', user: '' },
      projects: keepassxcProjects(gitServer.url('one.git')),
    }),
  );
  const child = spawn(process.execPath, [path.join(b.checkout, 'bin', 'tms'), '--config', file, 'serve', '--port', '0', '--workers', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: b.name === 'this' ? { ...process.env, ...THIS_ENV } : process.env,
  });
  children.add(child);
  nodes.set(b.name, { base: await serveUrl(child), child });
}
const base = nodes.get('this')!.base;
const translations = ((await (await fetch(`${base}/api/translations/?page_size=1000`)).json()) as { results: { url: string; total: number }[] }).results;
const unitIds = ((await (await fetch(`${base}/api/units/?page_size=1000`)).json()) as { results: { id: number }[] }).results.map((u) => u.id);
const pages: string[] = [];
for (const t of translations) {
  const units = new URL(t.url).pathname.replace(/\/$/, '/units/');
  for (let p = 1; p <= Math.ceil(t.total / 100); p++) pages.push(`${units}?page_size=100&page=${p}`);
}
const unitCount = ((await (await fetch(`${base}/api/units/?page_size=1`)).json()) as { count: number }).count;
const unitPages = Array.from({ length: Math.ceil(unitCount / 100) }, (_, i) => `/api/units/?page=${i + 1}`);
let asked = 0;
/** Requests cycling through `paths`, each its own URL when `distinct` (the response cache never answers). */
const cycling = (paths: string[], distinct: boolean) => [
  {
    setupRequest: (r: { path: string }) => {
      const p = paths[asked % paths.length]!;
      asked++;
      return { ...r, path: distinct ? `${p}${p.includes('?') ? '&' : '?'}n=${asked}` : p };
    },
  },
];
const only = process.env.BENCH_KINDS?.split(/[\s,]+/).filter(Boolean);
const allKinds: { name: string; paths: string[]; distinct: boolean }[] = [
  { name: 'GET /api/units/<id>/, uncached', paths: unitIds.map((id) => `/api/units/${id}/`), distinct: true },
  { name: '100-unit page of a translation, uncached', paths: pages, distinct: true },
  { name: '100-unit page of all units (/api/units/), uncached', paths: unitPages, distinct: true },
  { name: 'component statistics, uncached', paths: ['/api/components/keepassxc/keepassxc/statistics/'], distinct: true },
  { name: 'GET /api/changes/, uncached', paths: ['/api/changes/'], distinct: true },
  { name: 'GET /api/units/<id>/, cached', paths: unitIds.slice(0, 2000).map((id) => `/api/units/${id}/`), distinct: false },
];
const kinds = only ? allKinds.filter((k) => only.some((word) => k.name.split(/[\s,]+/).includes(word))) : allKinds;

/**
 * The anchor: a bare node:http server (its own process, one core like a worker) answering every request with one answer
 * of the kind from memory, this build's bytes and headers: what the HTTP layer alone costs here.
 */
async function startAnchor(path: string): Promise<{ base: string; child: ChildProcess }> {
  const answer = await fetch(`${base}${path}`);
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, key) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-encoding'].includes(key)) headers[key] = value;
  });
  const body = Buffer.from(await answer.arrayBuffer());
  headers['content-length'] = String(body.length);
  const file = path.replaceAll(/[^a-z0-9]+/gi, '-');
  writeFileSync(`${work}/anchor${file}.json`, JSON.stringify({ headers, body: body.toString('base64') }));
  const script = `const a = JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8')); const body = Buffer.from(a.body, 'base64');
    const s = require('node:http').createServer((req, res) => { res.writeHead(200, a.headers); res.end(body); });
    s.listen(0, '127.0.0.1', () => console.log('serving the API on http://127.0.0.1:' + s.address().port + '/api/'));`;
  const child = spawn(process.execPath, ['-e', script, `${work}/anchor${file}.json`], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  return { base: await serveUrl(child), child };
}

console.log(`serving: one \`tms serve --workers 1\` per build, ${CONNECTIONS} connections, ${DURATION} s a load, ${ROUNDS} rounds, req/s:`);
for (const kind of kinds) {
  const anchor = await startAnchor(kind.paths[Math.floor(kind.paths.length / 2)]!);
  nodes.set('anchor', anchor);
  const loaded = [...builds.map((b) => b.name), 'anchor'];
  const rps = new Map<string, number[]>(loaded.map((b) => [b, []]));
  const cpu = new Map<string, number[]>(loaded.map((b) => [b, []]));
  const pgCpu = new Map<string, number[]>(loaded.map((b) => [b, []]));
  // warm both (code paths, caches of the catalog and the counts)
  for (const b of loaded) await autocannon({ url: nodes.get(b)!.base, connections: 4, amount: 200, requests: cycling(kind.paths, kind.distinct) });
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 === 0 ? loaded : [...loaded].reverse()) {
      const b = { name };
      const pid = nodes.get(b.name)!.child.pid!;
      const cpuBefore = cpuSeconds(pid);
      const pgBefore = POSTGRES ? pgCpuSeconds() : 0;
      const r: LoadResult = await autocannon({
        url: nodes.get(b.name)!.base,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: cycling(kind.paths, kind.distinct),
      });
      if (r.errors + r.non2xx + r.timeouts > 0) throw new Error(`${b.name}: ${kind.name}: ${r.errors + r.non2xx + r.timeouts} failed`);
      rps.get(b.name)!.push(r.requests.average);
      cpu.get(b.name)!.push(((cpuSeconds(pid) - cpuBefore) * 1e6) / (r.requests.average * DURATION));
      if (POSTGRES) pgCpu.get(b.name)!.push(((pgCpuSeconds() - pgBefore) * 1e6) / (r.requests.average * DURATION));
    }
  }
  const ratios = rps.get('this')!.map((x, i) => x / rps.get('other')![i]!);
  const cpuRatios = cpu.get('this')!.map((x, i) => x / cpu.get('other')![i]!);
  console.log(
    `  ${kind.name}: this ${fmt(median(rps.get('this')!))}, other ${fmt(median(rps.get('other')!))}; this / other: median ×${median(ratios).toFixed(3)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
  );
  console.log(
    `    server CPU a request: this ${median(cpu.get('this')!).toFixed(0)} µs, other ${median(cpu.get('other')!).toFixed(0)} µs; this / other: median ×${median(cpuRatios).toFixed(3)} (rounds: ${cpuRatios.map((r) => r.toFixed(2)).join(', ')})`,
  );
  if (POSTGRES) {
    const both = (name: string) => cpu.get(name)!.map((x, i) => x + pgCpu.get(name)![i]!);
    const bothRatios = both('this').map((x, i) => x / both('other')[i]!);
    console.log(
      `    PostgreSQL's CPU a request: this ${median(pgCpu.get('this')!).toFixed(0)} µs, other ${median(pgCpu.get('other')!).toFixed(0)} µs; tms and PostgreSQL together: this ${median(both('this')).toFixed(0)} µs, other ${median(both('other')).toFixed(0)} µs, this / other: median ×${median(bothRatios).toFixed(3)} (rounds: ${bothRatios.map((r) => r.toFixed(2)).join(', ')})`,
    );
  }
  const anchorRatios = cpu.get('this')!.map((x, i) => x / cpu.get('anchor')![i]!);
  console.log(
    `    anchor (bare node:http, the same ${kind.name.startsWith('100') ? 'page' : 'answer'} from memory): ${fmt(median(rps.get('anchor')!))} req/s, ${median(cpu.get('anchor')!).toFixed(0)} µs CPU a request; this / anchor: median ×${median(anchorRatios).toFixed(2)} (rounds: ${anchorRatios.map((r) => r.toFixed(2)).join(', ')})`,
  );
  anchor.child.kill();
  children.delete(anchor.child);
}
await gitServer.close();
console.log(
  `\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, node ${process.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
process.exit(0);
