// How the store prepares SQL: every module's statements once per connection, dynamic ones in a bounded cache, and the
// one cache of counts that follows the data.
import { type Db, type Statement, type Tx, type TxShared, isPostgres } from './db.js';

/**
 * The store's one way to prepare statements: `prepare` runs once per connection and its result is kept.
 * @example const sql = preparedOnce((tx) => ({ byId: tx.prepare('SELECT * FROM units WHERE id = ?') })); await sql(tx).byId.get(1)
 */
export function preparedOnce<T>(prepare: (tx: Tx) => T): (tx: Tx) => T {
  const cache = new WeakMap<Tx, T>();
  return (tx) => {
    let prepared = cache.get(tx);
    if (prepared === undefined) {
      prepared = prepare(tx);
      cache.set(tx, prepared);
    }
    return prepared;
  };
}

/**
 * Prepares each distinct SQL text once per connection (dynamic filters produce a handful of shapes); the oldest
 * statements are dropped past `max`.
 * @example const statement = statementCache(tx); await statement(`SELECT … ${where}`).all(...params)
 */
export function statementCache(tx: Tx, max = 200): (sql: string) => Statement {
  const statements = new Map<string, Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (statement) return statement;
    statement = tx.prepare(sql);
    if (statements.size >= max) statements.delete(statements.keys().next().value as string);
    statements.set(sql, statement);
    return statement;
  };
}

interface Counts {
  version: string;
  counts: Map<string, number>;
}

const countsOf = new WeakMap<TxShared, Counts>();
const MAX_COUNTS = 1000;

/**
 * The count of a list query, remembered per store until its data changes (its change token moves), so that paging
 * through a large list does not count it again on every page. `key` names the query and its parameters.
 * @example await counted(tx, sql + JSON.stringify(params), () => statement(sql).pluck().get(...params))
 */
export async function counted(tx: Tx, key: string, count: () => Promise<unknown>): Promise<number> {
  const version = tx.shared.version();
  let cache = countsOf.get(tx.shared);
  if (!cache || cache.version !== version) {
    cache = { version, counts: new Map() };
    countsOf.set(tx.shared, cache);
  }
  const known = cache.counts.get(key);
  if (known !== undefined) return known;
  const n = Number(await count());
  // counted under the token read before the count: a change meanwhile moved the token, and the count goes with it
  if (cache.counts.size >= MAX_COUNTS) cache.counts.clear();
  cache.counts.set(key, n);
  return n;
}

/**
 * The change token of a synchronous connection (one function per connection, shared by the store and its count
 * caches). SQLite: another connection's commit (data_version) or a write through this one (total_changes).
 * PostgreSQL: the counter every writing transaction raises on whichever node, read once per turn of the event loop
 * (the requests a turn handles arrived before that read; a read per request was a round trip per cached answer), and
 * this connection's own row count, so that its own writes show at once.
 */
export const versionOf = (() => {
  const cache = new WeakMap<Db, () => string>();
  return (db: Db): (() => string) => {
    let version = cache.get(db);
    if (version) return version;
    if (isPostgres(db)) {
      const counter = db.prepare('SELECT n FROM data_version WHERE id = 1').pluck();
      const own = db as Db & { totalChanges: number };
      let turn: string | undefined;
      version = () => {
        if (turn === undefined) {
          turn = String(counter.get() as number);
          setImmediate(() => {
            turn = undefined;
          });
        }
        return `${turn}:${own.totalChanges}`;
      };
    } else {
      const dataVersion = db.prepare('PRAGMA data_version').pluck();
      const totalChanges = db.prepare('SELECT total_changes()').pluck();
      version = () => `${dataVersion.get() as number}:${totalChanges.get() as number}`;
    }
    cache.set(db, version);
    return version;
  };
})();

/** A page request: how many rows, after how many. */
export interface Slice {
  limit: number;
  offset: number;
}
