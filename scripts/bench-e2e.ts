// `npm run bench:e2e`: tms as users meet it — whole `bin/tms` processes against packed upstreams served over smart
// HTTP on loopback (one commit, and the same files with 3,000 commits of history), each figure beside an anchor
// measured in the same run: `node -e 0`, `git clone`, Translate Toolkit parsing the same files, a bare node:http
// server sending the same bytes.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { type LoadResult, autocannon, keepassxcFiles, keepassxcProjects, keepassxcSource, root } from './bench-lib.js';

const source = keepassxcSource('bench:e2e');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 3000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** `BENCH_ONLY=clone` measures only the clone and cold-sync rows (no start-up, Translate Toolkit or page rows). */
const ONLY = process.env.BENCH_ONLY ?? '';
/**
 * `BENCH_ONLY=cold`: only Translate Toolkit's parse and the cold sync of the one-commit upstream, taken in turns
 * (`BENCH_COLD_RUNS` of each, default 3), each cold sync's ratio to the parse next to it, and the median of those
 * ratios: the figure the scale issue's target reads, steadier on a loaded machine than two medians taken apart.
 */
const COLD = ONLY === 'cold';
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 3);
/** `BENCH_DEPTH=N` gives the synced component `depth: N` (default: the configuration's default). */
const DEPTH = process.env.BENCH_DEPTH;
const CLONE_RUNS = Number(process.env.BENCH_CLONE_RUNS ?? 7);
const all = ONLY === '' && process.env.BENCH_PARTS !== 'serve';
const tms = path.join(root, 'bin', 'tms');
// BENCH_ONLY=short: only the short commands (start-up rows and the no-change sync, after one cold sync to set it up)
const SHORT = ONLY === 'short';
/** `tms serve --workers` counts measured under load, one fresh server each (`BENCH_WORKERS=1,2`). */
const WORKERS = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number);
/** `BENCH_PARTS=serve` (or `BENCH_ONLY=serve`): only the serving figures (one sync to build the store first). */
const ONLY_SERVE = ONLY === 'serve' || process.env.BENCH_PARTS === 'serve';
/** The kernel's clock tick, for CPU times read from /proc. */
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const work = await tempDir('tms-bench-e2e-');
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const files = keepassxcFiles('bench:e2e');
const names = Object.keys(files);
const bytes = Object.values(files).reduce((n, b) => n + b.length, 0);

// --- upstreams: one commit, and the same final files after HISTORY commits (mostly code, every 30th a translation)
const upstreams = path.join(work, 'upstream');
await createUpstream({ dir: path.join(upstreams, 'one.git'), files });
execFileSync('git', ['repack', '-adfq'], { cwd: path.join(upstreams, 'one.git') });
const history = path.join(upstreams, 'history.git');
if (!SHORT && !COLD) {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', history]);
  execFileSync('git', ['fast-import', '--quiet'], { cwd: history, input: historyStream(HISTORY), maxBuffer: 1 << 30 });
  execFileSync('git', ['repack', '-adfq'], { cwd: history });
}
const packBytes = (repo: string) =>
  readdirSync(path.join(repo, 'objects', 'pack'))
    .filter((n) => n.endsWith('.pack'))
    .reduce((n, f) => n + readFileSync(path.join(repo, 'objects', 'pack', f)).length, 0);
const gitServer = await startGitServer({ root: upstreams });

/** The projects with the component's `depth` set. */
function withDepth(projects: unknown[], depth: number): unknown[] {
  return (projects as { components: Record<string, unknown>[] }[]).map((p) => ({ ...p, components: p.components.map((c) => ({ ...c, depth })) }));
}

/** A fast-import stream: `commits` commits ending in exactly `files`; translations change in every 30th commit. */
function historyStream(commits: number): Buffer {
  const parts: Buffer[] = [];
  const text = (s: string) => parts.push(Buffer.from(s));
  const data = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b) : b;
    text(`data ${buf.length}\n`);
    parts.push(buf, Buffer.from('\n'));
  };
  const file = (p: string, content: Buffer | string) => {
    text(`M 100644 inline ${p}\n`);
    data(content);
  };
  const paths = Object.keys(files);
  for (let i = 1; i <= commits; i++) {
    text(`commit refs/heads/main\ncommitter Dev <dev@example.test> ${1_600_000_000 + i * 600} +0000\n`);
    data(`Change ${i}\n`);
    if (i === 1) for (const p of paths) file(p, files[p]!);
    file('src/version.txt', `${i}\n`);
    if (i % 30 === 0 && i < commits) {
      const p = paths[(i / 30) % paths.length]!;
      file(p, files[p]!.toString('utf8').replace('</TS>', `<!-- revision ${i} -->\n</TS>`));
    }
    if (i === commits) for (const p of paths) file(p, files[p]!);
    text('\n');
  }
  return Buffer.concat(parts);
}

// --- helpers
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
/**
 * Wall seconds, peak RSS (MiB) and CPU seconds (user + system, its children's included) of one process, through
 * /usr/bin/time when present. Asynchronous: the git server answering it runs in this process.
 */
async function timed(
  cmd: string,
  args: string[],
  opts: { cwd?: string } = {},
): Promise<{ seconds: number; rssMiB: number | null; cpuSeconds: number | null; stdout: string }> {
  const hasTime = existsSync('/usr/bin/time');
  const started = performance.now();
  const [file, argv] = hasTime ? ['/usr/bin/time', ['-f', '%U %S %M', cmd, ...args]] : [cmd, args];
  const child = spawn(file, argv, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const seconds = (performance.now() - started) / 1000;
  if (status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${status}): ${stderr}`);
  const [user, system, rss] = hasTime ? stderr.trim().split('\n').at(-1)!.split(' ').map(Number) : [];
  return { seconds, rssMiB: rss === undefined ? null : rss / 1024, cpuSeconds: user === undefined ? null : user + system!, stdout };
}
/** The median wall time of `n` runs (and the fastest: on a loaded machine, the steadier figure of the two). */
async function medianOf(
  n: number,
  run: () => Promise<{ seconds: number; rssMiB: number | null }>,
): Promise<{ seconds: number; min: number; rssMiB: number | null }> {
  const results: { seconds: number; rssMiB: number | null }[] = [];
  for (let i = 0; i < n; i++) results.push(await run());
  const seconds = results.map((r) => r.seconds);
  return { seconds: median(seconds), min: Math.min(...seconds), rssMiB: Math.max(...results.map((r) => r.rssMiB ?? 0)) || null };
}
function config(name: string, repo: string): string {
  const dir = path.join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'tms.config.json');
  writeFileSync(
    file,
    JSON.stringify({
      database: 'tms.sqlite',
      repos_dir: 'repos',
      // the load comes from one address: Weblate's anonymous throttle (100/day) would answer it with 429s
      rate_limit: { anonymous: '', user: '' },
      projects: DEPTH === undefined ? keepassxcProjects(repo) : withDepth(keepassxcProjects(repo), Number(DEPTH)),
    }),
  );
  return file;
}
const tmsRun = (configFile: string, ...args: string[]) => timed(process.execPath, [tms, '--config', configFile, ...args]);

const rows: { what: string; tms: string; anchor: string; ratio: string; target: string }[] = [];
const s = (x: number) => `${x.toFixed(2)} s`;
const row = (what: string, tmsValue: string, anchor: string, ratio: string, target: string) => {
  rows.push({ what, tms: tmsValue, anchor, ratio, target });
  console.log(`${what}: ${tmsValue} | ${anchor} | ${ratio} | ${target}`);
};

// --- start-up
const node0 = await medianOf(RUNS, () => timed(process.execPath, ['-e', '0']));
const helpCfg = config('help', gitServer.url('one.git'));
/** A start-up row: median (fastest) against `node -e 0`'s. */
const startRow = (what: string, r: { seconds: number; min: number }, target: string) =>
  row(
    what,
    `${s(r.seconds)} (${s(r.min)})`,
    `\`node -e 0\` ${s(node0.seconds)} (${s(node0.min)})`,
    `+${((r.seconds - node0.seconds) * 1000).toFixed(0)} ms (+${((r.min - node0.min) * 1000).toFixed(0)})`,
    target,
  );
if (ONLY_SERVE) {
  await tmsRun(config('sync-one.git', gitServer.url('one.git')), 'sync', 'keepassxc');
} else if (all || SHORT) {
  startRow('`tms --help`', await medianOf(RUNS, () => timed(process.execPath, [tms, '--help'])), '≤ 0.12 s');
  startRow('`tms check`', await medianOf(RUNS, () => tmsRun(helpCfg, 'check')), '≤ 0.12 s');
  startRow('`tms user list`', await medianOf(RUNS, () => tmsRun(helpCfg, 'user', 'list')), '≤ 0.12 s');
}

// --- Translate Toolkit parsing the same files (the whole python process, as a user runs it)
const python = `
import sys, time, glob
from translate.storage import factory
t = time.perf_counter()
n = sum(len(factory.getobject(f).units) for f in sorted(glob.glob(sys.argv[1] + '/keepassxc_*.ts')))
print(n, time.perf_counter() - t)
`;
let ttSeconds: number | null = null;
// the first python3 that has Translate Toolkit (Debian's package installs it for the system python)
const python3 = all || COLD ? ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import translate.storage.ts2']).status === 0) : undefined;
if (python3 && COLD) {
  const url = gitServer.url('one.git');
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const syncs: { seconds: number; rssMiB: number | null }[] = [];
  const parses: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const tt = await timed(python3, ['-c', python, source]);
    const cold = await tmsRun(config('sync-one.git', url), 'sync', 'keepassxc');
    parses.push(tt.seconds);
    syncs.push(cold);
    ratios.push(tt.seconds / cold.seconds);
    // CPU time: what the machine's other load disturbs least (the sync's git clone counted, as a child)
    const cpu = tt.cpuSeconds && cold.cpuSeconds ? tt.cpuSeconds / cold.cpuSeconds : null;
    if (cpu !== null) cpuRatios.push(cpu);
    console.log(
      `turn ${i + 1}: TT parse-only ${s(tt.seconds)} (CPU ${s(tt.cpuSeconds ?? 0)}), cold tms sync ${s(cold.seconds)} (CPU ${s(cold.cpuSeconds ?? 0)}): ×${(tt.seconds / cold.seconds).toFixed(2)}${cpu === null ? '' : `, by CPU ×${cpu.toFixed(2)}`}`,
    );
  }
  if (cpuRatios.length > 0) console.log(`by CPU time: ×${median(cpuRatios).toFixed(2)} (turns ${cpuRatios.map((r) => r.toFixed(2)).join(', ')})`);
  row(
    `cold \`tms sync\` over HTTP, one commit, clone+parse+store; ${COLD_RUNS} turns with Translate Toolkit's parse-only`,
    `${s(median(syncs.map((r) => r.seconds)))} (fastest ${s(Math.min(...syncs.map((r) => r.seconds)))}), peak RSS ${Math.max(...syncs.map((r) => r.rssMiB ?? 0)).toFixed(0)} MiB`,
    `TT parse-only ${s(median(parses))} (fastest ${s(Math.min(...parses))})`,
    `×${median(ratios).toFixed(2)} faster than TT (turns ${ratios.map((r) => r.toFixed(2)).join(', ')})${cpuRatios.length > 0 ? `; by CPU time ×${median(cpuRatios).toFixed(2)}` : ''}`,
    '≥ 1.5× faster than TT',
  );
  await gitServer.close();
  printTable();
  process.exit(0);
} else if (python3) {
  ttSeconds = (await medianOf(3, () => timed(python3, ['-c', python, source]))).seconds;
  console.log(`Translate Toolkit parse-only (whole process): ${s(ttSeconds)}`);
} else if (all) console.log('Translate Toolkit not installed (Debian: translate-toolkit): no anchor for parsing');

// --- clones and syncs
/** A script that clones `url` into `dir` exactly as the sync's first working-copy update does. */
const cloneScript = path.join(work, 'clone-only.mjs');
writeFileSync(
  cloneScript,
  `import { componentSchema } from ${JSON.stringify(new URL('../dist/config/schema.js', import.meta.url).href)};
import { updateWorkingCopy } from ${JSON.stringify(new URL('../dist/sync/working-copy.js', import.meta.url).href)};
const [url, dir] = process.argv.slice(2);
const depth = process.env.BENCH_DEPTH === undefined ? componentSchema.properties.depth.default : Number(process.env.BENCH_DEPTH);
const started = performance.now();
await updateWorkingCopy({ vcs: 'git', repoResolved: url, branch: 'main', depth, username: '', password: '' }, dir, {});
console.log((performance.now() - started) / 1000);
`,
);
for (const [name, label] of (
  [
    ['one.git', 'one commit'],
    ['history.git', `${HISTORY.toLocaleString('en')} commits`],
  ] as const
).slice(0, SHORT ? 1 : 2)) {
  if (ONLY_SERVE) break;
  const url = gitServer.url(name);
  // `git clone` and tms's clone alone (the sync's working-copy update with the component's defaults, in a process of
  // its own) taken in turns, so that a change of the machine's load meets both alike
  const gitRuns: { seconds: number; rssMiB: number | null }[] = [];
  const shallowRuns: number[] = [];
  const tmsRuns: { seconds: number; rssMiB: number | null }[] = [];
  const inProcess: number[] = [];
  for (let i = 0; i < (SHORT ? 0 : CLONE_RUNS); i++) {
    for (const d of ['clone', 'clone-shallow', 'tms-clone']) rmSync(path.join(work, `${d}-${name}`), { recursive: true, force: true });
    gitRuns.push(await timed('git', ['clone', '-q', url, path.join(work, `clone-${name}`)]));
    const run = await timed(process.execPath, [cloneScript, url, path.join(work, `tms-clone-${name}`)]);
    tmsRuns.push(run);
    inProcess.push(Number(run.stdout.trim()));
    shallowRuns.push((await timed('git', ['clone', '-q', '--depth', '1', url, path.join(work, `clone-shallow-${name}`)])).seconds);
  }
  if (SHORT) gitRuns.push(await timed('git', ['clone', '-q', url, path.join(work, `clone-${name}`)]));
  const clone = { seconds: median(gitRuns.map((r) => r.seconds)) };
  const tmsClone = { seconds: median(tmsRuns.map((r) => r.seconds)), rssMiB: Math.max(...tmsRuns.map((r) => r.rssMiB ?? 0)) };
  if (!SHORT)
    row(
      `tms's clone alone (the sync's working-copy update; whole process, and inside the update), ${label}`,
      `${s(tmsClone.seconds)}; ${s(median(inProcess))} in the update; peak RSS ${tmsClone.rssMiB.toFixed(0)} MiB`,
      `\`git clone\` ${s(clone.seconds)} (\`--depth 1\`: ${s(median(shallowRuns))})`,
      `×${(tmsClone.seconds / clone.seconds).toFixed(1)} whole, ×${(median(inProcess) / clone.seconds).toFixed(1)} update`,
      name === 'one.git' ? '—' : '≤ 1.5× git clone, ≤ 250 MB',
    );
  const runs: { seconds: number; rssMiB: number | null }[] = [];
  let cfg = '';
  for (let i = 0; i < (SHORT ? 1 : 3); i++) {
    cfg = config(`sync-${name}`, url);
    runs.push(await tmsRun(cfg, 'sync', 'keepassxc'));
  }
  const cold = { seconds: median(runs.map((r) => r.seconds)), rssMiB: Math.max(...runs.map((r) => r.rssMiB ?? 0)) };
  const pack = (packBytes(path.join(upstreams, name)) / 2 ** 20).toFixed(1);
  row(
    `cold \`tms sync\` over HTTP, ${label} (${pack} MiB pack), clone+parse+store`,
    `${s(cold.seconds)}, peak RSS ${cold.rssMiB.toFixed(0)} MiB`,
    `\`git clone\` ${s(clone.seconds)}${ttSeconds ? `; TT parse-only ${s(ttSeconds)}` : ''}`,
    `×${(cold.seconds / clone.seconds).toFixed(1)} git clone${ttSeconds ? `, ×${(ttSeconds / cold.seconds).toFixed(2)} faster than TT` : ''}`,
    name === 'one.git' ? '≥ 1.5× faster than TT' : '≤ 1.5× git clone, ≤ 250 MB',
  );
  if (name === 'one.git') {
    const noChange = await medianOf(RUNS, () => tmsRun(cfg, 'sync', 'keepassxc'));
    if (ttSeconds) console.log(`no-change sync: 1/${(ttSeconds / noChange.seconds).toFixed(1)} of Translate Toolkit's parse-only time`);
    startRow('no-change `tms sync` over HTTP (process start to exit)', noChange, '≤ 0.15 s (≤ 1/8 of TT)');
  }
}

if (SHORT) {
  await gitServer.close();
  printTable();
  process.exit(0);
}

// --- pages: a whole `tms serve` on the one-commit store; distinct 100-unit pages of every translation, for each
// `--workers` count (a fresh process each: its response cache starts cold)
const serveCfg = path.join(work, 'sync-one.git', 'tms.config.json');
let ceilings: { page: ReturnType<typeof loadRow>; unit: ReturnType<typeof loadRow> } | undefined;
const loadRow = (r: LoadResult) => ({ rps: r.requests.average, p99: r.latency.p99, failed: r.errors + r.non2xx + r.timeouts });
if (all || ONLY_SERVE) for (const workers of WORKERS) await servePages(workers);

/**
 * CPU milliseconds (user + system) a process and its direct children (the serving workers) have used: per answer, the
 * figure the machine's other load disturbs least.
 */
function cpuMs(pid: number): number {
  const ticks = (p: string) => {
    const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  let total = ticks(String(pid));
  for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
    try {
      total += ticks(child);
    } catch {
      // exited meanwhile
    }
  }
  return total * TICK_MS;
}

async function servePages(workers: number): Promise<void> {
  // The request log goes to a file, as to a journal: through a pipe it would wait on this process, busy with the load.
  const logFile = path.join(work, `serve-${workers}-${Date.now()}.log`);
  const log = openSync(logFile, 'w');
  const server = spawn(process.execPath, [tms, '--config', serveCfg, 'serve', '--port', '0', '--workers', String(workers)], {
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  const kill = () => server.kill('SIGKILL');
  process.on('exit', kill);
  let base = '';
  for (let tries = 0; !base; tries++) {
    if (tries > 600 || server.exitCode !== null) throw new Error(`tms serve did not start: ${readFileSync(logFile, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    base = /serving the API on (http:\/\/[^/]+)\/api\//.exec(readFileSync(logFile, 'utf8'))?.[1] ?? '';
  }
  const translations = (await (await fetch(`${base}/api/translations/?page_size=1000`)).json()) as { results: { url: string; total: number }[] };
  const pages: string[] = [];
  for (const t of translations.results) {
    const unitsUrl = new URL(t.url).pathname.replace(/\/$/, '/units/');
    for (let p = 1; p <= Math.ceil(t.total / 100); p++) pages.push(`${unitsUrl}?page_size=100&page=${p}`);
  }
  const unitIds = ((await (await fetch(`${base}/api/units/?page_size=1000`)).json()) as { results: { id: number }[] }).results.map((u) => u.id);
  const sample = Buffer.from(await (await fetch(base + pages[0]!)).arrayBuffer());
  let cursor = 0;
  const cycle = (list: string[]) => [{ setupRequest: (r: { path: string }) => ({ ...r, path: list[cursor++ % list.length]! }) }];
  const unitPaths = unitIds.map((id) => `/api/units/${id}/`);
  if (!ceilings) {
    const unitSample = Buffer.from(await (await fetch(`${base}/api/units/${unitIds[0]}/`)).arrayBuffer());
    const bare = await bareServer({ '/page': sample, '/unit': unitSample });
    // the same paths as tms gets (autocannon's per-request setup costs the load generator as much)
    ceilings = {
      page: loadRow(await autocannon({ url: bare, connections: CONNECTIONS, duration: DURATION, requests: cycle(pages) })),
      unit: loadRow(await autocannon({ url: bare, connections: CONNECTIONS, duration: DURATION, requests: cycle(unitPaths) })),
    };
  }
  const { page: ceilingPage, unit: ceilingUnit } = ceilings;
  const label = `\`--workers ${workers}\``;
  // cold: every page once, nothing cached yet (the first page was fetched above); warm: cycled again for DURATION seconds
  // timed to the last answer: autocannon resolves on its one-second ticks (726 pages read "3 s" whatever they took)
  const cpu0 = cpuMs(server.pid!);
  const coldStart = performance.now();
  let coldEnd = coldStart;
  const coldRun = autocannon({ url: base, connections: CONNECTIONS, amount: pages.length, requests: cycle(pages) });
  coldRun.on('response', () => {
    coldEnd = performance.now();
  });
  const cold = await coldRun;
  const coldRps = pages.length / ((coldEnd - coldStart) / 1000);
  const cpu1 = cpuMs(server.pid!);
  const warmRun = await autocannon({ url: base, connections: CONNECTIONS, duration: DURATION, requests: cycle(pages) });
  const warm = loadRow(warmRun);
  const cpu2 = cpuMs(server.pid!);
  const perAnswer = (ms: number, answers: number) => `server CPU ${(ms / answers).toFixed(2)} ms/answer`;
  row(
    `${label} ${pages.length} distinct 100-unit pages (${(sample.length / 1024).toFixed(0)} KiB each), ${CONNECTIONS} connections, cache cold (first pass)`,
    `${coldRps.toFixed(0)} req/s, p99 ${cold.latency.p99} ms, ${loadRow(cold).failed} failed; ${perAnswer(cpu1 - cpu0, pages.length)}`,
    `bare node:http, same bytes: ${ceilingPage.rps.toFixed(0)} req/s`,
    `×${(coldRps / ceilingPage.rps).toFixed(2)}`,
    '≥ 0.5×, p99 < 20 ms',
  );
  row(
    `${label} … cache warm (cycled again)`,
    `${warm.rps.toFixed(0)} req/s, p99 ${warm.p99} ms, ${warm.failed} failed; ${perAnswer(cpu2 - cpu1, warmRun.requests.total)}`,
    `bare node:http: ${ceilingPage.rps.toFixed(0)} req/s`,
    `×${(warm.rps / ceilingPage.rps).toFixed(2)}`,
    '≥ 0.5×, p99 < 20 ms',
  );
  const unitRun = await autocannon({ url: base, connections: CONNECTIONS, duration: DURATION, requests: cycle(unitPaths) });
  const unit = loadRow(unitRun);
  const cpu3 = cpuMs(server.pid!);
  row(
    `${label} single unit, ${unitPaths.length} distinct`,
    `${unit.rps.toFixed(0)} req/s, p99 ${unit.p99} ms, ${unit.failed} failed; ${perAnswer(cpu3 - cpu2, unitRun.requests.total)}`,
    `bare node:http, same bytes: ${ceilingUnit.rps.toFixed(0)} req/s`,
    `×${(unit.rps / ceilingUnit.rps).toFixed(2)}`,
    '≥ 0.5×',
  );
  const rss = Number(readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)?.[1] ?? 0) / 1024;
  console.log(`tms serve --workers ${workers}: leader peak RSS after the load ${rss.toFixed(0)} MiB`);
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
  process.off('exit', kill);
}
await gitServer.close();

printTable();
process.exit(0);

function printTable(): void {
  console.log(`\nKeePassXC: ${names.length} files, ${(bytes / 2 ** 20).toFixed(1)} MiB of Qt TS; ${RUNS} runs per start-up figure (median)`);
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load ${load}\n`,
  );
  console.log('| what | tms | anchor (same run) | ratio | target |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.what} | ${r.tms} | ${r.anchor} | ${r.ratio} | ${r.target} |`);
}

/** A bare node:http server in its own process (as tms serve is), answering each kind of path with fixed bytes: the ceiling. */
async function bareServer(bodies: Record<string, Buffer>): Promise<string> {
  const files: Record<string, string> = {};
  for (const [route, body] of Object.entries(bodies)) {
    files[route] = path.join(work, `bare${route.replace(/\W/g, '-')}.json`);
    writeFileSync(files[route]!, body);
  }
  const code = `
    const http = require('node:http'); const fs = require('node:fs');
    const bodies = Object.fromEntries(Object.entries(JSON.parse(process.argv[1])).map(([k, f]) => [k, fs.readFileSync(f)]));
    const s = http.createServer((req, res) => {
      const body = bodies[req.url] ?? (req.url.includes('/units/?') ? bodies['/page'] : req.url.startsWith('/api/units/') ? bodies['/unit'] : Buffer.alloc(0));
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      res.end(body);
    });
    s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', code, JSON.stringify(files)], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.on('exit', () => child.kill('SIGKILL'));
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
  return `http://127.0.0.1:${port}`;
}
