// `npm run bench:catalog`: the catalog's first load (`loadCatalog`) over a kept store, one whole node process a load, by
// several built checkouts in turns: its wall time and the JavaScript heap it keeps (after a full collection).
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** CATALOG_DB=<a SQLite store>: read by every checkout (none of them may need to migrate it). */
const database = process.env.CATALOG_DB;
if (!database) {
  console.log('bench:catalog: set CATALOG_DB to a SQLite store (a copy: opening it seeds and migrates). Nothing measured.');
  process.exit(0);
}
/** CATALOG_CHECKOUTS=<built checkout>,<another>: each loads the catalog once a round, in turns. */
const checkouts = (process.env.CATALOG_CHECKOUTS ?? root).split(',').map((c) => path.resolve(c));
const ROUNDS = Number(process.env.CATALOG_ROUNDS ?? 3);

// one process a load: the store opened, then the catalog read with the heap measured around it (collected both times)
const child = `
const [dist, db] = process.argv.slice(1);
const { openStore } = await import(dist + '/store/index.js');
const { loadCatalog } = await import(dist + '/store/catalog.repo.js');
const store = await openStore(db);
gc(); gc();
const before = process.memoryUsage();
const cpu = process.cpuUsage();
const t = performance.now();
const catalog = await store.read(loadCatalog);
const ms = performance.now() - t;
const cpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
const peak = process.memoryUsage().rss;
gc(); gc();
const after = process.memoryUsage();
console.log(JSON.stringify({ ms, cpuMs, heap: after.heapUsed - before.heapUsed, rss: after.rss - before.rss, peakRss: peak - before.rss, translations: catalog.translations.length }));
await store.close();
`;

const MiB = (n: number) => (n / 1024 / 1024).toFixed(1);
const results = new Map<string, { ms: number; cpuMs: number; heap: number; rss: number; peakRss: number; translations: number }[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const checkout of round % 2 === 0 ? checkouts : [...checkouts].reverse()) {
    const load = os.loadavg()[0]!.toFixed(1);
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', child, path.join(checkout, 'dist'), database], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    const r = JSON.parse(out.trim().split('\n').at(-1)!);
    if (!results.has(checkout)) results.set(checkout, []);
    results.get(checkout)!.push(r);
    console.log(
      `round ${round + 1} ${path.basename(checkout)} (load ${load}): ${r.translations} translations, ${r.ms.toFixed(0)} ms (CPU ${r.cpuMs.toFixed(0)} ms), heap kept ${MiB(r.heap)} MiB, RSS +${MiB(r.rss)} MiB (+${MiB(r.peakRss)} before collecting)`,
    );
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
console.log('\n| checkout | load (median) | CPU | heap kept | RSS added |\n|---|---:|---:|---:|---:|');
for (const [checkout, list] of results) {
  console.log(
    `| ${path.basename(checkout)} | ${median(list.map((r) => r.ms)).toFixed(0)} ms | ${median(list.map((r) => r.cpuMs)).toFixed(0)} ms | ${MiB(median(list.map((r) => r.heap)))} MiB | ${MiB(median(list.map((r) => r.rss)))} MiB |`,
  );
}
