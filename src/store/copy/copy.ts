// Copying a whole tms database between engines (SQLite ↔ PostgreSQL): ends opened at this tms's schema, every table
// in foreign-key order with its ids, PostgreSQL's sequences moved past them, and each table verified by checksum.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isPostgresUrl, shownDatabase } from '../../config/database.js';
import { TmsError } from '../../domain/errors.js';
import { type Db, StoreError, openDb, schemaVersion } from '../db.js';
import { dialectFor } from '../pg/dialect.js';
import { migrateDatabase, openPgDb } from '../pg/open.js';
import { PgDb } from '../pg/pg-db.js';
import { TableHasher, type TableSum, insertRows, readRows, tableEmpty, tableSum } from './rows.js';
import { type CopyTable, copyTables } from './tables.js';

/** A copy refused or failed; the message names the database as it may be shown (never credentials). */
export class CopyError extends TmsError<{ database: string }> {}

/** One side of a copy: the connection and the name it may be shown by. */
export interface CopyEnd {
  db: Db;
  shown: string;
}

/** What the verification found for one table. */
export interface TableCheck {
  table: string;
  sourceRows: number;
  targetRows: number;
  sourceChecksum: string;
  targetChecksum: string;
  ok: boolean;
}

/** Prefixes a store error with the database's shown name (the SQLite migration's message has none). */
function named(shown: string, e: unknown): Error {
  const message = (e as Error).message;
  if (e instanceof StoreError || e instanceof TmsError) {
    return new CopyError(message.startsWith(shown) ? message : `${shown}: ${message}`, { database: shown });
  }
  return e as Error;
}

/**
 * Opens the database to copy from, migrated to this tms's schema if older; refuses one that is missing, newer than
 * this tms, or not a tms database.
 * @example const source = await openCopySource('tms.sqlite')
 */
export async function openCopySource(database: string): Promise<CopyEnd> {
  const shown = shownDatabase(database);
  if (isPostgresUrl(database)) {
    const probe = new PgDb(database, shown);
    try {
      const known = probe.prepare("SELECT to_regclass('tms_schema') IS NOT NULL").pluck().get();
      if (!known) throw new CopyError(`${shown}: not a tms database (no tms schema there)`, { database: shown });
    } finally {
      probe.close();
    }
  } else {
    if (!existsSync(database)) throw new CopyError(`${shown}: file not found`, { database: shown });
    let version: number;
    try {
      version = schemaVersion(database);
    } catch (e) {
      throw named(shown, e);
    }
    if (version === 0) throw new CopyError(`${shown}: not a tms database (no schema)`, { database: shown });
  }
  return openEnd(database, shown);
}

/** A SQLite file, or a PostgreSQL database whose schema was brought up to date first. */
async function openEnd(database: string, shown: string): Promise<CopyEnd> {
  try {
    if (!isPostgresUrl(database)) return { db: openDb(database), shown };
    await migrateDatabase(database);
    return { db: openPgDb(database), shown };
  } catch (e) {
    throw named(shown, e);
  }
}

/**
 * Opens (creating if needed) the database to copy into, at this tms's schema, without seeding anything; refuses one
 * newer than this tms. Whether it is empty is `refuseNonEmpty`'s to say (after telling it from the source).
 * @example const target = await openCopyTarget('postgresql://db.example/tms')
 */
export function openCopyTarget(database: string): Promise<CopyEnd> {
  return openEnd(database, shownDatabase(database));
}

/** Refuses a target holding any row of any table: a copy only fills an empty database. */
export function refuseNonEmpty(target: CopyEnd): void {
  const full = copyTables().find((t) => !tableEmpty(target.db, t));
  if (full) {
    throw new CopyError(`${target.shown}: the target already holds data (table ${full.name} has rows); tms db copy only writes into an empty database`, {
      database: target.shown,
    });
  }
}

/** What identifies a database across connections: the file itself, or the server, database and schema. */
export function databaseIdentity(end: CopyEnd): string {
  return dialectFor(end.db).copy.identity(end.db);
}

/** A PostgreSQL text cannot hold U+0000: the first such value of these rows, named by table, key and column. */
function nulCharacter(table: CopyTable, rows: readonly unknown[][]): string | undefined {
  for (const row of rows) {
    for (let c = 0; c < row.length; c++) {
      const value = row[c];
      if (typeof value === 'string' && value.includes('\0')) {
        const key = table.key.map((k) => `${k}=${String(row[table.columns.indexOf(k)])}`).join(', ');
        return `table ${table.name}, row ${key}, column ${table.columns[c]}`;
      }
    }
  }
  return undefined;
}

/** Progress of a copy: a table started, a batch written (rows so far), a table done. */
export type CopyProgress = (event: { table: string; phase: 'copy' | 'verify'; rows: number; done: boolean }) => void;

/**
 * Copies every table of `source` into the empty `target` in one read transaction (a consistent snapshot) and one
 * writing transaction (all or nothing), then verifies each table: the row count and checksum of the rows read from the
 * source, against those of the target's rows read back once committed.
 * @example const checks = copyDatabase(source, target, () => {}); checks.every((c) => c.ok)
 */
export function copyDatabase(source: CopyEnd, target: CopyEnd, progress: CopyProgress): TableCheck[] {
  const tables = copyTables();
  const from = dialectFor(source.db).copy;
  const to = dialectFor(target.db).copy;
  // each source table's sum, taken from the rows as they were read for the copy (one snapshot: a second read is the same)
  const sources = new Map<string, TableSum>();
  const snapshot = source.db.transaction(() => {
    from.snapshot(source.db);
    target.db
      .transaction(() =>
        to.load(target.db, () => {
          for (const table of tables) {
            if (!tableEmpty(target.db, table)) {
              throw new CopyError(`${target.shown}: table ${table.name} received rows while copying; nothing was copied`, { database: target.shown });
            }
            let rows = 0;
            const read = new TableHasher();
            progress({ table: table.name, phase: 'copy', rows, done: false });
            for (const batch of readRows(source.db, table)) {
              read.add(batch);
              if (to.refusesNul) {
                const where = nulCharacter(table, batch);
                if (where) {
                  throw new CopyError(
                    `${source.shown}: ${where} holds a U+0000 (NUL) character, which PostgreSQL text cannot store; remove it and copy again (nothing was copied)`,
                    { database: source.shown },
                  );
                }
              }
              if (to.writeRows) to.writeRows(target.db, table, batch);
              else insertRows(target.db, table, batch);
              rows += batch.length;
              progress({ table: table.name, phase: 'copy', rows, done: false });
            }
            sources.set(table.name, read.sum());
            to.afterTable(target.db, table);
            progress({ table: table.name, phase: 'copy', rows, done: true });
          }
        }),
      )
      .immediate();
    to.verify(target.db);
    // the target read back once committed, against the sums of the rows the copy read from the source
    return tables.map((table): TableCheck => {
      const from = sources.get(table.name)!;
      const to = tableSum(target.db, table);
      progress({ table: table.name, phase: 'verify', rows: to.rows, done: true });
      return {
        table: table.name,
        sourceRows: from.rows,
        targetRows: to.rows,
        sourceChecksum: from.checksum,
        targetChecksum: to.checksum,
        ok: from.rows === to.rows && from.checksum === to.checksum,
      };
    });
  });
  const checks = snapshot();
  // once the source's snapshot is closed too (on one PostgreSQL server, its horizon would keep the copied rows from
  // counting as visible to all)
  to.settle(target.db);
  return checks;
}

/** Removes a SQLite database file a failed copy created (with its WAL and shared-memory files). */
export function removeSqliteFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}
