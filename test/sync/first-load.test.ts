// A first load (a cold sync into a store without units) builds the units' indexes after its rows: the store it
// leaves equals one loaded with the indexes kept row by row, and a load killed half-way leaves a store the next sync
// completes.
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnitQuery } from '../../src/api/search.js';
import { stringUnits } from '../../src/store/checks.repo.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { FIRST_LOAD_TABLES } from '../../src/store/sync.repo.js';
import { countTranslationUnitRecords, translationUnitTexts } from '../../src/store/unit-records.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { KEEPASSXC_TRANSLATIONS, describeCorpus, keepassxcComponent, keepassxcFiles, repoRoot } from '../helpers/corpus.js';
import { type DirectSql, onPostgres, openDatabaseOf, sqlOn } from '../helpers/store.js';
import { CREDENTIALS, DEMO, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

const demo = (repo: string) => ({ name: 'App', slug: 'app', repo, branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' });

/**
 * Whether each table a first load fills was vacuumed and analysed by hand (PostgreSQL: Store.settleLoad), not by
 * autovacuum, whose runs pg_stat_user_tables counts apart; and whether its every page is marked all-visible (an
 * index-only scan then reads no row from the table).
 */
async function settled(sql: DirectSql) {
  const out: { table: string; vacuumed: boolean; analysed: boolean; allVisible: boolean }[] = [];
  for (const table of FIRST_LOAD_TABLES) {
    const [row] = await sql.rows(
      `SELECT last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analysed, c.relallvisible = c.relpages AS all_visible
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relid = to_regclass(?)`,
      table,
    );
    out.push({ table, vacuumed: Boolean(row?.vacuumed), analysed: Boolean(row?.analysed), allVisible: Boolean(row?.all_visible) });
  }
  return out;
}

/** Everything a sync stored of the component, keyed by what does not depend on row ids or times. */
async function contents(sql: DirectSql) {
  const of = 'JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id WHERE c.slug = ?';
  return {
    units: await sql.rows(
      `SELECT t.filename, CAST(u.id_hash AS TEXT) AS id_hash, CAST(u.content_hash AS TEXT) AS content_hash, u.context, u.source, u.target,
         u.previous_source, u.location, u.note, u.flags, u.extra_flags, u.explanation, u.source_explanation, u.state, u.original_state,
         u.position, u.num_words, u.num_chars, u.priority, u.pending
       FROM units u ${of} ORDER BY t.filename, u.position, id_hash`,
      'keepassxc',
    ),
    checks: await sql.rows(
      `SELECT t.filename, CAST(u.id_hash AS TEXT) AS id_hash, k.name, k.dismissed FROM checks k JOIN units u ON u.id = k.unit_id ${of}
       ORDER BY t.filename, id_hash, k.name`,
      'keepassxc',
    ),
    changes: await sql.rows(
      `SELECT ch.action, t.filename, CAST(u.id_hash AS TEXT) AS id_hash, ch.target, ch.old, ch.details
       FROM changes ch JOIN components c ON c.id = ch.component_id LEFT JOIN translations t ON t.id = ch.translation_id
       LEFT JOIN units u ON u.id = ch.unit_id WHERE c.slug = ? ORDER BY ch.action, t.filename, id_hash`,
      'keepassxc',
    ),
    stats: await sql.rows(
      `SELECT t.filename, s.total, s.total_words, s.total_chars, s.translated, s.translated_words, s.translated_chars, s.fuzzy,
         s.fuzzy_words, s.fuzzy_chars, s.approved, s.readonly, s.failing, s.failing_words, s.suggestions, s.comments, s.recent_changes
       FROM translation_stats s JOIN translations t ON t.id = s.translation_id JOIN components c ON c.id = t.component_id
       WHERE c.slug = ? ORDER BY t.filename`,
      'keepassxc',
    ),
    memory: await sql.values('SELECT text FROM memory_sources ORDER BY text'),
  };
}

/** What searches find in the component's German translation, and a string's units across languages (its index). */
async function searches(store: Store) {
  return await store.read(async (tx) => {
    const german = (await tx
      .prepare("SELECT t.id FROM translations t JOIN components c ON c.id = t.component_id WHERE c.slug = 'keepassxc' AND t.filename LIKE '%_de.ts'")
      .pluck()
      .get()) as number;
    const out: Record<string, unknown> = {};
    for (const q of ['source:database', 'target:Datenbank AND state:>=translated', 'NOT has:plural AND source:"Password"']) {
      const filter = parseUnitQuery(q);
      const rows = await translationUnitTexts(tx, german, filter);
      out[q] = { count: await countTranslationUnitRecords(tx, german, filter), rows: rows.map((r) => [String(r.id_hash), r.source, r.target, r.state]) };
    }
    const first = (await tx.prepare('SELECT source, context FROM units WHERE translation_id = ? ORDER BY position LIMIT 1').get(german)) as {
      source: string;
      context: string;
    };
    out.string = (await stringUnits(tx, first.source, first.context)).map((r) => `${r.state} ${r.target}`).sort();
    return out;
  });
}

/** The page where SQLite keeps an index's b-tree: a new one after the index was dropped and built again. */
const rootPage = (sql: DirectSql, index: string) => sql.value<number>("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name = ?", index);

describeCorpus('a first load (KeePassXC)', (corpus) => {
  let env: SyncEnv;
  let url: string;
  let demoUrl: string;
  beforeAll(async () => {
    env = await createSyncEnv();
    // four languages and the source: ~8,700 units, past the size from which a first load builds its indexes after
    await env.addUpstream('keepassxc', keepassxcFiles(corpus, ['en', 'de', 'fr', 'ja', 'pt_BR']));
    await env.addUpstream('demo', { fixture: path.join(DEMO, 'app') });
    url = env.server.url('keepassxc.git', CREDENTIALS);
    demoUrl = env.server.url('demo.git', CREDENTIALS);
  });
  afterAll(() => env.close());

  it('leaves the store a load with the indexes kept row by row leaves: units, checks, changes, statistics, searches', async () => {
    const projects = (components: unknown[]) => [{ name: 'KeePassXC', slug: 'keepassxc', components }];
    // the first load: a fresh store
    const first = await openStore(path.join(env.root, 'first.sqlite'));
    // row by row: a store that already holds another component's units
    const rowByRow = await openStore(path.join(env.root, 'row-by-row.sqlite'));
    try {
      const before = onPostgres ? 0 : await rootPage(sqlOn(first), 'units_string');
      const [loaded] = await syncProject(first, env.config(projects([keepassxcComponent(url)]), { repos_dir: 'repos-first' }), 'keepassxc');
      expect(loaded?.error).toBeUndefined();
      expect(loaded).toMatchObject({ ok: true, added: expect.any(Number) });
      expect(loaded!.added).toBeGreaterThan(8000);
      // every table's pages marked: one `VACUUM (ANALYZE)` of them all marked the first table's only (synchronous_commit off);
      // the search's table once the fill the load started ends (it settles the table)
      if (onPostgres) {
        await first.fillSearchIndex();
        expect(await settled(sqlOn(first))).toEqual(FIRST_LOAD_TABLES.map((table) => ({ table, vacuumed: true, analysed: true, allVisible: true })));
      }

      const config = env.config(projects([demo(demoUrl), keepassxcComponent(url)]), { repos_dir: 'repos-row' });
      const kept = onPostgres ? 0 : await rootPage(sqlOn(rowByRow), 'units_string');
      const [app, keepass] = await syncProject(rowByRow, config, 'keepassxc');
      expect(app).toMatchObject({ ok: true });
      expect(keepass).toMatchObject({ ok: true, added: loaded!.added });
      // no first load there (the store held the demo's units): left to autovacuum
      if (onPostgres)
        expect((await settled(sqlOn(rowByRow))).find((t) => t.table === 'units')).toMatchObject({ table: 'units', vacuumed: false, analysed: false });

      if (!onPostgres) {
        // the first load built the index again after its rows; the other kept it as it was
        expect(await rootPage(sqlOn(first), 'units_string')).not.toBe(before);
        expect(await rootPage(sqlOn(rowByRow), 'units_string')).toBe(kept);
        expect(await sqlOn(first).values('PRAGMA integrity_check')).toEqual(['ok']);
        // the search's index holds every unit once the fill the load started after its commit ends (search-fill.repo.ts),
        // and its triggers are back for the writes to come
        await first.fillSearchIndex();
        expect(await sqlOn(first).values('SELECT lo FROM units_fts_pending')).toEqual([]);
        expect(await sqlOn(first).value('SELECT count(*) FROM units_fts')).toBe(await sqlOn(first).value('SELECT count(*) FROM units'));
        expect(await sqlOn(first).values("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'units' ORDER BY name")).toEqual([
          'units_fts_ad',
          'units_fts_ai',
          'units_fts_au',
        ]);
      }
      const a = await contents(sqlOn(first));
      const b = await contents(sqlOn(rowByRow));
      // the translations' units and the source strings
      expect(a.units.length).toBe(a.stats.reduce((n, s) => n + Number(s.total), 0));
      expect(a.units.length).toBeGreaterThan(loaded!.added);
      expect(a.checks.length).toBeGreaterThan(0);
      expect(a.changes.length).toBeGreaterThan(0);
      expect(a.units).toEqual(b.units);
      expect(a.checks).toEqual(b.checks);
      expect(a.changes).toEqual(b.changes);
      expect(a.stats).toEqual(b.stats);
      // the demo's strings join the memory's index too: only KeePassXC's are compared
      expect(b.memory).toEqual(expect.arrayContaining(a.memory));
      const found = await searches(first);
      expect(found).toEqual(await searches(rowByRow));
      expect((found['source:database'] as { count: number }).count).toBeGreaterThan(0);
      expect((found.string as unknown[]).length).toBeGreaterThan(0);

      // the indexes are there for what follows: a second sync finds nothing to do
      const [again] = await syncProject(first, env.config(projects([keepassxcComponent(url)]), { repos_dir: 'repos-first' }), 'keepassxc');
      expect(again).toMatchObject({ ok: true, added: 0, changed: 0, removed: 0 });
    } finally {
      await first.close();
      await rowByRow.close();
    }
  }, 180_000);

  it('killed half-way through its rows: the store holds none of them, is whole, and the next sync loads everything', async () => {
    await env.addUpstream('whole', keepassxcFiles(corpus));
    const database = path.join(env.root, 'killed.sqlite');
    const configFile = path.join(env.root, 'killed.config.json');
    const projects = [{ name: 'KeePassXC', slug: 'keepassxc', components: [keepassxcComponent(env.server.url('whole.git', CREDENTIALS))] }];
    const config = env.config(projects, { database: 'killed.sqlite', repos_dir: 'repos-killed' });
    copyFileSync(path.join(env.root, 'tms.config.json'), configFile);
    // the process (on PostgreSQL too: the test's database reaches the child through the environment)
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'tms'), '--config', configFile, 'sync', 'keepassxc'], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // the load under way: SQLite's rows spill into the write-ahead log before the commit (the whole of KeePassXC,
    // 72k units and ~20 MB, is more than its page cache); PostgreSQL shows the insert running
    const watcher = onPostgres ? openDatabaseOf(database) : undefined;
    const underWay = () => {
      if (watcher) {
        const running = watcher
          .prepare("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'INSERT INTO units%' AND pid <> pg_backend_pid()")
          .pluck()
          .get();
        return Number(running) > 0;
      }
      try {
        return statSync(`${database}-wal`).size > 6 * 2 ** 20;
      } catch {
        return false;
      }
    };
    const started = Date.now();
    let seen = false;
    while (!(seen = underWay()) && child.exitCode === null && Date.now() - started < 120_000) await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    // killed with the load under way (not before it began, nor after the sync ended)
    expect(seen).toBe(true);
    await exited;
    watcher?.close();

    const store = await openStore(database);
    try {
      const sql = sqlOn(store);
      // killed inside the load's transaction: none of its rows, the indexes as they were, the file whole
      expect(Number(await sql.value('SELECT count(*) FROM units'))).toBe(0);
      if (!onPostgres) {
        // the units' indexes of a store that never loaded anything (the schema's own)
        const indexes = "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'units' AND sql IS NOT NULL ORDER BY name";
        const fresh = await openStore(`${database}.fresh`);
        const schema = await sqlOn(fresh).values(indexes);
        await fresh.close();
        expect(schema).toContain('units_string');
        expect(await sql.values(indexes)).toEqual(schema);
        expect(await sql.values('PRAGMA integrity_check')).toEqual(['ok']);
      }

      const [r] = await syncProject(store, config, 'keepassxc');
      expect(r).toMatchObject({ ok: true });
      expect(r!.files.every((f) => f.status === 'parsed')).toBe(true);
      expect(r!.added).toBeGreaterThan(69_000);
      // the translations' units and the source strings
      expect(Number(await sql.value('SELECT count(*) FROM units'))).toBeGreaterThan(r!.added);
      expect(Number(await sql.value('SELECT count(*) FROM translation_stats'))).toBe(Object.keys(keepassxcFiles(corpus)).length);
      expect(Number(await sql.value('SELECT sum(total) FROM translation_stats'))).toBe(Number(await sql.value('SELECT count(*) FROM units')));
      if (!onPostgres) expect(await sql.values('PRAGMA integrity_check')).toEqual(['ok']);
      const [again] = await syncProject(store, config, 'keepassxc');
      expect(again).toMatchObject({ ok: true, added: 0, changed: 0, removed: 0 });
    } finally {
      await store.close();
    }
  }, 240_000);
});
