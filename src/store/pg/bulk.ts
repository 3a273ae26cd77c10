// Many rows in one statement on PostgreSQL: each column's values as one array parameter, the rows made by unnest().
// A round trip per row (the synchronous session waits for each answer) is what makes a sync's thousands of inserts
// slow there; SQLite's per-row statements cost no round trip and keep their own path.
import type { Statement, Tx } from '../db.js';
import { toParam } from './values.js';

/** A column of a bulk insert: its name and PostgreSQL type (`bigint`, `integer`, `text`). */
export type BulkColumn = readonly [name: string, type: string];

/** Rows a statement, a few hundred: measured fastest (scripts/bench-pg-insert.ts), and a bounded parameter size. */
export const BULK_ROWS = 500;

/** One value as an element of a PostgreSQL array literal: strings quoted, `\` and `"` escaped, null as NULL. */
function element(value: unknown): string {
  const text = toParam(value);
  if (text === null) return 'NULL';
  return typeof value === 'string' ? `"${text.replace(/[\\"]/g, '\\$&')}"` : text;
}

/** A column's values as a PostgreSQL array literal. */
export function arrayLiteral(values: readonly unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += element(values[i]);
  }
  return `${out}}`;
}

const statements = new WeakMap<Tx, Map<string, Statement>>();

function statement(tx: Tx, text: string): Statement {
  let cache = statements.get(tx);
  if (!cache) statements.set(tx, (cache = new Map()));
  let s = cache.get(text);
  if (!s) {
    s = tx.prepare(text).safeIntegers(true);
    cache.set(text, s);
  }
  return s;
}

/**
 * Inserts `rows` (values in `columns` order) in statements of BULK_ROWS rows: `INSERT INTO table (…) SELECT * FROM
 * unnest($1::type[], …) <tail>`. `tail` may hold `ON CONFLICT …` and `RETURNING …`; the returned rows of every
 * statement are given back in one list (integers as bigint). PostgreSQL only.
 * @example await insertMany(tx, 'checks', [['unit_id', 'bigint'], ['name', 'text']], [[1, 'same']], 'ON CONFLICT DO NOTHING')
 */
export async function insertMany(
  tx: Tx,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly (readonly unknown[])[],
  tail = '',
): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const names = columns.map(([name]) => name).join(', ');
  const arrays = columns.map(([, type]) => `?::${type}[]`).join(', ');
  // without a RETURNING in `tail`, a table with ids returns them (as every insert's translation does)
  const s = statement(tx, `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays}) ${tail}`.trimEnd());
  const out: Record<string, unknown>[] = [];
  for (let start = 0; start < rows.length; start += BULK_ROWS) {
    const part = rows.slice(start, start + BULK_ROWS);
    const params = columns.map((_, c) => arrayLiteral(part.map((r) => r[c])));
    for (const r of (await s.all(...params)) as Record<string, unknown>[]) out.push(r);
  }
  return out;
}
