// `npm run bench:search-fill`: what filling the search's index (units_fts, SQLite) costs after a first load, and what
// changes to it save. KeePassXC (72k units) synced once by this build; then each variant fills its own fresh index
// from those units, in process, the variants in turns (BENCH_ROUNDS rounds, 5), the first of a round alternating: the
// first variant as the store fills it (chunks of FILL_CHUNK_UNITS ids, a transaction each, FTS5's merging held off,
// then the segments merged in steps of MERGE_CHUNK_PAGES), the others in one statement or in chunks as named.
// Printed: each variant's median CPU time (this process, user + system), the median of its per-round ratios to the
// first variant, and the search on the index it built (BENCH_WORDS: medians of 9 of each word's count and first
// page of 100 rowids, summed over the words). BENCH_VARIANTS=<words> keeps the variants whose name has one of them
// (the first is always kept).
import { execFile, execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { searchText } from '../src/store/migrations.js';
import { FILL_CHUNK_UNITS, MERGE_CHUNK_PAGES } from '../src/store/search-fill.repo.js';
import { registerSearchFunctions } from '../src/store/unit-search.js';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { keepassxcFiles, keepassxcProjects, root } from './bench-lib.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const files = keepassxcFiles('bench:search-fill');
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const work = await tempDir('tms-bench-search-fill-');
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

await createUpstream({ dir: path.join(work, 'upstream', 'one.git'), files });
const gitServer = await startGitServer({ root: path.join(work, 'upstream') });
const configFile = path.join(work, 'tms.config.json');
writeFileSync(configFile, JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: keepassxcProjects(gitServer.url('one.git')) }));
// the git server answers from this process: the sync runs beside it, not blocking it
await promisify(execFile)(process.execPath, [path.join(root, 'bin', 'tms'), '--config', configFile, 'sync', 'keepassxc']);
await gitServer.close();
const store = path.join(work, 'tms.sqlite');

const TABLE = "CREATE VIRTUAL TABLE units_fts USING fts5(source, target, context, content='', contentless_delete=1, tokenize='trigram case_sensitive 1'";
const LOWERED = 'SELECT id, tms_lower(source), tms_lower(target), tms_lower(context) FROM s.units';
// lower() where the text is ASCII only (as many characters as bytes): there it equals toLowerCase
const ascii = (c: string) => `CASE WHEN length(${c}) = octet_length(${c}) THEN lower(${c}) ELSE tms_lower(${c}) END`;

interface Variant {
  name: string;
  setup: string;
  /** One statement over `s.units`, or (`chunked`) one over its ids `BETWEEN ? AND ?`, a transaction a chunk. */
  fill: string;
  chunked?: boolean;
  /** After the chunks: the segments merged in steps (FTS5's `merge` with a negative count), a transaction each. */
  mergeAtEnd?: boolean;
}
const CHUNK = `INSERT INTO units_fts (rowid, source, target, context) SELECT id, ${searchText('source')}, ${searchText('target')}, ${searchText('context')} FROM s.units WHERE id BETWEEN ? AND ?`;
const all: Variant[] = [
  {
    name: 'chunks, merged once at the end (the fill now)',
    setup: `${TABLE}); INSERT INTO units_fts (units_fts, rank) VALUES ('automerge', 0), ('crisismerge', 64);`,
    fill: CHUNK,
    chunked: true,
    mergeAtEnd: true,
  },
  { name: 'chunks, FTS5 merging as they commit (before)', setup: `${TABLE});`, fill: CHUNK, chunked: true },
  {
    name: 'chunks, never merged',
    setup: `${TABLE}); INSERT INTO units_fts (units_fts, rank) VALUES ('automerge', 0), ('crisismerge', 64);`,
    fill: CHUNK,
    chunked: true,
  },
  {
    name: 'chunks, automerge 8',
    setup: `${TABLE}); INSERT INTO units_fts (units_fts, rank) VALUES ('automerge', 8);`,
    fill: CHUNK,
    chunked: true,
  },
  { name: 'now: tms_lower ×3', setup: `${TABLE});`, fill: `INSERT INTO units_fts (rowid, source, target, context) ${LOWERED}` },
  {
    name: 'lower() where ASCII',
    setup: `${TABLE});`,
    fill: `INSERT INTO units_fts (rowid, source, target, context) SELECT id, ${ascii('source')}, ${ascii('target')}, ${ascii('context')} FROM s.units`,
  },
  {
    name: 'no lowering (its floor)',
    setup: `${TABLE});`,
    fill: 'INSERT INTO units_fts (rowid, source, target, context) SELECT id, source, target, context FROM s.units',
  },
  {
    name: 'pgsz 16000',
    setup: `${TABLE}); INSERT INTO units_fts (units_fts, rank) VALUES ('pgsz', 16000);`,
    fill: `INSERT INTO units_fts (rowid, source, target, context) ${LOWERED}`,
  },
  {
    name: 'automerge 0',
    setup: `${TABLE}); INSERT INTO units_fts (units_fts, rank) VALUES ('automerge', 0);`,
    fill: `INSERT INTO units_fts (rowid, source, target, context) ${LOWERED}`,
  },
  {
    name: 'crisismerge 64',
    setup: `${TABLE}); INSERT INTO units_fts (units_fts, rank) VALUES ('crisismerge', 64);`,
    fill: `INSERT INTO units_fts (rowid, source, target, context) ${LOWERED}`,
  },
  {
    name: 'hashsize 64 MB',
    setup: `${TABLE}); INSERT INTO units_fts (units_fts, rank) VALUES ('hashsize', 67108864);`,
    fill: `INSERT INTO units_fts (rowid, source, target, context) ${LOWERED}`,
  },
  {
    name: 'source and context of source units only',
    setup: `${TABLE});`,
    fill: `INSERT INTO units_fts (rowid, source, target, context) SELECT u.id, CASE WHEN t.is_source = 1 THEN tms_lower(u.source) END, tms_lower(u.target),
      CASE WHEN t.is_source = 1 THEN tms_lower(u.context) END FROM s.units u JOIN s.translations t ON t.id = u.translation_id`,
  },
];
const only = process.env.BENCH_VARIANTS?.split(/[\s,]+/).filter(Boolean);
const variants = all.filter((v, i) => i === 0 || !only || only.some((w) => v.name.includes(w)));

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const WORDS = (process.env.BENCH_WORDS ?? 'file,password,open,name,error,datenbank,ключ,ouvrir').split(',');
/** The search on an index: each word's count and first page of 100 rowids (medians of 9, ms), summed over the words. */
function searchMs(db: Database.Database): { count: number; page: number } {
  const count = db.prepare('SELECT count(*) FROM units_fts WHERE units_fts MATCH ?');
  const page = db.prepare('SELECT rowid FROM units_fts WHERE units_fts MATCH ? ORDER BY rowid LIMIT 100');
  const median9 = (run: () => unknown) => {
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t = performance.now();
      run();
      times.push(performance.now() - t);
    }
    return times.sort((a, b) => a - b)[4]!;
  };
  const sum = { count: 0, page: 0 };
  for (const w of WORDS) {
    const q = `{source target context} : "${w}"`;
    sum.count += median9(() => count.get(q));
    sum.page += median9(() => page.all(q));
  }
  return sum;
}

/** One fill of a fresh index by `v`: CPU seconds, the index's size in pages, the search on it. */
function fill(v: Variant, n: number): { seconds: number; pages: number; search: { count: number; page: number } } {
  const file = path.join(work, `fill-${n}.sqlite`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  registerSearchFunctions(db);
  db.exec(`ATTACH '${store}' AS s`);
  db.exec(v.setup);
  const before = cpu();
  if (v.chunked) {
    const chunk = db.prepare(v.fill);
    const { lo, hi } = db.prepare('SELECT min(id) AS lo, max(id) AS hi FROM s.units').get() as { lo: number; hi: number };
    for (let a = lo; a <= hi; a += FILL_CHUNK_UNITS) db.transaction(() => chunk.run(a, Math.min(a + FILL_CHUNK_UNITS - 1, hi)))();
  } else {
    db.transaction(() => db.exec(v.fill))();
  }
  if (v.mergeAtEnd) {
    const changes = db.prepare('SELECT total_changes()').pluck();
    const merge = db.prepare(`INSERT INTO units_fts (units_fts, rank) VALUES ('merge', -${MERGE_CHUNK_PAGES})`);
    while (
      db.transaction(() => {
        const was = changes.get() as number;
        merge.run();
        return (changes.get() as number) - was >= 2;
      })()
    );
  }
  const seconds = cpu() - before;
  const pages = (db.prepare('PRAGMA main.page_count').get() as { page_count: number }).page_count;
  const search = searchMs(db);
  db.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  return { seconds, pages, search };
}

const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
const pages = new Map<string, number>();
const searches = new Map<string, { count: number; page: number }[]>(variants.map((v) => [v.name, []]));
let n = 0;
fill(variants[0]!, n++); // warm-up: the store's pages in the cache
for (let r = 0; r < ROUNDS; r++) {
  for (const v of r % 2 === 0 ? variants : [...variants].reverse()) {
    const got = fill(v, n++);
    times.get(v.name)!.push(got.seconds);
    pages.set(v.name, got.pages);
    searches.get(v.name)!.push(got.search);
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const base = times.get(variants[0]!.name)!;
for (const v of variants) {
  const t = times.get(v.name)!;
  const ratios = t.map((s, i) => s / base[i]!);
  console.log(
    `${v.name}: ${median(t).toFixed(3)} s CPU (${pages.get(v.name)} pages); ×${median(ratios).toFixed(3)} (rounds ${ratios.map((x) => x.toFixed(2)).join(', ')}); ` +
      `search: counts ${median(searches.get(v.name)!.map((x) => x.count)).toFixed(1)} ms, first pages ${median(searches.get(v.name)!.map((x) => x.page)).toFixed(2)} ms`,
  );
}
