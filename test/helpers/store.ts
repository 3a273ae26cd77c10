// What tests ask of the store's connection whichever engine runs the suite (TMS_TEST_POSTGRES selects PostgreSQL).
import { type Db, isPostgres, openDb, sqliteOf } from '../../src/store/db.js';
import { openPgDb, testSchemaFor } from '../../src/store/pg/open.js';
import type { PgDb } from '../../src/store/pg/pg-db.js';

/** The suite runs against PostgreSQL (`TMS_TEST_POSTGRES`): tests of SQLite's own files and pragmas skip. */
export const onPostgres = Boolean(process.env.TMS_TEST_POSTGRES);

/** Rows inserted, updated or deleted through this connection so far (SQLite's total_changes()). */
export function rowsWritten(db: Db): number {
  if (isPostgres(db)) return (db as PgDb).totalChanges;
  return sqliteOf(db).prepare('SELECT total_changes()').pluck().get() as number;
}

/**
 * Opens the database a configuration's `database` file names, as a second connection beside the store's: the SQLite
 * file, or (on PostgreSQL) the schema that stands for it.
 */
export function openDatabaseOf(file: string): Db {
  const url = process.env.TMS_TEST_POSTGRES;
  return url ? openPgDb(url, { schema: testSchemaFor(file) }) : openDb(file);
}
