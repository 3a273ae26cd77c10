// Opens the SQLite store: WAL, foreign keys, versioned migrations applied on open.
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { TmsError } from '../domain/errors.js';
import { MIGRATIONS } from './migrations.js';
import { type SearchScope, registerSearchFunctions } from './unit-search.js';

const require = createRequire(import.meta.url);
let addon: Database.Options | undefined;

/**
 * better-sqlite3's options naming its compiled addon. The CLI bundle holds the package's JavaScript (loading its
 * dozen files cost a command that opens the store a few milliseconds; see scripts/build-cli-bundle.ts), from where the
 * package would not find the addon; and told, it skips searching for it. Where its build puts it; else (another
 * layout) found as the package finds it, from the package's own folder.
 */
export function addonOptions(): Database.Options {
  if (!addon) {
    const main = require.resolve('better-sqlite3');
    const root = path.join(path.dirname(main), '..');
    const file = path.join(root, 'build', 'Release', 'better_sqlite3.node');
    if (existsSync(file)) addon = { nativeBinding: file };
    else {
      const bindings = createRequire(main)('bindings') as (opts: { bindings: string; module_root: string }) => object;
      // better-sqlite3 takes the loaded addon as well as its path
      addon = { nativeBinding: bindings({ bindings: 'better_sqlite3.node', module_root: root }) as unknown as string };
    }
  }
  return addon;
}

/** The SQLite connection (better-sqlite3). */
export type SqliteDb = Database.Database;

/** What a write statement did: rows changed, and the id of the row it inserted. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared statement: better-sqlite3's interface, the part the store uses, which the PostgreSQL engine also has. */
export interface SqlStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): RunResult;
  /** Rows as their first column's value. */
  pluck(toggle?: boolean): this;
  /** 64-bit integers as bigint. */
  safeIntegers(toggle?: boolean): this;
  /** Rows as arrays of their values, in column order. */
  raw(toggle?: boolean): this;
}

/** A function run in a transaction: deferred by default, or taking the write lock first (`immediate`). */
// biome-ignore lint/suspicious/noExplicitAny: better-sqlite3's own signature
export type DbTransaction<F extends (...args: any[]) => unknown> = Database.Transaction<F>;

/** The engine a connection belongs to. */
export type Engine = 'sqlite' | 'postgresql';

/**
 * A synchronous connection: SQLite's, or a PostgreSQL session answering alike (the same shapes), for tools that run
 * alone (`tms db copy`) and tests' second connections; repositories get a `Tx`.
 */
export interface Db {
  readonly name: string;
  readonly open: boolean;
  prepare(sql: string): SqlStatement;
  exec(sql: string): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: better-sqlite3's own signature
  transaction<F extends (...args: any[]) => unknown>(fn: F): DbTransaction<F>;
  close(): unknown;
}

/**
 * A prepared statement as repository functions run it: every answer is awaited. SQLite answers at once (the value
 * itself, which `await` takes as it takes a promise: never call `.then` on an answer), PostgreSQL over the network.
 */
export interface Statement {
  get(...params: unknown[]): Promise<unknown>;
  all(...params: unknown[]): Promise<unknown[]>;
  run(...params: unknown[]): Promise<RunResult>;
  /** Rows as their first column's value. */
  pluck(toggle?: boolean): this;
  /** 64-bit integers as bigint. */
  safeIntegers(toggle?: boolean): this;
  /** Rows as arrays of their values, in column order. */
  raw(toggle?: boolean): this;
}

/**
 * The connection one unit of work runs on (`Store.read` / `Store.write` hand it to their function): repository
 * functions take it first and prepare their statements on it once (`preparedOnce`).
 * @example await store.read((tx) => findComponent(tx, 'hello', 'app'))
 */
export interface Tx {
  /** What the engine spells its own way (JSON fields, inserted ids, bulk writes …). */
  readonly dialect: Dialect;
  /** What every connection of one store shares (caches that follow its data key on it). */
  readonly shared: TxShared;
  prepare(sql: string): Statement;
}

/** What the connections of one store share. */
export interface TxShared {
  /** The change token as last read, without a round trip (it moves whenever the data changed). */
  version(): string;
}

/** A column of a bulk write: its name and PostgreSQL type (`bigint`, `text`). */
export type BulkColumn = readonly [name: string, type: string];

/**
 * Many rows in a few statements, where each statement costs a round trip (PostgreSQL); absent where a statement per
 * row costs none (SQLite, whose per-row statements are the faster way there).
 */
export interface BulkWrites {
  /**
   * Inserts `rows` (values in `columns` order) a few hundred to a statement; `tail` may hold `ON CONFLICT …` and
   * `RETURNING …`, whose rows come back in one list (integers as bigint).
   */
  insert(tx: Tx, table: string, columns: readonly BulkColumn[], rows: readonly (readonly unknown[])[], tail?: string): Promise<Record<string, unknown>[]>;
  /** Deletes the rows whose `columns` hold one of `rows` (value tuples in `columns` order). */
  delete(tx: Tx, table: string, columns: readonly BulkColumn[], rows: readonly (readonly unknown[])[]): Promise<number>;
}

/** How the memory's fuzzy lookup finds candidate source texts (a trigram index), with what it binds. */
export interface TrigramCandidates {
  /** Selects `id, text` of memory_sources, best first. */
  sql: string;
  /** The parameters for a looked-up text and a candidate limit; null when the text has no trigram (nothing to find). */
  params(text: string, limit: number): unknown[] | null;
}

/** What `tms db copy` does differently at each end (on synchronous connections: the copy runs alone). */
export interface CopyDialect {
  /** What identifies the database across connections (the file itself; the server, database and schema). */
  identity(db: Db): string;
  /** Makes the open transaction one consistent snapshot for reading (SQLite's read transaction already is). */
  snapshot(db: Db): void;
  /** Text with U+0000 cannot be stored (PostgreSQL): the copy refuses it before writing. */
  readonly refusesNul: boolean;
  /**
   * Runs the copy's writes (`write`, inside its transaction) with what the engine defers to their end: PostgreSQL
   * sets its secondary indexes, foreign keys and the search's and catalog's triggers aside meanwhile, then does at once
   * what those triggers would have done row by row (the search's table, the catalog's change numbers), builds the
   * indexes anew and adds the foreign keys back.
   */
  load(db: Db, write: () => void): void;
  /**
   * The engine's own bulk path for a batch of a table's rows (arrays in its column order): PostgreSQL's COPY. Without
   * one, multi-row INSERTs (copy/rows.ts).
   */
  writeRows?(db: Db, table: { readonly name: string; readonly columns: readonly string[] }, rows: readonly unknown[][]): void;
  /** After a table was copied with its ids: an identity's sequence moved past them (PostgreSQL). */
  afterTable(db: Db, table: { readonly name: string; readonly hasId: boolean }): void;
  /** After every table: the engine's own indexes checked against the rows (SQLite's trigram index). */
  verify(db: Db): void;
  /**
   * After the copy's commit, outside any transaction: the engine's upkeep of the schema it filled (PostgreSQL's
   * VACUUM (ANALYZE) of its every table, those its triggers fed too: statistics and a visibility map, as
   * Store.settleLoad after a first load).
   */
  settle(db: Db): void;
}

/** The differences between the engines, for repository functions (`tx.dialect`). */
export interface Dialect {
  readonly name: Engine;
  /** A text field of a JSON text column, as SQL (arrays as JSON text). */
  jsonText(column: string, key: string): string;
  /** A boolean field of a JSON text column as 1/0, as SQL. */
  jsonFlag(column: string, key: string): string;
  /** An INSERT whose `run()` gives the new row's `id` as `lastInsertRowid`. */
  returningId(insert: string): string;
  /** A subquery of the integers in one parameter holding a JSON array (bound as `JSON.stringify(ids)`). */
  readonly idsOfJson: string;
  /**
   * A subquery of the rows in one parameter holding a JSON array of arrays (bound as `JSON.stringify(rows)`, values in
   * `columns` order), its columns named as `columns`: many rows written or matched in one statement on both engines.
   */
  rowsOfJson(columns: readonly BulkColumn[]): string;
  /** LIKE that ignores the case of letters (SQLite's LIKE does, for ASCII). */
  readonly ilike: string;
  /** A join the planner takes in the order written (SQLite's CROSS JOIN; PostgreSQL plans joins itself). */
  readonly orderedJoin: string;
  /**
   * Deep pages choose their rows' ids first: the engine computes a row's select list before OFFSET skips it
   * (PostgreSQL), so a page of subquery-heavy rows reads its ids alone, then their rows.
   */
  readonly idsFirstPages: boolean;
  /**
   * The strings the index of a string's copies by translation holds (SQLite's units_string: every one; PostgreSQL's
   * units_string_copies: those whose source and context fit a btree entry, the others read through its hash index of
   * sources): `indexed(alias)`, that condition on a units row as SQL, which a read through the index states (a partial
   * index serves a query that implies its condition); `holds(source, context)`, the same on a string's texts.
   */
  readonly stringCopies: { indexed(alias: string): string; holds(source: string, context: string): boolean };
  readonly trigram: TrigramCandidates;
  /**
   * The units whose `fields` contain `needle` (lowercased, as the search compares), answered by the search's index
   * alone: a query of their ids (column `id`, each once, in id order when asked); null where the index cannot answer (a
   * field it does not hold, a needle shorter than a trigram). `within`, a condition on `u.translation_id` (the visible
   * translations), keeps only those units, or gives null where the index does not know a unit's translation. SQLite's:
   * FTS5's units_fts (it does not);
   * PostgreSQL's: the table of lowercased texts unit_search, under pg_trgm's indexes (each candidate row's LIKE decides).
   */
  textContains?(fields: readonly string[], needle: string, within?: SearchScope | null, complete?: boolean): { sql: string; params: unknown[] } | null;
  /**
   * Whether a first load left units to the search index's fill (1 or 0), where the engine's search then reads more than
   * its index (PostgreSQL: textContains without `complete` adds the pending range's units, which costs a page its
   * early stop); absent where that costs nothing worth a query (SQLite).
   */
  readonly searchFillPending?: string;
  readonly bulk?: BulkWrites;
  /**
   * The indexes of a table (its name the one parameter) that no constraint needs, and the triggers feeding the search's
   * index, as `name, type, sql` (the statement that creates it): what a first load drops and builds again after its rows
   * (units.repo.ts withIndexesBuiltAfter).
   * Absent where that does not pay: PostgreSQL, whose DROP INDEX would hold readers of the table until the commit.
   */
  readonly deferrableIndexes?: string;
  /**
   * The store's committed writes as a writing transaction sees them: `sql` selects one value, read after the
   * transaction's last write; `next(mark)` is what the next writing transaction reads first when no other write (of
   * any connection or node) came in between. What a cache kept across transactions checks (checks/known-strings.ts).
   */
  readonly writeMark: { readonly sql: string; next(mark: string): string };
  readonly copy: CopyDialect;
}

/** A synchronous connection as a `Tx` (its statements answer at once). */
export function txOf(db: Db, dialect: Dialect, shared: TxShared): Tx {
  return { dialect, shared, prepare: (sql) => db.prepare(sql) as unknown as Statement };
}

export class StoreError extends TmsError<{ file: string }> {}

/**
 * Applies every migration newer than the database's user_version, each in its own transaction, after registering the
 * SQL functions the schema calls (the search's, which the units' triggers call on every write).
 */
export function migrate(db: SqliteDb, migrations: readonly string[] = MIGRATIONS): { from: number; to: number } {
  registerSearchFunctions(db);
  const from = db.pragma('user_version', { simple: true }) as number;
  if (from > migrations.length) {
    throw new StoreError(`database schema version ${from} is newer than this tms (${migrations.length}); upgrade tms`, { file: db.name });
  }
  for (let version = from; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return { from, to: migrations.length };
}

/**
 * Opens (creating if needed) the database file and brings its schema up to date.
 * @example const db = openDb('tms.sqlite');
 */
export function openDb(file: string): SqliteDb {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  let db: SqliteDb;
  try {
    db = new Database(file, addonOptions());
  } catch (e) {
    throw new StoreError(`${file}: cannot open database: ${(e as Error).message}`, { file });
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  try {
    migrate(db);
  } catch (e) {
    db.close();
    if (e instanceof StoreError) throw e;
    throw new StoreError(`${file}: cannot migrate database: ${(e as Error).message}`, { file });
  }
  return db;
}

/** ISO 8601 timestamp with milliseconds and `Z`, as every stored time. */
export function now(): string {
  return new Date().toISOString();
}

/** What `inspectDatabase` finds in a database file. */
export interface DatabaseInspection {
  /** `PRAGMA integrity_check` said ok. */
  ok: boolean;
  /** Its first problems when not. */
  problems: string[];
  /** The schema version (migrations applied). */
  version: number;
  /** The schema version this tms writes. */
  current: number;
  pages: number;
}

/** A database file opened read-only (it must exist); StoreError when it cannot be opened. */
function openReadOnly(file: string): SqliteDb {
  try {
    return new Database(file, { readonly: true, fileMustExist: true, ...addonOptions() });
  } catch (e) {
    throw new StoreError(`${file}: cannot open database: ${(e as Error).message}`, { file });
  }
}

/**
 * Opens a database file read-only and checks it: integrity, schema version. Throws StoreError when it is not a
 * SQLite database.
 * @example inspectDatabase('backup.sqlite').ok
 */
export function inspectDatabase(file: string): DatabaseInspection {
  const db = openReadOnly(file);
  try {
    const rows = db.pragma('integrity_check(20)', { simple: false }) as { integrity_check: string }[];
    const problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
    return {
      ok: problems.length === 0,
      problems,
      version: db.pragma('user_version', { simple: true }) as number,
      current: MIGRATIONS.length,
      pages: db.pragma('page_count', { simple: true }) as number,
    };
  } catch (e) {
    throw new StoreError(`${file}: not a readable SQLite database: ${(e as Error).message}`, { file });
  } finally {
    db.close();
  }
}

/**
 * The schema version (migrations applied) of a database file, read without checking the rest of it (`inspectDatabase`
 * reads every page). Throws StoreError when it is not a SQLite database.
 * @example schemaVersion('tms.sqlite') // 0: not a tms database
 */
export function schemaVersion(file: string): number {
  const db = openReadOnly(file);
  try {
    // the schema's own table read too: a file that is not a database fails here, not on its first query
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db.pragma('user_version', { simple: true }) as number;
  } catch (e) {
    throw new StoreError(`${file}: not a readable SQLite database: ${(e as Error).message}`, { file });
  } finally {
    db.close();
  }
}

/**
 * Takes a copy of the database out of WAL mode: one self-contained file, which a reader opens without creating
 * `-wal` and `-shm` beside it (a read-only connection to a WAL database creates them and cannot remove them).
 * @example await sqliteOf(db).backup(file); makeStandalone(file)
 */
export function makeStandalone(file: string): void {
  const db = new Database(file, { fileMustExist: true, ...addonOptions() });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/**
 * Copies the database `from` over `to` with SQLite's backup API (the destination's WAL is handled by SQLite);
 * nothing else may have `to` open. Returns the pages copied.
 * @example await restoreDatabase('backup.sqlite', config.database)
 */
export async function restoreDatabase(from: string, to: string): Promise<number> {
  const source = new Database(from, { readonly: true, fileMustExist: true, ...addonOptions() });
  try {
    const { totalPages } = await source.backup(to);
    return totalPages;
  } finally {
    source.close();
  }
}
