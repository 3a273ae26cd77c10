// Formats benchmark: parse and one-edit write throughput per format over the shared corpus, plus Translate Toolkit for scale.
//
// Each set is measured in a process of its own (this script again, with BENCH_SET); a set with a Translate Toolkit anchor
// is then timed again against it, the two sides in turns (toolkit, tms, three times). Run: npm run bench:formats
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
/** Untimed passes before each timed section of the table: with 3, the JIT was still compiling during the small sets' timed passes. */
const WARMUP = 15;

/**
 * How both sides of an anchor comparison are timed, tms and Translate Toolkit alike: `rounds` processes each, the two
 * sides in turns (toolkit, tms, toolkit, tms…) so that the load of a shared machine falls on both; in each process
 * untimed passes until `warmSeconds` of CPU (at least one, at most `warmMax`), then timed passes until `seconds` of
 * CPU, at least `min` and at most `max`; the median of all the timed passes of a side in CPU time. A small set gets 10
 * timed passes a process, 30 a side; a set whose toolkit pass takes a second or two, one warm-up and one timed pass a
 * process on that side. The warm-up is a time and not a count: after 15 passes of 1.5 ms V8 was still compiling (on
 * threads whose CPU time counts), and the next ten passes took ×1.3–1.5 as long as later ones; CPython, without a JIT,
 * is at its pace after the first pass and loses nothing by the longer warm-up.
 */
const ANCHOR = { rounds: 3, warmMax: 2000, warmSeconds: 1, min: 1, max: 10, seconds: 0.8 };

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

/** A set's files, and for a monolingual set its template's bytes and context (parsed again in each pass, as a sync does). */
interface LoadedSet {
  files: LoadedFile[];
  template: { bytes: Uint8Array; ctx: FormatContext } | null;
}

function corpusDir(): string | null {
  for (const dir of [process.env.TMS_CORPUS, path.resolve(repoRoot, '..', 'shared', 'corpus')]) {
    if (dir && existsSync(path.join(dir, 'README.md'))) return dir;
  }
  return null;
}

function load(corpus: string, set: BenchSet): LoadedSet {
  const cwd = path.join(corpus, set.project);
  const files: LoadedFile[] = [];
  const sourceLanguage = set.sourceLanguage ?? 'en';
  const templateSource = set.template
    ? { bytes: readFileSync(path.join(cwd, set.template)), ctx: { filename: set.template, language: sourceLanguage, sourceLanguage } }
    : null;
  const template = templateSource ? getFormat(set.format).parseTemplate(templateSource.bytes, templateSource.ctx, false) : null;
  for (const mask of set.masks) {
    const [before, after = ''] = mask.split('*');
    for (const name of fg.sync(mask, { cwd }).sort()) {
      if (set.exclude?.includes(path.basename(name))) continue;
      const code = mask.includes('*') ? name.slice(before!.length, name.length - after.length) : '';
      const ctx: FormatContext = { filename: name, language: set.language ?? code, sourceLanguage, template };
      files.push({ name, bytes: readFileSync(path.join(cwd, name)), ctx });
    }
  }
  return { files, template: templateSource };
}

/**
 * What a sync does with a set's files (`parseChanged`): the template read once, with its own units as a changed
 * template's are (the toolkit's pass builds the template's units too), then each file with it, so that the template's
 * listing and identities are worked out in every pass and not once for all of them.
 */
function parseAsSync(format: Format, set: LoadedSet): void {
  const template = set.template ? format.parseTemplate(set.template.bytes, set.template.ctx, true) : null;
  for (const f of set.files) format.parse(f.bytes, { ...f.ctx, template });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** CPU seconds (user + system) of each timed pass under the `ANCHOR` rule, after its warm-up passes. */
function anchorPasses(pass: () => void): number[] {
  const cpuOf = () => {
    const before = process.cpuUsage();
    pass();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1e6;
  };
  let spent = 0;
  for (let n = 0; n < 1 || (n < ANCHOR.warmMax && spent < ANCHOR.warmSeconds); n++) spent += cpuOf();
  const runs: number[] = [];
  spent = 0;
  while (runs.length < ANCHOR.min || (runs.length < ANCHOR.max && spent < ANCHOR.seconds)) {
    runs.push(cpuOf());
    spent += runs.at(-1)!;
  }
  return runs;
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

// The toolkit's timing, the `ANCHOR` rule as in `anchorPasses` (its JSON is argv[1]); each snippet below defines
// read_all() (every file read once, returning the number of units) and ends with this. Standard output is muted while
// reading: Debian's aresource prints as it reads.
const TT_TIMING = `
import io, contextlib
rule = json.loads(sys.argv[1])
def cpu_of():
    c0 = time.process_time()
    global units
    units = read_all()
    return time.process_time() - c0
with contextlib.redirect_stdout(io.StringIO()):
    n, spent = 0, 0.0
    while n < 1 or (n < rule['warmMax'] and spent < rule['warmSeconds']):
        spent += cpu_of()
        n += 1
    runs, spent = [], 0.0
    while len(runs) < rule['min'] or (len(runs) < rule['max'] and spent < rule['seconds']):
        runs.append(cpu_of())
        spent += runs[-1]
print(json.dumps({"runs": runs, "units": units, "version": v.sver}))
`;

// Qt TS as Weblate reads it: context, source, target, notes and locations of every unit not obsolete.
const TT_TS_SNIPPET = `
import sys, time, json
from translate.storage import ts2
import translate.__version__ as v
data = [open(p, 'rb').read() for p in sys.argv[2:]]
def read(d):
    n = 0
    for u in ts2.tsfile.parsestring(d).units:
        if u.isobsolete():
            continue
        u.getcontext(), u.source, u.target, u.getnotes(), u.getlocations()
        n += 1
    return n
def read_all():
    return sum(read(d) for d in data)
${TT_TIMING}`;

// Translate Toolkit reading XLIFF as Weblate's wrappers use it: getid, source, target (rich: the placeables round trip
// Weblate's rich_to_xliff_string makes), the target state, notes and locations of every unit.
// Both sides are timed in CPU time (process_time / cpuUsage): on a shared machine wall time swings by 3x between runs.
const TT_XLIFF_SNIPPET = `
import sys, time, json
from lxml import etree
from translate.storage import xliff
from translate.storage.placeables.lisa import strelem_to_xml
import translate.__version__ as v
rich = sys.argv[2] == 'rich'
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
def read_all():
    return sum(read(d) for d in data)
${TT_TIMING}`;

// The toolkit side of a monolingual set: each file parsed with its language set first (as Weblate does), then
// id, source, target and notes read from every unit. A monolingual set's template is read the same way in each pass, as
// tms's side parses it in each pass: Weblate too parses a component's template once, as a store of its own.
const TT_STORE_SNIPPET = `
import sys, time, json, importlib
import translate.__version__ as v
module, cls = sys.argv[2].rsplit('.', 1)
store_class = getattr(importlib.import_module('translate.storage.' + module), cls)
files = [(p.split('=', 1)[0], open(p.split('=', 1)[1], 'rb').read()) for p in sys.argv[3:]]
def read(code, data):
    st = store_class()
    st.settargetlanguage(code)
    st.parse(data)
    n = 0
    for u in st.units:
        u.getid(), u.source, u.target, u.getnotes()
        n += 1
    return n
def read_all():
    return sum(read(code, d) for code, d in files)
${TT_TIMING}`;

/** The toolkit's side of a set (snippet and arguments after the rule's), and how it is named; null for a set without one. */
function toolkitSide(corpus: string, set: BenchSet, files: LoadedFile[]): { args: string[]; label: string } | null {
  const full = (f: LoadedFile) => path.join(corpus, set.project, f.name);
  if (set.format === 'ts' && set.project === SETS[0]!.project) {
    return { args: [TT_TS_SNIPPET, ...files.map(full)], label: 'ts2 parse + context/source/target/notes/locations of every unit' };
  }
  if (set.toolkit) {
    const template = set.template ? [`${set.sourceLanguage ?? 'en'}=${path.join(corpus, set.project, set.template)}`] : [];
    return { args: [TT_STORE_SNIPPET, set.toolkit, ...template, ...files.map((f) => `${f.ctx.language}=${full(f)}`)], label: set.toolkit };
  }
  if (set.format === 'xliff' || set.format === 'plainxliff') {
    const mode = set.format === 'xliff' ? 'rich' : 'plain';
    return { args: [TT_XLIFF_SNIPPET, mode, ...files.map(full)], label: `xliff (${mode})` };
  }
  return null;
}

/** What one set's own process measured. */
interface SetResult {
  /** The table's row, or why the set was skipped. */
  row: string;
  bytes: number;
  /** Median wall seconds of a parse of every file (the table). */
  seconds: number;
}

/**
 * Measures one set for the table: the parse and the one-edit write in wall time. Each set runs in a process of its
 * own: in one process, what earlier sets left behind (their garbage, V8's decisions about where to allocate) made a
 * later set's passes alternate between fast and twice as slow.
 */
function measureSet(corpus: string, set: BenchSet): SetResult {
  const format = getFormat(set.format);
  const loaded = load(corpus, set);
  const { files } = loaded;
  const label = `${set.format.padEnd(12)}${set.project.padEnd(36)}`;
  if (files.length === 0) return { row: `${label}no files`, bytes: 0, seconds: 0 };
  let units = 0;
  let edits: Array<UnitWrite | null>;
  try {
    for (const f of files) units += format.parse(f.bytes, f.ctx).units.length;
    edits = files.map((f) => editFor(format, f));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { row: `${label}skipped: ${message.split('\n')[0]}`, bytes: 0, seconds: 0 };
  }
  const bytes = files.reduce((n, f) => n + f.bytes.length, 0);
  const seconds = time(() => parseAsSync(format, loaded));
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
  return { row, bytes, seconds };
}

/** One tms round of an anchor comparison, in a process of its own (BENCH_ANCHOR): CPU seconds of each timed pass. */
function anchorRound(corpus: string, set: BenchSet): number[] {
  const format = getFormat(set.format);
  const loaded = load(corpus, set);
  return anchorPasses(() => parseAsSync(format, loaded));
}

/** Runs this script again for SETS[index] (the table's measure, or with `anchor` one round of tms's anchor timing). */
function inChild<T>(index: number, anchor = false): T {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_SET: String(index), BENCH_ANCHOR: anchor ? '1' : '' },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}

/** tms against Translate Toolkit on a set's files, both sides timed by the `ANCHOR` rule in turns. */
function anchorComparison(python: string, corpus: string, index: number): void {
  const set = SETS[index]!;
  const { files } = load(corpus, set);
  const side = toolkitSide(corpus, set, files);
  if (!side) return;
  const toolkitRuns: number[] = [];
  const tmsRuns: number[] = [];
  let toolkit = { units: 0, version: '' };
  for (let round = 0; round < ANCHOR.rounds; round++) {
    const [snippet, ...args] = side.args;
    const out = execFileSync(python, ['-c', snippet!, JSON.stringify(ANCHOR), ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const answer = JSON.parse(out) as { runs: number[]; units: number; version: string };
    toolkitRuns.push(...answer.runs);
    toolkit = answer;
    tmsRuns.push(...inChild<number[]>(index, true));
  }
  const megabytes = mb(files.reduce((n, f) => n + f.bytes.length, 0));
  const theirs = median(toolkitRuns);
  const ours = median(tmsRuns);
  console.log(
    `${set.format} (${set.project}): Translate Toolkit ${toolkit.version} ${side.label} ${(megabytes / theirs).toFixed(2)} MB/s ` +
      `(${toolkitRuns.length} passes, ${toolkit.units} units), tms ${(megabytes / ours).toFixed(1)} MB/s (${tmsRuns.length} passes) = ${(theirs / ours).toFixed(1)}x`,
  );
}

async function main(): Promise<void> {
  const corpus = corpusDir();
  if (!corpus) {
    console.log('corpus not found: set TMS_CORPUS or place it at ../shared/corpus');
    process.exitCode = 1;
    return;
  }
  console.log(`Formats benchmark: node ${process.version}, ${cpuModel()}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}`);
  console.log(
    `wall time, median of ${RUNS} runs after ${WARMUP} warm-up passes, each set in a process of its own; a monolingual set's template parsed in each pass; MB = 10^6 bytes\n`,
  );
  const header = `${'format'.padEnd(12)}${'project'.padEnd(36)}${'files'.padStart(6)}${'MB'.padStart(8)}${'units'.padStart(9)}`;
  console.log(`${header}${'parse MB/s'.padStart(12)}${'units/s'.padStart(11)}${'write MB/s'.padStart(12)}${'writes/s'.padStart(10)}`);

  const measured: number[] = [];
  const only = process.env.BENCH_FORMATS ? new Set(process.env.BENCH_FORMATS.split(',')) : null;
  SETS.forEach((set, index) => {
    if (only && !only.has(set.format)) return;
    const result = inChild<SetResult>(index);
    console.log(result.row);
    if (result.bytes > 0) measured.push(index);
  });

  console.log('');
  const python = findPython();
  if (!python) {
    console.log('Translate Toolkit not installed');
    return;
  }
  console.log(
    `Parse against Translate Toolkit on the same files, CPU time: each side the median of its passes over ${ANCHOR.rounds} processes in turns ` +
      `(toolkit, tms…), each process ${ANCHOR.min}-${ANCHOR.max} timed passes within ${ANCHOR.seconds} s after ${ANCHOR.warmSeconds} s of warm-up passes`,
  );
  for (const index of measured) {
    anchorComparison(python, corpus, index);
    const set = SETS[index]!;
    if (set.format === 'po') {
      const { files } = load(corpus, set);
      const gp = await gettextParserSeconds(files);
      const bytes = files.reduce((n, f) => n + f.bytes.length, 0);
      if (gp !== null) console.log(`po (${set.project}): gettext-parser ${(mb(bytes) / gp).toFixed(1)} MB/s wall (its own objects, no Weblate units)`);
    }
  }
}

if (process.env.BENCH_SET !== undefined) {
  const corpus = corpusDir();
  const set = SETS[Number(process.env.BENCH_SET)];
  if (!corpus || !set) throw new Error(`no set ${process.env.BENCH_SET} or no corpus`);
  console.log(JSON.stringify(process.env.BENCH_ANCHOR ? anchorRound(corpus, set) : measureSet(corpus, set)));
} else {
  await main();
}
