// PostgreSQL's dialect: JSON fields by ->>, inserts that return their id, pg_trgm's candidates, deep pages by their ids
// first, many rows a statement (each statement costs a round trip), and parameters numbered `$n`.
import type { CopyTable } from '../copy/tables.js';
import type { BulkColumn, Db, Dialect, Tx } from '../db.js';
import { sqliteDialect, trigramQuery } from '../dialect.js';
import { copyLines } from './copy-text.js';
import { SEARCHED } from './search-fill.js';
import { toParam } from './values.js';

/** A statement ready for PostgreSQL: `$n` parameters, and how the caller's parameters fill them. */
export interface NumberedSql {
  text: string;
  /** Positional statements: how many `?` there were. */
  positional: number;
  /** Named statements (`@name`): the name of each `$n`, in order. */
  names: readonly string[];
  /** An INSERT, UPDATE or DELETE (its row count is rows changed). */
  writes: boolean;
}

/**
 * Numbers a statement's parameters: `?` and `@name` become `$n` (outside quotes and comments; a name used twice is one
 * parameter). Nothing else of the text changes: the repositories write SQL both engines read.
 * @example numberParameters('SELECT * FROM units WHERE id = ?').text // 'SELECT * FROM units WHERE id = $1'
 */
export function numberParameters(source: string): NumberedSql {
  let out = '';
  let positional = 0;
  const names: string[] = [];
  const byName = new Map<string, number>();
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "'" || c === '"') {
      const end = closingQuote(source, i, c);
      out += source.slice(i, end + 1);
      i = end;
    } else if (c === '-' && source[i + 1] === '-') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      out += source.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      positional++;
      out += `$${positional}`;
    } else if (c === '@' && /[A-Za-z_]/.test(source[i + 1] ?? '')) {
      let j = i + 1;
      while (j < source.length && /\w/.test(source[j]!)) j++;
      const name = source.slice(i + 1, j);
      let n = byName.get(name);
      if (n === undefined) {
        names.push(name);
        n = names.length;
        byName.set(name, n);
      }
      out += `$${n}`;
      i = j - 1;
    } else {
      out += c;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error(`a statement mixes ? and @name parameters: ${source}`);
  return { text: out, positional, names, writes: /^\s*(INSERT|UPDATE|DELETE)\b/i.test(out) };
}

function closingQuote(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i++;
      else return i;
    }
  }
  return text.length - 1;
}

/** Rows a bulk statement, a few hundred: measured fastest (scripts/bench-pg-insert.ts), and a bounded parameter size. */
export const BULK_ROWS = 500;

/** One value as an element of a PostgreSQL array literal: strings quoted, `\` and `"` escaped, null as NULL. */
function element(value: unknown): string {
  const text = toParam(value);
  if (text === null) return 'NULL';
  return typeof value === 'string' ? `"${text.replace(/[\\"]/g, '\\$&')}"` : text;
}

/** A column's values as a PostgreSQL array literal (one array parameter). */
export function arrayLiteral(values: readonly unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += element(values[i]);
  }
  return `${out}}`;
}

/** Each column's values as one array parameter, the rows made by unnest(), BULK_ROWS rows a statement. */
async function inBatches<T>(rows: readonly (readonly unknown[])[], columns: readonly BulkColumn[], run: (params: string[]) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < rows.length; start += BULK_ROWS) {
    const part = rows.slice(start, start + BULK_ROWS);
    out.push(await run(columns.map((_, c) => arrayLiteral(part.map((r) => r[c])))));
  }
  return out;
}

const arrays = (columns: readonly BulkColumn[]) => columns.map(([, type]) => `?::${type}[]`).join(', ');
const names = (columns: readonly BulkColumn[]) => columns.map(([name]) => name).join(', ');

/** A session identity's sequence moved past the largest id (rows copied with their ids did not advance it). */
function advanceIdentity(db: Db, table: CopyTable): void {
  if (!table.hasId) return;
  const name = `"${table.name.replace(/"/g, '""')}"`;
  db.prepare(`SELECT setval(pg_get_serial_sequence('${name.replace(/'/g, "''")}', 'id'), max(id)) FROM ${name} HAVING max(id) IS NOT NULL`).get();
}

/** The connection `tms db copy` writes through (PgDb: its COPY FROM STDIN), known here by that method alone. */
type CopyingDb = Db & { copyIn(text: string, chunks: Iterable<string>): number };

/**
 * The trigger functions whose work a copy does at once after its rows (loadDeferred): the search's table (migrations
 * 8 and 10) and the catalog's change numbers (migrations 7 and 11). Any other trigger runs row by row as it would.
 */
const DEFERRED_TRIGGERS = [
  'unit_search_inserted',
  'unit_search_updated',
  'unit_search_deleted',
  'catalog_structure_changed',
  'catalog_stats_numbered',
  'catalog_translation_numbered',
  'catalog_author_renamed',
];

/**
 * A copy's writes into an empty schema with nothing maintained row by row meanwhile, all in the copy's transaction
 * (all or nothing: a failure rolls the dropped indexes, foreign keys and disabled triggers back too). Its secondary
 * indexes (those no constraint owns) and its foreign keys are dropped, and the triggers of DEFERRED_TRIGGERS disabled;
 * after the rows, what those triggers would have written is written at once (unit_search from every unit, as a first
 * load's fill does, pg/search-fill.ts; the statistics' and translations' change numbers in key order, and the catalog's), the
 * indexes are built anew and the foreign keys added back from their definitions, each over its whole table at once
 * (the copy of the 5,000-component site: BENCHMARKS.md, "`tms db copy` into PostgreSQL"). Needs the tables' owner,
 * as migrations do.
 */
function loadDeferred(db: Db, write: () => void): void {
  const inSchema = "SELECT oid FROM pg_class WHERE relnamespace = to_regnamespace(current_schema()) AND relkind = 'r'";
  const indexes = db
    .prepare(
      `SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i
       WHERE i.indrelid IN (${inSchema}) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
       ORDER BY i.indexrelid`,
    )
    .raw()
    .all() as [string, string][];
  const triggers = db
    .prepare(
      `SELECT t.tgrelid::regclass::text, quote_ident(t.tgname) FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
       WHERE NOT t.tgisinternal AND t.tgrelid IN (${inSchema}) AND p.proname IN (${DEFERRED_TRIGGERS.map((f) => `'${f}'`).join(', ')}) ORDER BY 1, 2`,
    )
    .raw()
    .all() as [string, string][];
  const foreignKeys = db
    .prepare(
      `SELECT conrelid::regclass::text, quote_ident(conname), pg_get_constraintdef(oid) FROM pg_constraint
       WHERE contype = 'f' AND conrelid IN (${inSchema}) ORDER BY conrelid, conname`,
    )
    .raw()
    .all() as [string, string, string][];
  for (const [table, name] of foreignKeys) db.exec(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
  if (indexes.length > 0) db.exec(`DROP INDEX ${indexes.map(([name]) => name).join(', ')}`);
  for (const [table, trigger] of triggers) db.exec(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
  write();
  // migration 8's insert trigger (no unit is left to a fill: unit_search_pending stays empty)
  db.exec(`INSERT INTO unit_search SELECT ${SEARCHED} FROM units`);
  // migrations 7's and 11's: each statistics row and each translation numbered as its insert would have been (in key
  // order), the catalog's numbers moved to the last ones and its structure raised once
  db.exec(`UPDATE translation_stats s SET seq = n.seq FROM (SELECT translation_id, (SELECT stats FROM catalog_version WHERE id = 1)
    + row_number() OVER (ORDER BY translation_id) AS seq FROM translation_stats) n WHERE s.translation_id = n.translation_id`);
  db.exec(`UPDATE translations t SET seq = n.seq FROM (SELECT id, (SELECT translations FROM catalog_version WHERE id = 1)
    + row_number() OVER (ORDER BY id) AS seq FROM translations) n WHERE t.id = n.id`);
  db.exec(`UPDATE catalog_version c SET structure = c.structure + 1, stats = (SELECT coalesce(max(s.seq), c.stats) FROM translation_stats s),
    translations = (SELECT coalesce(max(t.seq), c.translations) FROM translations t) WHERE c.id = 1`);
  for (const [table, trigger] of triggers) db.exec(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
  for (const [, definition] of indexes) db.exec(definition);
  // each foreign key checked once over its whole table (a join) rather than a look-up per row
  for (const [table, name, definition] of foreignKeys) db.exec(`ALTER TABLE ${table} ADD CONSTRAINT ${name} ${definition}`);
}

/**
 * The LIKE pattern of the texts containing `text` (its `%`, `_` and `\\` escaped: LIKE's default escape is `\\`), as
 * tms_icontains builds it.
 * @example containsPattern('50%') // '%50\\%%'
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/** The unit texts the search's table (unit_search, lowercased) holds, each under a trigram index. */
const SEARCHED_FIELDS: ReadonlySet<string> = new Set(['source', 'target', 'context']);

/** PostgreSQL's dialect. */
export const postgresDialect: Dialect = {
  name: 'postgresql',
  jsonText: (column, key) => `(${column}::jsonb ->> '${key}')`,
  jsonFlag: (column, key) => `((${column}::jsonb ->> '${key}')::boolean::int)`,
  returningId: (insert) => `${insert.trimEnd()} RETURNING id`,
  idsOfJson: 'SELECT v::bigint FROM jsonb_array_elements_text(?::jsonb) AS v',
  rowsOfJson: (columns) => `SELECT ${columns.map(([name, type], i) => `(v ->> ${i})::${type} AS ${name}`).join(', ')} FROM jsonb_array_elements(?::jsonb) AS v`,
  ilike: 'ILIKE',
  orderedJoin: 'JOIN',
  idsFirstPages: true,
  // units_string_copies' condition (migration 12): 2,000 bytes of text leave room in a btree entry (2,704 bytes)
  stringCopies: {
    indexed: (alias) => `octet_length(${alias}.source) + octet_length(${alias}.context) < 2000`,
    holds: (source, context) => Buffer.byteLength(source) + Buffer.byteLength(context) < 2000,
  },
  // every writing transaction raises the counter by one, first (the next one's own raise included)
  writeMark: { sql: 'SELECT n::text FROM data_version WHERE id = 1', next: (mark) => String(BigInt(mark) + 1n) },
  trigram: {
    sql: 'SELECT id, text FROM memory_sources WHERE text % ? ORDER BY similarity(text, ?) DESC, id LIMIT ?',
    params: (text, limit) => (trigramQuery(text) === null ? null : [text, text, limit]),
  },
  searchFillPending: 'SELECT CASE WHEN EXISTS (SELECT 1 FROM unit_search_pending) THEN 1 ELSE 0 END',
  textContains(fields, needle, within, complete = false) {
    if (fields.length === 0 || !fields.every((f) => SEARCHED_FIELDS.has(f)) || [...needle].length < 3) return null;
    const pattern = containsPattern(needle);
    const params = fields.map(() => pattern);
    const indexed = `SELECT u.id FROM unit_search u WHERE (${fields.map((f) => `u.${f} LIKE ?`).join(' OR ')})`;
    // the units a fill has not reached yet (unit_search_pending, search-fill.ts) are not in the table: matched on
    // their rows, lowered as the table holds them, in the same statement (one snapshot: a chunk of the fill moves
    // units from the one part to the other). Its one range (a first load replaces it) as two values: planned as a
    // range of ids, not a join whose guessed size (of a table never analysed) times the units' made a count with
    // `a OR b` test every unit against each arm's list anew instead of a hash of it (a minute for KeePassXC)
    const scanned = `SELECT u.id FROM units u
      WHERE u.id BETWEEN (SELECT min(lo) FROM unit_search_pending) AND (SELECT max(hi) FROM unit_search_pending)
      AND (${fields.map((f) => `lower(u.${f} COLLATE "und-x-icu") LIKE ?`).join(' OR ')})`;
    // nothing left to the fill (the caller asked: searchFillPending): the table alone, whose id order a page reads
    // and stops at its end; PostgreSQL 15 sorts every match of a UNION ALL first (a page of 'file' 7 ms against 0.4)
    const arms = complete ? [indexed] : [indexed, scanned];
    if (!within) return { sql: arms.join(' UNION ALL '), params: arms.flatMap(() => params) };
    // a caller who does not see every translation: theirs, from the same narrow rows (no unit read to learn its
    // translation). Unless a page reads them in id order (byId), they are gathered first (OFFSET 0: planned on its
    // own, the index's matches and a hash of the translations), then ordered: read in id order instead, the planner
    // (which guesses 100 translations in the list) would scan the whole list for every row, 3.7 s for a page of 'file'
    const kept = arms.map((arm) => `${arm} AND ${within.sql}`).join(' UNION ALL ');
    return {
      sql: within.byId ? kept : `SELECT id FROM (${kept} OFFSET 0) kept`,
      params: arms.flatMap(() => [...params, ...within.params]),
    };
  },
  bulk: {
    async insert(tx: Tx, table, columns, rows, tail = '') {
      if (rows.length === 0) return [];
      const s = tx.prepare(`INSERT INTO ${table} (${names(columns)}) SELECT * FROM unnest(${arrays(columns)}) ${tail}`.trimEnd()).safeIntegers(true);
      return (await inBatches(rows, columns, (params) => s.all(...params) as Promise<Record<string, unknown>[]>)).flat();
    },
    async delete(tx: Tx, table, columns, rows) {
      if (rows.length === 0) return 0;
      const s = tx.prepare(`DELETE FROM ${table} WHERE (${names(columns)}) IN (SELECT * FROM unnest(${arrays(columns)}))`);
      const counts = await inBatches(rows, columns, async (params) => (await s.run(...params)).changes);
      return counts.reduce((a, b) => a + b, 0);
    },
  },
  copy: {
    identity(db) {
      const row = db
        .prepare(
          "SELECT current_database() || '|' || current_schema() || '|' || pg_postmaster_start_time()::text || '|' || coalesce(inet_server_addr()::text, '') || '|' || coalesce(inet_server_port(), 0)::text",
        )
        .pluck()
        .get();
      return `postgresql:${String(row)}`;
    },
    snapshot(db) {
      db.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    },
    load: loadDeferred,
    writeRows(db, table, rows) {
      const columns = table.columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ');
      (db as CopyingDb).copyIn(`COPY "${table.name.replace(/"/g, '""')}" (${columns}) FROM STDIN`, [copyLines(rows)]);
    },
    refusesNul: true,
    afterTable: advanceIdentity,
    verify() {},
    settle(db) {
      db.exec(WAL_FLUSHED);
      const tables = db.prepare('SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename').pluck().all();
      if (tables.length > 0) for (const statement of settling(tables as string[])) db.exec(statement);
    },
  },
};

/**
 * Waits (at most 10 s, on the server) until the WAL written so far is on disk. A VACUUM marks a page all-visible only
 * once it may set its rows' commit hint bits, which waits for the commit's WAL: on a server with
 * `synchronous_commit = off` a VACUUM run right after a load's commit would leave its every page unmarked.
 */
export const WAL_FLUSHED = `DO $$ DECLARE written pg_lsn := pg_current_wal_insert_lsn(); BEGIN
  FOR i IN 1..200 LOOP EXIT WHEN pg_current_wal_flush_lsn() >= written; PERFORM pg_sleep(0.05); END LOOP; END $$`;

/**
 * The statements that settle tables a load filled (their statistics and visibility map), each run outside any
 * transaction once the load's commit is on disk (WAL_FLUSHED): every table vacuumed, then every table analysed. Not
 * `VACUUM (ANALYZE) a, b, …`: that analyses each table before it vacuums the next, and each ANALYZE commits a
 * transaction of its own; with `synchronous_commit = off` its commit is not on disk yet when the next table's VACUUM
 * reads the load's rows, which it then leaves without their commit hint and whose pages it marks not all-visible
 * (measured: the first table of the list marked, the others not one page; after a `tms db copy`, unit_search 0 of
 * 1,210 pages, so that an index-only scan would fetch each row from the table).
 * @example for (const statement of settling(['units', 'checks'])) await session.exec(statement)
 */
export function settling(quotedTables: readonly string[]): string[] {
  const names = quotedTables.join(', ');
  return [`VACUUM ${names}`, `ANALYZE ${names}`];
}

/** The dialect of a synchronous connection (`tms db copy`'s ends). */
export function dialectFor(db: Db): Dialect {
  return (db as { engine?: string }).engine === 'postgresql' ? postgresDialect : sqliteDialect;
}
