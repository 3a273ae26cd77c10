// How the store prepares SQL: every module's statements once per connection, dynamic ones in a bounded cache, and the
// one cache of counts that follows the data.
import type { Statement, Tx, TxShared } from './db.js';

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

/** A page request: how many rows, after how many. */
export interface Slice {
  limit: number;
  offset: number;
}
