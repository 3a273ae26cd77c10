// `npm run bench:serve-memory`: a whole `tms serve` holding the KeePassXC corpus ×10 (720k units), or a site bench:site
// kept (BENCH_SITE_DIR), under minutes of read load (with BENCH_WRITERS, writes mixed in): the resident memory of
// every process it runs, sampled each second,
// slice by slice, to see whether it stays under the bound and flat (no growth) — and the requests served meanwhile.
// Each tms process also reports its threads' V8 heaps, external memory and array buffers (scripts/memory-probe.cjs),
// so each slice says which part of the resident memory grew: a heap, buffers, or the rest (malloc: SQLite's page
// cache, native code).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { webSignIn } from '../test/helpers/web-session.js';
import { autocannon, keepassxcFiles, root, serveUrl } from './bench-lib.js';

const COPIES = Number(process.env.BENCH_COPIES ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const SLICE = Number(process.env.BENCH_SLICE ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WORKERS = process.env.BENCH_WORKERS;
/**
 * BENCH_WRITERS=N: N users write meanwhile, each in a loop (unit PATCHes through the API, every fifth write a
 * suggestion through the editor's form; BENCH_WRITE_PAUSE_MS between a writer's writes), and an admin commits one component every BENCH_COMMIT_EVERY seconds.
 * Unset (the default): reads only, as before.
 */
const WRITERS = Number(process.env.BENCH_WRITERS ?? 0);
/** Each writer's pause after each write (ms): 0 writes as fast as the server answers. */
const WRITE_PAUSE = Number(process.env.BENCH_WRITE_PAUSE_MS ?? 500);
const COMMIT_EVERY = Number(process.env.BENCH_COMMIT_EVERY ?? 30);
/** BENCH_POSTGRES=1: the store in a throwaway PostgreSQL instead of the SQLite file. */
const pg = process.env.BENCH_POSTGRES ? startPostgres(['serve']) : undefined;
if (pg) process.on('exit', () => pg.remove());

/** BENCH_CHECKOUT=<a built checkout>: its `tms` is measured (nothing built); otherwise this one, built first. */
const checkout = process.env.BENCH_CHECKOUT;
if (!checkout) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const tms = path.join(path.resolve(checkout ?? root), 'bin', 'tms');
const work = await tempDir('tms-bench-serve-memory-');
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/**
 * BENCH_SITE_DIR=<a folder bench:site kept (SITE_KEEP), or a copy of one>: its linked site is served instead (its
 * configuration and store as they are: nothing generated, nothing synced; the store migrated forward by the first
 * `tms` command, which is timed), its upstreams on a loopback git server of this run. The reads then also ask the
 * dashboard, the project page, the language pages and component pages. Not with BENCH_POSTGRES.
 */
const siteDir = process.env.BENCH_SITE_DIR ? path.resolve(process.env.BENCH_SITE_DIR) : undefined;
if (siteDir && pg) throw new Error('bench:serve-memory: BENCH_SITE_DIR serves the kept SQLite store; not with BENCH_POSTGRES');
const gitServer = siteDir ? await startGitServer({ root: path.join(siteDir, 'upstream'), keepAliveTimeoutMs: 60_000 }) : undefined;
let configFile = '';
const cli = (...args: string[]) =>
  execFileSync(process.execPath, [tms, '--config', configFile, ...args], { encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] })
    .trim()
    .split('\n')
    .at(-1)!;
// users of their own each run (a kept store may hold an earlier run's)
const run = siteDir ? `${Date.now().toString(36)}-` : '';
/** The admin's API token (for the commits). */
let admin = '';
/** What the report says of the store: how it came to be. */
let storeLine: string;
if (siteDir) {
  const linked = path.join(siteDir, 'linked');
  // the kept configuration names the git server of the run that kept the site (another port): moved to this run's
  const kept = readFileSync(path.join(linked, 'tms.config.json'), 'utf8');
  const moved = JSON.parse(kept.replace(/http:\/\/127\.0\.0\.1:\d+\//g, gitServer!.url(''))) as Record<string, unknown>;
  configFile = path.join(linked, 'tms.serve-memory.config.json');
  writeFileSync(configFile, JSON.stringify({ ...moved, log_level: 'warn', rate_limit: { anonymous: '', user: '' } }, null, 1));
  const started = performance.now();
  // any command opening the store migrates it: the first, the admin's creation, is timed
  admin = cli('user', 'add', `${run}admin`, '--email', `${run}admin@example.test`, '--admin');
  storeLine = `the site kept by bench:site (first \`tms\` command on it, migrating the store: ${((performance.now() - started) / 1000).toFixed(1)} s)`;
} else {
  // --- the store: ten components of the same upstream in one project, synced by the CLI
  const upstream = path.join(work, 'keepassxc.git');
  await createUpstream({ dir: upstream, files: keepassxcFiles('bench:serve-memory') });
  const components = Array.from({ length: COPIES }, (_, i) => ({
    name: `KeePassXC ${i}`,
    slug: `keepassxc-${i}`,
    repo: upstream,
    branch: 'main',
    filemask: 'share/translations/keepassxc_*.ts',
    file_format: 'ts',
    source_language: 'en',
  }));
  configFile = path.join(work, 'tms.config.json');
  const config = {
    database: pg ? pg.url('serve') : path.join(work, 'tms.sqlite'),
    repos_dir: path.join(work, 'repos'),
    log_level: 'warn',
    // the load is anonymous: Weblate's default throttle for anonymous callers (100 a day) would answer 429
    rate_limit: { anonymous: '', user: '' },
    projects: [{ name: 'KeePassXC', slug: 'keepassxc', components }],
  };
  writeFileSync(configFile, JSON.stringify(config));
  const syncStart = performance.now();
  execFileSync(process.execPath, [tms, '--config', configFile, 'sync', 'keepassxc'], { stdio: 'ignore' });
  storeLine = `${COPIES} components × the KeePassXC corpus (cold \`tms sync\` ${((performance.now() - syncStart) / 1000).toFixed(1)} s)`;
}
if (!admin && WRITERS > 0) admin = cli('user', 'add', `${run}admin`, '--email', `${run}admin@example.test`, '--admin');
const writers = Array.from({ length: WRITERS }, (_, i) => {
  const username = `${run}writer${i}`;
  const token = cli('user', 'add', username, '--email', `${username}@example.test`);
  execFileSync(process.execPath, [tms, '--config', configFile, 'user', 'password', username], {
    input: `${username}-password\n`,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  return { username, token };
});

// --- the server, and the resident memory of its processes (the server and any it starts)
const probeDir = path.join(work, 'memory-probe');
mkdirSync(probeDir);
const server = spawn(
  process.execPath,
  [
    '--require',
    path.join(root, 'scripts', 'memory-probe.cjs'),
    tms,
    '--config',
    configFile,
    'serve',
    '--port',
    '0',
    ...(WORKERS ? ['--workers', WORKERS] : []),
  ],
  { cwd: siteDir ? path.join(siteDir, 'linked') : work, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMS_MEMORY_PROBE_DIR: probeDir } },
);
process.on('exit', () => server.kill('SIGKILL'));
const base = await serveUrl(server);

/** Resident memory (MiB) of `pid` and each process descended from it, by pid. */
function rssTree(pid: number): Map<number, number> {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  const out = new Map<number, number>();
  for (const p of tree) {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      if (kb > 0) out.set(p, kb / 1024);
    } catch {}
  }
  return out;
}

/**
 * One tms process's memory (MiB): resident (anonymous and file-backed, from /proc), its main thread's V8 heap and
 * external memory, and its worker threads' together (the git worker, the WAL checkpointer, parse pools), as its probe
 * last wrote them.
 */
type Breakdown = {
  pid: number;
  rss: number;
  anon: number;
  file: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  threads: { count: number; heapUsed: number; heapTotal: number; external: number };
};
const MiB = 1024 * 1024;
/** The memory of each tms process in the tree (those its probe reports on; git and other children have none). */
function breakdowns(pids: Iterable<number>): Breakdown[] {
  const out: Breakdown[] = [];
  const files = readdirSync(probeDir);
  const read = (name: string) => JSON.parse(readFileSync(path.join(probeDir, name), 'utf8')) as NodeJS.MemoryUsage;
  for (const pid of pids) {
    try {
      const probe = read(`${pid}.json`);
      const threads = { count: 0, heapUsed: 0, heapTotal: 0, external: 0 };
      for (const name of files.filter((n) => n.startsWith(`${pid}-`))) {
        const t = read(name);
        threads.count++;
        threads.heapUsed += t.heapUsed / MiB;
        threads.heapTotal += t.heapTotal / MiB;
        threads.external += t.external / MiB;
      }
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
      out.push({
        pid,
        rss: kb('VmRSS'),
        anon: kb('RssAnon'),
        file: kb('RssFile') + kb('RssShmem'),
        heapUsed: probe.heapUsed / MiB,
        heapTotal: probe.heapTotal / MiB,
        external: probe.external / MiB,
        arrayBuffers: probe.arrayBuffers / MiB,
        threads,
      });
    } catch {}
  }
  return out;
}

// --- the load: distinct 100-unit pages of every translation, single units, statistics and changes, cycled
const translations: { url: string; total: number; statistics_url: string; is_source: boolean; filename: string }[] = [];
for (let next: string | null = `${base}/api/translations/?page_size=1000`; next; ) {
  const page = (await (await fetch(next)).json()) as { next: string | null; results: typeof translations };
  translations.push(...page.results);
  next = page.next;
}
const paths: string[] = [];
for (const t of translations) {
  const units = new URL(t.url).pathname.replace(/\/$/, '/units/');
  for (let p = 1; p <= Math.ceil(t.total / 100); p++) paths.push(`${units}?page_size=100&page=${p}`);
  paths.push(new URL(t.statistics_url).pathname);
}
const unitIds = ((await (await fetch(`${base}/api/units/?page_size=1000`)).json()) as { results: { id: number }[] }).results.map((u) => u.id);
for (const id of unitIds) paths.push(`/api/units/${id}/`);
for (let p = 1; p <= 20; p++) paths.push(`/api/changes/?page=${p}`);
if (siteDir) {
  // the site's pages, each its own URL (`n=`) so the response cache does not answer: the dashboard, the project page,
  // every language's page, and a hundred components' pages
  const project = new URL(translations[0]!.url).pathname.split('/')[3]!;
  const languages = [...new Set(translations.map((t) => new URL(t.url).pathname.split('/')[5]!))];
  const componentsSeen = [...new Set(translations.map((t) => new URL(t.url).pathname.split('/')[4]!))];
  for (let n = 1; n <= 100; n++) {
    paths.push(`/?n=${n}`, `/projects/${project}/?n=${n}`);
    paths.push(`/projects/${project}/${componentsSeen[Math.floor((n * componentsSeen.length) / 101)]}/?n=${n}`);
  }
  for (const code of languages) for (let n = 1; n <= 10; n++) paths.push(`/languages/${code}/?n=${n}`);
}
// shuffled once, so each slice asks for a different mix
for (let i = paths.length - 1; i > 0; i--) {
  const j = Math.floor(Math.random() * (i + 1));
  [paths[i], paths[j]] = [paths[j]!, paths[i]!];
}
let cursor = 0;

// --- the writers: units of the translations other than the source, 200 from each of 20 translations
const writable: { id: number; translation: string }[] = [];
/** The components of those translations: the commits go to each in turn. */
const committed: string[] = [];
// on a kept site, only translations whose file is in the repository (a grown site's added ones have none: a commit
// could not write their edits, and answers so)
const workingCopies = siteDir ? readdirSync(path.join(siteDir, 'linked', 'repos'), { withFileTypes: true }).filter((d) => d.isDirectory()) : [];
const copies = workingCopies.flatMap((p) => readdirSync(path.join(p.parentPath, p.name)).map((c) => path.join(p.parentPath, p.name, c)));
const others = translations.filter((t) => !t.is_source && (!siteDir || copies.some((c) => existsSync(path.join(c, t.filename)))));
// 20 translations spread over the components, so each commit finds edits to write
for (const t of WRITERS > 0 ? Array.from({ length: 20 }, (_, i) => others[Math.floor((i * others.length) / 20)]!) : []) {
  const units = new URL(t.url).pathname.replace(/\/$/, '/units/');
  const page = (await (await fetch(`${base}${units}?page_size=200`)).json()) as { results: { id: number; source: string[] }[] };
  // the editor's address of the translation: /translate/<project>/<component>/<language>/
  const editor = new URL(t.url).pathname.replace(/^\/api\/translations\//, '/translate/');
  // strings with one form: the writes send one (a plural's would be refused: "Number of plurals does not match")
  for (const u of page.results) if (u.source.length === 1) writable.push({ id: u.id, translation: editor });
  // its component's repository address (`/api/components/<project>/<component>/repository/`), for the commits
  const repository = new URL(t.url).pathname.replace(/^\/api\/translations\/([^/]+)\/([^/]+)\/.*$/, '/api/components/$1/$2/repository/');
  if (!committed.includes(repository)) committed.push(repository);
}
/** Requests that failed over the whole run, by status ('no answer' where none came, 'timeout', 'error'). */
const failedReads = new Map<string, number>();
const failedWrites = new Map<string, number>();
/** Commits that failed, by status and the answer's detail (or why no answer came). */
const failedCommits = new Map<string, number>();
const tally = (m: Map<string, number>, key: string, n = 1) => {
  if (n > 0) m.set(key, (m.get(key) ?? 0) + n);
};
const tallied = (m: Map<string, number>) => (m.size === 0 ? 'none' : [...m].map(([k, n]) => `${k}: ${n}`).join(', '));

/** Writes done and refused in the current slice, and their wall times (ms). */
let writes = { done: 0, failed: 0, times: [] as number[], commits: 0, commitsFailed: 0 };
let loadEnd = 0;
/** Wall time of each commit (ms), over the whole load. */
const commitTimes: number[] = [];
const writing: Promise<void>[] = [];
const startWriters = async () => {
  for (const [w, { username, token }] of writers.entries()) {
    const session = await webSignIn(base, username, `${username}-password`);
    writing.push(
      (async () => {
        for (let n = 0; Date.now() < loadEnd; n++) {
          const unit = writable[(w * 7919 + n * 104729) % writable.length]!;
          const t = performance.now();
          const r = await (n % 5 === 4
            ? fetch(base + unit.translation, {
                method: 'POST',
                redirect: 'manual',
                headers: { Cookie: session.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
                body: new URLSearchParams({ csrfmiddlewaretoken: session.csrf, unit: String(unit.id), target_0: `suggestion ${w}/${n}`, suggest: '1' }),
              })
            : fetch(`${base}/api/units/${unit.id}/`, {
                method: 'PATCH',
                headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
                body: JSON.stringify({ target: [`edit ${w}/${n}`], state: 20 }),
              })
          ).catch(() => undefined);
          // a refusal's answer is kept for the tally (its detail says why); any other is read to its end
          const answer = r && r.status >= 400 ? await r.text().catch(() => '') : await r?.arrayBuffer().catch(() => undefined);
          writes.times.push(performance.now() - t);
          if (r && r.status < 400) writes.done++;
          else {
            writes.failed++;
            tally(failedWrites, r ? `${r.status} ${String(answer).slice(0, 120)}` : 'no answer');
          }
          if (WRITE_PAUSE > 0) await new Promise((resolve) => setTimeout(resolve, WRITE_PAUSE));
        }
      })(),
    );
  }
  if (WRITERS === 0) return;
  writing.push(
    (async () => {
      for (let c = 0; Date.now() + COMMIT_EVERY * 1000 < loadEnd; c++) {
        await new Promise((r) => setTimeout(r, COMMIT_EVERY * 1000));
        const t = performance.now();
        // an answer that never comes (undici gives up after 300 s) counts as a failed commit
        const r = await fetch(`${base}${committed[c % committed.length]}`, {
          method: 'POST',
          headers: { Authorization: `Token ${admin}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ operation: 'commit' }),
        }).catch((e: Error) => e);
        const answer = r instanceof Response ? ((await r.json().catch(() => null)) as { result?: boolean; detail?: string } | null) : null;
        commitTimes.push(performance.now() - t);
        if (r instanceof Response && r.status === 200 && answer?.result === true) writes.commits++;
        else {
          writes.commitsFailed++;
          tally(failedCommits, r instanceof Response ? `${r.status} ${answer?.detail ?? JSON.stringify(answer)}` : `no answer (${r.message})`);
        }
      }
    })(),
  );
};
const requests = [{ setupRequest: (r: { path: string }) => ({ ...r, path: paths[cursor++ % paths.length]! }) }];

const before = rssTree(server.pid!);
const slices: {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  maxTotal: number;
  maxPerProcess: number;
  processes: number;
  writes: typeof writes;
  /** Each tms process's memory at the slice's last sample. */
  memory: Breakdown[];
}[] = [];
loadEnd = Date.now() + SECONDS * 1000;
await startWriters();
for (let elapsed = 0; elapsed < SECONDS; elapsed += SLICE) {
  let maxTotal = 0;
  let maxPerProcess = 0;
  let processes = 0;
  let memory: Breakdown[] = [];
  const sampler = setInterval(() => {
    const tree = rssTree(server.pid!);
    memory = breakdowns(tree.keys());
    processes = Math.max(processes, tree.size);
    maxTotal = Math.max(
      maxTotal,
      [...tree.values()].reduce((a, b) => a + b, 0),
    );
    maxPerProcess = Math.max(maxPerProcess, ...tree.values());
  }, 1000);
  const r = await autocannon({ url: base, connections: CONNECTIONS, duration: Math.min(SLICE, SECONDS - elapsed), requests });
  clearInterval(sampler);
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) if (Number(code) >= 300) tally(failedReads, code, count);
  tally(failedReads, 'timeout', r.timeouts);
  tally(failedReads, 'error', r.errors - r.timeouts);
  slices.push({
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.errors + r.non2xx + r.timeouts,
    maxTotal,
    maxPerProcess,
    processes,
    writes,
    memory,
  });
  writes = { done: 0, failed: 0, times: [], commits: 0, commitsFailed: 0 };
  console.error(
    `bench:serve-memory: ${elapsed + SLICE} s: ${r.requests.average.toFixed(0)} req/s, max RSS ${maxPerProcess.toFixed(0)} MiB per process; ${memory
      .map(
        (m) =>
          `${m.pid}: RSS ${m.rss.toFixed(0)}, heap ${m.heapUsed.toFixed(0)}/${m.heapTotal.toFixed(0)}, external ${m.external.toFixed(0)}, ${m.threads.count} threads ${m.threads.heapUsed.toFixed(0)}/${m.threads.heapTotal.toFixed(0)} + ${m.threads.external.toFixed(0)}`,
      )
      .join('; ')}`,
  );
}
loadEnd = 0;
await Promise.all(writing);
// the folder goes at exit: a server still pushing would leave git writing in it (ENOTEMPTY), so wait for its end
const ended = new Promise((resolve) => server.once('exit', resolve));
server.kill('SIGTERM');
await ended;
await gitServer?.close();

const units = translations.reduce((n, t) => n + t.total, 0);
const first = slices[0]!;
const last = slices[slices.length - 1]!;
const maxPer = Math.max(...slices.map((s) => s.maxPerProcess));
console.log(`\n## Serving ${units.toLocaleString('en')} units in ${translations.length.toLocaleString('en')} translations (\`npm run bench:serve-memory\`)\n`);
console.log(
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}. ${storeLine}, \`tms serve\`${
    WORKERS ? ` --workers ${WORKERS}` : ''
  } on ${pg ? 'PostgreSQL' : 'SQLite'} loaded by autocannon (${CONNECTIONS} connections) with ${paths.length.toLocaleString('en')} distinct paths (100-unit pages of every translation, statistics, ${unitIds.length} units, change pages${siteDir ? ', the dashboard, project, language and component pages' : ''}), ${SECONDS} s in ${SLICE}-s slices${
    WRITERS > 0
      ? `; meanwhile ${WRITERS} users writing in a loop each (unit PATCHes through the API, every fifth write a suggestion through the editor's form, ${WRITE_PAUSE} ms between a writer's writes, over ${writable.length} units of 20 translations across ${committed.length} components) and a commit of one of those components every ${COMMIT_EVERY} s`
      : ''
  }. Resident memory of the server's processes sampled each second; before the load: ${[...before.values()].map((m) => `${m.toFixed(0)} MiB`).join(' + ')}.\n`,
);
const quantile = (list: number[], q: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))] ?? Number.NaN;
const writeColumns = WRITERS > 0 ? ' writes answered | writes/s | write p50 | write p99 | writes refused | commits (failed) |' : '';
console.log(`| slice | reads/s | read p50 | read p99 | reads failed |${writeColumns} processes | max RSS per process | max RSS, all processes |`);
console.log(`|---|---:|---:|---:|---:|${WRITERS > 0 ? '---:|---:|---:|---:|---:|---:|' : ''}---:|---:|---:|`);
slices.forEach((s, i) => {
  const w = s.writes;
  const writeCells =
    WRITERS > 0
      ? ` ${w.times.length} | ${(w.done / SLICE).toFixed(1)} | ${quantile(w.times, 0.5).toFixed(0)} ms | ${quantile(w.times, 0.99).toFixed(0)} ms | ${w.failed} | ${w.commits} (${w.commitsFailed}) |`
      : '';
  console.log(
    `| ${i * SLICE}–${(i + 1) * SLICE} s | ${s.rps.toFixed(0)} | ${s.p50} ms | ${s.p99} ms | ${s.failed} |${writeCells} ${s.processes} | ${s.maxPerProcess.toFixed(0)} MiB | ${s.maxTotal.toFixed(0)} MiB |`,
  );
});
console.log(
  `\nPeak per process ${maxPer.toFixed(0)} MiB (bound 300 MB = 286 MiB: ${maxPer <= 286 ? 'met' : 'NOT met'}); growth from the first slice to the last: ${(last.maxPerProcess - first.maxPerProcess).toFixed(0)} MiB per process (${(
    ((last.maxPerProcess - first.maxPerProcess) / first.maxPerProcess) * 100
  ).toFixed(1)} %).`,
);
// "flat", the rule used before: over the second half of the run (the last five minutes of ten), the peak of its last
// slice against its first's within 5 %; and the second half's highest peak against the first half's
const half = Math.floor(slices.length / 2);
const peak = (list: typeof slices, key: 'maxPerProcess' | 'maxTotal') => Math.max(...list.map((s) => s[key]));
const growth = (a: number, b: number) => `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(1)} %`;
for (const [key, name] of [
  ['maxPerProcess', 'the largest process'],
  ['maxTotal', 'all processes together'],
] as const) {
  const from = slices[half]![key];
  const to = last[key];
  console.log(
    `Flat (${name}): the last ${slices.length - half} slices ${from.toFixed(0)} → ${to.toFixed(0)} MiB, ${growth(from, to)} (${Math.abs(to - from) / from <= 0.05 ? 'within' : 'NOT within'} 5 %); highest peak of the first half ${peak(slices.slice(0, half), key).toFixed(0)} MiB, of the second ${peak(slices.slice(half), key).toFixed(0)} MiB (${growth(peak(slices.slice(0, half), key), peak(slices.slice(half), key))}).`,
  );
}
const leader = server.pid!;
const f = (n: number) => n.toFixed(0);
console.log(
  "\nWhere each tms process's memory was at the end of each slice (MiB): its main thread's V8 heap and external memory (array buffers among it), its worker threads' heaps and external memory together, and the rest (RSS less those: malloc, SQLite's page cache, code, stacks):\n",
);
console.log(
  '| slice | process | RSS (anonymous + file) | main thread: heap used / total | external (array buffers) | worker threads: heap used / total + external | rest |',
);
console.log('|---|---|---:|---:|---:|---:|---:|');
const workerNames = new Map<number, string>();
slices.forEach((s, i) => {
  for (const m of s.memory) {
    if (m.pid !== leader && !workerNames.has(m.pid)) workerNames.set(m.pid, `worker ${workerNames.size + 1}`);
    const t = m.threads;
    const rest = m.rss - m.heapTotal - m.external - t.heapTotal - t.external;
    console.log(
      `| ${i * SLICE}–${(i + 1) * SLICE} s | ${m.pid === leader ? 'leader' : workerNames.get(m.pid)} | ${f(m.rss)} (${f(m.anon)} + ${f(m.file)}) | ${f(m.heapUsed)} / ${f(m.heapTotal)} | ${f(m.external)} (${f(m.arrayBuffers)}) | ${t.count ? `${f(t.heapUsed)} / ${f(t.heapTotal)} + ${f(t.external)} (${t.count})` : '–'} | ${f(rest)} |`,
    );
  }
});
if (WRITERS > 0) {
  const writeTimes = slices.flatMap((s) => s.writes.times);
  console.log(
    `Writes: ${writeTimes.length.toLocaleString('en')} answered (${slices.reduce((n, s) => n + s.writes.failed, 0)} refused), p50 ${quantile(writeTimes, 0.5).toFixed(0)} ms, p99 ${quantile(writeTimes, 0.99).toFixed(0)} ms; commits: ${commitTimes.length}, p50 ${quantile(commitTimes, 0.5).toFixed(0)} ms, max ${Math.max(...commitTimes).toFixed(0)} ms.`,
  );
  console.log(`Writes refused, by status: ${tallied(failedWrites)}.`);
  console.log(`Commits failed, by status and detail: ${tallied(failedCommits)}.`);
}
console.log(`Reads failed, by status: ${tallied(failedReads)}.`);
process.exit(0);
