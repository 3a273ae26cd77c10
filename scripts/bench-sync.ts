// `npm run bench:sync`: clone, cold sync, no-change and one-file re-syncs of the KeePassXC corpus over loopback smart HTTP.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, parseConfig } from '../src/config/config.js';
import { openStore } from '../src/store/index.js';
import { applyConfig } from '../src/sync/config.js';
import { type ComponentSyncResult, syncProject } from '../src/sync/index.js';
import { commitToUpstream, createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
const source = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
if (!existsSync(source)) {
  console.log(`bench:sync: the KeePassXC corpus is not at ${source}; set TMS_CORPUS. Nothing measured.`);
  process.exit(0);
}
const COPIES = Number(process.env.BENCH_COPIES ?? 10);

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);
const mib = (n: number) => `${(n / 1048576).toFixed(0)} MiB`;

function units(results: ComponentSyncResult[]): number {
  return results.reduce((n, r) => n + r.added + r.changed, 0);
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const value = await fn();
  return [value, (performance.now() - t) / 1000];
}

function checkOk(results: ComponentSyncResult[]): void {
  for (const r of results) if (!r.ok) throw new Error(`${r.project}/${r.component}: ${r.error}`);
}

const work = await tempDir('tms-bench-sync-');
const files = Object.fromEntries(
  readdirSync(source)
    .filter((n) => /^keepassxc_.*\.ts$/.test(n))
    .map((n) => [`share/translations/${n}`, readFileSync(path.join(source, n))]),
);
const bytes = Object.values(files).reduce((n, b) => n + b.length, 0);
await createUpstream({ dir: path.join(work, 'upstream', 'keepassxc.git'), files });
execFileSync('git', ['gc', '-q'], { cwd: path.join(work, 'upstream', 'keepassxc.git') });
const server = await startGitServer({ root: path.join(work, 'upstream') });

function configFor(copies: number, dbName: string): Config {
  const components = Array.from({ length: copies }, (_, i) => ({
    name: `KeePassXC ${i}`,
    slug: `keepassxc-${i}`,
    repo: server.url('keepassxc.git'),
    branch: 'main',
    filemask: 'share/translations/keepassxc_*.ts',
    file_format: 'ts',
    source_language: 'en',
  }));
  return parseConfig(
    JSON.stringify({ database: dbName, repos_dir: `repos-${dbName}`, projects: [{ name: 'KeePassXC', slug: 'keepassxc', components }] }),
    path.join(work, 'tms.config.json'),
  );
}

const lines: string[] = [];
const report = (line: string) => {
  lines.push(line);
  console.log(line);
};

report(`corpus: ${Object.keys(files).length} files, ${(bytes / 1048576).toFixed(1)} MiB of Qt TS`);

// Every core: BENCH_THREAD_COPIES (4) KeePassXC components linked to one working copy, cold, whole `tms sync`
// processes (bin/tms: build first) on one thread and on two (`--threads`), alternating, BENCH_THREAD_RUNS (3) each;
// BENCH_ONLY=threads measures only this
const THREAD_RUNS = Number(process.env.BENCH_THREAD_RUNS ?? 3);
if (THREAD_RUNS > 0) {
  const copies = Number(process.env.BENCH_THREAD_COPIES ?? 4);
  const runAt = (dir: string, threads: number): Promise<number> => {
    const components = Array.from({ length: copies }, (_, i) => ({
      name: `KeePassXC ${i}`,
      slug: `keepassxc-${i}`,
      ...(i === 0 ? { repo: server.url('keepassxc.git'), branch: 'main' } : { repo: 'weblate://keepassxc/keepassxc-0' }),
      filemask: 'share/translations/keepassxc_*.ts',
      file_format: 'ts',
      source_language: 'en',
    }));
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'tms.config.json');
    writeFileSync(file, JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'KeePassXC', slug: 'keepassxc', components }] }));
    const t = performance.now();
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(root, 'bin', 'tms'), '--config', file, 'sync', 'keepassxc', '--threads', String(threads)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
      child.on('close', (code) => (code === 0 ? resolve((performance.now() - t) / 1000) : reject(new Error(`tms sync: exit ${code}\n${err}`))));
    });
  };
  const times: Record<1 | 2, number[]> = { 1: [], 2: [] };
  const load = [os.loadavg()[0]!];
  for (let run = 0; run < THREAD_RUNS; run++) {
    for (const threads of run % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const)) {
      const dir = path.join(work, `threads-${threads}-${run}`);
      times[threads].push(await runAt(dir, threads));
      rmSync(dir, { recursive: true, force: true });
      load.push(os.loadavg()[0]!);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  report(
    `×${copies} linked components, cold \`tms sync\` processes, alternating (load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}): ` +
      `one thread ${times[1].map((x) => x.toFixed(1)).join(', ')} s, two ${times[2].map((x) => x.toFixed(1)).join(', ')} s; ` +
      `one / two ×${(median(times[1]) / median(times[2])).toFixed(2)} (medians), pairs ${times[1].map((x, i) => `×${(x / times[2][i]!).toFixed(2)}`).join(', ')}`,
  );
}
if (process.env.BENCH_ONLY === 'threads') {
  clearInterval(sampler);
  await server.close();
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

// One component: clone, cold, no-change, one file changed
{
  const config = configFor(1, 'one.sqlite');
  const store = await openStore(config.database);
  await store.write((tx) => applyConfig(tx, config));
  const project = config.projects[0];
  const component = project!.components[0];
  const { clone } = await import('../src/vcs/index.js');
  const [, cloneSeconds] = await timed(() => clone({ dir: path.join(work, 'clone-only'), url: component!.repoResolved, branch: 'main' }));
  report(`clone over loopback smart HTTP: ${(cloneSeconds * 1000).toFixed(0)} ms`);

  // The cold figure excludes the clone: it is the scan+parse+store of a fresh working copy.
  const dir = path.join(config.repos_dir, 'keepassxc', component!.slug);
  const { updateWorkingCopy } = await import('../src/sync/working-copy.js');
  await updateWorkingCopy(component!, dir, {});
  const [cold, coldSeconds] = await timed(() => syncProject(store, config, 'keepassxc', undefined, { force: true }));
  checkOk(cold);
  const coldUnits = units(cold);
  report(
    `cold scan+parse+store: ${coldUnits} units in ${(coldSeconds * 1000).toFixed(0)} ms = ${Math.round(coldUnits / coldSeconds)} units/s (target ≥ 220,000)`,
  );

  // five no-change re-syncs: the first pays for loading the code paths, the median is the steady state
  const noChange: number[] = [];
  let parsedNone = 0;
  for (let i = 0; i < 5; i++) {
    const [none, seconds] = await timed(() => syncProject(store, config, 'keepassxc'));
    checkOk(none);
    parsedNone += none[0]!.parsed;
    noChange.push(seconds);
  }
  const median = [...noChange].sort((a, b) => a - b)[2];
  report(
    `no-change re-sync (5 runs): first ${(noChange[0]! * 1000).toFixed(1)} ms, median ${(median! * 1000).toFixed(1)} ms, ` +
      `${parsedNone} files parsed = 1/${Math.round(coldSeconds / median!)} of cold (target ≤ 1/50)`,
  );

  const de = 'share/translations/keepassxc_de.ts';
  const text = files[de]!.toString('utf8').replace('<translation>Über KeePassXC</translation>', '<translation>Über KeePassXC!</translation>');
  await commitToUpstream(path.join(work, 'upstream', 'keepassxc.git'), { [de]: text });
  const [one, oneSeconds] = await timed(() => syncProject(store, config, 'keepassxc'));
  checkOk(one);
  report(
    `one-file re-sync (fetch + fast-forward + parse 1 file + store): ${(oneSeconds * 1000).toFixed(0)} ms, ${one[0]!.parsed} parsed, ${one[0]!.changed} unit changed (target ≤ 150 ms)`,
  );
  await store.close();
}

// Ten components over the same repository (720k units)
{
  const config = configFor(COPIES, 'ten.sqlite');
  const store = await openStore(config.database);
  await store.write((tx) => applyConfig(tx, config));
  const { updateWorkingCopy } = await import('../src/sync/working-copy.js');
  for (const component of config.projects[0]!.components) {
    await updateWorkingCopy(component, path.join(config.repos_dir, 'keepassxc', component.slug), {});
  }
  const rssBefore = process.memoryUsage().rss;
  peakRss = rssBefore;
  const [cold, coldSeconds] = await timed(() => syncProject(store, config, 'keepassxc', undefined, { force: true }));
  checkOk(cold);
  const n = units(cold);
  report(
    `×${COPIES} components: ${n} units cold in ${coldSeconds.toFixed(2)} s = ${Math.round(n / coldSeconds)} units/s; peak RSS ${mib(peakRss)} (target ≤ 300 MB)`,
  );
  const [none, noneSeconds] = await timed(() => syncProject(store, config, 'keepassxc'));
  checkOk(none);
  report(`×${COPIES} no-change re-sync: ${(noneSeconds * 1000).toFixed(0)} ms`);
  await store.close();
}

// Translate Toolkit's parse-only rate on the same files, when it is installed
try {
  const script = [
    'import sys, time, glob',
    'from translate.storage import ts2',
    'files = sorted(glob.glob(sys.argv[1] + "/keepassxc_*.ts"))',
    'data = [open(f, "rb").read() for f in files]',
    't = time.time(); n = 0',
    'for d in data:',
    '    s = ts2.tsfile.parsestring(d)',
    '    n += len([u for u in s.units if not u.isobsolete()])',
    'print(n, time.time() - t)',
  ].join('\n');
  const [n, seconds] = execFileSync(existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3', ['-c', script, source], { encoding: 'utf8' })
    .trim()
    .split(' ')
    .map(Number);
  report(`Translate Toolkit parse only: ${n} units in ${seconds!.toFixed(2)} s = ${Math.round(n! / seconds!)} units/s`);
} catch {
  report('Translate Toolkit not installed (python3-translate): no comparison');
}

// gettext PO: a cold sync of the largest PO project of the corpus (Audacity, 7 PO files and the POT) against
// Translate Toolkit's parse-only time on the same files
const audacity = path.join(corpus, 'audacity-audacity', 'au3', 'locale');
if (existsSync(audacity)) {
  const poFiles = Object.fromEntries(readdirSync(audacity).map((n) => [`au3/locale/${n}`, readFileSync(path.join(audacity, n))]));
  const poBytes = Object.values(poFiles).reduce((n, b) => n + b.length, 0);
  await createUpstream({ dir: path.join(work, 'upstream', 'audacity.git'), files: poFiles });
  const config = parseConfig(
    JSON.stringify({
      database: 'po.sqlite',
      repos_dir: 'repos-po',
      projects: [
        {
          name: 'Audacity',
          slug: 'audacity',
          components: [
            {
              name: 'Audacity',
              slug: 'audacity',
              repo: server.url('audacity.git'),
              branch: 'main',
              filemask: 'au3/locale/*.po',
              new_base: 'au3/locale/audacity.pot',
              file_format: 'po',
            },
          ],
        },
      ],
    }),
    path.join(work, 'tms.config.json'),
  );
  const store = await openStore(config.database);
  await store.write((tx) => applyConfig(tx, config));
  const { updateWorkingCopy } = await import('../src/sync/working-copy.js');
  await updateWorkingCopy(config.projects[0]!.components[0]!, path.join(config.repos_dir, 'audacity', 'audacity'), {});
  const [cold, coldSeconds] = await timed(() => syncProject(store, config, 'audacity', undefined, { force: true }));
  checkOk(cold);
  const n = units(cold);
  report(
    `\nPO: Audacity, ${Object.keys(poFiles).length - 1} PO files, ${(poBytes / 1048576).toFixed(1)} MiB: cold scan+parse+store ${n} units in ${(coldSeconds * 1000).toFixed(0)} ms = ${Math.round(n / coldSeconds)} units/s`,
  );
  await store.close();
  try {
    const script = [
      'import sys, time, glob',
      'from translate.storage import pypo',
      'files = sorted(glob.glob(sys.argv[1] + "/*.po"))',
      'data = [open(f, "rb").read() for f in files]',
      't = time.time(); n = 0',
      'for d in data:',
      '    s = pypo.pofile.parsestring(d)',
      '    n += len([u for u in s.units if not (u.isobsolete() or u.isheader() or u.isblank())])',
      'print(n, time.time() - t)',
    ].join('\n');
    const [tn, tSeconds] = execFileSync(existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3', ['-c', script, audacity], { encoding: 'utf8' })
      .trim()
      .split(' ')
      .map(Number);
    report(
      `PO: Translate Toolkit parse only: ${tn} units in ${tSeconds!.toFixed(2)} s = ${Math.round(tn! / tSeconds!)} units/s; ` +
        `the tms cold sync (parse, checks, store) takes ${(coldSeconds / tSeconds!).toFixed(2)}x its time`,
    );
  } catch {
    report('PO: Translate Toolkit not installed (python3-translate): no comparison');
  }
}

clearInterval(sampler);
await server.close();
rmSync(work, { recursive: true, force: true });
console.log(`\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
