// How the store prepares SQL: every module's statements once per connection, dynamic ones in a bounded cache.
import { type Db, type SqlStatement, isPostgres } from './db.js';

/**
 * The store's one way to prepare statements: `prepare` runs once per connection and its result is kept.
 * @example const sql = preparedOnce((db) => ({ byId: db.prepare('SELECT * FROM units WHERE id = ?') })); sql(db).byId.get(1)
 */
export function preparedOnce<T>(prepare: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let prepared = cache.get(db);
    if (prepared === undefined) {
      prepared = prepare(db);
      cache.set(db, prepared);
    }
    return prepared;
  };
}

/**
 * Prepares each distinct SQL text once (dynamic filters produce a handful of shapes);
 * the oldest statements are dropped past `max`.
 */
export function statementCache(db: Db, max = 200): (sql: string) => SqlStatement {
  const statements = new Map<string, SqlStatement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (statement) return statement;
    statement = db.prepare(sql);
    if (statements.size >= max) statements.delete(statements.keys().next().value as string);
    statements.set(sql, statement);
    return statement;
  };
}

/**
 * Counts of list queries, remembered until the database changes (`version` differs), so that
 * paging through a large list does not count it again on every page.
 */
export function countCache(version: () => string, max = 1000): (key: string, count: () => number) => number {
  let seen = '';
  const counts = new Map<string, number>();
  return (key, count) => {
    const current = version();
    if (current !== seen) {
      counts.clear();
      seen = current;
    }
    let n = counts.get(key);
    if (n === undefined) {
      n = count();
      if (counts.size >= max) counts.clear();
      counts.set(key, n);
    }
    return n;
  };
}

/**
 * The change token of a connection (one function per connection, shared by the store and its count caches).
 * SQLite: another connection's commit (data_version) or a write through this one (total_changes). PostgreSQL: the
 * counter every writing transaction raises on whichever node, read once per turn of the event loop (the requests a
 * turn handles arrived before that read; a read per request was a round trip per cached answer), and this
 * connection's own row count, so that its own writes show at once.
 */
export const versionOf = preparedOnce((db: Db): (() => string) => {
  if (isPostgres(db)) {
    const counter = db.prepare('SELECT n FROM data_version WHERE id = 1').pluck();
    const own = db as Db & { totalChanges: number };
    let turn: string | undefined;
    return () => {
      if (turn === undefined) {
        turn = String(counter.get() as number);
        setImmediate(() => {
          turn = undefined;
        });
      }
      return `${turn}:${own.totalChanges}`;
    };
  }
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  return () => `${dataVersion.get() as number}:${totalChanges.get() as number}`;
});

/** A page request: how many rows, after how many. */
export interface Slice {
  limit: number;
  offset: number;
}
