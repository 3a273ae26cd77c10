// `npm run bench:parse-transfer`: what handing parsed units from a parse worker to the sync costs, by structured clone
// (what the parse pool sends) against a columnar encoding (every text in one string, numbers and hashes in typed
// arrays): the sending thread's encode + serialize, the receiving thread's deserialize + decode, KeePassXC's files.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import fg from 'fast-glob';
import type { ParsedUnit } from '../src/domain/unit.js';
import { getFormat } from '../src/formats/registry.js';
import { columnarUnits, unitsFromColumns } from '../src/sync/parse-job.js';

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
