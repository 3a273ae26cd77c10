// Formats benchmark: parse and one-edit write throughput per format over the shared corpus, plus Translate Toolkit for scale.
//
// Run: npm run bench:formats   (BENCH_RUNS=n to change the number of timed runs; TMS_CORPUS to point at the corpus;
// TMS_PYTHON to choose the Python that has Translate Toolkit).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { State } from '../src/domain/unit.js';
import type { Format, FormatContext, UnitWrite } from '../src/formats/format.js';
import { getFormat } from '../src/formats/registry.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 7));
const WARMUP = 3;

interface BenchSet {
  format: string;
  project: string;
  /** Masks relative to the project folder; the `*` part is the language code. */
  masks: string[];
  exclude?: string[];
  sourceLanguage?: string;
  /** Fixed target language (multilingual glossaries); otherwise the code from the file name. */
  language?: string;
}

const SETS: BenchSet[] = [
  { format: 'ts', project: 'keepassxreboot-keepassxc', masks: ['share/translations/keepassxc_*.ts'] },
  { format: 'ts', project: 'qbittorrent-qBittorrent', masks: ['src/lang/qbittorrent_*.ts', 'src/webui/www/translations/webui_*.ts'] },
  { format: 'ts', project: 'flameshot-org-flameshot', masks: ['data/translations/Internationalization_*.ts'] },
  { format: 'json', project: 'louislam-uptime-kuma', masks: ['src/lang/*.json'] },
  { format: 'json', project: 'LemmyNet-lemmy-translations', masks: ['backend/*.json'] },
  { format: 'i18next', project: 'LemmyNet-lemmy-translations', masks: ['frontend/*.json'] },
  { format: 'json-nested', project: 'excalidraw-excalidraw', masks: ['packages/excalidraw/locales/*.json'], exclude: ['percentages.json'] },
  { format: 'tbx', project: 'Slicer-SlicerLanguageTranslations', masks: ['glossary/*.tbx'] },
  { format: 'tbx', project: 'pan93412-kde-cn', masks: ['terms.tbx'], sourceLanguage: 'en-US', language: 'zh-CN' },
  { format: 'tbx', project: 'DeNederlandscheBank-termate', masks: ['data/examples/*.tbx'], language: 'es' },
  { format: 'po', project: 'MidnightCommander-mc', masks: ['po/*.po'] },
  { format: 'po', project: 'audacity-audacity', masks: ['au3/locale/*.po'] },
];

/** The PO sets, compared with Translate Toolkit and gettext-parser below. */
const PO_SETS = SETS.filter((s) => s.format === 'po');

interface LoadedFile {
  name: string;
  bytes: Uint8Array;
  ctx: FormatContext;
}

function corpusDir(): string | null {
  for (const dir of [process.env.TMS_CORPUS, path.resolve(repoRoot, '..', 'shared', 'corpus')]) {
    if (dir && existsSync(path.join(dir, 'README.md'))) return dir;
  }
  return null;
}

function load(corpus: string, set: BenchSet): LoadedFile[] {
  const cwd = path.join(corpus, set.project);
  const files: LoadedFile[] = [];
  for (const mask of set.masks) {
    const [before, after = ''] = mask.split('*');
    for (const name of fg.sync(mask, { cwd }).sort()) {
      if (set.exclude?.includes(path.basename(name))) continue;
      const code = mask.includes('*') ? name.slice(before!.length, name.length - after.length) : '';
      const ctx: FormatContext = { filename: name, language: set.language ?? code, sourceLanguage: set.sourceLanguage ?? 'en' };
      files.push({ name, bytes: readFileSync(path.join(cwd, name)), ctx });
    }
  }
  return files;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median seconds of `RUNS` timed passes after `WARMUP` untimed ones. */
function time(pass: () => void): number {
  for (let i = 0; i < WARMUP; i++) pass();
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    pass();
    runs.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return median(runs);
}

/** One edit per file: the middle unit gets a new target. */
function editFor(format: Format, file: LoadedFile): UnitWrite | null {
  const units = format.parse(file.bytes, file.ctx).units;
  const unit = units[Math.floor(units.length / 2)];
  if (!unit) return null;
  return { context: unit.context, source: unit.source, target: unit.source.map((s) => `${s} ✓`), state: State.TRANSLATED };
}

const mb = (bytes: number) => bytes / 1e6;
const fmt = (n: number, digits = 1) => n.toFixed(digits).padStart(8);

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) return line.split(':')[1]!.trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? 'unknown CPU';
}

function findPython(): string | null {
  const candidates = [process.env.TMS_PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => !!c);
  for (const py of candidates) {
    const r = spawnSync(py, ['-c', 'import translate'], { stdio: 'ignore' });
    if (r.status === 0) return py;
  }
  return null;
}

const TT_PO_SNIPPET = `
import sys, time, json
from translate.storage import pypo
import translate.__version__ as v
data = [open(p, 'rb').read() for p in sys.argv[2:]]
runs = int(sys.argv[1])
def read(d):
    n = 0
    for u in pypo.pofile.parsestring(d).units:
        if u.isobsolete() or u.isheader() or u.isblank():
            continue
        u.getcontext(), u.source, u.target, u.getnotes(), u.getlocations(), u.isfuzzy()
        n += 1
    return n
for d in data: read(d)
times = []
units = 0
for _ in range(runs):
    t0 = time.perf_counter()
    units = sum(read(d) for d in data)
    times.append(time.perf_counter() - t0)
times.sort()
print(json.dumps({"seconds": times[len(times) // 2], "units": units, "version": v.sver}))
`;

/** gettext-parser (npm) on the same PO files: a parse into its own objects, no Weblate units. */
async function gettextParserSeconds(files: LoadedFile[]): Promise<number | null> {
  try {
    // imported by a computed name: the package ships no types, and the benchmark runs without it too
    const name = 'gettext-parser';
    const { po } = (await import(name)) as { po: { parse: (b: Uint8Array) => unknown } };
    return time(() => {
      for (const f of files) po.parse(Buffer.from(f.bytes));
    });
  } catch {
    return null;
  }
}

const TT_SNIPPET = `
import sys, time, json
from translate.storage import ts2
import translate.__version__ as v
data = [open(p, 'rb').read() for p in sys.argv[2:]]
runs = int(sys.argv[1])
def read(d):
    n = 0
    for u in ts2.tsfile.parsestring(d).units:
        if u.isobsolete():
            continue
        u.getcontext(), u.source, u.target, u.getnotes(), u.getlocations()
        n += 1
    return n
for d in data: read(d)
times = []
units = 0
for _ in range(runs):
    t0 = time.perf_counter()
    units = sum(read(d) for d in data)
    times.append(time.perf_counter() - t0)
times.sort()
print(json.dumps({"seconds": times[len(times) // 2], "units": units, "version": v.sver}))
`;

async function main(): Promise<void> {
  const corpus = corpusDir();
  if (!corpus) {
    console.log('corpus not found: set TMS_CORPUS or place it at ../shared/corpus');
    process.exitCode = 1;
    return;
  }
  console.log(`Formats benchmark: node ${process.version}, ${cpuModel()}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}`);
  console.log(`median of ${RUNS} runs after ${WARMUP} warm-up passes; MB = 10^6 bytes\n`);
  const header = `${'format'.padEnd(12)}${'project'.padEnd(36)}${'files'.padStart(6)}${'MB'.padStart(8)}${'units'.padStart(9)}`;
  console.log(`${header}${'parse MB/s'.padStart(12)}${'units/s'.padStart(11)}${'write MB/s'.padStart(12)}${'writes/s'.padStart(10)}`);

  const results: Record<string, { seconds: number; bytes: number }> = {};
  // BENCH_FORMATS=po,ts: only these formats
  const only = process.env.BENCH_FORMATS?.split(',').map((f) => f.trim());
  for (const set of SETS.filter((s) => !only || only.includes(s.format))) {
    const format = getFormat(set.format);
    const files = load(corpus, set);
    const label = `${set.format.padEnd(12)}${set.project.padEnd(36)}`;
    if (files.length === 0) {
      console.log(`${label}no files`);
      continue;
    }
    let units = 0;
    let edits: Array<UnitWrite | null>;
    try {
      for (const f of files) units += format.parse(f.bytes, f.ctx).units.length;
      edits = files.map((f) => editFor(format, f));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (message.includes('not yet available')) console.log(`${label}skipped: the ${set.format} format is not yet available`);
      else console.log(`${label}skipped: ${message.split('\n')[0]}`);
      continue;
    }
    const bytes = files.reduce((n, f) => n + f.bytes.length, 0);
    const parseSeconds = time(() => {
      for (const f of files) format.parse(f.bytes, f.ctx);
    });
    const writeSeconds = time(() => {
      files.forEach((f, i) => {
        const edit = edits[i];
        if (edit) format.write(f.bytes, [edit], f.ctx);
      });
    });
    const written = edits.filter((e) => e !== null).length;
    results[`${set.format}/${set.project}`] = { seconds: parseSeconds, bytes };
    console.log(
      `${label}${String(files.length).padStart(6)}${fmt(mb(bytes), 2)}${String(units).padStart(9)}` +
        `${fmt(mb(bytes) / parseSeconds).padStart(12)}${fmt(units / parseSeconds, 0).padStart(11)}` +
        `${fmt(mb(bytes) / writeSeconds).padStart(12)}${fmt(written / writeSeconds, 0).padStart(10)}`,
    );
  }

  console.log('');
  const python = findPython();
  if (!python) {
    console.log('Translate Toolkit not installed');
    return;
  }
  if (!only || only.includes('ts')) {
    const keepass = load(corpus, SETS[0]!);
    const paths = keepass.map((f) => path.join(corpus, SETS[0]!.project, f.name));
    const out = execFileSync(python, ['-c', TT_SNIPPET, String(Math.min(RUNS, 3)), ...paths], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const tt = JSON.parse(out) as { seconds: number; units: number; version: string };
    const bytes = keepass.reduce((n, f) => n + f.bytes.length, 0);
    const ours = results[`ts/${SETS[0]!.project}`];
    const ttRate = mb(bytes) / tt.seconds;
    console.log(`Translate Toolkit ${tt.version} (ts2 parse + context/source/target/notes/locations of every unit) on ${SETS[0]!.project}:`);
    console.log(`  ${ttRate.toFixed(1)} MB/s, ${(tt.units / tt.seconds).toFixed(0)} units/s`);
    if (ours) console.log(`tms ts parse is ${(mb(ours.bytes) / ours.seconds / ttRate).toFixed(1)}x Translate Toolkit's speed on the same files`);
  }

  // gettext PO: tms (Weblate's units), Translate Toolkit's pypo (what Weblate parses with), gettext-parser (npm)
  const poFiles = PO_SETS.flatMap((set) => load(corpus, set).map((f) => ({ ...f, full: path.join(corpus, set.project, f.name) })));
  if (poFiles.length === 0 || (only && !only.includes('po'))) return;
  const poBytes = poFiles.reduce((n, f) => n + f.bytes.length, 0);
  const po = getFormat('po');
  const tmsSeconds = time(() => {
    for (const f of poFiles) po.parse(f.bytes, f.ctx);
  });
  const ttPo = JSON.parse(
    execFileSync(python, ['-c', TT_PO_SNIPPET, String(Math.min(RUNS, 3)), ...poFiles.map((f) => f.full)], { encoding: 'utf8', maxBuffer: 1 << 20 }),
  ) as { seconds: number; units: number; version: string };
  const gp = await gettextParserSeconds(poFiles);
  const tmsRate = mb(poBytes) / tmsSeconds;
  const ttPoRate = mb(poBytes) / ttPo.seconds;
  console.log(`\ngettext PO, ${poFiles.length} files of ${PO_SETS.map((s) => s.project).join(' and ')}, ${mb(poBytes).toFixed(2)} MB:`);
  console.log(`  tms po parse (Weblate's units):            ${tmsRate.toFixed(1).padStart(7)} MB/s`);
  console.log(`  Translate Toolkit ${ttPo.version} pypo (units' fields): ${ttPoRate.toFixed(1).padStart(7)} MB/s`);
  if (gp !== null) console.log(`  gettext-parser (its own objects):          ${(mb(poBytes) / gp).toFixed(1).padStart(7)} MB/s`);
  console.log(`tms po parse is ${(tmsRate / ttPoRate).toFixed(1)}x Translate Toolkit's speed on the same files`);
}

await main();
