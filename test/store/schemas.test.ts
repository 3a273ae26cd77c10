// The two schemas (src/store/migrations.ts for SQLite, src/store/pg/migrations.ts for PostgreSQL) describe one store:
// the same tables, columns (by type family, nullability and default), primary keys, unique keys, foreign keys and
// indexes, each built fresh and read back from the engine's own catalog. The differences by design are listed here.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonOptions, migrate } from '../../src/store/db.js';
import { PG_MIGRATIONS } from '../../src/store/pg/migrations.js';
import { connectionInfo, migrateDatabase, migratePg, openPgDb, testSchemaFor } from '../../src/store/pg/open.js';
import type { PgDb } from '../../src/store/pg/pg-db.js';
import { PgSession } from '../../src/store/pg/session.js';

const url = process.env.TMS_TEST_POSTGRES;
if (!url) console.warn('test/store/schemas.test.ts: TMS_TEST_POSTGRES is not set: skipped (npm run test:postgres runs it)');

/** One engine's schema, in terms both share. */
interface Schema {
  /** table → column → `family null|notnull default` */
  columns: Map<string, Map<string, string>>;
  /** `table(columns)` of primary keys */
  primaryKeys: Set<string>;
  /** `table(columns)` of unique constraints and unique indexes (the primary key's aside) */
  unique: Set<string>;
  /** `table(columns) → table(columns) on delete …` */
  foreignKeys: Set<string>;
  /** `table(columns)` of the other indexes */
  indexes: Set<string>;
}

/**
 * Tables only one engine has, by design: SQLite's trigram indexes (FTS5), PostgreSQL's schema version and change
 * counter, and its search's table of lowercased texts (unit_search, under pg_trgm's indexes: SQLite's units_fts).
 */
const ONLY_SQLITE = [
  'memory_fts',
  'memory_fts_config',
  'memory_fts_data',
  'memory_fts_docsize',
  'memory_fts_idx',
  'memory_fts_content',
  'units_fts',
  'units_fts_config',
  'units_fts_data',
  'units_fts_docsize',
  'units_fts_idx',
  // the units the search index's fill has not reached after a first load (PostgreSQL's: unit_search_pending)
  'units_fts_pending',
];
const ONLY_POSTGRES = ['tms_schema', 'data_version', 'unit_search', 'unit_search_pending'];

/**
 * PostgreSQL's indexes that stand for a different SQLite one, by design: a B-tree entry holds at most about 2.7 kB, and
 * a unit's source or a memory text can be longer, so PostgreSQL looks them up by hash (units by source; memory texts
 * kept unique by their md5) where SQLite uses a B-tree; memory_sources(text) (hash and trigram GIN) stands for
 * SQLite's FTS5 table; an index that names the unit's id where SQLite's carries it as the rowid. Each entry: PostgreSQL's `table(columns)` → SQLite's, or null for none.
 */
const POSTGRES_AS_SQLITE: Record<'unique' | 'indexes', Record<string, string | null>> = {
  unique: { 'memory_sources(expression)': 'memory_sources(text)' },
  indexes: {
    // SQLite's string index: PostgreSQL's B-tree holds the strings that fit its entry (with each unit's id: a string's
    // copies by translation from the index alone), its hash index of sources finds the longer ones
    'units(source, context, translation_id, id) partial': 'units(source, context, translation_id)',
    'units(source)': null,
    'memory_sources(text)': null,
    // SQLite's index entries end with their rowid (the unit's id): PostgreSQL's states it (a page's ids in order from the index)
    'units(translation_id, position, id)': 'units(translation_id, position)',
  },
};

/** PostgreSQL's set of `kind`, the differences by design put in SQLite's terms. */
function asSqlite(set: Set<string>, kind: 'unique' | 'indexes'): string[] {
  const map = POSTGRES_AS_SQLITE[kind];
  return [...set].flatMap((entry) => (entry in map ? (map[entry] === null ? [] : [map[entry]!]) : [entry])).sort();
}

function family(type: string): string {
  const t = type.toLowerCase();
  if (/int|serial/.test(t)) return 'integer';
  if (/char|text|clob/.test(t)) return 'text';
  if (/real|floa|doub|numeric|decimal/.test(t)) return 'real';
  if (/blob|bytea/.test(t)) return 'blob';
  if (t === 'boolean') return 'boolean';
  return t || 'any';
}

/** A default as both engines write it: numbers and quoted strings compared by value; SQL expressions named. */
function defaultOf(value: string | null): string {
  if (value === null) return '';
  const v = value.replace(/::[a-z ]+$/i, '').replace(/^\((.*)\)$/, '$1');
  if (/^'.*'$/s.test(v)) return ` default ${v}`;
  if (/^-?\d+(\.\d+)?$/.test(v)) return ` default ${Number(v)}`;
  if (/nextval|identity/i.test(v)) return '';
  return ` default ${v.toLowerCase()}`;
}

function sqliteSchema(): Schema {
  const db = new Database(':memory:', addonOptions());
  migrate(db);
  const schema: Schema = { columns: new Map(), primaryKeys: new Set(), unique: new Set(), foreignKeys: new Set(), indexes: new Set() };
  const tables = (db.pragma('table_list') as { name: string; type: string; schema: string }[])
    .filter((t) => t.schema === 'main' && t.type === 'table' && !t.name.startsWith('sqlite_') && !ONLY_SQLITE.includes(t.name))
    .map((t) => t.name);
  for (const table of tables) {
    const info = db.pragma(`table_info("${table}")`) as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[];
    const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    schema.columns.set(
      table,
      new Map(
        info.map((c) => {
          // a rowid alias (INTEGER PRIMARY KEY) is never null, whatever it declares
          const notnull = c.notnull === 1 || (pk.length === 1 && pk[0]!.name === c.name);
          return [c.name, `${family(c.type)} ${notnull ? 'notnull' : 'null'}${defaultOf(c.dflt_value)}`];
        }),
      ),
    );
    schema.primaryKeys.add(`${table}(${pk.map((c) => c.name).join(', ')})`);
    for (const f of db.pragma(`foreign_key_list("${table}")`) as { id: number; table: string; from: string; to: string | null; on_delete: string }[]) {
      schema.foreignKeys.add(`${table}(${f.from}) → ${f.table}(${f.to ?? 'id'}) on delete ${f.on_delete.toLowerCase()}`);
    }
    for (const ix of db.pragma(`index_list("${table}")`) as { name: string; unique: number; origin: string; partial: number }[]) {
      if (ix.origin === 'pk') continue;
      const columns = (db.pragma(`index_xinfo("${ix.name}")`) as { name: string | null; key: number; cid: number }[])
        .filter((c) => c.key === 1)
        .map((c) => c.name ?? (c.cid === -2 ? 'expression' : 'rowid'));
      (ix.unique ? schema.unique : schema.indexes).add(`${table}(${columns.join(', ')})${ix.partial ? ' partial' : ''}`);
    }
  }
  db.close();
  return schema;
}

function postgresSchema(db: PgDb, name: string): Schema {
  const schema: Schema = { columns: new Map(), primaryKeys: new Set(), unique: new Set(), foreignKeys: new Set(), indexes: new Set() };
  const columns = db
    .prepare(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity FROM information_schema.columns
       WHERE table_schema = ? ORDER BY table_name, ordinal_position`,
    )
    .all(name) as { table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null; is_identity: string }[];
  for (const c of columns) {
    if (ONLY_POSTGRES.includes(c.table_name)) continue;
    let table = schema.columns.get(c.table_name);
    if (!table) schema.columns.set(c.table_name, (table = new Map()));
    table.set(
      c.column_name,
      `${family(c.data_type)} ${c.is_nullable === 'NO' ? 'notnull' : 'null'}${c.is_identity === 'YES' ? '' : defaultOf(c.column_default)}`,
    );
  }
  const constraints = db
    .prepare(
      `SELECT c.contype, t.relname AS table_name, c.confdeltype,
         (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
         f.relname AS foreign_table,
         (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS foreign_columns
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace s ON s.oid = t.relnamespace
       LEFT JOIN pg_class f ON f.oid = c.confrelid
       WHERE s.nspname = ? AND c.contype IN ('p', 'u', 'f')`,
    )
    .all(name) as { contype: string; table_name: string; confdeltype: string; columns: string; foreign_table: string; foreign_columns: string }[];
  const onDelete: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };
  for (const c of constraints) {
    if (ONLY_POSTGRES.includes(c.table_name)) continue;
    if (c.contype === 'p') schema.primaryKeys.add(`${c.table_name}(${c.columns})`);
    else if (c.contype === 'u') schema.unique.add(`${c.table_name}(${c.columns})`);
    else schema.foreignKeys.add(`${c.table_name}(${c.columns}) → ${c.foreign_table}(${c.foreign_columns}) on delete ${onDelete[c.confdeltype]}`);
  }
  const indexes = db
    .prepare(
      `SELECT t.relname AS table_name, i.indisunique AS is_unique, i.indisprimary AS is_primary, i.indpred IS NOT NULL AS partial,
         EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid) AS constraint_index,
         (SELECT string_agg(coalesce(a.attname, 'expression'), ', ' ORDER BY k.n) FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, n)
          LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS columns
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace WHERE s.nspname = ?`,
    )
    .all(name) as { table_name: string; is_unique: number; is_primary: number; partial: number; constraint_index: number; columns: string }[];
  for (const ix of indexes) {
    if (ONLY_POSTGRES.includes(ix.table_name) || ix.is_primary || ix.constraint_index) continue;
    (ix.is_unique ? schema.unique : schema.indexes).add(`${ix.table_name}(${ix.columns})${ix.partial ? ' partial' : ''}`);
  }
  return schema;
}

const sorted = (set: Iterable<string>) => [...set].sort();

describe.skipIf(!url)('the SQLite and PostgreSQL schemas', () => {
  let sqlite: Schema;
  let postgres: Schema;
  let db: PgDb;
  beforeAll(async () => {
    const schema = testSchemaFor(path.join(mkdtempSync(path.join(tmpdir(), 'tms-schemas-')), 'tms.sqlite'));
    await migrateDatabase(url!, schema);
    db = openPgDb(url!, { schema });
    sqlite = sqliteSchema();
    postgres = postgresSchema(db, schema);
  });
  afterAll(() => db?.close());

  it('have the same tables and columns: type family, nullability, default', () => {
    expect(sorted(postgres.columns.keys())).toEqual(sorted(sqlite.columns.keys()));
    for (const [table, columns] of sqlite.columns) {
      expect(Object.fromEntries(postgres.columns.get(table) ?? []), table).toEqual(Object.fromEntries(columns));
    }
  });

  it('have the same primary keys, unique keys and foreign keys (with their ON DELETE)', () => {
    expect(sorted(postgres.primaryKeys)).toEqual(sorted(sqlite.primaryKeys));
    expect(asSqlite(postgres.unique, 'unique')).toEqual(sorted(sqlite.unique));
    expect(sorted(postgres.foreignKeys)).toEqual(sorted(sqlite.foreignKeys));
  });

  it('have the same indexes', () => {
    expect(asSqlite(postgres.indexes, 'indexes')).toEqual(sorted(sqlite.indexes));
  });

  it('are the same in PostgreSQL whether built fresh or migrated from the version before, over stored units', async () => {
    const older = testSchemaFor(path.join(mkdtempSync(path.join(tmpdir(), 'tms-schemas-')), 'tms.sqlite'));
    const session = await PgSession.open(connectionInfo(url!, older), older, { version: () => '' }, { pipeline: false });
    try {
      await session.exec(`CREATE SCHEMA ${older}`);
      await migratePg(session, PG_MIGRATIONS.slice(0, -1));
      await session.exec(`INSERT INTO languages (code, name, plural_number, plural_formula, plural_type) VALUES ('de', 'German', 2, 'n != 1', 1);
        INSERT INTO projects (slug, name, created) VALUES ('p', 'P', 'x');
        INSERT INTO components (project_id, slug, name, created) SELECT id, 'c', 'C', 'x' FROM projects;
        INSERT INTO translations (component_id, language_id, language_code) SELECT c.id, l.id, 'de' FROM components c, languages l;
        INSERT INTO units (translation_id, id_hash, content_hash, source, position, timestamp)
          SELECT t.id, n, n, 'text ' || n, n % 7, 'x' FROM translations t, generate_series(1, 50) n;`);
    } finally {
      session.close();
    }
    await migrateDatabase(url!, older);
    const migrated = openPgDb(url!, { schema: older });
    try {
      expect(migrated.prepare('SELECT count(*) FROM units').pluck().get()).toBe(50);
      const schema = postgresSchema(migrated, older);
      expect(Object.fromEntries([...schema.columns].map(([t, c]) => [t, Object.fromEntries(c)]))).toEqual(
        Object.fromEntries([...postgres.columns].map(([t, c]) => [t, Object.fromEntries(c)])),
      );
      for (const kind of ['primaryKeys', 'unique', 'foreignKeys', 'indexes'] as const) expect(sorted(schema[kind]), kind).toEqual(sorted(postgres[kind]));
    } finally {
      migrated.close();
    }
  });
});
