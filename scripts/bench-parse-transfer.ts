// `npm run bench:parse-transfer`: what handing parsed units from a parse worker to the sync costs, by structured clone
// of the unit objects against the columnar encoding the parse pool sends (every text in one string, numbers and hashes
// in typed arrays): the sending thread's encode + serialize, the receiving thread's deserialize + decode, KeePassXC's
// files; and what starting a parse worker costs against parsing a small component on the sync's own thread.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import fg from 'fast-glob';
import { parseConfig } from '../src/config/config.js';
import type { ParsedUnit } from '../src/domain/unit.js';
import { getFormat } from '../src/formats/registry.js';
import { columnarUnits, unitsFromColumns } from '../src/sync/parse-job.js';
import { createParsePool } from '../src/sync/parse-pool.js';
import { parseChanged, planFiles } from '../src/sync/scan.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
const files = fg.sync('keepassxreboot-keepassxc/share/translations/keepassxc_*.ts', { cwd: corpus }).sort();
if (files.length === 0) {
  console.log(`bench:parse-transfer: KeePassXC is not in the corpus at ${corpus}; set TMS_CORPUS. Nothing measured.`);
  process.exit(0);
}
const ts = getFormat('ts');
const parsed: ParsedUnit[][] = files.map((f) => {
  const code = /_([^_.]+(?:_[^.]+)?)\.ts$/.exec(f)![1]!;
  return ts.parse(readFileSync(path.join(corpus, f)), { filename: f, language: code, sourceLanguage: 'en' }).units;
});
const count = parsed.reduce((n, u) => n + u.length, 0);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const results = { clone: { send: [] as number[], receive: [] as number[], bytes: 0 }, columnar: { send: [] as number[], receive: [] as number[], bytes: 0 } };
for (let run = 0; run < RUNS; run++) {
  // alternating, each file as one message (a component's file as the pool sends it)
  let buffers: Buffer[] = [];
  results.clone.send.push(time(() => (buffers = parsed.map((units) => serialize(units)))));
  results.clone.bytes = buffers.reduce((n, b) => n + b.length, 0);
  results.clone.receive.push(
    time(() => {
      for (const b of buffers) deserialize(b);
    }),
  );
  results.columnar.send.push(time(() => (buffers = parsed.map((units) => serialize(columnarUnits(units))))));
  results.columnar.bytes = buffers.reduce((n, b) => n + b.length, 0);
  results.columnar.receive.push(
    time(() => {
      for (const b of buffers) unitsFromColumns(deserialize(b));
    }),
  );
}
console.log(`KeePassXC: ${files.length} files, ${count} units; median of ${RUNS} alternating runs (ms)`);
console.log('| encoding | send (worker) | receive (sync thread) | bytes |');
console.log('|---|---|---|---|');
for (const [name, r] of Object.entries(results)) {
  console.log(`| ${name} | ${median(r.send).toFixed(1)} | ${median(r.receive).toFixed(1)} | ${(r.bytes / 1048576).toFixed(1)} MiB |`);
}

// What a sync pays for a parse worker: starting the thread and loading the formats (a job with nothing to parse), its
// first parse of a small component (a new isolate: nothing compiled yet) and a later one, against this thread's
// (warm) parse of the same files. The compiled pool and worker when built (what `tms` runs), else the sources via tsx.
const dir = path.join(corpus, 'keepassxreboot-keepassxc');
const config = parseConfig(
  JSON.stringify({
    projects: [
      {
        name: 'K',
        slug: 'k',
        components: [{ name: 'K', slug: 'k', vcs: 'local', repo: 'local:', filemask: 'share/translations/keepassxc_*.ts', file_format: 'ts' }],
      },
    ],
  }),
  path.join(root, 'tms.config.json'),
);
const project = config.projects[0]!;
const component = project.components[0]!;
// a small component: KeePassXC's two smallest translations
const small = files
  .map((f) => f.slice('keepassxreboot-keepassxc/'.length))
  .sort((a, b) => statSync(path.join(dir, a)).size - statSync(path.join(dir, b)).size)
  .slice(0, 2);
const plan = planFiles(small, component, project, new Map());
const job = {
  dir,
  plan,
  component: { file_format: 'ts' as const, source_language: 'en' },
  known: [] as [string, string][],
  maxBytes: Number.POSITIVE_INFINITY,
};
const nothing = { ...job, known: plan.files.map((f) => [f.path, f.revision] as [string, string]) };
const here = () => parseChanged(dir, plan, component, new Map());
const compiled = path.join(root, 'dist', 'sync', 'parse-pool.js');
const { createParsePool: create } = (existsSync(compiled) ? await import(pathToFileURL(compiled).href) : { createParsePool }) as {
  createParsePool: typeof createParsePool;
};
const started: number[] = [];
const first: number[] = [];
const later: number[] = [];
const inProcess: number[] = [];
const timedAsync = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
for (let run = 0; run < RUNS; run++) {
  const pool = create(1, 0);
  started.push(await timedAsync(() => pool.parse(nothing, here)));
  first.push(await timedAsync(() => pool.parse(job, here)));
  for (let i = 0; i < 3; i++) await pool.parse(job, here);
  later.push(await timedAsync(() => pool.parse(job, here)));
  await pool.close();
  inProcess.push(await timedAsync(here));
}
const units = plan.files.length === 2 ? (await here()).get(plan.files[0]!.path) : undefined;
console.log(
  `\nA parse worker (${existsSync(compiled) ? 'compiled' : 'sources via tsx'}), medians of ${RUNS}: started with the formats loaded ${median(started).toFixed(1)} ms; ` +
    `a small component (${small.length} files, ${units?.status === 'parsed' ? units.store.units.length : '?'} units a file) parsed first ${median(first).toFixed(1)} ms, ` +
    `the fifth time ${median(later).toFixed(1)} ms; on this thread (warm) ${median(inProcess).toFixed(1)} ms`,
);
