// `npm run bench:memory` (on PostgreSQL: `tsx scripts/with-postgres.ts npm run bench:memory`): the translation memory on the KeePassXC corpus ×10 — what keeping it adds to a cold sync
// (the pre-filter index of the source strings; the units' translations are read where they are), fuzzy lookups
// (p50/p95, recall) with the trigram pre-filter against a scan of every source of a fitting length, and the
// `/api/memory/` records (count, first and deep pages).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, parseConfig } from '../src/config/config.js';
import type { MemoryStrategy } from '../src/store/index.js';
import { openStore } from '../src/store/index.js';
import type { Store } from '../src/store/index.js';
import { importMemory } from '../src/store/memory.repo.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { type ComponentSyncResult, syncProject } from '../src/sync/index.js';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { sqlOn } from '../test/helpers/store.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
const source = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
if (!existsSync(source)) {
  console.log(`bench:memory: the KeePassXC corpus is not at ${source}; set TMS_CORPUS. Nothing measured.`);
  process.exit(0);
}
const COPIES = Number(process.env.BENCH_COPIES ?? 10);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);

const work = await tempDir('tms-bench-memory-');
const files = Object.fromEntries(
  readdirSync(source)
    .filter((n) => /^keepassxc_.*\.ts$/.test(n))
    .map((n) => [`share/translations/${n}`, readFileSync(path.join(source, n))]),
);
await createUpstream({ dir: path.join(work, 'upstream', 'keepassxc.git'), files });
execFileSync('git', ['gc', '-q'], { cwd: path.join(work, 'upstream', 'keepassxc.git') });
const server = await startGitServer({ root: path.join(work, 'upstream'), keepAliveTimeoutMs: 10 * 60_000 });

function configFor(dbName: string): Config {
  const components = Array.from({ length: COPIES }, (_, i) => ({
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

const report = (line: string) => console.log(line);
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** A cold sync of every copy: the clone is untimed (the same for both), then scan + parse + store timed. */
async function coldSync(name: string, memory: boolean): Promise<{ store: Store; seconds: number; units: number }> {
  const config = configFor(path.join(work, name));
  const store = await openStore(config.database);
  // without the memory: source texts are not indexed (each INSERT into memory_sources is ignored before it happens)
  if (!memory) {
    if (store instanceof SqliteStore) {
      store.db.exec('DROP TRIGGER memory_sources_ai; CREATE TRIGGER memory_off BEFORE INSERT ON memory_sources BEGIN SELECT RAISE(IGNORE); END;');
    } else {
      const sql = sqlOn(store);
      await sql.run('CREATE FUNCTION memory_off() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$');
      await sql.run('CREATE TRIGGER memory_off BEFORE INSERT ON memory_sources FOR EACH ROW EXECUTE FUNCTION memory_off()');
    }
  }
  // clone first (not timed), from a store that is then thrown away
  const warm = await openStore(path.join(work, `${name}.clone.sqlite`));
  await syncProject(warm, config, 'keepassxc');
  await warm.close();
  const t = performance.now();
  const results: ComponentSyncResult[] = await syncProject(store, config, 'keepassxc');
  const seconds = (performance.now() - t) / 1000;
  for (const r of results) if (!r.ok) throw new Error(`${r.component}: ${r.error}`);
  return { store, seconds, units: results.reduce((n, r) => n + r.added + r.changed, 0) };
}

report(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
);
report(`corpus: KeePassXC, ${Object.keys(files).length} files, ×${COPIES} components`);

// 1. what keeping the memory adds to a cold sync: alternate without and with it
const runs: { memory: boolean; seconds: number }[] = [];
let store: Store | undefined;
/** A loopback `git http-backend` request can be reset on a loaded machine: such a run is started over (and said). */
async function coldSyncRetried(name: string, memory: boolean): Promise<Awaited<ReturnType<typeof coldSync>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await coldSync(attempt === 1 ? name : `${name}.retry${attempt}`, memory);
    } catch (e) {
      if (attempt >= 3 || !/cannot reach the remote/.test(String(e))) throw e;
      report(`(${name}: ${(e as Error).message}; started over)`);
    }
  }
}
for (const [i, memory] of [false, true, false, true].entries()) {
  const r = await coldSyncRetried(`run${i}.sqlite`, memory);
  runs.push({ memory, seconds: r.seconds });
  report(`cold sync ${memory ? 'with' : 'without'} memory: ${r.seconds.toFixed(2)} s, ${r.units} units`);
  if (memory && i === 3) store = r.store;
  else await r.store.close();
}
const best = (m: boolean) => Math.min(...runs.filter((r) => r.memory === m).map((r) => r.seconds));
report(`memory build overhead (best of 2 each): ${(((best(true) - best(false)) / best(false)) * 100).toFixed(1)} %`);

const sql = sqlOn(store!);
const { lookupMemory, countMemory, listMemory } = await import('../src/store/memory.repo.js');
const sources = (await sql.value<number>('SELECT count(*) FROM memory_sources'))!;
const units = (await sql.value<number>('SELECT count(*) FROM units'))!;
{
  let t = performance.now();
  const records = await store!.read(countMemory);
  const countMs = performance.now() - t;
  t = performance.now();
  await store!.read((tx) => listMemory(tx, { limit: 50, offset: 0 }));
  const firstMs = performance.now() - t;
  t = performance.now();
  await store!.read((tx) => listMemory(tx, { limit: 50, offset: Math.max(0, records - 50) }));
  const lastMs = performance.now() - t;
  report(`memory: ${units} units in the store, ${records} records (units' translations), ${sources} distinct sources indexed`);
  report(`/api/memory/ records: count ${countMs.toFixed(0)} ms, first page of 50 ${firstMs.toFixed(1)} ms, last page ${lastMs.toFixed(0)} ms`);
}
const en = (await sql.value<number>("SELECT id FROM languages WHERE code = 'en'"))!;
const de = (await sql.value<number>("SELECT id FROM languages WHERE code = 'de'"))!;

// 2. queries: real source strings with one edit in about every eighth character (a changed upstream string)
let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const texts = (await sql.values<string>('SELECT text FROM memory_sources WHERE length BETWEEN 8 AND 200')).filter(() => random() < 0.5);
const queries = Array.from({ length: SAMPLES }, () => {
  const chars = [...texts[Math.floor(random() * texts.length)]!];
  const edits = Math.max(1, Math.floor(chars.length / 8));
  for (let e = 0; e < edits; e++) chars.splice(Math.floor(random() * chars.length), 1, 'xyz'[Math.floor(random() * 3)]!);
  return chars.join('');
});

async function measure(strategy: MemoryStrategy, qs: string[]): Promise<{ times: number[]; best: (number | undefined)[] }> {
  const times: number[] = [];
  const bestScores: (number | undefined)[] = [];
  const v = { projects: null, userId: null };
  for (const q of qs) {
    const t = performance.now();
    const m = await store!.read((tx) => lookupMemory(tx, q, en, de, v, { strategy }));
    times.push(performance.now() - t);
    bestScores.push(m[0]?.similarity);
  }
  return { times, best: bestScores };
}

for (const phase of ['the synced memory', `plus ${COPIES} imported copies with distinct sources`]) {
  if (phase !== 'the synced memory') {
    const rows = await sql.rows<{ source: string; target: string }>(
      `SELECT DISTINCT u.source, u.target FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE t.language_id = ? AND t.is_source = 0 AND u.state >= 20 AND u.state < 100 AND u.target <> ''`,
      de,
    );
    const t = performance.now();
    for (let copy = 1; copy <= COPIES; copy++) {
      await store!.write((tx) =>
        importMemory(
          tx,
          rows.map((r) => ({
            source: `${r.source} (${copy})`,
            target: `${r.target} (${copy})`,
            sourceLanguage: 'en',
            targetLanguage: 'de',
            origin: `copy-${copy}`,
          })),
          { kind: 'shared' },
        ),
      );
    }
    const n = await sql.value('SELECT count(*) FROM memory_sources');
    const entries = await sql.value('SELECT count(*) FROM memory');
    report(
      `imported ${COPIES} copies of the German entries with distinct sources in ${((performance.now() - t) / 1000).toFixed(1)} s: ${n} distinct sources, ${entries} imported entries`,
    );
  }
  await measure('trigram', queries.slice(0, 20));
  const trigram = await measure('trigram', queries);
  const scanQueries = queries.slice(0, Math.min(queries.length, 60));
  const scan = await measure('scan', scanQueries);
  let found = 0;
  let same = 0;
  for (let i = 0; i < scanQueries.length; i++) {
    if (scan.best[i] === undefined) continue;
    found++;
    if (trigram.best[i] === scan.best[i]) same++;
  }
  report(
    `${phase}: trigram lookup p50 ${percentile(trigram.times, 50).toFixed(2)} ms, p95 ${percentile(trigram.times, 95).toFixed(2)} ms, max ${Math.max(...trigram.times).toFixed(1)} ms (${queries.length} queries)`,
  );
  report(
    `${phase}: scan lookup p50 ${percentile(scan.times, 50).toFixed(2)} ms, p95 ${percentile(scan.times, 95).toFixed(2)} ms (${scanQueries.length} queries)`,
  );
  report(`${phase}: trigram finds the scan's best similarity in ${same}/${found} queries that have a match ≥ 75 %`);
}
await store!.close();
await server.close();
