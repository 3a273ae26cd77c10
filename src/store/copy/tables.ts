// The tables a database copy moves: this tms's schema as SQLite declares it, in an order that respects foreign keys.
import Database from 'better-sqlite3';
import { addonOptions, migrate } from '../db.js';

/** One table of the schema: its columns in declaration order and its primary key (the order rows are read in). */
export interface CopyTable {
  name: string;
  columns: readonly string[];
  key: readonly string[];
  /** An integer `id` primary key (an identity on PostgreSQL, whose sequence must move past the copied ids). */
  hasId: boolean;
}

let cached: readonly CopyTable[] | undefined;

/**
 * Tables and columns (`table.column`) a copy leaves to the target: the catalog's change numbers, raised by its triggers;
 * the units the search index's fill has not reached (the target's triggers index every unit copied).
 */
const BOOKKEEPING = new Set(['catalog_version', 'translation_stats.seq', 'translations.seq', 'units_fts_pending']);

/**
 * Every data table of the current schema, each after the tables it references. Read from a migrated in-memory SQLite
 * database, so the list follows the migrations; FTS5's index (SQLite's, rebuilt by its triggers), PostgreSQL's own
 * bookkeeping tables (tms_schema, data_version), the catalog's change numbers (catalog_version and the statistics' and
 * translations' seq, which the target's triggers number afresh) and the search index's fill (units_fts_pending) are not in it.
 * @example copyTables().map((t) => t.name) // ['languages', 'projects', …]
 */
export function copyTables(): readonly CopyTable[] {
  if (cached) return cached;
  const db = new Database(':memory:', addonOptions());
  try {
    migrate(db);
    const names = (db.pragma('table_list') as { name: string; type: string; schema: string }[])
      .filter((t) => t.schema === 'main' && t.type === 'table' && !t.name.startsWith('sqlite_') && !BOOKKEEPING.has(t.name))
      .map((t) => t.name)
      .sort();
    const tables = new Map<string, CopyTable & { references: string[] }>();
    for (const name of names) {
      const info = db.pragma(`table_info("${name}")`) as { name: string; type: string; pk: number }[];
      const key = info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      if (key.length === 0) throw new Error(`table ${name} has no primary key: a copy cannot read it in a stable order`);
      const references = (db.pragma(`foreign_key_list("${name}")`) as { table: string }[]).map((f) => f.table).filter((t) => t !== name);
      const hasId = key.length === 1 && key[0] === 'id' && /^INTEGER$/i.test(info.find((c) => c.name === 'id')?.type ?? '');
      const columns = info.map((c) => c.name).filter((c) => !BOOKKEEPING.has(`${name}.${c}`));
      tables.set(name, { name, columns, key, hasId, references });
    }
    cached = referencesFirst(tables);
    return cached;
  } finally {
    db.close();
  }
}

/** Tables ordered so that each comes after every table its foreign keys reference (throws on a cycle). */
function referencesFirst(tables: Map<string, CopyTable & { references: string[] }>): CopyTable[] {
  const ordered: CopyTable[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    const seen = state.get(name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`foreign keys form a cycle: ${[...path, name].join(' → ')}`);
    state.set(name, 'visiting');
    const table = tables.get(name);
    if (!table) throw new Error(`a foreign key references the unknown table ${name}`);
    for (const ref of table.references) visit(ref, [...path, name]);
    state.set(name, 'done');
    ordered.push({ name: table.name, columns: table.columns, key: table.key, hasId: table.hasId });
  };
  for (const name of tables.keys()) visit(name, []);
  return ordered;
}

/** A name quoted as an SQL identifier (both engines). */
export function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
