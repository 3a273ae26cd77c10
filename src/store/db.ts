// Opens the SQLite store: WAL, foreign keys, versioned migrations applied on open.
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { TmsError } from '../domain/errors.js';
import { MIGRATIONS } from './migrations.js';

const require = createRequire(import.meta.url);
let addon: Database.Options | undefined;

/**
 * better-sqlite3's options naming its compiled addon. The CLI bundle holds the package's JavaScript (loading its
 * dozen files cost a command that opens the store a few milliseconds; see scripts/build-cli-bundle.ts), from where the
 * package would not find the addon; and told, it skips searching for it. Where its build puts it; else (another
 * layout) found as the package finds it, from the package's own folder.
 */
function addonOptions(): Database.Options {
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

export type Db = Database.Database;

export class StoreError extends TmsError<{ file: string }> {}

/** Applies every migration newer than the database's user_version, each in its own transaction. */
export function migrate(db: Db, migrations: readonly string[] = MIGRATIONS): { from: number; to: number } {
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
export function openDb(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  let db: Db;
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

/**
 * Opens a database file read-only and checks it: integrity, schema version. Throws StoreError when it is not a
 * SQLite database.
 * @example inspectDatabase('backup.sqlite').ok
 */
export function inspectDatabase(file: string): DatabaseInspection {
  let db: Db;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, ...addonOptions() });
  } catch (e) {
    throw new StoreError(`${file}: cannot open database: ${(e as Error).message}`, { file });
  }
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
