// Reading a table in primary-key order in batches, writing rows back in multi-row inserts, and the checksum of a table.
import { createHash } from 'node:crypto';
import type { Db, SqlStatement } from '../db.js';
import { type CopyTable, quoted } from './tables.js';

/** Parameters per statement kept under SQLite's limit (32766) and PostgreSQL's (65535). */
const MAX_PARAMS = 30_000;
const MAX_ROWS = 1000;

/** How many rows one read batch and one insert statement hold for this table. */
export function batchRows(table: CopyTable): number {
  return Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / table.columns.length)));
}

/**
 * The table's rows as arrays of values in column order, in primary-key order, a batch at a time (keyset paging, so
 * PostgreSQL never holds more than a batch in memory). Integers come as bigint on both engines.
 * @example for (const rows of readRows(db, table)) insertRows(target, table, rows)
 */
export function* readRows(db: Db, table: CopyTable, batch = batchRows(table)): Generator<unknown[][]> {
  const columns = table.columns.map(quoted).join(', ');
  const order = table.key.map(quoted).join(', ');
  const keyIndex = table.key.map((k) => table.columns.indexOf(k));
  const after = table.key.length === 1 ? `${order} > ?` : `(${order}) > (${table.key.map(() => '?').join(', ')})`;
  const first = db
    .prepare(`SELECT ${columns} FROM ${quoted(table.name)} ORDER BY ${order} LIMIT ${batch}`)
    .raw()
    .safeIntegers();
  const next = db
    .prepare(`SELECT ${columns} FROM ${quoted(table.name)} WHERE ${after} ORDER BY ${order} LIMIT ${batch}`)
    .raw()
    .safeIntegers();
  let rows = first.all() as unknown[][];
  while (rows.length > 0) {
    yield rows;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    rows = next.all(keyIndex.map((i) => last[i])) as unknown[][];
  }
}

/** Insert statements by connection and text: preparing one of thousands of parameters for every batch costs more than running it. */
const inserts = new WeakMap<Db, Map<string, SqlStatement>>();

function insertStatement(db: Db, text: string): SqlStatement {
  let byText = inserts.get(db);
  if (!byText) inserts.set(db, (byText = new Map()));
  let statement = byText.get(text);
  if (!statement) byText.set(text, (statement = db.prepare(text)));
  return statement;
}

/** Inserts rows (arrays in the table's column order) with as few statements as the parameter limits allow. */
export function insertRows(db: Db, table: CopyTable, rows: readonly unknown[][]): void {
  const per = batchRows(table);
  const head = `INSERT INTO ${quoted(table.name)} (${table.columns.map(quoted).join(', ')}) VALUES `;
  const tuple = `(${table.columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += per) {
    const chunk = rows.slice(start, start + per);
    insertStatement(db, head + new Array(chunk.length).fill(tuple).join(', ')).run(chunk.flat());
  }
}

/** A value as the checksum sees it: the same on both engines (integers as decimal text whichever type carried them). */
function canonical(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return `i${value}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `i${value}` : `r${value}`;
  if (typeof value === 'string') return `s${value}`;
  if (value instanceof Uint8Array) return `b${Buffer.from(value).toString('hex')}`;
  return `?${String(value)}`;
}

/** A table's row count and checksum: SHA-256 over one canonical JSON line per row, rows in primary-key order. */
export interface TableSum {
  rows: number;
  checksum: string;
}

/**
 * A table's sum taken a batch of rows at a time, the batches in primary-key order.
 * @example const sum = new TableHasher(); for (const rows of readRows(db, table)) sum.add(rows); sum.sum()
 */
export class TableHasher {
  private readonly hash = createHash('sha256');
  private rows = 0;

  add(batch: readonly unknown[][]): void {
    let lines = '';
    for (const row of batch) lines += `${JSON.stringify(row.map(canonical))}\n`;
    this.hash.update(lines);
    this.rows += batch.length;
  }

  sum(): TableSum {
    return { rows: this.rows, checksum: this.hash.digest('hex') };
  }
}

/**
 * Counts and hashes a table as stored: two databases whose tables have equal sums hold the same rows, value for value.
 * @example tableSum(db, table).checksum
 */
export function tableSum(db: Db, table: CopyTable): TableSum {
  const sum = new TableHasher();
  for (const batch of readRows(db, table)) sum.add(batch);
  return sum.sum();
}

/** True when the table holds no row. */
export function tableEmpty(db: Db, table: CopyTable): boolean {
  return db.prepare(`SELECT 1 FROM ${quoted(table.name)} LIMIT 1`).get() === undefined;
}
