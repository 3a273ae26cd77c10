// `tms db copy` end to end: a synced demo store with edits, suggestions, comments, memory and users copied by real
// bin/tms processes SQLite → SQLite, and (with TMS_TEST_POSTGRES) SQLite → PostgreSQL → SQLite, compared table by table.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnitQuery } from '../../src/api/search.js';
import { addComment, suggest } from '../../src/operations/index.js';
import { tableSum } from '../../src/store/copy/rows.js';
import { copyTables } from '../../src/store/copy/tables.js';
import { type Tx, openDb } from '../../src/store/db.js';
import { findEditableUnit } from '../../src/store/edits.repo.js';
import { openStore } from '../../src/store/index.js';
import { importMemory } from '../../src/store/memory.repo.js';
import { copyLines } from '../../src/store/pg/copy-text.js';
import { PgError } from '../../src/store/pg/libpq.js';
import { migrateDatabase, openPgDb } from '../../src/store/pg/open.js';
import { PgDb } from '../../src/store/pg/pg-db.js';
import { SEARCHED } from '../../src/store/pg/search-fill.js';
import { screenshotImage, screenshots } from '../../src/store/screenshots.repo.js';
import { countUnitRecords, unitRecords } from '../../src/store/unit-records.repo.js';
import { createUser, findUserByToken, listUsers } from '../../src/store/users.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { repoRoot } from '../helpers/corpus.js';
import { png } from '../helpers/images.js';
import { sqlOn } from '../helpers/store.js';

// the stores here are SQLite files whichever engine the suite runs on: PostgreSQL is only where a test names it
const pgUrl = process.env.TMS_TEST_POSTGRES;
delete process.env.TMS_TEST_POSTGRES;
const bin = path.join(repoRoot, 'bin', 'tms');
const childEnv = { ...process.env };

/** Runs the built CLI as its own process. */
function tms(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(bin, args, { encoding: 'utf8', env: childEnv });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Every row of every table of a SQLite tms database (FTS5's indexes aside, and the catalog's change numbers, which the
 * target's triggers number afresh), rows sorted, integers exact.
 */
function dump(file: string): Record<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'memory_fts%' AND name NOT LIKE 'units_fts%' AND name <> 'catalog_version' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    const out: Record<string, string[]> = {};
    for (const table of tables) {
      const rows = db.prepare(`SELECT * FROM "${table}"`).safeIntegers().all() as Record<string, unknown>[];
      if (table === 'translation_stats' || table === 'translations') for (const r of rows) delete r.seq;
      out[table] = rows.map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))).sort();
    }
    return out;
  } finally {
    db.close();
  }
}

/** The ids an FTS5 trigram index (the memory's, or the search's) finds for a text (the index the copy's triggers fed). */
function ftsMatch(file: string, text: string, index: 'memory_fts' | 'units_fts' = 'memory_fts'): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT rowid FROM ${index} WHERE ${index} MATCH ? ORDER BY rowid`).pluck().all(`"${text}"`) as number[];
  } finally {
    db.close();
  }
}

/** A PostgreSQL URL whose tables live in schema `name` (created here, empty). */
function pgSchemaUrl(name: string): string {
  const admin = new PgDb(pgUrl!, 'test');
  admin.exec(`DROP SCHEMA IF EXISTS ${name} CASCADE; CREATE SCHEMA ${name}`);
  admin.close();
  return `${pgUrl}${pgUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${name},public`)}`;
}

/**
 * What a PostgreSQL schema is made of besides its rows: every index's definition, every constraint's, every trigger of
 * tms's and whether it is enabled (schema names left out, so that two schemas compare).
 */
function schemaShape(url: string): string[] {
  const db = openPgDb(url);
  try {
    const schema = db.prepare('SELECT current_schema()').pluck().get() as string;
    const tables = "SELECT oid FROM pg_class WHERE relnamespace = to_regnamespace(current_schema()) AND relkind = 'r'";
    const rows = db
      .prepare(
        `SELECT 'index ' || pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid IN (${tables})
         UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid IN (${tables})
         UNION ALL SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal AND tgrelid IN (${tables})`,
      )
      .pluck()
      .all() as string[];
    return rows.map((r) => r.replaceAll(`${schema}.`, '')).sort();
  } finally {
    db.close();
  }
}

const built = existsSync(path.join(repoRoot, 'dist', 'bundle'));
if (!built) console.warn('[skip] tms db copy: dist/ is not built (npm run build)');

describe.skipIf(!built)('tms db copy', () => {
  let env: WriteEnv;
  let original: string;
  let janeToken: string;
  let pendingUnit: number;
  const file = (name: string) => path.join(env.root, name);

  beforeAll(async () => {
    env = await createWriteEnv();
    original = file('tms.sqlite');
    janeToken = env.tokens.jane;
    const units = (await env.request('GET', '/api/translations/hello/app/de/units/?page_size=100')).json.results as { id: number; source: string[] }[];
    const quit = units.find((u) => u.source[0] === 'Quit')!;
    const about = units.find((u) => u.source[0]?.startsWith('About'))!;
    pendingUnit = quit.id;
    const edit = await env.request('PATCH', `/api/units/${quit.id}/`, { token: janeToken, json: { target: ['Beenden 🚪 – "quoted"'], state: 20 } });
    expect(edit.status, edit.text).toBe(200);
    const jane = (await sqlOn(env.store).value("SELECT id FROM users WHERE username = 'jane'")) as number;
    expect(await suggest(env.store, { unitId: about.id, target: ['Über %1 😀'], user: { id: jane } })).toBeTypeOf('number');
    await addComment(env.store, { unitId: about.id, comment: 'Ist „Über“ richtig?\nZweite Zeile', user: { id: jane } });
    await env.store.write((tx) =>
      importMemory(
        tx,
        [
          { source: 'Preferences', target: 'Einstellungen', sourceLanguage: 'en', targetLanguage: 'de' },
          { source: 'Save the file 💾', target: 'Datei speichern 💾', sourceLanguage: 'en', targetLanguage: 'de' },
        ],
        { kind: 'shared' },
      ),
    );
    // a screenshot: its image's bytes (a BLOB, PostgreSQL's bytea) and the string it shows
    const shot = new FormData();
    for (const [k, v] of Object.entries({ project_slug: 'hello', component_slug: 'app', language_code: 'de', name: 'Main window 🪟' })) shot.append(k, v);
    shot.append('image', new Blob([png(3, 2, [0, 255, 0])]), 'main.png');
    const created = await env.request('POST', '/api/screenshots/', { token: env.tokens.admin, body: shot });
    expect(created.status, created.text).toBe(201);
    expect((await env.request('POST', `/api/screenshots/${created.json.id}/units/`, { token: env.tokens.admin, json: { unit_id: quit.id } })).status).toBe(200);
    // nothing serves it while it is copied
    await env.server.close();
  });
  afterAll(async () => {
    await env?.env.close();
    if (pgUrl) process.env.TMS_TEST_POSTGRES = pgUrl;
  });

  it('copies SQLite → SQLite: every table equal, FTS5 fed by its triggers, the table of checksums all ok', () => {
    const copy = file('copy.sqlite');
    const r = tms('db', 'copy', original, copy);
    expect(r.stderr).toMatch(/copied units: \d+ rows/);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^table\s+rows\s+checksum\s+ok$/);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(/\s+/)[0])
        .sort(),
    ).toEqual(
      copyTables()
        .map((t) => t.name)
        .sort(),
    );
    expect(lines.slice(1).every((l) => / ok$/.test(l))).toBe(true);
    const before = dump(original);
    expect(before.units!.length).toBeGreaterThan(10);
    expect(before.memory!.length).toBe(2);
    expect(before.screenshots!.length).toBe(1);
    expect(before.screenshot_units!.length).toBe(1);
    expect(dump(copy)).toEqual(before);
    expect(ftsMatch(copy, 'refer')).toEqual(ftsMatch(original, 'refer'));
    expect(ftsMatch(copy, 'file 💾')).toHaveLength(1);
    expect(ftsMatch(original, 'open', 'units_fts')).not.toEqual([]);
    expect(ftsMatch(copy, 'open', 'units_fts')).toEqual(ftsMatch(original, 'open', 'units_fts'));
  });

  it('refuses a target that holds data, the database itself, a schema newer than tms, a served database', () => {
    const copy = file('copy.sqlite');
    if (!existsSync(copy)) expect(tms('db', 'copy', original, copy).code).toBe(0);
    const full = tms('db', 'copy', original, copy);
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/already holds data \(table \w+ has rows\)/);

    const same = tms('db', 'copy', original, path.join(env.root, '.', 'x', '..', 'tms.sqlite'));
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/are the same database/);

    const newer = file('newer.sqlite');
    const db = new Database(newer);
    db.pragma('user_version = 99');
    db.close();
    const fromNewer = tms('db', 'copy', newer, file('never.sqlite'));
    expect(fromNewer.code).toBe(1);
    expect(fromNewer.stderr).toMatch(/newer\.sqlite: database schema version 99 is newer than this tms/);
    expect(existsSync(file('never.sqlite'))).toBe(false);
    const toNewer = tms('db', 'copy', original, newer);
    expect(toNewer.code).toBe(1);
    expect(toNewer.stderr).toMatch(/schema version 99 is newer than this tms/);

    const missing = tms('db', 'copy', file('nope.sqlite'), file('never.sqlite'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.sqlite: file not found/);

    // a live process's serve mark (this test's own process) beside the source, then beside the target
    for (const [role, served] of [
      ['source', original],
      ['target', file('served.sqlite')],
    ] as const) {
      const mark = `${served}.serving.${process.pid}`;
      writeFileSync(mark, `${process.pid}\n`);
      try {
        const r = role === 'source' ? tms('db', 'copy', original, file('never.sqlite')) : tms('db', 'copy', original, served);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(new RegExp(`the ${role} is being served \\(process ${process.pid}\\); stop tms serve first`));
      } finally {
        rmSync(mark, { force: true });
      }
    }
    expect(existsSync(file('never.sqlite'))).toBe(false);
    expect(existsSync(file('served.sqlite'))).toBe(false);
  });

  it('the checksum tells apart 64-bit integers past 2^53 and text differing in one byte', () => {
    const sum = (seq: bigint, value: string) => {
      const db = openDb(':memory:');
      try {
        db.prepare("INSERT INTO requested_updates VALUES ('p', 'c', 't', ?)").run(seq);
        db.prepare("INSERT INTO store_meta VALUES ('k', ?)").run(value);
        const tables = copyTables();
        return ['requested_updates', 'store_meta'].map((n) => tableSum(db, tables.find((t) => t.name === n)!).checksum).join();
      } finally {
        db.close();
      }
    };
    const top = 2n ** 63n - 1n;
    expect(sum(top, 'é')).toBe(sum(top, 'é'));
    expect(sum(top, 'é')).not.toBe(sum(top - 1n, 'é'));
    expect(sum(top, 'é')).not.toBe(sum(top, 'e\u0301'));
  });

  describe.skipIf(!pgUrl)('SQLite → PostgreSQL → SQLite', () => {
    it('round trip: every table equal to the original, ids past the copied ones, tokens still authenticate', async () => {
      const pg = pgSchemaUrl('dbcopy_round');
      const there = tms('db', 'copy', original, pg);
      expect(there.code, there.stderr).toBe(0);
      expect(there.stdout).not.toMatch(/MISMATCH/);
      expect(there.stderr).toMatch(/verified/);
      const back = file('back.sqlite');
      const again = tms('db', 'copy', pg, back);
      expect(again.code, again.stderr).toBe(0);
      expect(dump(back)).toEqual(dump(original));
      expect(ftsMatch(back, 'refer')).toEqual(ftsMatch(original, 'refer'));
      expect(ftsMatch(back, 'open', 'units_fts')).toEqual(ftsMatch(original, 'open', 'units_fts'));

      // the API-level facts on the copy that came back
      const store = await openStore(back);
      const origin = await openStore(original);
      try {
        expect((await store.read((tx) => listUsers(tx))).map((u) => u.username)).toEqual((await origin.read((tx) => listUsers(tx))).map((u) => u.username));
        expect((await store.read((tx) => findUserByToken(tx, janeToken)))?.username).toBe('jane');
        const unit = await store.read((tx) => findEditableUnit(tx, pendingUnit));
        expect(unit).toMatchObject({ target: 'Beenden 🚪 – "quoted"', pending: 1 });
        const [shot] = await store.read((tx) => screenshots(tx, null, { limit: 10, offset: 0 }));
        expect(shot).toMatchObject({ name: 'Main window 🪟', media_type: 'image/png', width: 3, height: 2, units: [pendingUnit] });
        expect(Buffer.from((await store.read((tx) => screenshotImage(tx, shot!.id)))!.image).equals(png(3, 2, [0, 255, 0]))).toBe(true);
      } finally {
        await store.close();
        await origin.close();
      }

      // on PostgreSQL, a new row gets an id past the copied ones (the identity sequences were moved)
      const onPg = await openStore(pg);
      try {
        // the copy settled the schema it filled: every table vacuumed and analysed (statistics, a visibility map)
        const tables = await sqlOn(onPg).rows<{ relname: string; vacuumed: number; analysed: number }>(
          `SELECT relname, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analysed FROM pg_stat_user_tables
           WHERE schemaname = current_schema() ORDER BY relname`,
        );
        expect(tables.map((t) => t.relname)).toEqual(expect.arrayContaining(['units', 'unit_search', 'changes', 'translations']));
        expect(tables.filter((t) => !t.vacuumed || !t.analysed)).toEqual([]);
        // and every page of them marked all-visible (an index-only scan reads no row from the table): the tables
        // vacuumed in one `VACUUM (ANALYZE)` had their pages marked for the first table only (synchronous_commit off)
        const unmarked = await sqlOn(onPg).rows<{ relname: string; relpages: number; relallvisible: number }>(
          `SELECT relname, relpages, relallvisible FROM pg_class WHERE relnamespace = to_regnamespace(current_schema()) AND relkind = 'r'
           AND relallvisible < relpages ORDER BY relname`,
        );
        expect(unmarked).toEqual([]);
        const most = (await sqlOn(onPg).value<number>('SELECT max(id) FROM users'))!;
        const created = await onPg.write((tx) => createUser(tx, { username: 'newcomer', fullName: 'New', email: 'new@example.org' }));
        expect(created.user.id).toBeGreaterThan(most);
        expect((await onPg.read((tx) => findUserByToken(tx, janeToken)))?.username).toBe('jane');
      } finally {
        await onPg.close();
      }
    });

    it('into PostgreSQL: the search table holds every unit as its triggers write it, searches answer as on SQLite, the schema as migrated', async () => {
      const pg = pgSchemaUrl('dbcopy_search');
      const r = tms('db', 'copy', original, pg);
      expect(r.code, r.stderr).toBe(0);
      const db = openPgDb(pg);
      try {
        // unit_search as migration 8's trigger writes it, for every unit, nothing left to a fill
        expect(db.prepare('SELECT count(*) FROM unit_search').pluck().get()).toBe(db.prepare('SELECT count(*) FROM units').pluck().get());
        const differ = `SELECT count(*) FROM ((SELECT ${SEARCHED} FROM units EXCEPT SELECT * FROM unit_search) UNION ALL (SELECT * FROM unit_search EXCEPT SELECT ${SEARCHED} FROM units)) d`;
        expect(db.prepare(differ).pluck().get()).toBe(0);
        expect(db.prepare('SELECT count(*) FROM unit_search_pending').pluck().get()).toBe(0);
        // the statistics numbered by the catalog, the last number the catalog's
        const seq = db.prepare('SELECT count(*) AS n, count(DISTINCT seq) AS distinct, min(seq) AS low, max(seq) AS high FROM translation_stats').get();
        const n = (seq as { n: number }).n;
        expect(n).toBeGreaterThan(0);
        expect(seq).toEqual({ n, distinct: n, low: 1, high: n });
        expect(db.prepare('SELECT stats FROM catalog_version').pluck().get()).toBe(n);
        // and the translations (migration 11), the catalog's last number theirs
        const numbered = db.prepare('SELECT count(*) AS n, count(DISTINCT seq) AS distinct, min(seq) AS low, max(seq) AS high FROM translations').get();
        const t = (numbered as { n: number }).n;
        expect(numbered).toEqual({ n: t, distinct: t, low: 1, high: t });
        expect(db.prepare('SELECT translations FROM catalog_version').pluck().get()).toBe(t);
        expect(db.prepare('SELECT structure FROM catalog_version').pluck().get()).toBeGreaterThan(0);
      } finally {
        db.close();
      }
      const fresh = pgSchemaUrl('dbcopy_fresh_search');
      await migrateDatabase(fresh);
      expect(schemaShape(pg)).toEqual(schemaShape(fresh));

      const onPg = await openStore(pg);
      const onSqlite = await openStore(original);
      try {
        for (const q of ['open', 'source:file', 'target:beenden', 'quit', 'refer']) {
          const filter = parseUnitQuery(q)!;
          const answer = (tx: Tx) =>
            Promise.all([countUnitRecords(tx, null, filter), unitRecords(tx, null, filter, { limit: 100, offset: 0 }).then((rows) => rows.map((u) => u.id))]);
          const want = await onSqlite.read(answer);
          expect(await onPg.read(answer), q).toEqual(want);
        }
        expect(await onSqlite.read((tx) => countUnitRecords(tx, null, parseUnitQuery('open')!))).toBeGreaterThan(0);
      } finally {
        await onPg.close();
        await onSqlite.close();
      }
    });

    it('a copy PostgreSQL refuses (a row whose foreign key points nowhere) leaves the target empty and its schema as migrated', async () => {
      const orphan = file('orphan.sqlite');
      expect(tms('db', 'copy', original, orphan).code).toBe(0);
      const db = new Database(orphan);
      db.pragma('foreign_keys = OFF');
      db.prepare("INSERT INTO checks (unit_id, name, dismissed) VALUES (987654321, 'same', 0)").run();
      db.close();
      const pg = pgSchemaUrl('dbcopy_orphan');
      const r = tms('db', 'copy', orphan, pg);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/violates foreign key constraint "checks_unit_id_fkey"/);
      const check = openPgDb(pg);
      for (const table of copyTables()) expect(check.prepare(`SELECT count(*) FROM "${table.name}"`).pluck().get(), table.name).toBe(0);
      expect(check.prepare('SELECT count(*) FROM unit_search').pluck().get()).toBe(0);
      check.close();
      const fresh = pgSchemaUrl('dbcopy_fresh_orphan');
      await migrateDatabase(fresh);
      expect(schemaShape(pg)).toEqual(schemaShape(fresh));
    });

    it("PgDb.copyIn: COPY's text format carries tabs, line ends, backslashes, \\N, nulls, bytes and 64-bit integers; a refused COPY or a failed source stores nothing", () => {
      const db = openPgDb(pgSchemaUrl('dbcopy_copyin'));
      try {
        db.exec('CREATE TABLE t (id bigint PRIMARY KEY, s text, b bytea)');
        const rows = [
          [1n, 'a\tb\tc', Buffer.from([0, 9, 10, 92, 255])],
          [2n, 'line\nnext\r\nend', null],
          [3n, 'back\\slash \\N \\x00 \\', Buffer.alloc(0)],
          [4n, '\\N', Buffer.from('\\N')],
          [5n, '', null],
          [6n, null, null],
          [2n ** 63n - 1n, 'Über 😀 – "quoted"', Buffer.from('x')],
        ];
        expect(db.copyIn('COPY t (id, s, b) FROM STDIN', [copyLines(rows.slice(0, 3)), copyLines(rows.slice(3))])).toBe(rows.length);
        const back = db.prepare('SELECT id, s, b FROM t ORDER BY id').raw().safeIntegers().all() as unknown[][];
        expect(back.map(([id, s, b]) => [id, s, b === null ? null : Buffer.from(b as Buffer).toString('hex')])).toEqual(
          rows.map(([id, s, b]) => [id, s, b === null ? null : (b as Buffer).toString('hex')]),
        );

        // the server refuses the rows (a key already there): its error, with its code, and nothing of the COPY stored
        let refused: unknown;
        try {
          db.copyIn('COPY t (id, s, b) FROM STDIN', [copyLines([[7n, 'new', null]]), copyLines([[1n, 'again', null]])]);
        } catch (e) {
          refused = e;
        }
        expect(refused).toBeInstanceOf(PgError);
        expect((refused as PgError).data.code).toBe('23505');
        // the source fails midway: its own error, nothing stored, the session usable
        const unreadable = new Error('the source went away');
        function* failing(): Generator<string> {
          yield copyLines([[8n, 'first', null]]);
          throw unreadable;
        }
        expect(() => db.copyIn('COPY t (id, s, b) FROM STDIN', failing())).toThrow(unreadable);
        expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(rows.length);
      } finally {
        db.close();
      }
    });

    it('refuses a U+0000 on the way to PostgreSQL (naming table, row and column), the same database, a newer schema', async () => {
      const nul = file('nul.sqlite');
      expect(tms('db', 'copy', original, nul).code).toBe(0);
      const db = new Database(nul);
      const id = db.prepare('SELECT id FROM comments LIMIT 1').pluck().get() as number;
      db.prepare('UPDATE comments SET comment = ? WHERE id = ?').run('before\0after', id);
      db.close();
      const pg = pgSchemaUrl('dbcopy_nul');
      const r = tms('db', 'copy', nul, pg);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`table comments, row id=${id}, column comment holds a U+0000 (NUL) character`);
      // nothing was copied: the target is still empty, so a clean copy goes in afterwards
      const check = openPgDb(pg);
      for (const table of copyTables()) expect(check.prepare(`SELECT count(*) FROM "${table.name}"`).pluck().get(), table.name).toBe(0);
      check.close();
      // and its indexes, foreign keys and triggers, which the copy set aside while writing, are back as migrated
      const fresh = pgSchemaUrl('dbcopy_fresh');
      await migrateDatabase(fresh);
      expect(schemaShape(pg)).toEqual(schemaShape(fresh));
      expect(tms('db', 'copy', original, pg).code).toBe(0);

      // the same database, spelled differently
      const same = tms('db', 'copy', pg, `${pg}&application_name=other`);
      expect(same.code).toBe(1);
      expect(same.stderr).toMatch(/are the same database/);

      const newer = pgSchemaUrl('dbcopy_newer');
      await migrateDatabase(newer);
      const admin = openPgDb(newer);
      admin.exec('UPDATE tms_schema SET version = 99');
      admin.close();
      // (the server trusts the socket: the password is ignored there, and must not be shown)
      const fromNewer = tms('db', 'copy', `${newer}&password=sekrit-pw`, file('never.sqlite'));
      expect(fromNewer.code).toBe(1);
      expect(fromNewer.stderr).toMatch(/schema version 99 is newer than this tms/);
      expect(fromNewer.stderr).not.toContain('sekrit-pw');
    });
  });
});

if (!pgUrl) console.warn('[skip] tms db copy to and from PostgreSQL: TMS_TEST_POSTGRES is not set (npm run test:postgres runs it)');
