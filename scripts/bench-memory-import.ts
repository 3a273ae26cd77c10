// `npm run bench:memory-import`: whole `tms memory import` processes on generated TMX files (10k, 60k and 300k
// entries by default), each beside its anchors in the same run: `node -e 0` and Translate Toolkit parsing the same
// file (Debian's /usr/bin/python3 with translate.storage.tmx), with the peak RSS where GNU time is installed.
//
// BENCH_SIZES=10000,60000 chooses the sizes; BENCH_BASELINE=/other/checkout/bin/tms times another build on the same
// files (sizes up to BENCH_BASELINE_MAX entries, default 60000: a quadratic build takes minutes beyond).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TMS = path.join(root, 'bin', 'tms');
const sizes = (process.env.BENCH_SIZES ?? '10000,60000,300000').split(',').map(Number);
const baseline = process.env.BENCH_BASELINE;
const baselineMax = Number(process.env.BENCH_BASELINE_MAX ?? 60_000);
const PYTHON = process.env.TMS_PYTHON ?? '/usr/bin/python3';
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

if (!existsSync(path.join(root, 'dist', 'cli', 'index.js'))) {
  console.log('bench:memory-import: not built (run npm run build). Nothing measured.');
  process.exit(0);
}

const work = mkdtempSync(path.join(os.tmpdir(), 'tms-bench-memory-import-'));
const report = (line: string) => console.log(line);

// Words of a software string table, with letters beyond ASCII in both languages.
const EN =
  'open close save file window document print settings user project translation string memory export import network password search replace folder account error message update download upload'.split(
    ' ',
  );
const DE =
  'öffnen schließen speichern Datei Fenster Dokument drucken Einstellungen Benutzer Projekt Übersetzung Zeichenkette Speicher exportieren importieren Netzwerk Passwort suchen ersetzen Ordner Konto Fehler Nachricht aktualisieren herunterladen hochladen'.split(
    ' ',
  );

/**
 * A TMX 1.4 file as translation tools write it: indented, several attributes per unit, a property now and then,
 * paired inline codes in one unit in ten, and a single `&amp;` near the start (a file with few ampersands is what
 * made the attribute reading quadratic).
 */
function generateTmx(entries: number): string {
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    '  <header creationtool="bench" creationtoolversion="1" datatype="PlainText" segtype="sentence" adminlang="en-US" srclang="en-US" o-tmf="bench"/>',
    '  <body>',
  ];
  for (let i = 0; i < entries; i++) {
    const words = 3 + random(8);
    const picks = Array.from({ length: words }, () => random(EN.length));
    let en = picks.map((k) => EN[k]).join(' ');
    let de = picks.map((k) => DE[k]).join(' ');
    en = `${en[0]!.toUpperCase()}${en.slice(1)} ${i}`;
    de = `${de[0]!.toUpperCase()}${de.slice(1)} ${i}`;
    if (i === 0) {
      en += ' &amp; more';
      de += ' &amp; mehr';
    }
    if (i % 10 === 3) {
      en = `<bpt i="1" x="1">{b}</bpt>${en}<ept i="1">{/b}</ept>`;
      de = `<bpt i="1" x="1">{b}</bpt>${de}<ept i="1">{/b}</ept>`;
    }
    out.push(`    <tu tuid="${i + 1}" creationdate="20260101T120000Z" creationid="bench" changedate="20260102T120000Z">`);
    if (i % 7 === 0) out.push(`      <prop type="x-context">screen-${random(50)}</prop>`);
    out.push(`      <tuv xml:lang="en-US"><seg>${en}</seg></tuv>`);
    out.push(`      <tuv xml:lang="de-DE"><seg>${de}</seg></tuv>`);
    out.push('    </tu>');
  }
  out.push('  </body>', '</tmx>', '');
  return out.join('\n');
}

interface Run {
  seconds: number;
  /** User + system CPU seconds (GNU time): less moved than the wall time by other processes on the cores. */
  cpu: number | null;
  rssMiB: number | null;
  stdout: string;
}

/** One whole process, timed from spawn to exit (peak RSS from GNU time when it is installed). */
function timed(command: string, args: string[]): Run {
  const t = performance.now();
  const r = GNU_TIME
    ? spawnSync(GNU_TIME, ['-f', 'bench-rss=%M bench-cpu=%U %S', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const rss = /bench-rss=(\d+) bench-cpu=([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  return { seconds, cpu: rss ? Number(rss[2]) + Number(rss[3]) : null, rssMiB: rss ? Number(rss[1]) / 1024 : null, stdout: r.stdout };
}

function importWith(bin: string, file: string, label: string, entries: number): Run {
  const dir = mkdtempSync(path.join(work, `${label}-`));
  const config = path.join(dir, 'tms.config.json');
  writeFileSync(config, JSON.stringify({ database: path.join(dir, 'tms.sqlite'), projects: [] }));
  // the store is created and migrated first (not timed): the import is what is measured
  spawnSync(process.execPath, [bin, '--config', config, 'user', 'list'], { encoding: 'utf8' });
  const run = timed(process.execPath, [bin, '--config', config, 'memory', 'import', file]);
  if (!run.stdout.includes(`imported ${entries} entries`)) throw new Error(`${label}: unexpected output: ${run.stdout}`);
  rmSync(dir, { recursive: true, force: true });
  return run;
}

const TT_SCRIPT = 'import sys\nfrom translate.storage import tmx\nprint(len(tmx.tmxfile.parsefile(sys.argv[1]).units))';
const haveTT = spawnSync(PYTHON, ['-c', 'import translate.storage.tmx'], { encoding: 'utf8' }).status === 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mib = (r: Run) => (r.rssMiB === null ? '' : ` (CPU ${r.cpu!.toFixed(2)} s, peak RSS ${r.rssMiB.toFixed(0)} MiB)`);

report(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}, ${new Date().toISOString().slice(0, 10)}`,
);
if (!haveTT) report(`(Translate Toolkit is not importable by ${PYTHON}: its anchor is left out)`);
try {
  for (const entries of sizes) {
    const file = path.join(work, `memory-${entries}.tmx`);
    writeFileSync(file, generateTmx(entries));
    const mb = statSync(file).size / 1e6;
    const node = median([0, 1, 2].map(() => timed(process.execPath, ['-e', '0']).seconds));
    const tt = haveTT ? timed(PYTHON, ['-c', TT_SCRIPT, file]) : null;
    if (tt && Number(tt.stdout.trim()) !== entries) throw new Error(`Translate Toolkit read ${tt.stdout.trim()} units, not ${entries}`);
    const tms = importWith(TMS, file, 'tms', entries);
    const parts = [`tms memory import ${tms.seconds.toFixed(2)} s${mib(tms)}`, `node -e 0 ${node.toFixed(2)} s`];
    if (tt) parts.push(`Translate Toolkit parse ${tt.seconds.toFixed(2)} s${mib(tt)} (tms ×${(tms.seconds / tt.seconds).toFixed(2)})`);
    if (baseline && entries <= baselineMax) {
      const before = importWith(baseline, file, 'baseline', entries);
      parts.push(`baseline ${before.seconds.toFixed(2)} s${mib(before)} (×${(before.seconds / tms.seconds).toFixed(1)} this build's time)`);
    }
    report(
      `${entries} entries (${mb.toFixed(1)} MB): ${parts.join('; ')}; ${Math.round(entries / tms.seconds)} entries/s; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
