// What differs between the engines, in one object per engine: repository functions write one SQL text and take the
// few engine-specific fragments, plans and bulk writes from `tx.dialect`. This file holds SQLite's; PostgreSQL's is
// pg/dialect.ts.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { CopyTable } from './copy/tables.js';
import type { Db, Engine, SqliteDb, Tx } from './db.js';

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
  /** After a table was copied with its ids: an identity's sequence moved past them (PostgreSQL). */
  afterTable(db: Db, table: CopyTable): void;
  /** After every table: the engine's own indexes checked against the rows (SQLite's trigram index). */
  verify(db: Db): void;
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
  /** LIKE that ignores the case of letters (SQLite's LIKE does, for ASCII). */
  readonly ilike: string;
  /** A join the planner takes in the order written (SQLite's CROSS JOIN; PostgreSQL plans joins itself). */
  readonly orderedJoin: string;
  /**
   * Deep pages choose their rows' ids first: the engine computes a row's select list before OFFSET skips it
   * (PostgreSQL), so a page of subquery-heavy rows reads its ids alone, then their rows.
   */
  readonly idsFirstPages: boolean;
  readonly trigram: TrigramCandidates;
  readonly bulk?: BulkWrites;
  readonly copy: CopyDialect;
}

/**
 * The FTS5 query for the trigrams of a text: any of them, each quoted (a `"` doubled); null when it has none.
 * @example trigramQuery('file') // '"fil" OR "ile"'
 */
export function trigramQuery(text: string): string | null {
  const grams = new Set<string>();
  const chars = [...text.toLowerCase()];
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  if (grams.size === 0) return null;
  return [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(' OR ');
}

/** SQLite's: json_extract, FTS5's trigram index, statements a row (no round trips to save). */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  jsonFlag: (column, key) => `json_extract(${column}, '$.${key}')`,
  returningId: (insert) => insert,
  idsOfJson: 'SELECT value FROM json_each(?)',
  ilike: 'LIKE',
  orderedJoin: 'CROSS JOIN',
  idsFirstPages: false,
  trigram: {
    sql: `SELECT f.rowid AS id, ms.text FROM memory_fts f JOIN memory_sources ms ON ms.id = f.rowid
          WHERE memory_fts MATCH ? ORDER BY f.rank LIMIT ?`,
    params: (text, limit) => {
      const query = trigramQuery(text);
      return query === null ? null : [query, limit];
    },
  },
  copy: {
    identity(db) {
      const file = (db as SqliteDb).name;
      return `sqlite:${existsSync(file) ? realpathSync(file) : path.resolve(file)}`;
    },
    snapshot() {},
    refusesNul: false,
    afterTable() {},
    verify(db) {
      // the trigram index of memory_sources is fed by its triggers: it must agree with the rows
      db.exec("INSERT INTO memory_fts (memory_fts) VALUES ('integrity-check')");
    },
  },
};
