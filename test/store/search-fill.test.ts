// The search's index filled after a first load's commit (SQLite's units_fts, search-fill.repo.ts; PostgreSQL's
// unit_search, pg/search-fill.ts): while the fill is behind, every search answers as the scan; writes during the fill
// (edits, syncs adding, changing and removing strings, strings deleted, a component removed) leave the index exact
// once it ends; a process killed during the fill leaves it for the next `tms sync` or `tms serve`, which complete it;
// on PostgreSQL, two stores (nodes) filling at once neither lose nor repeat a unit.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { parseUnitQuery } from '../../src/api/search.js';
import type { Tx } from '../../src/store/db.js';
import { type Store, openStore } from '../../src/store/index.js';
import { searchText } from '../../src/store/migrations.js';
import { containsPattern } from '../../src/store/pg/dialect.js';
import { fillSearchChunk as pgFillSearchChunk, searchFillPending as pgSearchFillPending } from '../../src/store/pg/search-fill.js';
import { writeConfig } from '../../src/store/projects.repo.js';
import { fillSearchChunk, searchFillPending } from '../../src/store/search-fill.repo.js';
import { countTranslationUnitRecords, countUnitRecords, translationUnitTexts, unitRecords } from '../../src/store/unit-records.repo.js';
import { type UnitFilter, compileUnitFilter, registerSearchFunctions } from '../../src/store/unit-search.js';
import { syncProject } from '../../src/sync/index.js';
import { KEEPASSXC_TRANSLATIONS, describeCorpus, keepassxcComponent, keepassxcFiles, repoRoot } from '../helpers/corpus.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { onPostgres, openDatabaseOf, sqlOn } from '../helpers/store.js';
import { CREDENTIALS, DEMO, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';
import { waitFor } from '../helpers/wait.js';

const TMS = path.join(repoRoot, 'bin', 'tms');

const demo = (repo: string) => ({ name: 'App', slug: 'app', repo, branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' });

/** The ids the scan selects, in id order (the search's match on every row). */
async function scanned(tx: Tx, filter: UnitFilter, translationId?: number): Promise<number[]> {
  let { sql, params } = compileUnitFilter(filter);
  // PostgreSQL's tms_icontains is the index's LIKE: the scan is its former body (as the search-index test's)
  if (onPostgres) sql = sql.replaceAll('tms_icontains(', 'tms_icontains_scan(');
  const scope = translationId === undefined ? '' : 'u.translation_id = ? AND ';
  const ids = await tx
    .prepare(`SELECT u.id FROM units u WHERE ${scope}${sql} ORDER BY u.id`)
    .pluck()
    .all(...(translationId === undefined ? [] : [translationId]), ...params);
  return (ids as number[]).map(Number);
}

const QUERIES = [
  'password',
  'Datenbank',
  'datei',
  'open OR Öffnen',
  'source:database AND target:Datenbank',
  'context:DatabaseWidget',
  'NOT password',
  'entry AND NOT group',
  'Akte aufschlagen',
  'Frobnicate',
  'Zauberwerk',
  'Hello',
  'ΣΟΦ',
];

/**
 * Each query's site-wide count, first and deep page, and the German translation's units, against the scan: the
 * mismatches (expected none), and how many queries found something.
 */
async function compared(store: Store): Promise<{ wrong: string[]; matching: number }> {
  return await store.read(async (tx) => {
    const german = Number(
      await tx
        .prepare("SELECT t.id FROM translations t JOIN components c ON c.id = t.component_id WHERE c.slug = 'keepassxc' AND t.filename LIKE '%_de.ts'")
        .pluck()
        .get(),
    );
    const wrong: string[] = [];
    let matching = 0;
    for (const q of QUERIES) {
      const filter = parseUnitQuery(q)!;
      const expected = await scanned(tx, filter);
      const inGerman = await scanned(tx, filter, german);
      const got = {
        count: await countUnitRecords(tx, null, filter),
        page: (await unitRecords(tx, null, filter, { limit: 100, offset: 0 }, { byId: true })).map((r) => r.id),
        deep: (await unitRecords(tx, null, filter, { limit: 50, offset: 120 })).map((r) => r.id),
        german: (await translationUnitTexts(tx, german, filter)).map((r) => r.id).sort((a, b) => a - b),
        germanCount: await countTranslationUnitRecords(tx, german, filter),
      };
      const want = { count: expected.length, page: expected.slice(0, 100), deep: expected.slice(120, 170), german: inGerman, germanCount: inGerman.length };
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${q}: ${JSON.stringify(got).slice(0, 200)} ≠ ${JSON.stringify(want).slice(0, 200)}`);
      if (expected.length > 0) matching++;
    }
    return { wrong, matching };
  });
}

/** Whether a fill's last stage, the merge of the segments its chunks left, is still to run (FTS5's automerge 0). */
const mergesLeft = (db: Database.Database) => db.prepare("SELECT EXISTS (SELECT 1 FROM units_fts_config WHERE k = 'automerge' AND v = 0)").pluck().get() === 1;

/**
 * How the index (read alone: no fallback to the rows) differs from the units' texts, once nothing is left to the fill:
 * units it lacks or holds that are gone; its trigrams (each term's rows and occurrences, by column) against an index
 * built afresh from the units in one statement; `old` texts it still finds for a unit (a text indexed twice, or not
 * taken out).
 */
function inexact(file: string, old: Map<number, string> = new Map()): string[] {
  const db = new Database(file, { readonly: true });
  try {
    registerSearchFunctions(db);
    const out: string[] = [];
    const pending = db.prepare('SELECT count(*) FROM units_fts_pending').pluck().get() as number;
    if (pending !== 0) out.push(`${pending} range(s) still left to the fill`);
    if (mergesLeft(db)) out.push("the fill's merges left (FTS5's automerge still 0)");
    const ids = db.prepare('SELECT id FROM units ORDER BY id').pluck().all() as number[];
    const indexed = db.prepare('SELECT rowid FROM units_fts ORDER BY rowid').pluck().all() as number[];
    const unit = new Set(ids);
    const held = new Set(indexed);
    out.push(...ids.filter((id) => !held.has(id)).map((id) => `unit ${id} not in the index`));
    out.push(...indexed.filter((id) => !unit.has(id)).map((id) => `gone unit ${id} in the index`));
    db.exec(`CREATE VIRTUAL TABLE temp.fresh USING fts5(source, target, context, content='', contentless_delete=1, tokenize='trigram case_sensitive 1');
      INSERT INTO temp.fresh (rowid, source, target, context) SELECT id, ${searchText('source')}, ${searchText('target')}, ${searchText('context')} FROM main.units;
      CREATE VIRTUAL TABLE temp.kept_terms USING fts5vocab(main, units_fts, col);
      CREATE VIRTUAL TABLE temp.fresh_terms USING fts5vocab(temp, fresh, col);`);
    const terms = (a: string, b: string) =>
      db.prepare(`SELECT term, col, doc, cnt FROM temp.${a} EXCEPT SELECT term, col, doc, cnt FROM temp.${b} LIMIT 5`).all() as Record<string, unknown>[];
    out.push(...terms('kept_terms', 'fresh_terms').map((t) => `the index has ${JSON.stringify(t)}`));
    out.push(...terms('fresh_terms', 'kept_terms').map((t) => `the units have ${JSON.stringify(t)}`));
    // the rows a phrase matches, then the unit among them (a `rowid = ?` beside MATCH counted other rows here)
    const found = db.prepare('SELECT rowid FROM units_fts WHERE units_fts MATCH ?').pluck();
    const target = db.prepare('SELECT target FROM units WHERE id = ?').pluck();
    for (const [id, text] of old) {
      const now = target.get(id) as string | undefined;
      if (now !== undefined && [...text].length >= 3 && !now.toLowerCase().includes(text.toLowerCase())) {
        if (found.all(`{target} : "${text.toLowerCase().replace(/"/g, '""')}"`).includes(id))
          out.push(`${id}: its former target ${JSON.stringify(text)} still found`);
      }
    }
    return out;
  } finally {
    db.close();
  }
}

/** The b-trees (segments) of the index, each a search reads (FTS5's %_idx has a row for each leaf of each). */
const segments = async (store: Store) => Number(await sqlOn(store).value('SELECT count(DISTINCT segid) FROM units_fts_idx'));
/** FTS5's merge settings of the index, as its configuration table holds them. */
const mergeSettings = async (store: Store) =>
  Object.fromEntries(
    (await sqlOn(store).rows<{ k: string; v: number }>("SELECT k, v FROM units_fts_config WHERE k IN ('automerge', 'crisismerge') ORDER BY k")).map((r) => [
      r.k,
      Number(r.v),
    ]),
  );
/**
 * PostgreSQL's inexact: unit_search's rows against the rows built afresh from the units (what its triggers write), and
 * `old` texts the table's trigram index still finds for a unit (read through the index alone: no sequential scan).
 */
async function pgInexact(store: Store, old: Map<number, string> = new Map()): Promise<string[]> {
  const sql = sqlOn(store);
  const out: string[] = [];
  const pending = Number(await sql.value('SELECT count(*) FROM unit_search_pending'));
  if (pending !== 0) out.push(`${pending} range(s) still left to the fill`);
  const fresh = `SELECT id, translation_id, lower(source COLLATE "und-x-icu") AS source, lower(target COLLATE "und-x-icu") AS target,
    lower(context COLLATE "und-x-icu") AS context FROM units`;
  const held = 'SELECT id, translation_id, source, target, context FROM unit_search';
  out.push(...(await sql.rows(`${held} EXCEPT ALL (${fresh}) ORDER BY id LIMIT 5`)).map((r) => `the table has ${JSON.stringify(r).slice(0, 160)}`));
  out.push(...(await sql.rows(`${fresh} EXCEPT ALL (${held}) ORDER BY id LIMIT 5`)).map((r) => `the units have ${JSON.stringify(r).slice(0, 160)}`));
  const found = await store.read(async (tx) => {
    const ids = new Map<number, number[]>();
    await tx.prepare('SET enable_seqscan = off').run();
    try {
      const byIndex = tx.prepare('SELECT id FROM unit_search WHERE target LIKE ?').pluck();
      for (const [id, text] of old) ids.set(id, ((await byIndex.all(containsPattern(text.toLowerCase()))) as number[]).map(Number));
    } finally {
      await tx.prepare('RESET enable_seqscan').run();
    }
    return ids;
  });
  for (const [id, text] of old) {
    const now = await sql.value<string>('SELECT target FROM units WHERE id = ?', id);
    if (now !== undefined && [...text].length >= 3 && !now.toLowerCase().includes(text.toLowerCase()) && found.get(id)!.includes(id))
      out.push(`${id}: its former target ${JSON.stringify(text)} still found`);
  }
  return out;
}

/** How the index differs from the units' texts once nothing is left to the fill (inexact, pgInexact). */
const inexactOf = (store: Store, file: string, old?: Map<number, string>) => (onPostgres ? pgInexact(store, old) : Promise.resolve(inexact(file, old)));

/** The engine's table of the unit id ranges its index lacks, its index's unit ids, a chunk of its fill, whether a fill is to run. */
const PENDING = onPostgres ? 'unit_search_pending' : 'units_fts_pending';
const INDEXED_IDS = onPostgres ? 'SELECT id FROM unit_search ORDER BY id' : 'SELECT rowid FROM units_fts ORDER BY rowid';
const fillChunk = onPostgres ? pgFillSearchChunk : fillSearchChunk;
const fillPending = onPostgres ? pgSearchFillPending : searchFillPending;

const pendingOf = (store: Store) => sqlOn(store).rows<{ lo: number; hi: number }>(`SELECT lo, hi FROM ${PENDING} ORDER BY lo`);

/** PostgreSQL: the scan's function (tms_icontains's body before the index), in the store's schema. */
async function withScan(store: Store): Promise<void> {
  if (!onPostgres) return;
  await sqlOn(store).run(
    `CREATE OR REPLACE FUNCTION tms_icontains_scan(haystack text, needle text) RETURNS boolean LANGUAGE sql IMMUTABLE
     AS $$ SELECT strpos(lower(haystack COLLATE "und-x-icu"), needle) > 0 $$`,
  );
}

describeCorpus('the search index filled after a first load', (corpus) => {
  let env: SyncEnv;
  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('keepassxc', keepassxcFiles(corpus, ['en', 'de', 'el', 'tr', 'ru', 'ja']));
    await env.addUpstream('demo', { fixture: path.join(DEMO, 'app') });
  });
  afterAll(() => env?.close());

  it('a first load commits its strings before their index; searches answer as the scan throughout; writes during the fill leave it exact', async () => {
    const file = path.join(env.root, 'fill.sqlite');
    const store = await openStore(file);
    const projects = [
      {
        name: 'KeePassXC',
        slug: 'keepassxc',
        components: [keepassxcComponent(env.server.url('keepassxc.git', CREDENTIALS)), demo(env.server.url('demo.git', CREDENTIALS))],
      },
    ];
    const config = env.config(projects, { repos_dir: 'repos-fill' });
    try {
      // the fill a first load starts once committed, held back: the store as the load's commit leaves it
      const fill = vi.spyOn(store, 'fillSearchIndex').mockResolvedValue();
      const [loaded, app] = await syncProject(store, config, 'keepassxc');
      expect(loaded).toMatchObject({ ok: true });
      expect(loaded!.added).toBeGreaterThan(8000);
      expect(app).toMatchObject({ ok: true });
      expect(fill).toHaveBeenCalledTimes(1);
      fill.mockRestore();
      const sql = sqlOn(store);
      await withScan(store);
      // KeePassXC's units left to the fill (the store held none before them); the demo's, synced after, indexed
      const [range] = await pendingOf(store);
      const keepassIds = await sql.rows<{ lo: number; hi: number; n: number }>(
        "SELECT min(u.id) AS lo, max(u.id) AS hi, count(*) AS n FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id WHERE c.slug = 'keepassxc'",
      );
      expect(await pendingOf(store)).toEqual([{ lo: keepassIds[0]!.lo, hi: keepassIds[0]!.hi }]);
      const indexed = (await sql.values(INDEXED_IDS)).map(Number);
      const demoIds = (
        await sql.values(
          "SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id WHERE c.slug = 'app' ORDER BY u.id",
        )
      ).map(Number);
      expect(demoIds.length).toBeGreaterThan(0);
      expect(indexed).toEqual(demoIds);

      let checked = await compared(store);
      expect(checked.wrong).toEqual([]);
      expect(checked.matching).toBeGreaterThan(QUERIES.length / 2);

      const old = new Map<number, string>();
      const edit = async (id: number, target: string) => {
        old.set(id, String(await sql.value('SELECT target FROM units WHERE id = ?', id)).slice(0, 12));
        await sql.run('UPDATE units SET target = ? WHERE id = ?', target, id);
      };
      const chunk = async () => expect(await store.write((tx) => fillChunk(tx, 700))).toBe(true);

      // a few chunks: part of the range filled
      for (let i = 0; i < 3; i++) await chunk();
      const [{ lo }] = (await pendingOf(store)) as [{ lo: number; hi: number }];
      expect(lo).toBe(range!.lo + 2100);
      // edits of filled units, of units still left to the fill, and of the demo's; units deleted on both sides
      await edit(range!.lo + 10, 'Akte aufschlagen (gefüllt)');
      await edit(lo + 50, 'Akte aufschlagen (noch nicht)');
      await edit(range!.hi, 'Akte aufschlagen (zuletzt)');
      await edit(demoIds[0]!, 'Akte aufschlagen (Demo)');
      await sql.run('DELETE FROM units WHERE id IN (?, ?, ?)', range!.lo + 20, lo + 60, demoIds[1]!);
      checked = await compared(store);
      expect(checked.wrong).toEqual([]);

      // a sync adding, changing and removing strings of the German file in the middle of the fill
      await chunk();
      const de = readFileSync(path.join(corpus, 'keepassxreboot-keepassxc', KEEPASSXC_TRANSLATIONS, 'keepassxc_de.ts'), 'utf8');
      const first = /<message>[\s\S]*?<\/message>/.exec(de)![0];
      const changedDe = de
        .replace(first, '')
        .replace('<translation>Datenbank', '<translation>Zauberwerk Datenbank')
        .replace(
          '</context>',
          '<message>\n        <source>Frobnicate the widgets</source>\n        <translation>Zauberwerk hinzugefügt</translation>\n    </message>\n</context>',
        );
      await commitToUpstream(env.upstream('keepassxc'), { [`${KEEPASSXC_TRANSLATIONS}/keepassxc_de.ts`]: changedDe });
      const [resynced] = await syncProject(store, config, 'keepassxc', 'keepassxc');
      expect(resynced).toMatchObject({ ok: true });
      expect(resynced!.added + resynced!.changed + resynced!.removed).toBeGreaterThan(0);
      checked = await compared(store);
      expect(checked.wrong).toEqual([]);
      for (let i = 0; i < 4; i++) await chunk();
      await edit(range!.lo + 30, 'Akte aufschlagen (später)');
      checked = await compared(store);
      expect(checked.wrong).toEqual([]);

      // the rest of the ranges; then the segments the chunks left (FTS5's automerge held off since the load) are
      // merged in steps of their own, searches exact meanwhile
      while ((await pendingOf(store)).length > 0) await chunk();
      if (!onPostgres) {
        expect(await store.read(searchFillPending)).toBe(true);
        expect(await mergeSettings(store)).toEqual({ automerge: 0, crisismerge: 64 });
        expect(await segments(store)).toBeGreaterThan(1);
      }
      checked = await compared(store);
      expect(checked.wrong).toEqual([]);
      // by the store: merged into one segment, FTS5's own merging set back
      await store.fillSearchIndex();
      expect(await store.read(fillPending)).toBe(false);
      expect(await pendingOf(store)).toEqual([]);
      if (!onPostgres) {
        expect(await segments(store)).toBe(1);
        expect(await mergeSettings(store)).toEqual({ automerge: 4, crisismerge: 16 });
      }
      checked = await compared(store);
      expect(checked.wrong).toEqual([]);
      expect(await inexactOf(store, file, old)).toEqual([]);
      if (!onPostgres) expect(await sql.values('PRAGMA integrity_check')).toEqual(['ok']);

      // PostgreSQL: two stores (two nodes) filling the same range at once take its chunks in turns (the write lock),
      // neither losing nor repeating a unit
      if (onPostgres) {
        await store.write(async (tx) => {
          await tx.prepare('DELETE FROM unit_search WHERE id BETWEEN ? AND ?').run(range!.lo, range!.hi);
          await tx.prepare('INSERT INTO unit_search_pending (lo, hi) VALUES (?, ?)').run(range!.lo, range!.hi);
        });
        const other = await openStore(file);
        try {
          const chunks = async (s: Store) => {
            let n = 0;
            while (await s.write((tx) => fillChunk(tx, 500))) n++;
            return n;
          };
          const [mine, theirs] = await Promise.all([chunks(store), chunks(other)]);
          expect(mine + theirs).toBe(Math.ceil((range!.hi - range!.lo + 1) / 500));
          expect(Math.min(mine, theirs)).toBeGreaterThan(0);
        } finally {
          await other.close();
        }
        expect(await inexactOf(store, file, old)).toEqual([]);
      }

      // a component removed while its units are half filled
      if (onPostgres) {
        await store.write(async (tx) => {
          await tx.prepare('DELETE FROM unit_search WHERE id BETWEEN ? AND ?').run(range!.lo, range!.hi);
          await tx.prepare('INSERT INTO unit_search_pending (lo, hi) VALUES (?, ?)').run(range!.lo, range!.hi);
        });
      } else {
        await sql.run('DELETE FROM units_fts_pending');
        await sql.run("INSERT INTO units_fts (units_fts) VALUES ('delete-all')");
        await sql.run('INSERT INTO units_fts_pending (lo, hi) VALUES (?, ?)', range!.lo, range!.hi);
        await sql.run(
          `INSERT INTO units_fts (rowid, source, target, context) SELECT id, ${searchText('source')}, ${searchText('target')}, ${searchText('context')} FROM units WHERE id > ?`,
          range!.hi,
        );
      }
      await chunk();
      await chunk();
      const pruned = await store.write((tx) =>
        writeConfig(
          tx,
          { ...config, projects: config.projects.map((p) => ({ ...p, components: p.components.filter((c) => c.slug !== 'keepassxc') })) },
          { prune: true },
        ),
      );
      expect(pruned.removedComponents.map((c) => c.slug)).toEqual(['keepassxc']);
      await store.fillSearchIndex();
      expect(await inexactOf(store, file)).toEqual([]);
      expect(Number(await sql.value('SELECT count(*) FROM units'))).toBe(demoIds.length - 1);
    } finally {
      await store.close();
    }
  }, 240_000);

  it('a `tms sync` killed during the fill: the next `tms sync`, or `tms serve`, completes the index', async () => {
    await env.addUpstream('whole', keepassxcFiles(corpus));
    const database = path.join(env.root, 'killed.sqlite');
    const configFile = path.join(env.root, 'killed.config.json');
    env.config([{ name: 'KeePassXC', slug: 'keepassxc', components: [keepassxcComponent(env.server.url('whole.git', CREDENTIALS))] }], {
      database: 'killed.sqlite',
      repos_dir: 'repos-killed',
    });
    copyFileSync(path.join(env.root, 'tms.config.json'), configFile);
    const child = spawn(process.execPath, [TMS, '--config', configFile, 'sync', 'keepassxc'], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // the fill under way: the load committed, its range partly filled (PostgreSQL: one connection to the schema)
    const pg = onPostgres ? openDatabaseOf(database) : null;
    const underWay = () => {
      if (!pg && !existsSync(database)) return false;
      const db = pg ?? new Database(database, { readonly: true, fileMustExist: true });
      try {
        return Number(db.prepare(`SELECT EXISTS (SELECT 1 FROM ${PENDING} p WHERE p.lo > (SELECT min(id) FROM units))`).pluck().get()) === 1;
      } catch {
        return false; // not migrated yet
      } finally {
        if (!pg) db.close();
      }
    };
    const started = Date.now();
    let seen = false;
    try {
      while (!(seen = underWay()) && child.exitCode === null && Date.now() - started < 120_000) await new Promise((r) => setTimeout(r, 3));
    } finally {
      pg?.close();
    }
    child.kill('SIGKILL');
    expect(seen).toBe(true);
    await exited;

    // the strings are there, the index partly filled; SQLite: two copies of that store for the two ways on
    // (PostgreSQL: the range left, taken out of the table again before `tms serve`)
    const forServe = path.join(env.root, 'killed-serve.sqlite');
    let units: number;
    if (!onPostgres) {
      const copy = new Database(database);
      units = Number(copy.prepare('SELECT count(*) FROM units').pluck().get());
      await copy.backup(forServe);
      copy.close();
    }
    let killedAt: { lo: number; hi: number } | undefined;
    const store = await openStore(database);
    try {
      await withScan(store);
      if (onPostgres) units = Number(await sqlOn(store).value('SELECT count(*) FROM units'));
      expect(units!).toBeGreaterThan(69_000);
      const [left] = await pendingOf(store);
      expect(left).toBeDefined();
      killedAt = left;
      const indexed = Number(await sqlOn(store).value(onPostgres ? 'SELECT count(*) FROM unit_search' : 'SELECT count(*) FROM units_fts'));
      expect(indexed).toBeGreaterThan(0);
      expect(indexed).toBeLessThan(units!);
      const checked = await compared(store);
      expect(checked.wrong).toEqual([]);
      expect(checked.matching).toBeGreaterThan(3);
    } finally {
      await store.close();
    }

    // `tms sync`: nothing to sync, the index complete when it exits
    const sync = spawn(process.execPath, [TMS, '--config', configFile, 'sync', 'keepassxc'], { stdio: 'ignore' });
    expect(await new Promise((resolve) => sync.once('exit', resolve))).toBe(0);
    const synced = await openStore(database);
    try {
      expect(await inexactOf(synced, database)).toEqual([]);
      // PostgreSQL: the table as the killed process left it (its units unchanged since), for `tms serve`
      if (onPostgres) {
        await synced.write(async (tx) => {
          await tx.prepare('DELETE FROM unit_search WHERE id BETWEEN ? AND ?').run(killedAt!.lo, killedAt!.hi);
          await tx.prepare('INSERT INTO unit_search_pending (lo, hi) VALUES (?, ?)').run(killedAt!.lo, killedAt!.hi);
        });
      }
    } finally {
      await synced.close();
    }

    // `tms serve`: fills while serving
    const serveConfig = path.join(env.root, 'serve.config.json');
    writeFileSync(
      serveConfig,
      onPostgres ? readFileSync(configFile, 'utf8') : readFileSync(configFile, 'utf8').replace('"killed.sqlite"', '"killed-serve.sqlite"'),
    );
    const served = onPostgres ? database : forServe;
    let serve: ChildProcess | undefined;
    try {
      serve = spawn(process.execPath, [TMS, '--config', serveConfig, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      serve.stdout!.on('data', (d: Buffer) => (out += d));
      serve.stderr!.resume();
      const url = await waitFor('the server', () => /serving the API on (\S+)\/api\//.exec(out)?.[1], 60_000);
      const answered = await fetch(`${url}/api/units/?q=${encodeURIComponent('Datenbank')}`);
      expect(answered.status).toBe(200);
      await waitFor(
        'the fill and its merges to end',
        () => {
          const db = onPostgres ? openDatabaseOf(served) : new Database(served, { readonly: true });
          try {
            return (
              (Number(db.prepare(`SELECT count(*) FROM ${PENDING}`).pluck().get()) === 0 && (onPostgres || !mergesLeft(db as Database.Database))) || undefined
            );
          } finally {
            db.close();
          }
        },
        60_000,
      );
    } finally {
      serve?.kill('SIGTERM');
      if (serve && serve.exitCode === null) await new Promise((resolve) => serve!.once('exit', resolve));
    }
    const after = await openStore(served);
    try {
      expect(await inexactOf(after, served)).toEqual([]);
    } finally {
      await after.close();
    }
  }, 300_000);
});
