// `npm run bench:site`: a generated site of N small components over M repositories (from the corpus), synced by whole
// `tms` processes cold and after one upstream file changed: each component its own repository URL, then linked; then
// cold syncs of the linked site on one thread and on two (`tms sync --threads`), alternating.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitToUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { webSignIn } from '../test/helpers/web-session.js';
import { sendGithubPush, serveUrl } from './bench-lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
if (!existsSync(corpus)) {
  console.log(`bench:site: the corpus is not at ${corpus}; set TMS_CORPUS. Nothing measured.`);
  process.exit(0);
}
/** Components, repositories, languages per component, commits of history per repository, contexts per file. */
const N = Number(process.env.SITE_COMPONENTS ?? 200);
const M = Number(process.env.SITE_REPOS ?? 1);
const LANGS = Number(process.env.SITE_LANGS ?? 2);
const HISTORY = Number(process.env.SITE_HISTORY ?? 5);
const CONTEXTS = Number(process.env.SITE_CONTEXTS ?? 3);
const tms = path.join(root, 'bin', 'tms');

// SITE_CHECKOUTS names checkouts already built; otherwise this one is built first
if (!process.env.SITE_CHECKOUTS) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });

/** Every Qt TS file of the corpus, in path order: its language code (from the name) and its contexts. */
function corpusFiles(): { code: string; header: string; contexts: string[] }[] {
  const out: { code: string; header: string; contexts: string[] }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.ts')) {
        const text = readFileSync(full, 'utf8');
        const start = text.indexOf('<context>');
        if (start < 0) continue;
        const contexts = [...text.matchAll(/<context>[\s\S]*?<\/context>\n?/g)].map((m) => m[0]);
        const code = /_([A-Za-z]{2,3}(?:[_@][A-Za-z]+)?)\.ts$/.exec(e.name)?.[1];
        if (code && contexts.length > 0) out.push({ code, header: text.slice(0, start), contexts });
      }
    }
  };
  walk(corpus);
  return out;
}

const pool = corpusFiles();
if (pool.length < LANGS) {
  console.log('bench:site: the corpus holds too few Qt TS files. Nothing measured.');
  process.exit(0);
}
const WORDS = ['core', 'ui', 'cli', 'daemon', 'web', 'docs', 'plugins', 'setup', 'tools', 'server', 'client', 'editor', 'viewer', 'sync', 'net'];

/**
 * Component `i`'s files: `LANGS` corpus files of different languages (the pool walked with a stride, so languages
 * vary), each cut to `CONTEXTS` of its contexts from an offset that depends on `i`: small, distinct components.
 */
function componentFiles(i: number, dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const used = new Set<string>();
  for (let k = 0, j = 0; k < LANGS && j < pool.length * 2; j++) {
    const f = pool[(i * 7 + j * 3) % pool.length]!;
    if (used.has(f.code)) continue;
    used.add(f.code);
    const offset = (i * 13 + k * 5) % Math.max(1, f.contexts.length - CONTEXTS);
    files[`${dir}/${WORDS[i % WORDS.length]}_${f.code}.ts`] = `${f.header}${f.contexts.slice(offset, offset + CONTEXTS).join('')}</TS>\n`;
    k++;
  }
  return files;
}

const slugOf = (i: number) => `${WORDS[i % WORDS.length]}-${i}`;
const dirOf = (i: number) => `modules/${slugOf(i)}/i18n`;
const repoOf = (i: number) => i % M;

/** Files `tms sync` printed as parsed, summed over its components' lines (`N files (P parsed)`). */
let lastParsed = 0;
/** The main thread's CPU seconds of the last `timed` command (a `tms` process). */
let lastMainCpu = 0;
const THREAD_CPU = path.join(root, 'scripts', 'thread-cpu.cjs');
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

/** `SITE_PAGES=1`: after the linked syncs, `tms sync --all` with nothing changed and the pages of one `tms serve --workers 1`. */
const PAGES = Boolean(process.env.SITE_PAGES) || Boolean(process.env.SITE_DIR);
/** Requests per page kind (sequential, one connection, each its own URL: no response cache answers). */
const REQUESTS = Number(process.env.SITE_REQUESTS ?? 40);
const pageLines: string[] = [];

/** CPU seconds used so far by process `pid` (user + system, from /proc, Linux). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
/**
 * CPU seconds used so far by the local PostgreSQL server a `postgresql://…?host=<socket folder>` URL names (its
 * postmaster, found by the socket's lock file, with its children: the sessions serving tms, and those ended, which the
 * postmaster has reaped), or undefined for another database: what a page costs the database server beside tms.
 */
function databaseCpuSeconds(database: string): (() => number) | undefined {
  const host = /[?&]host=([^&]+)/.exec(database)?.[1];
  const socketDir = host ? decodeURIComponent(host) : undefined;
  const lock = socketDir && existsSync(socketDir) ? readdirSync(socketDir).find((f) => /^\.s\.PGSQL\.\d+\.lock$/.test(f)) : undefined;
  if (!socketDir || !lock) return undefined;
  const postmaster = Number(readFileSync(path.join(socketDir, lock), 'utf8').split('\n')[0]);
  const fieldsOf = (pid: number | string) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  };
  return () => {
    const own = fieldsOf(postmaster);
    // utime, stime, and the reaped children's cutime, cstime
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const f = fieldsOf(entry);
        if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // ended meanwhile
      }
    }
    return ticks / TICKS;
  };
}
/** A line of /proc/<pid>/status in MiB (VmRSS, VmHWM). */
function memoryMiB(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}
const quantile = (list: number[], q: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))]!;

/**
 * `tms sync --all` with nothing changed upstream (whole process), then one `tms serve --workers 1` of the synced store: each
 * page kind asked REQUESTS times in turn, each request its own URL (`n=`), so neither the response cache nor a browser
 * cache answers; p50/p95 of the wall time, the server's CPU per request, and its RSS.
 */
async function measurePages(dir: string, config: string, bin = tms, sync = true): Promise<void> {
  const token = writerToken(bin, config, dir);
  // on a local PostgreSQL server, the database's CPU a request too (its sessions do the queries' work)
  const dbCpu = databaseCpuSeconds((JSON.parse(readFileSync(config, 'utf8')) as { database: string }).database);
  const dbColumn = dbCpu ? ' PostgreSQL CPU a request |' : '';
  if (sync) await noChangeSyncAll(dir, config, bin);
  pageLines.push(`serving: ${buildOf(bin)}, load average ${os.loadavg()[0]!.toFixed(1)}`);
  const child = spawn(process.execPath, [bin, '--config', config, 'serve', '--port', '0', '--workers', '1'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const base = await serveUrl(child);
    const pid = child.pid!;
    const listening = `${memoryMiB(pid, 'VmRSS').toFixed(0)} MiB (peak ${memoryMiB(pid, 'VmHWM').toFixed(0)} MiB)`;
    // the first request loads the catalog
    const first = performance.now();
    const firstCpu = cpuSeconds(pid);
    const language = ((await (await fetch(`${base}/api/languages/`)).json()) as { results: { code: string }[] }).results.find((l) => l.code !== 'en')!.code;
    const firstRequest = `${(performance.now() - first).toFixed(0)} ms, ${((cpuSeconds(pid) - firstCpu) * 1000).toFixed(0)} ms of CPU`;
    const firstComponents = (await (await fetch(`${base}/api/components/`)).json()) as { count: number; results: { slug: string }[] };
    const components = firstComponents.count;
    const component = firstComponents.results[0]!.slug;
    const translations = ((await (await fetch(`${base}/api/translations/`)).json()) as { count: number }).count;
    const units = ((await (await fetch(`${base}/api/units/`)).json()) as { count: number }).count;
    pageLines.push(`served: ${components} components, ${translations} translations, ${units.toLocaleString('en')} units (strings × languages)`);
    // once listening, and before the timed pages (after the catalog's first load and the API's counts): what the pages add
    pageLines.push(
      `RSS of \`tms serve --workers 1\` once listening: ${listening}; before the pages: ${memoryMiB(pid, 'VmRSS').toFixed(0)} MiB (peak ${memoryMiB(pid, 'VmHWM').toFixed(0)} MiB)`,
      `the first request (\`/api/languages/\`, the catalog's first load): ${firstRequest}`,
    );
    const pagesOf = (count: number, size: number) => Math.max(1, Math.ceil(count / size));
    const kinds: PageKind[] = [
      { name: 'dashboard `/`', path: (n) => `/?n=${n}` },
      { name: 'project list `/projects/`', path: (n) => `/projects/?n=${n}` },
      { name: 'project page `/projects/site/`', path: (n) => `/projects/site/?n=${n}` },
      { name: `language page \`/languages/${language}/\``, path: (n) => `/languages/${language}/?n=${n}` },
      { name: `component page \`/projects/site/${component}/\``, path: (n) => `/projects/site/${component}/?n=${n}` },
      { name: 'changes `/changes/`', path: (n) => `/changes/?n=${n}` },
      { name: 'site-wide search `/api/units/?q=`', path: (n) => `/api/units/?q=${['file', 'password', 'open', 'name', 'error'][n % 5]}&n=${n}` },
      { name: '`/api/projects/`', path: (n) => `/api/projects/?n=${n}` },
      { name: '`/api/components/?page=…`', path: (n) => `/api/components/?page=${1 + ((n * 7) % pagesOf(components, 50))}&n=${n}` },
      { name: '`/api/translations/?page=…`', path: (n) => `/api/translations/?page=${1 + ((n * 7) % pagesOf(translations, 50))}&n=${n}` },
      { name: '`/api/projects/site/statistics/`', path: (n) => `/api/projects/site/statistics/?n=${n}` },
      { name: '`/api/changes/`', path: (n) => `/api/changes/?n=${n}` },
    ];
    kinds.push(...(await translatorKinds(base, token, translations)));
    const chosen = KINDS ? kinds.filter((k) => KINDS.some((name) => k.name.includes(name))) : kinds;
    pageLines.push('', `| page (uncached, sequential) | p50 | p95 | server CPU a request |${dbColumn}`, `|---|---:|---:|---:|${dbCpu ? '---:|' : ''}`);
    let n = 0;
    for (const kind of AFTER_COMMIT === 'only' ? [] : chosen) {
      for (let w = 0; w < 3; w++) await (await fetch(base + kind.path(++n), { headers: kind.headers })).arrayBuffer();
      const times: number[] = [];
      const cpuBefore = cpuSeconds(pid);
      const dbBefore = dbCpu?.() ?? 0;
      for (let k = 0; k < REQUESTS; k++) {
        const t = performance.now();
        const res = await fetch(base + kind.path(++n), { headers: kind.headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${kind.path(n)}: ${res.status}`);
        times.push(performance.now() - t);
      }
      const cpu = ((cpuSeconds(pid) - cpuBefore) * 1000) / REQUESTS;
      const db = dbCpu ? ` ${(((dbCpu() - dbBefore) * 1000) / REQUESTS).toFixed(1)} ms |` : '';
      pageLines.push(`| ${kind.name} | ${quantile(times, 0.5).toFixed(1)} ms | ${quantile(times, 0.95).toFixed(1)} ms | ${cpu.toFixed(1)} ms |${db}`);
      console.log(pageLines.at(-1));
    }
    await measureAfterWrites(base, pid, token, chosen, () => ++n, dbCpu);
    pageLines.push(
      '',
      `RSS of \`tms serve --workers 1\` after the pages: ${memoryMiB(pid, 'VmRSS').toFixed(0)} MiB (peak ${memoryMiB(pid, 'VmHWM').toFixed(0)} MiB)`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
  }
}

/** A page kind: its name in the report, the path of its n-th request, and the request's headers (a session, a token). */
interface PageKind {
  name: string;
  path: (n: number) => string;
  headers?: Record<string, string>;
}

/** `SITE_KINDS=editor,translation page`: only the page kinds whose name holds one of these (the after-write ones among them). */
const KINDS = process.env.SITE_KINDS?.split(',');

/**
 * What a translator opens, signed in (user `bench-writer`): the editor on a string, the translation's page, and the
 * two requests of the editor's script for the string's automatic suggestions (tms's translation memory and the same
 * string's translations in other components). Each request of a kind is another translation (spread over the
 * translation list's pages) and another string of it: no cache answers.
 */
async function translatorKinds(base: string, token: string, translations: number): Promise<PageKind[]> {
  const { cookie } = await webSignIn(base, 'bench-writer', WRITER_PASSWORD);
  const api = { Authorization: `Token ${token}` };
  type Listed = { is_source: boolean; total: number; component: { slug: string }; language: { code: string }; units_list_url: string };
  const samples: { path: string; offset: number; unit: number }[] = [];
  const pages = Math.max(1, Math.ceil(translations / 50));
  for (let k = 0; samples.length < REQUESTS + 3 && k < 4 * (REQUESTS + 3); k++) {
    const list = (await (await fetch(`${base}/api/translations/?page=${1 + ((k * 7) % pages)}`, { headers: api })).json()) as { results: Listed[] };
    const candidates = list.results.filter((t) => !t.is_source && t.total > 0);
    const t = candidates[(k * 11) % Math.max(1, candidates.length)];
    if (!t) continue;
    const units = (await (await fetch(t.units_list_url, { headers: api })).json()) as { results: { id: number }[] };
    if (units.results.length === 0) continue;
    const at = (k * 7) % units.results.length;
    samples.push({ path: `site/${t.component.slug}/${t.language.code}/`, offset: at + 1, unit: units.results[at]!.id });
  }
  if (samples.length === 0) throw new Error('no translation with strings to open in the editor');
  const sample = (n: number) => samples[n % samples.length]!;
  const session = { Cookie: cookie };
  return [
    { name: 'editor `/translate/site/<c>/<lang>/?offset=N`', path: (n) => `/translate/${sample(n).path}?offset=${sample(n).offset}&n=${n}`, headers: session },
    { name: 'translation page `/projects/site/<c>/<lang>/`', path: (n) => `/projects/${sample(n).path}?n=${n}`, headers: session },
    {
      name: "editor's memory suggestions `/api/units/<id>/machinery/weblate-translation-memory/`",
      path: (n) => `/api/units/${sample(n).unit}/machinery/weblate-translation-memory/?n=${n}`,
      headers: api,
    },
    {
      name: "editor's other components' suggestions `/api/units/<id>/machinery/weblate/`",
      path: (n) => `/api/units/${sample(n).unit}/machinery/weblate/?n=${n}`,
      headers: api,
    },
  ];
}

/** Which checkout `bin` is, for the report. */
const buildOf = (bin: string) => path.relative(root, path.dirname(path.dirname(bin))) || 'this checkout';

/** `tms sync --all` (one whole process) with nothing changed upstream: its wall time on a line of the report. */
async function noChangeSyncAll(dir: string, config: string, bin: string): Promise<void> {
  const { database, projects } = JSON.parse(readFileSync(config, 'utf8')) as { database: string; projects: { components: unknown[] }[] };
  const components = projects.reduce((n, p) => n + p.components.length, 0);
  const engine = database.startsWith('postgres') ? 'PostgreSQL' : 'SQLite';
  const seconds = await timed(bin, ['--config', config, 'sync', '--all'], dir);
  if (lastParsed !== 0) throw new Error(`a no-change \`tms sync --all\` parsed ${lastParsed} files`);
  pageLines.push(
    `no-change \`tms sync --all\` (${components.toLocaleString('en')} components, ${engine}, ${buildOf(bin)}): ${seconds.toFixed(1)} s, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  // shown at once too: a later failure of the run (a page, another build) would take it with the report
  console.log(pageLines.at(-1));
}

/** An API token of user `bench-writer` (a superuser, created on the first call) of the store `config` names. */
function writerToken(bin: string, config: string, dir: string): string {
  const cli = (input: string, ...args: string[]) =>
    execFileSync(bin, ['--config', config, 'user', ...args], { cwd: dir, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
  let out: string;
  try {
    out = cli(`${WRITER_PASSWORD}\n`, 'add', 'bench-writer', '--admin', '--email', 'bench-writer@example.test', '--password-stdin');
  } catch {
    out = cli('', 'token', 'bench-writer');
    // a store kept by a run before the signed-in pages: its writer had no password
    cli(`${WRITER_PASSWORD}\n`, 'password', 'bench-writer');
  }
  return out.trim().split('\n').at(-1)!.trim();
}
const WRITER_PASSWORD = 'bench-writer-password';
/** tms's own two engines, which the editor's automatic suggestions pane asks (the translator's pages). */
const TMS_ENGINES = { weblate: {}, 'weblate-translation-memory': {} };

/**
 * `SITE_AFTER_COMMIT=1`: the write before each page after a write is a unit edit and then its translation committed;
 * `=only`: those pages alone (not the uncached pages before them).
 */
const AFTER_COMMIT = process.env.SITE_AFTER_COMMIT;

/**
 * The first page after a write: before each request one unit is PATCHed through the API (as a translator saving a
 * string), so every timed page is the first one after a change of the data; the PATCH's own latency is a row too.
 * With SITE_AFTER_COMMIT, its translation is committed after each edit (`POST …/repository/`, a commit that moves the
 * translation's revision), the commit's latency a row of its own.
 */
async function measureAfterWrites(
  base: string,
  pid: number,
  token: string,
  kinds: { name: string; path: (n: number) => string }[],
  next: () => number,
  dbCpu?: () => number,
) {
  const translations = (await (await fetch(`${base}/api/translations/?page=2`)).json()) as {
    results: { is_source: boolean; units_list_url: string; repository_url: string }[];
  };
  const translation = translations.results.find((t) => !t.is_source)!;
  const units = (await (await fetch(translation.units_list_url)).json()) as { results: { id: number; state: number; source: string[] }[] };
  const unit = units.results.find((u) => u.state < 100 && u.source.length === 1)!;
  const patches: number[] = [];
  let patchCpu = 0;
  let patchDbCpu = 0;
  let edits = 0;
  const patch = async () => {
    const cpuBefore = cpuSeconds(pid);
    const dbBefore = dbCpu?.() ?? 0;
    const t = performance.now();
    const res = await fetch(`${base}/api/units/${unit.id}/`, {
      method: 'PATCH',
      headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ target: [`bench edit ${++edits}`], state: 20 }),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`PATCH /api/units/${unit.id}/: ${res.status} ${text}`);
    patches.push(performance.now() - t);
    patchCpu += cpuSeconds(pid) - cpuBefore;
    patchDbCpu += (dbCpu?.() ?? 0) - dbBefore;
    if (!AFTER_COMMIT) return;
    const c = performance.now();
    const committed = await fetch(translation.repository_url, {
      method: 'POST',
      headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ operation: 'commit' }),
    });
    const answer = await committed.text();
    if (committed.status !== 200) throw new Error(`POST ${translation.repository_url}: ${committed.status} ${answer}`);
    commits.push(performance.now() - c);
  };
  const commits: number[] = [];
  const afterWrite = kinds.filter((k) => AFTER_WRITE.some((name) => k.name.includes(name)));
  if (afterWrite.length === 0) return;
  const after = AFTER_COMMIT ? 'a unit edit and its commit' : 'a unit edit';
  pageLines.push(
    '',
    `| page, the first after ${after} (uncached, sequential) | p50 | p95 | server CPU a request |${dbCpu ? ' PostgreSQL CPU a request |' : ''}`,
    `|---|---:|---:|---:|${dbCpu ? '---:|' : ''}`,
  );
  for (const kind of afterWrite) {
    await patch();
    for (let w = 0; w < 2; w++) await (await fetch(base + kind.path(next()))).arrayBuffer();
    const times: number[] = [];
    let cpu = 0;
    let db = 0;
    for (let k = 0; k < REQUESTS; k++) {
      await patch();
      const cpuBefore = cpuSeconds(pid);
      const dbBefore = dbCpu?.() ?? 0;
      const t = performance.now();
      const res = await fetch(base + kind.path(next()));
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${kind.path(k)}: ${res.status}`);
      times.push(performance.now() - t);
      cpu += cpuSeconds(pid) - cpuBefore;
      db += (dbCpu?.() ?? 0) - dbBefore;
    }
    pageLines.push(
      `| ${kind.name} | ${quantile(times, 0.5).toFixed(1)} ms | ${quantile(times, 0.95).toFixed(1)} ms | ${((cpu * 1000) / REQUESTS).toFixed(1)} ms |${dbCpu ? ` ${((db * 1000) / REQUESTS).toFixed(1)} ms |` : ''}`,
    );
    console.log(pageLines.at(-1));
  }
  pageLines.push(
    `| (the unit edit itself: \`PATCH /api/units/<id>/\`, ${patches.length} requests) | ${quantile(patches, 0.5).toFixed(1)} ms | ${quantile(patches, 0.95).toFixed(1)} ms | ${((patchCpu * 1000) / patches.length).toFixed(1)} ms |${dbCpu ? ` ${((patchDbCpu * 1000) / patches.length).toFixed(1)} ms |` : ''}`,
  );
  console.log(pageLines.at(-1));
  if (commits.length === 0) return;
  pageLines.push(
    `| (the commit itself: \`POST …/repository/\` \`commit\`, ${commits.length} requests) | ${quantile(commits, 0.5).toFixed(1)} ms | ${quantile(commits, 0.95).toFixed(1)} ms | |${dbCpu ? ' |' : ''}`,
  );
  console.log(pageLines.at(-1));
}
/** The page kinds measured again after a write. */
const AFTER_WRITE = ['dashboard', 'project page', 'language page', 'component page', 'translations/?page', 'site/statistics'];

/**
 * `SITE_DIR=<a folder SITE_KEEP kept>`: no generation and no syncs; its linked store is served again (the pages only).
 * `SITE_DIR=<kept>,<a copy of it>`: checkout i of SITE_CHECKOUTS serves folder i modulo their number (a build that
 * migrates the store forward then never serves another build's store, and builds can alternate).
 */
const reuseDirs = process.env.SITE_DIR?.split(',').map((d) => path.resolve(d));
const reuse = reuseDirs?.[0];
const work = reuse ?? (await tempDir('tms-bench-site-'));
const upstreams = path.join(work, 'upstream');
const started = performance.now();
/** Runs git in `cwd` with a fixed author and date (the same commits on every run). */
const git = (cwd: string, args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' },
  });
const writeAll = (dir: string, files: Record<string, string>) => {
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), t);
  }
};
// the repositories, with some history: a first commit, then HISTORY commits each changing a few components' files;
// built in one working tree per repository (no clone per commit), then cloned bare
const contents = new Map<string, string>();
for (let r = 0; r < M && !reuse; r++) {
  const files: Record<string, string> = {};
  for (let i = r; i < N; i += M) Object.assign(files, componentFiles(i, dirOf(i)));
  for (const [p, t] of Object.entries(files)) contents.set(`${r}:${p}`, t);
  const tree = path.join(work, 'build', `site-${r}`);
  mkdirSync(tree, { recursive: true });
  git(tree, ['init', '-q', '-b', 'main']);
  writeAll(tree, files);
  git(tree, ['add', '-A']);
  git(tree, ['commit', '-q', '-m', 'Initial commit']);
  for (let h = 0; h < HISTORY; h++) {
    const changed: Record<string, string> = {};
    for (const [p, text] of Object.entries(files)) if (p.length % (HISTORY + 1) === h) changed[p] = text.replace('</TS>', `<!-- revision ${h} -->\n</TS>`);
    if (Object.keys(changed).length === 0) continue;
    writeAll(tree, changed);
    git(tree, ['commit', '-q', '-am', `History ${h}`]);
  }
  const dir = path.join(upstreams, `site-${r}.git`);
  git(work, ['clone', '-q', '--bare', tree, dir]);
  rmSync(tree, { recursive: true, force: true });
  git(dir, ['gc', '-q']);
}
const server = await startGitServer({ root: upstreams, keepAliveTimeoutMs: 60_000 });
const generated = (performance.now() - started) / 1000;
if (reuseDirs) {
  // SITE_CHECKOUTS=<built checkout>,<another>: each serves the kept store in turn (before / after, in one run)
  const bins = (process.env.SITE_CHECKOUTS ?? root).split(',').map((c) => path.join(path.resolve(c), 'bin', 'tms'));
  // SITE_POSTGRES=1: each kept SQLite store copied (`tms db copy`, by the first checkout: a later one migrates the copy
  // forward when it serves it) into a throwaway PostgreSQL database, served from there
  // SITE_DATABASES=<url>,<url>: instead, PostgreSQL databases already holding a copy of each folder's store (one copy
  // kept for several runs; each build serves its own, as with the folders)
  const databases = process.env.SITE_DATABASES?.split(',');
  const pg = process.env.SITE_POSTGRES && !databases ? startPostgres(reuseDirs.map((_, i) => `site${i}`)) : undefined;
  /** SITE_SYNC=1: before each build's pages, its no-change `tms sync --all` (on SQLite too when SITE_POSTGRES). */
  const SYNC = Boolean(process.env.SITE_SYNC);
  try {
    const configs: string[] = [];
    const sqliteConfigs: string[] = [];
    for (const [i, bin] of bins.entries()) {
      const d = i % reuseDirs.length;
      const linkedDir = path.join(reuseDirs[d]!, 'linked');
      if (configs[d] === undefined) {
        // the kept configuration names the git server of the run that kept the site (another port): moved to this run's
        const kept = readFileSync(path.join(linkedDir, 'tms.config.json'), 'utf8');
        configs[d] = sqliteConfigs[d] = path.join(linkedDir, 'tms.rerun.config.json');
        // with tms's own two engines (a site kept before they were configured)
        const moved = JSON.parse(kept.replace(/http:\/\/127\.0\.0\.1:\d+\//g, server.url(''))) as Record<string, unknown>;
        writeFileSync(configs[d]!, JSON.stringify({ ...moved, machinery: TMS_ENGINES }, null, 1));
        // the first sync after the move records the components' new URLs (and fetches): not a no-change sync, not timed
        if (SYNC) await timed(bins[0]!, ['--config', configs[d]!, 'sync', '--all'], linkedDir);
        const database = databases?.[d];
        if (pg || database) {
          if (pg) {
            const copied = await timed(bins[0]!, ['db', 'copy', path.join(linkedDir, 'tms.sqlite'), pg.url(`site${d}`)], linkedDir);
            pageLines.push(`PostgreSQL: \`tms db copy\` of the store: ${copied.toFixed(0)} s`);
          }
          const onPg = JSON.parse(readFileSync(configs[d]!, 'utf8')) as Record<string, unknown>;
          configs[d] = path.join(linkedDir, `tms.pg${d}.config.json`);
          writeFileSync(configs[d]!, JSON.stringify({ ...onPg, database: database ?? pg!.url(`site${d}`) }));
        }
      }
      // on PostgreSQL, the same build's no-change sync of the SQLite store first: the anchor in the same run
      if (SYNC && (pg || databases)) await noChangeSyncAll(linkedDir, sqliteConfigs[d]!, bin);
      await measurePages(linkedDir, configs[d]!, bin, SYNC);
    }
  } finally {
    pg?.remove();
  }
  for (const l of pageLines) console.log(l);
  await server.close();
  process.exit(0);
}

/** Runs a command to its end without blocking this process (the git server answers meanwhile); its wall time in s. */
function timed(file: string, args: string[], cwd: string): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    // the main thread's CPU time reported at exit (scripts/thread-cpu.cjs): the writing thread's share of the work
    const [command, argv] = file.endsWith(path.join('bin', 'tms')) ? [process.execPath, ['--require', THREAD_CPU, file, ...args]] : [file, args];
    const child = spawn(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      lastParsed = [...out.matchAll(/\((\d+) parsed\)/g)].reduce((n, m) => n + Number(m[1]), 0);
      lastMainCpu = Number(/thread-cpu main=(\d+)/.exec(err)?.[1] ?? Number.NaN) / TICKS;
      if (code === 0) resolve((performance.now() - t) / 1000);
      else reject(new Error(`${file} ${args.join(' ')}: exit ${code}\n${err.slice(-2000)}`));
    });
  });
}

/** The site's configuration: every component its own repository URL (`linked: false`), or linked to its repository's first. */
function writeConfig(dir: string, linked: boolean): string {
  const components = Array.from({ length: N }, (_, i) => {
    const first = repoOf(i) === i;
    return {
      name: `${WORDS[i % WORDS.length]} ${i}`,
      slug: slugOf(i),
      repo: !linked || first ? server.url(`site-${repoOf(i)}.git`) : `weblate://site/${slugOf(repoOf(i))}`,
      ...(!linked || first ? { branch: 'main' } : {}),
      filemask: `${dirOf(i)}/${WORDS[i % WORDS.length]}_*.ts`,
      file_format: 'ts',
    };
  });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'tms.config.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        database: 'tms.sqlite',
        repos_dir: 'repos',
        rate_limit: { anonymous: '', user: '' },
        hooks: { enabled: true, secret: HOOK_SECRET },
        machinery: TMS_ENGINES,
        projects: [{ name: 'Site', slug: 'site', components }],
      },
      null,
      1,
    ),
  );
  return file;
}

/** `SITE_WEBHOOK=R`: R pushes (after one not counted), each changing one translation file of another component. */
const HOOK_ROUNDS = Number(process.env.SITE_WEBHOOK ?? 0);
const HOOK_SECRET = 'bench-site-s3cret';
const hookLines: string[] = [];

/**
 * A push to the shared repository as a forge reports it: one `tms serve --workers 1` of the linked site, then per round
 * an upstream commit changing one string of one component's translation file, a signed GitHub push hook naming the
 * repository, and the site-wide API search polled every 5 ms until the new text is found: the time from the hook's
 * delivery to the string visible, whole process (fetch, the changed component re-read, the store, the search index).
 * That the other components are not re-read is counted by test/hooks/shared-repository.test.ts.
 */
async function measureWebhooks(dir: string, config: string): Promise<void> {
  const child = spawn(process.execPath, [tms, '--config', config, 'serve', '--port', '0', '--workers', '1'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  try {
    const base = await serveUrl(child);
    const repo = repoOf(0);
    const seen: number[] = [];
    const acks: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round <= HOOK_ROUNDS; round++) {
      // a translation file of the first repository with a finished string, of another component each round, spread
      // over the site
      const start = (round * 37 + 11) % N;
      const files = [...contents.keys()]
        .filter((k) => k.startsWith(`${repo}:`) && !k.endsWith('_en.ts') && /<translation>[^<]+<\/translation>/.test(contents.get(k)!))
        .sort((a, b) => Number(/-(\d+)\//.exec(a)?.[1]) - Number(/-(\d+)\//.exec(b)?.[1]));
      const key = files.find((k) => Number(/-(\d+)\//.exec(k)?.[1]) >= start) ?? files[0];
      if (!key) throw new Error(`no translation file of site-${repo} holds a finished string`);
      const [, file] = key.split(/:(.*)/s) as [string, string];
      const marker = `hookmark${round}x${Date.now()}`;
      const text = contents.get(key)!.replace(/<translation>[^<]+<\/translation>/, `<translation>${marker}</translation>`);
      contents.set(key, text);
      await commitToUpstream(path.join(upstreams, `site-${repo}.git`), { [file]: text });
      const cpuBefore = cpuSeconds(child.pid!);
      const started = performance.now();
      const answer = await sendGithubPush(base, HOOK_SECRET, server.url(`site-${repo}`));
      if (answer.status !== 200) throw new Error(`the hook answered ${answer.status}: ${answer.text}`);
      const ack = answer.ms;
      for (;;) {
        const page = (await (await fetch(`${base}/api/units/?q=${encodeURIComponent(`target:"${marker}"`)}`)).json()) as { count: number };
        if (page.count > 0) break;
        if (performance.now() - started > 60_000) throw new Error(`round ${round}: ${file}'s new string not visible after 60 s\n${stderr.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      if (round === 0) continue; // the first: not counted (the server's first fetch, caches)
      seen.push(performance.now() - started);
      acks.push(ack);
      cpu.push((cpuSeconds(child.pid!) - cpuBefore) * 1000);
    }
    const fmt = (xs: number[]) => `p50 ${quantile(xs, 0.5).toFixed(0)} ms, p95 ${quantile(xs, 0.95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
    hookLines.push(
      '',
      `a push to the shared repository (${N} linked components), ${HOOK_ROUNDS} rounds after one not counted, load average ${os.loadavg()[0]!.toFixed(1)}:`,
      `  the hook answered: ${fmt(acks)}`,
      `  hook → the changed string found by the API: ${fmt(seen)} (target < 1 s)`,
      `  the server's CPU a round (hook, fetch, re-read, store, the polling's searches): ${fmt(cpu)}`,
    );
    for (const l of hookLines.slice(-4)) console.log(l);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
  }
}

const lines: string[] = [];
const report = (line: string) => {
  lines.push(line);
  console.log(line);
};
const bytes = [...contents.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);
report(
  `site: ${N} components over ${M} repositories, ${LANGS} Qt TS files each (${(bytes / 1048576).toFixed(1)} MiB, ${new Set(pool.map((f) => f.code)).size} corpus languages), ${HISTORY} commits of history; generated in ${generated.toFixed(1)} s`,
);

// the anchor: git itself cloning every repository once
const anchorDir = path.join(work, 'anchor');
mkdirSync(anchorDir);
let cloneSeconds = 0;
for (let r = 0; r < M; r++) cloneSeconds += await timed('git', ['clone', '-q', server.url(`site-${r}.git`), path.join(anchorDir, `site-${r}`)], work);
report(`anchor: git clone of the ${M} repositories: ${cloneSeconds.toFixed(2)} s`);

let change = 0;
const rows: string[] = [];
/** `SITE_ONLY=linked` or `separate` measures one of the two configurations. */
const variants = [false, true].filter((linked) => !process.env.SITE_ONLY || process.env.SITE_ONLY === (linked ? 'linked' : 'separate'));
for (const linked of variants) {
  const dir = path.join(work, linked ? 'linked' : 'separate');
  const config = writeConfig(dir, linked);
  const cold = await timed(tms, ['--config', config, 'sync', 'site'], dir);
  const noChange = await timed(tms, ['--config', config, 'sync', 'site'], dir);
  // one upstream file changed: a translation of a component in the middle of the site (not its English file, which
  // maps to the source language and is not read, as Weblate does)
  const i = Math.floor(N / 2);
  const key = [...contents.keys()].find((k) => k.startsWith(`${repoOf(i)}:${dirOf(i)}/`) && !k.endsWith('_en.ts'))!;
  const [, file] = key.split(/:(.*)/s) as [string, string];
  await commitToUpstream(path.join(upstreams, `site-${repoOf(i)}.git`), {
    [file]: contents
      .get(key)!
      .replace('</TS>', `<!-- change ${++change} -->\n</TS>`)
      .replace(/<translation>[^<]*<\/translation>/, '<translation>changed</translation>'),
  });
  const oneFile = await timed(tms, ['--config', config, 'sync', 'site'], dir);
  if (lastParsed !== 1) throw new Error(`the one-file re-sync parsed ${lastParsed} files, not 1`);
  if (linked && PAGES) await measurePages(dir, config);
  if (linked && HOOK_ROUNDS > 0) await measureWebhooks(dir, config);
  const clones = readdirSync(path.join(dir, 'repos', 'site')).length;
  rows.push(
    `| ${linked ? 'linked (one per repository)' : 'each its own repository URL'} | ${clones} | ${cold.toFixed(1)} s (${(cold / cloneSeconds).toFixed(0)}× git clone) | ${noChange.toFixed(1)} s | ${oneFile.toFixed(1)} s |`,
  );
}
report('');
for (const l of pageLines) report(l);
for (const l of hookLines) report(l);
report('');
report('| components | working copies | cold `tms sync` | no-change `tms sync` | one file changed upstream |');
report('|---|---|---|---|---|');
for (const r of rows) report(r);

// every core: cold syncs of the linked site on one thread and on two (`--threads`), alternating, each into a fresh
// store and working copy; SITE_THREAD_RUNS pairs (0: not measured). With SITE_CHECKOUTS=<this>,<another built one>,
// each checkout's pair in every run, the first checkout first in even runs (before / after in one run)
const THREAD_RUNS = Number(process.env.SITE_THREAD_RUNS ?? 3);
if (THREAD_RUNS > 0) {
  const checkouts = (process.env.SITE_CHECKOUTS ?? root).split(',').map((c) => path.resolve(c));
  const times = checkouts.map(() => ({ 1: [] as number[], 2: [] as number[] }));
  const mainCpu = checkouts.map(() => ({ 1: [] as number[], 2: [] as number[] }));
  const load = [os.loadavg()[0]!];
  let parsedFiles: number | undefined;
  for (let run = 0; run < THREAD_RUNS; run++) {
    const order = run % 2 === 0 ? checkouts.map((_, i) => i) : checkouts.map((_, i) => i).reverse();
    for (const b of order) {
      const bin = path.join(checkouts[b]!, 'bin', 'tms');
      for (const threads of run % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const)) {
        const dir = path.join(work, `threads-${b}-${threads}-${run}`);
        const config = writeConfig(dir, true);
        times[b]![threads].push(await timed(bin, ['--config', config, 'sync', 'site', '--threads', String(threads)], dir));
        mainCpu[b]![threads].push(lastMainCpu);
        // every run reads the whole site: as many files as the first
        parsedFiles ??= lastParsed;
        if (lastParsed !== parsedFiles || lastParsed === 0) throw new Error(`a cold sync parsed ${lastParsed} files, another ${parsedFiles}`);
        rmSync(dir, { recursive: true, force: true });
        load.push(os.loadavg()[0]!);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  report('');
  report(
    `cold \`tms sync\` of the linked site, ${THREAD_RUNS} runs each, alternating (load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}):`,
  );
  report('| checkout | threads | runs (s) | median |');
  report('|---|---|---|---|');
  checkouts.forEach((c, b) => {
    for (const t of [1, 2] as const)
      report(`| ${path.basename(c)} | ${t} | ${times[b]![t].map((x) => x.toFixed(1)).join(', ')} | ${median(times[b]![t]).toFixed(2)} s |`);
  });
  // on a machine whose other cores are busy the wall times say little; the writing thread's CPU time is what the sync
  // takes where every other thread has a core of its own
  report('| checkout | threads | main thread CPU (s) | median |');
  report('|---|---|---|---|');
  checkouts.forEach((c, b) => {
    for (const t of [1, 2] as const)
      report(`| ${path.basename(c)} | ${t} | ${mainCpu[b]![t].map((x) => x.toFixed(2)).join(', ')} | ${median(mainCpu[b]![t]).toFixed(2)} s |`);
  });
  checkouts.forEach((c, b) => {
    const m = mainCpu[b]!;
    report(`${path.basename(c)}: main thread CPU, one thread / two: ×${(median(m[1]) / median(m[2])).toFixed(2)} (medians)`);
  });
  checkouts.forEach((c, b) => {
    const t = times[b]!;
    report(
      `${path.basename(c)}: one thread / two: ×${(median(t[1]) / median(t[2])).toFixed(2)} (medians); pairs ${t[1].map((x, i) => `×${(x / t[2][i]!).toFixed(2)}`).join(', ')}`,
    );
  });
}
await server.close();
if (process.env.SITE_KEEP) console.log(`kept: ${work}`);
else rmSync(work, { recursive: true, force: true });
