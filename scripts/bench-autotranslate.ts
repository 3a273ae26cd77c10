// `npm run bench:autotranslate`: automatic translation of the KeePassXC German translation (every string emptied in a
// second component) from the other component and from tms's memory, through whole `tms serve` processes, against an
// anchor in the same run: the same strings stored by uploading the German file. Then the editor page's server time
// with engines configured (a dead and a hung one among them) against none: the pane loads separately.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { silentStandIn } from '../test/helpers/mt-stand-ins.js';
import { webSignIn } from '../test/helpers/web-session.js';
import { keepassxcFiles, root, serveUrl } from './bench-lib.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PAGES = Number(process.env.BENCH_SAMPLES ?? 150);
// BENCH_KINDS: a regular expression choosing the trials by name; BENCH_PROFILE: a folder for the servers' CPU profiles
const KINDS = new RegExp(process.env.BENCH_KINDS ?? '');
const PROFILE = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)] : [];
const files = keepassxcFiles('bench:autotranslate');
const german = files['share/translations/keepassxc_de.ts']!;
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const work = await tempDir('tms-bench-autotranslate-');
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  if (!process.env.BENCH_KEEP) rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
const report = (line: string) => console.log(line);
report(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);

// the second component's German file: every translation emptied (plural forms kept, empty)
const emptied = german
  .toString('utf8')
  .replace(/<translation(?: type="[^"]*")?>([\s\S]*?)<\/translation>/g, (_, inner: string) =>
    inner.includes('<numerusform')
      ? `<translation type="unfinished">${inner.replace(/<numerusform>[\s\S]*?<\/numerusform>/g, '<numerusform></numerusform>')}</translation>`
      : '<translation type="unfinished"></translation>',
  );
await createUpstream({ dir: path.join(work, 'upstream', 'full.git'), files });
await createUpstream({ dir: path.join(work, 'upstream', 'fresh.git'), files: { ...files, 'share/translations/keepassxc_de.ts': Buffer.from(emptied) } });

const hung = await silentStandIn();
const component = (slug: string) => ({
  name: slug,
  slug,
  repo: path.join(work, 'upstream', `${slug}.git`),
  branch: 'main',
  filemask: 'share/translations/keepassxc_*.ts',
  file_format: 'ts',
  source_language: 'en',
  push_on_commit: false,
});
const ENGINES = {
  'weblate-translation-memory': {},
  weblate: {},
  // nothing listens there: refused at once
  'apertium-apy': { url: 'http://127.0.0.1:9/' },
  // takes the connection and never answers
  libretranslate: { url: hung.url, timeout_ms: 2_000 },
};
function configFile(name: string, machinery: object): string {
  const file = path.join(work, `${name}.config.json`);
  const projects = [{ name: 'KeePassXC', slug: 'keepassxc', components: [component('full'), component('fresh')] }];
  writeFileSync(file, JSON.stringify({ database: `${name}.sqlite`, repos_dir: 'repos', rate_limit: { anonymous: '', user: '' }, machinery, projects }));
  return file;
}

async function tms(config: string, args: string[], input?: string): Promise<string> {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'tms'), '--config', config, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (err += d));
  child.stdin!.end(input ?? '');
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (status !== 0) throw new Error(`tms ${args.join(' ')} failed (${status}): ${err}`);
  return out;
}

/** CPU seconds a process has used (user + system; Linux's /proc), or NaN where there is no /proc. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

async function serve(config: string): Promise<{ origin: string; pid: number | undefined; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [...PROFILE, path.join(root, 'bin', 'tms'), '--config', config, 'serve', '--port', '0', '--workers', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const origin = await serveUrl(child);
  return {
    origin,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      children.delete(child);
    },
  };
}

// one synced database, copied for every trial
const base = configFile('base', ENGINES);
await tms(base, ['sync', 'keepassxc']);
const token = (await tms(base, ['user', 'add', 'bench', '--admin', '--email', 'bench@example.org', '--password-stdin'], 'bench-password\n'))
  .trim()
  .split('\n')
  .at(-1)!;
const trial = (name: string, machinery: object = ENGINES) => {
  copyFileSync(path.join(work, 'base.sqlite'), path.join(work, `${name}.sqlite`));
  return configFile(name, machinery);
};
const auth = { Authorization: `Token ${token}`, Accept: 'application/json' };

/** Seconds from the request to the end of its task, and the strings it changed. */
async function autotranslate(origin: string, body: object): Promise<{ seconds: number; updated: number }> {
  const started = performance.now();
  const r = await fetch(`${origin}/api/translations/keepassxc/fresh/de/autotranslate/`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await r.json()) as { task_url: string; details: string };
  if (!r.ok) throw new Error(`autotranslate: ${r.status} ${JSON.stringify(answer)}`);
  for (;;) {
    const task = (await (await fetch(answer.task_url, { headers: auth })).json()) as { completed: boolean; result: { updated: number; error?: string } };
    if (task.completed) {
      if (task.result.error) throw new Error(task.result.error);
      return { seconds: (performance.now() - started) / 1000, updated: task.result.updated };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function upload(origin: string): Promise<{ seconds: number; updated: number }> {
  const form = new FormData();
  form.set('file', new Blob([german]), 'keepassxc_de.ts');
  form.set('method', 'translate');
  const started = performance.now();
  const r = await fetch(`${origin}/api/translations/keepassxc/fresh/de/file/`, { method: 'POST', headers: auth, body: form });
  const answer = (await r.json()) as { accepted: number };
  if (!r.ok) throw new Error(`upload: ${r.status} ${JSON.stringify(answer)}`);
  return { seconds: (performance.now() - started) / 1000, updated: answer.accepted };
}

const kinds: [string, (origin: string) => Promise<{ seconds: number; updated: number }>][] = [
  ['anchor: upload of the German file (method translate)', upload],
  ['others: auto_source=others, mode=translate', (o) => autotranslate(o, { mode: 'translate', auto_source: 'others', component: 'full' })],
  [
    'engine weblate (other components): mode=translate',
    (o) => autotranslate(o, { mode: 'translate', auto_source: 'mt', engines: ['weblate'], threshold: 100 }),
  ],
  [
    'engine weblate-translation-memory, exact (threshold 100): mode=suggest',
    (o) => autotranslate(o, { mode: 'suggest', auto_source: 'mt', engines: ['weblate-translation-memory'], threshold: 100 }),
  ],
  [
    'engine weblate-translation-memory, fuzzy (threshold 75): mode=suggest',
    (o) => autotranslate(o, { mode: 'suggest', auto_source: 'mt', engines: ['weblate-translation-memory'], threshold: 75 }),
  ],
];
const results = new Map<string, number[]>();
// strings per CPU second of the serving process: what the machine's load (other processes) moves least
const perCpu = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, [name, run]] of kinds.entries()) {
    if (i > 0 && !KINDS.test(name)) continue;
    const server = await serve(trial(`r${round}k${i}`));
    try {
      const cpu = cpuSeconds(server.pid);
      const r = await run(server.origin);
      const used = cpuSeconds(server.pid) - cpu;
      const rate = r.updated / r.seconds;
      report(
        `${name}: ${r.updated} strings in ${r.seconds.toFixed(2)} s = ${rate.toFixed(0)} strings/s; server CPU ${used.toFixed(2)} s = ${(r.updated / used).toFixed(0)} strings/CPU-s`,
      );
      results.set(name, [...(results.get(name) ?? []), rate]);
      perCpu.set(name, [...(perCpu.get(name) ?? []), r.updated / used]);
    } finally {
      await server.stop();
    }
  }
}
const anchor = Math.max(...results.get(kinds[0]![0])!);
for (const [name, rates] of results)
  report(
    `best of ${rates.length}: ${name}: ${Math.max(...rates).toFixed(0)} strings/s (${(Math.max(...rates) / anchor).toFixed(2)} × the upload); ${Math.max(...perCpu.get(name)!).toFixed(0)} strings per server CPU-s`,
  );

// the editor page's server time: no engines against four (a dead one and a hung one among them)
if (PAGES === 0) process.exit(0);
const signIn = async (origin: string) => (await webSignIn(origin, 'bench', 'bench-password')).cookie;
const none = await serve(trial('pages-none', {}));
const engines = await serve(trial('pages-engines'));
const cookies = [await signIn(none.origin), await signIn(engines.origin)];
const times: number[][] = [[], []];
const servers = [none, engines];
let seed = 11;
const pick = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return 1 + (seed % n);
};
for (let i = 0; i < PAGES + 10; i++) {
  const offset = pick(2000);
  for (const s of [0, 1]) {
    const started = performance.now();
    const page = await fetch(`${servers[s]!.origin}/translate/keepassxc/fresh/de/?offset=${offset}`, { headers: { Cookie: cookies[s]! } });
    const text = await page.text();
    if (!page.ok || (s === 1 && !text.includes('data-machinery'))) throw new Error(`editor page: ${page.status}`);
    if (i >= 10) times[s]!.push(performance.now() - started);
  }
}
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!;
for (const [s, label] of ['no engines', '4 engines (1 refused, 1 hung)'].entries()) {
  report(`editor page, ${label}: p50 ${q(times[s]!, 0.5).toFixed(1)} ms, p95 ${q(times[s]!, 0.95).toFixed(1)} ms (${times[s]!.length} pages)`);
}
// what the pane's requests cost, engine by engine, on the same string
const unit = (
  (await (await fetch(`${engines.origin}/api/translations/keepassxc/fresh/de/units/?page_size=1`, { headers: auth })).json()) as { results: { id: number }[] }
).results[0]!.id;
for (const engine of Object.keys(ENGINES)) {
  const started = performance.now();
  const answer = (await (await fetch(`${engines.origin}/api/units/${unit}/machinery/${engine}/`, { headers: auth })).json()) as { status: string };
  report(`pane request ${engine}: ${answer.status} in ${(performance.now() - started).toFixed(0)} ms`);
}
await none.stop();
await engines.stop();
await hung.close();
