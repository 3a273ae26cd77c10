// Formats benchmark: parse and one-edit write throughput per format over the shared corpus, plus Translate Toolkit for scale.
//
// Each set is measured in a process of its own (this script again, with BENCH_SET). Run: npm run bench:formats
// (BENCH_RUNS=n to change the number of timed runs; BENCH_FORMATS=aresource,strings-utf8
// to time some format ids only; TMS_CORPUS to point at the corpus; TMS_PYTHON to choose the Python that has Translate Toolkit).
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
/** Timed passes of the CPU-time measurement: a median of 7 moved by half from run to run on a shared machine, of 31 by a tenth. */
const CPU_RUNS = Math.max(RUNS, 31);
/** Untimed passes before each timed section: with 3, the JIT was still compiling during the small sets' timed passes. */
const WARMUP = 15;

interface BenchSet {
  format: string;
  project: string;
  /** Masks relative to the project folder; the `*` part is the language code. */
  masks: string[];
  exclude?: string[];
  sourceLanguage?: string;
  /** Fixed target language (multilingual glossaries); otherwise the code from the file name. */
  language?: string;
  /** Monolingual sets: the template (read once, outside the timing) that every file is listed against. */
  template?: string;
  /** Translate Toolkit's store class (`module.Class` under translate.storage) timed on the same files. */
  toolkit?: string;
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
  {
    format: 'aresource',
    project: 'TeamNewPipe-NewPipe',
    masks: ['app/src/main/res/values-*/strings.xml'],
    template: 'app/src/main/res/values/strings.xml',
    toolkit: 'aresource.AndroidResourceFile',
  },
  {
    format: 'strings-utf8',
    project: 'mastodon-mastodon-ios',
    masks: ['MastodonSDK/Sources/MastodonLocalization/Resources/*.lproj/Localizable.strings'],
    template: 'MastodonSDK/Sources/MastodonLocalization/Resources/Base.lproj/Localizable.strings',
    toolkit: 'properties.stringsutf8file',
  },
  {
    format: 'stringsdict',
    project: 'mastodon-mastodon-ios',
    masks: ['MastodonSDK/Sources/MastodonLocalization/Resources/*.lproj/Localizable.stringsdict'],
    template: 'MastodonSDK/Sources/MastodonLocalization/Resources/Base.lproj/Localizable.stringsdict',
    toolkit: 'stringsdict.StringsDictFile',
  },
  { format: 'xliff', project: 'ghostfolio-ghostfolio', masks: ['apps/client/src/locales/messages*.xlf'] },
  { format: 'plainxliff', project: 'ghostfolio-ghostfolio', masks: ['apps/client/src/locales/messages*.xlf'] },
  { format: 'xliff', project: 'kimai-kimai', masks: ['translations/*.xlf'] },
  { format: 'plainxliff', project: 'kimai-kimai', masks: ['translations/*.xlf'] },
  { format: 'poxliff', project: 'kimai-kimai', masks: ['translations/*.xlf'] },
  { format: 'po', project: 'MidnightCommander-mc', masks: ['po/*.po'], toolkit: 'pypo.pofile' },
  { format: 'po', project: 'audacity-audacity', masks: ['au3/locale/*.po'], toolkit: 'pypo.pofile' },
];

/** gettext-parser (npm, a devDependency measured here only) on the same PO files: its own objects, no Weblate units. */
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
  const sourceLanguage = set.sourceLanguage ?? 'en';
  const template = set.template
    ? getFormat(set.format).parse(readFileSync(path.join(cwd, set.template)), { filename: set.template, language: sourceLanguage, sourceLanguage })
    : null;
  for (const mask of set.masks) {
    const [before, after = ''] = mask.split('*');
    for (const name of fg.sync(mask, { cwd }).sort()) {
      if (set.exclude?.includes(path.basename(name))) continue;
      const code = mask.includes('*') ? name.slice(before!.length, name.length - after.length) : '';
      const ctx: FormatContext = { filename: name, language: set.language ?? code, sourceLanguage, template };
      files.push({ name, bytes: readFileSync(path.join(cwd, name)), ctx });
    }
  }
  return files;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median CPU seconds (user + system) of `CPU_RUNS` passes after `warmup` untimed ones: steadier than wall time on a busy machine. */
function cpuTime(pass: () => void, warmup = WARMUP): number {
  for (let i = 0; i < warmup; i++) pass();
  const runs: number[] = [];
  for (let i = 0; i < CPU_RUNS; i++) {
    const before = process.cpuUsage();
    pass();
    const used = process.cpuUsage(before);
    runs.push((used.user + used.system) / 1e6);
  }
  return median(runs);
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
cpu = []
units = 0
for _ in range(runs):
    t0, c0 = time.perf_counter(), time.process_time()
    units = sum(read(d) for d in data)
    times.append(time.perf_counter() - t0)
    cpu.append(time.process_time() - c0)
times.sort()
cpu.sort()
print(json.dumps({"seconds": times[len(times) // 2], "cpu": cpu[len(cpu) // 2], "units": units, "version": v.sver}))
`;

// Translate Toolkit reading XLIFF as Weblate's wrappers use it: getid, source, target (rich: the placeables round trip
// Weblate's rich_to_xliff_string makes), the target state, notes and locations of every unit.
// Both sides are timed in CPU time (process_time / cpuUsage): on a shared machine wall time swings by 3x between runs.
const TT_XLIFF_SNIPPET = `
import sys, time, json
from lxml import etree
from translate.storage import xliff
from translate.storage.placeables.lisa import strelem_to_xml
import translate.__version__ as v
runs, rich = int(sys.argv[1]), sys.argv[2] == 'rich'
data = [open(p, 'rb').read() for p in sys.argv[3:]]
def rich_string(elements):
    root = etree.Element('e')
    for element in elements:
        strelem_to_xml(root, element)
    for child in root:
        if child.tag.startswith('{'):
            child.tag = child.tag[child.tag.index('}') + 1:]
    etree.cleanup_namespaces(root)
    return etree.tostring(root, encoding='unicode')[3:][:-4]
def read(d):
    store = xliff.xlifffile()
    store.parse(d)
    n = 0
    for u in store.units:
        u.getid(), u.source, u.target, u.getnotes(), u.getlocations()
        node = u.xmlelement.find(u.namespaced('target'))
        if node is not None:
            node.get('state')
        if rich:
            rich_string(u.rich_source)
            if u.target is not None:
                rich_string(u.rich_target)
        n += 1
    return n
for d in data: read(d)
times = []
units = 0
for _ in range(runs):
    t0 = time.process_time()
    units = sum(read(d) for d in data)
    times.append(time.process_time() - t0)
times.sort()
print(json.dumps({"seconds": times[len(times) // 2], "units": units, "version": v.sver}))
`;

/** Translate Toolkit on the files of an XLIFF set against tms's parse of the same files (`cpu`), both in CPU time. */
function xliffAnchor(python: string, corpus: string, set: BenchSet, cpu: number): void {
  const files = load(corpus, set);
  const paths = files.map((f) => path.join(corpus, set.project, f.name));
  const mode = set.format === 'xliff' ? 'rich' : 'plain';
  const out = execFileSync(python, ['-c', TT_XLIFF_SNIPPET, String(RUNS), mode, ...paths], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const tt = JSON.parse(out) as { seconds: number; units: number; version: string };
  const bytes = mb(files.reduce((n, f) => n + f.bytes.length, 0));
  console.log(
    `${set.format.padEnd(11)} ${set.project.padEnd(24)} TT ${tt.version} (${mode}) ${fmt(bytes / tt.seconds)} MB/s   tms ${fmt(bytes / cpu)} MB/s   ${(tt.seconds / cpu).toFixed(1)}x`,
  );
}

// The toolkit side of a monolingual set: each file parsed with its language set first (as Weblate does), then
// id, source, target and notes read from every unit. Standard output is muted: Debian's aresource prints while reading.
const TT_STORE_SNIPPET = `
import sys, time, json, io, contextlib, importlib
import translate.__version__ as v
module, cls = sys.argv[2].rsplit('.', 1)
store_class = getattr(importlib.import_module('translate.storage.' + module), cls)
files = [(p.split('=', 1)[0], open(p.split('=', 1)[1], 'rb').read()) for p in sys.argv[3:]]
runs = int(sys.argv[1])
def read(code, data):
    st = store_class()
    st.settargetlanguage(code)
    st.parse(data)
    n = 0
    for u in st.units:
        u.getid(), u.source, u.target, u.getnotes()
        n += 1
    return n
with contextlib.redirect_stdout(io.StringIO()):
    for code, d in files: read(code, d)
    times = []
    cpu = []
    units = 0
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        units = sum(read(code, d) for code, d in files)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
times.sort()
cpu.sort()
print(json.dumps({"seconds": times[len(times) // 2], "cpu": cpu[len(cpu) // 2], "units": units, "version": v.sver}))
`;

/** What one set's own process measured. */
interface SetResult {
  /** The table's row, or why the set was skipped. */
  row: string;
  bytes: number;
  /** Median wall seconds of a parse of every file (the table), and median CPU seconds after a longer warm-up (the anchors). */
  seconds: number;
  cpu: number;
}

/**
 * Measures one set: the parse in CPU time, then the table's parse and write in wall time. Each set runs in a process of its
 * own: in one process, what earlier sets left behind (their garbage, V8's decisions about where to allocate) made a
 * later set's passes alternate between fast and twice as slow.
 */
function measureSet(corpus: string, set: BenchSet): SetResult {
  const format = getFormat(set.format);
  const files = load(corpus, set);
  const label = `${set.format.padEnd(12)}${set.project.padEnd(36)}`;
  if (files.length === 0) return { row: `${label}no files`, bytes: 0, seconds: 0, cpu: 0 };
  let units = 0;
  let edits: Array<UnitWrite | null>;
  try {
    for (const f of files) units += format.parse(f.bytes, f.ctx).units.length;
    edits = files.map((f) => editFor(format, f));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { row: `${label}skipped: ${message.split('\n')[0]}`, bytes: 0, seconds: 0, cpu: 0 };
  }
  const bytes = files.reduce((n, f) => n + f.bytes.length, 0);
  const parse = () => {
    for (const f of files) format.parse(f.bytes, f.ctx);
  };
  // the parse in CPU time first, before the writes' garbage is in the heap; then the table's wall times
  const cpu = cpuTime(parse);
  const seconds = time(parse);
  const writeSeconds = time(() => {
    files.forEach((f, i) => {
      const edit = edits[i];
      if (edit) format.write(f.bytes, [edit], f.ctx);
    });
  });
  const written = edits.filter((e) => e !== null).length;
  const row =
    `${label}${String(files.length).padStart(6)}${fmt(mb(bytes), 2)}${String(units).padStart(9)}` +
    `${fmt(mb(bytes) / seconds).padStart(12)}${fmt(units / seconds, 0).padStart(11)}` +
    `${fmt(mb(bytes) / writeSeconds).padStart(12)}${fmt(written / writeSeconds, 0).padStart(10)}`;
  return { row, bytes, seconds, cpu };
}

/** Runs `measureSet` for SETS[index] in a child process (this script again, with BENCH_SET). */
function measureInChild(index: number): SetResult {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_SET: String(index) },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as SetResult;
}

async function main(): Promise<void> {
  const corpus = corpusDir();
  if (!corpus) {
    console.log('corpus not found: set TMS_CORPUS or place it at ../shared/corpus');
    process.exitCode = 1;
    return;
  }
  console.log(`Formats benchmark: node ${process.version}, ${cpuModel()}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}`);
  console.log(`median of ${RUNS} runs (CPU time: of ${CPU_RUNS}) after ${WARMUP} warm-up passes, each set in a process of its own; MB = 10^6 bytes\n`);
  const header = `${'format'.padEnd(12)}${'project'.padEnd(36)}${'files'.padStart(6)}${'MB'.padStart(8)}${'units'.padStart(9)}`;
  console.log(`${header}${'parse MB/s'.padStart(12)}${'units/s'.padStart(11)}${'write MB/s'.padStart(12)}${'writes/s'.padStart(10)}`);

  const results: Record<string, SetResult> = {};
  const only = process.env.BENCH_FORMATS ? new Set(process.env.BENCH_FORMATS.split(',')) : null;
  SETS.forEach((set, index) => {
    if (only && !only.has(set.format)) return;
    const result = measureInChild(index);
    console.log(result.row);
    if (result.bytes > 0) results[`${set.format}/${set.project}`] = result;
  });

  console.log('');
  const python = findPython();
  if (!python) {
    console.log('Translate Toolkit not installed');
    return;
  }
  const keepass = only && !only.has('ts') ? [] : load(corpus, SETS[0]!);
  const paths = keepass.map((f) => path.join(corpus, SETS[0]!.project, f.name));
  if (keepass.length > 0) {
    const out = execFileSync(python, ['-c', TT_SNIPPET, String(Math.min(RUNS, 3)), ...paths], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const tt = JSON.parse(out) as { seconds: number; cpu: number; units: number; version: string };
    const bytes = keepass.reduce((n, f) => n + f.bytes.length, 0);
    const ours = results[`ts/${SETS[0]!.project}`];
    const ttRate = mb(bytes) / tt.seconds;
    console.log(`Translate Toolkit ${tt.version} (ts2 parse + context/source/target/notes/locations of every unit) on ${SETS[0]!.project}:`);
    console.log(`  ${ttRate.toFixed(1)} MB/s, ${(tt.units / tt.seconds).toFixed(0)} units/s`);
    if (ours) {
      const cpu = ours.cpu;
      console.log(
        `tms ts parse is ${(mb(ours.bytes) / ours.seconds / ttRate).toFixed(1)}x Translate Toolkit's speed on the same files; ` +
          `CPU time: toolkit ${(mb(bytes) / tt.cpu).toFixed(2)} MB/s, tms ${(mb(bytes) / cpu).toFixed(1)} MB/s = ${(tt.cpu / cpu).toFixed(1)}x`,
      );
    }
  }

  for (const set of SETS) {
    const mine = results[`${set.format}/${set.project}`];
    if (!set.toolkit || !mine) continue;
    const files = load(corpus, set);
    const args = files.map((f) => `${f.ctx.language}=${path.join(corpus, set.project, f.name)}`);
    const answer = execFileSync(python, ['-c', TT_STORE_SNIPPET, String(Math.min(RUNS, 3)), set.toolkit, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const store = JSON.parse(answer) as { seconds: number; cpu: number; units: number };
    const cpu = mine.cpu;
    const rate = mb(mine.bytes) / store.seconds;
    console.log(
      `${set.format} (${set.project}): Translate Toolkit ${set.toolkit} ${rate.toFixed(2)} MB/s, ${(store.units / store.seconds).toFixed(0)} units/s; ` +
        `tms ${(mb(mine.bytes) / mine.seconds).toFixed(1)} MB/s = ${(mb(mine.bytes) / mine.seconds / rate).toFixed(1)}x; ` +
        `CPU time: toolkit ${(mb(mine.bytes) / store.cpu).toFixed(2)} MB/s, tms ${(mb(mine.bytes) / cpu).toFixed(1)} MB/s = ${(store.cpu / cpu).toFixed(1)}x`,
    );
    if (set.format === 'po') {
      const gp = await gettextParserSeconds(files);
      if (gp !== null) console.log(`po (${set.project}): gettext-parser ${(mb(mine.bytes) / gp).toFixed(1)} MB/s (its own objects, no Weblate units)`);
    }
  }

  const xliffSets = SETS.filter((set) => (set.format === 'xliff' || set.format === 'plainxliff') && (!only || only.has(set.format)));
  if (xliffSets.length > 0) console.log('\nXLIFF parse against Translate Toolkit reading the same files as Weblate does (CPU time):');
  for (const set of xliffSets) {
    const mine = results[`${set.format}/${set.project}`];
    if (mine) xliffAnchor(python, corpus, set, mine.cpu);
  }
}

if (process.env.BENCH_SET !== undefined) {
  const corpus = corpusDir();
  const set = SETS[Number(process.env.BENCH_SET)];
  if (!corpus || !set) throw new Error(`no set ${process.env.BENCH_SET} or no corpus`);
  console.log(JSON.stringify(measureSet(corpus, set)));
} else {
  await main();
}
