// Opening a PostgreSQL database: the connection string (timeouts, a test's schema), the schema brought up to date
// (one node at a time), credentials kept out of every message.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { shownDatabase } from '../../config/database.js';
import { DatabaseUnavailableError } from '../../domain/errors.js';
import { StoreError } from '../db.js';
import { PG_MIGRATIONS } from './migrations.js';
import { PgDb } from './pg-db.js';
import { PgSession } from './session.js';

/** Serialises schema migrations across nodes starting together. */
const MIGRATE_LOCK = 0x746d7301;

/**
 * Applies every PostgreSQL migration newer than the recorded version, each in its own transaction, on a session of
 * its own (whole scripts by the simple protocol), one node at a time.
 */
export async function migratePg(session: PgSession, migrations: readonly string[] = PG_MIGRATIONS): Promise<{ from: number; to: number }> {
  await session.exec(`SELECT pg_advisory_lock(${MIGRATE_LOCK})`);
  try {
    await session.exec('CREATE TABLE IF NOT EXISTS tms_schema (version integer NOT NULL)');
    let from = (await session.scriptRows('SELECT version FROM tms_schema'))[0]?.[0] as number | undefined;
    if (from === undefined) {
      await session.exec('INSERT INTO tms_schema (version) VALUES (0)');
      from = 0;
    }
    if (from > migrations.length) {
      throw new StoreError(`${session.name}: database schema version ${from} is newer than this tms (${migrations.length}); upgrade tms`, {
        file: session.name,
      });
    }
    for (let version = from; version < migrations.length; version++) {
      try {
        await session.exec(`BEGIN;\n${migrations[version]}\n;UPDATE tms_schema SET version = ${version + 1};\nCOMMIT`);
      } catch (e) {
        if (session.usable) await session.exec('ROLLBACK');
        throw e;
      }
    }
    return { from, to: migrations.length };
  } finally {
    if (session.usable) await session.exec(`SELECT pg_advisory_unlock(${MIGRATE_LOCK})`);
  }
}

/** libpq's connection string for `url`: its timeouts, and a test's schema first on the search path. */
export function connectionInfo(url: string, schema?: string): string {
  return withTimeouts(schema ? withSearchPath(url, schema) : url);
}

/** How the database is shown: the URL without credentials (and a test's schema). */
export function shownName(url: string, schema?: string): string {
  return shownDatabase(url) + (schema ? `#${schema}` : '');
}

/**
 * Brings the schema of the database at `url` (and `schema`, which it creates if needed) up to date.
 * @example await migrateDatabase('postgresql://tms@localhost/tms')
 */
export async function migrateDatabase(url: string, schema?: string): Promise<void> {
  const name = shownName(url, schema);
  const admin = await PgSession.open(connectionInfo(url, schema), name, { version: () => '' }, { pipeline: false });
  try {
    if (schema) await admin.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await migratePg(admin);
  } catch (e) {
    if (e instanceof StoreError || e instanceof DatabaseUnavailableError) throw e;
    throw new StoreError(`${name}: cannot migrate database: ${(e as Error).message}`, { file: name });
  } finally {
    admin.close();
  }
}

/**
 * A synchronous session on a database whose schema is up to date (`migrateDatabase`), for tools that run alone
 * (`tms db copy`) and tests' second connections; a server answers the store through `PgStore`.
 * @example await migrateDatabase(url); const db = openPgDb(url)
 */
export function openPgDb(url: string, options: { schema?: string } = {}): PgDb {
  const db = new PgDb(connectionInfo(url, options.schema), shownName(url, options.schema));
  db.versioned = true;
  return db;
}

/**
 * The URL with libpq's timeouts where it names none: a server that does not answer a connection within 10 s fails it
 * (libpq would wait forever), and over TCP a server that stops acknowledging fails the statement after 30 s instead of
 * never.
 */
export function withTimeouts(url: string): string {
  let out = url;
  for (const [key, value] of [
    ['connect_timeout', '10'],
    ['tcp_user_timeout', '30000'],
  ]) {
    if (!new RegExp(`[?&]${key}=`).test(out)) out = `${out}${out.includes('?') ? '&' : '?'}${key}=${value}`;
  }
  return out;
}

function withSearchPath(url: string, schema: string): string {
  const options = encodeURIComponent(`-c search_path=${schema},public`);
  return `${url}${url.includes('?') ? '&' : '?'}options=${options}`;
}

/**
 * For running the test suite against PostgreSQL (`TMS_TEST_POSTGRES=<url>`): the schema that stands in for a SQLite
 * file, the same for every process that opens the same file.
 */
export function testSchemaFor(file: string): string {
  return `tms_${createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 20)}`;
}
