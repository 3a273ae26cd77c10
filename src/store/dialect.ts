// SQLite's dialect (the differences between the engines are the `Dialect` interface of db.ts; PostgreSQL's dialect is
// pg/dialect.ts): repository functions write one SQL text and take the few engine-specific fragments, plans and bulk
// writes from `tx.dialect`.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Dialect, SqliteDb } from './db.js';

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

/** The unit texts the search's index (units_fts) holds, as FTS5 names its columns. */
const INDEXED_FIELDS: ReadonlySet<string> = new Set(['source', 'target', 'context']);

/**
 * The FTS5 query for the units one of whose `fields` contains `needle` (its trigrams as a phrase: one after another),
 * or null when the index cannot answer (a field it does not hold, fewer than three characters, a NUL that would cut
 * the query short).
 * @example unitsFtsQuery(['source', 'target'], 'open') // '{source target} : "open"'
 */
export function unitsFtsQuery(fields: readonly string[], needle: string): string | null {
  if (fields.length === 0 || !fields.every((f) => INDEXED_FIELDS.has(f)) || needle.includes('\0') || [...needle].length < 3) return null;
  return `{${fields.join(' ')}} : "${needle.replace(/"/g, '""')}"`;
}

/** SQLite's: json_extract, FTS5's trigram index, statements a row (no round trips to save). */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  jsonFlag: (column, key) => `json_extract(${column}, '$.${key}')`,
  returningId: (insert) => insert,
  idsOfJson: 'SELECT value FROM json_each(?)',
  rowsOfJson: (columns) => `SELECT ${columns.map(([name], i) => `value ->> ${i} AS ${name}`).join(', ')} FROM json_each(?)`,
  ilike: 'LIKE',
  orderedJoin: 'CROSS JOIN',
  idsFirstPages: false,
  stringCopies: { indexed: () => '1', holds: () => true },
  trigram: {
    sql: `SELECT f.rowid AS id, ms.text FROM memory_fts f JOIN memory_sources ms ON ms.id = f.rowid
          WHERE memory_fts MATCH ? ORDER BY f.rank LIMIT ?`,
    params: (text, limit) => {
      const query = trigramQuery(text);
      return query === null ? null : [query, limit];
    },
  },
  textContains(fields, needle, within) {
    const query = within ? null : unitsFtsQuery(fields, needle);
    if (query === null) return null;
    // the units a fill has not reached yet (units_fts_pending, search-fill.repo.ts) are not in the index: matched on
    // their rows, in the same statement (one snapshot: a chunk of the fill moves units from the one part to the other)
    const scan = fields.map((f) => `tms_icontains(w.${f}, ?)`).join(' OR ');
    return {
      sql: `SELECT rowid AS id FROM units_fts WHERE units_fts MATCH ?
        UNION ALL SELECT w.id FROM units_fts_pending p CROSS JOIN units w ON w.id BETWEEN p.lo AND p.hi WHERE ${scan}`,
      params: [query, ...fields.map(() => needle)],
    };
  },
  // the table's own UNIQUE and PRIMARY KEY indexes (sql NULL) stay: the load's inserts rely on them; its triggers are
  // those feeding the search's index (units_fts), filled after the rows
  deferrableIndexes: "SELECT name, type, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ? AND sql IS NOT NULL ORDER BY type, name",
  // another connection's commits (data_version) and this connection's rows written (total_changes): neither moves
  // between two transactions unless something wrote between them
  writeMark: { sql: "SELECT (SELECT data_version FROM pragma_data_version()) || ':' || total_changes()", next: (mark) => mark },
  copy: {
    identity(db) {
      const file = (db as SqliteDb).name;
      return `sqlite:${existsSync(file) ? realpathSync(file) : path.resolve(file)}`;
    },
    snapshot() {},
    load(_db, write) {
      write();
    },
    refusesNul: false,
    afterTable() {},
    settle() {},
    verify(db) {
      // the trigram index of memory_sources is fed by its triggers: it must agree with the rows
      db.exec("INSERT INTO memory_fts (memory_fts) VALUES ('integrity-check')");
    },
  },
};
