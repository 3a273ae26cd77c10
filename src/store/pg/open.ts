// Opening a PostgreSQL store: the connection, the schema brought up to date (one node at a time), credentials kept
// out of every message.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { shownDatabase } from '../../config/database.js';
import { StoreError } from '../db.js';
import { PG_MIGRATIONS } from './migrations.js';
import { PgDb } from './pg-db.js';

export { isPostgresUrl, shownDatabase } from '../../config/database.js';

/** Serialises schema migrations across nodes starting together. */
const MIGRATE_LOCK = 0x746d7301;

/** Applies every PostgreSQL migration newer than the recorded version, each in its own transaction. */
export function migratePg(db: PgDb, migrations: readonly string[] = PG_MIGRATIONS): { from: number; to: number } {
  db.exec(`SELECT pg_advisory_lock(${MIGRATE_LOCK})`);
  try {
    db.exec('CREATE TABLE IF NOT EXISTS tms_schema (version integer NOT NULL)');
    let from = db.prepare('SELECT version FROM tms_schema').pluck().get() as number | undefined;
    if (from === undefined) {
      db.prepare('INSERT INTO tms_schema (version) VALUES (0)').run();
      from = 0;
    }
    if (from > migrations.length) {
      throw new StoreError(`${db.name}: database schema version ${from} is newer than this tms (${migrations.length}); upgrade tms`, { file: db.name });
    }
    for (let version = from; version < migrations.length; version++) {
      db.transaction(() => {
        db.exec(migrations[version]!);
        db.prepare('UPDATE tms_schema SET version = ?').run(version + 1);
      })();
    }
    return { from, to: migrations.length };
  } finally {
    if (db.open) db.exec(`SELECT pg_advisory_unlock(${MIGRATE_LOCK})`);
  }
}

/**
 * Connects to the PostgreSQL database of `url` (libpq reads the rest from the standard PG* variables) and brings its
 * schema up to date.
 * @example openPgDb('postgresql://tms@localhost/tms')
 */
export function openPgDb(url: string, options: { schema?: string } = {}): PgDb {
  const conninfo = withTimeouts(options.schema ? withSearchPath(url, options.schema) : url);
  const name = shownDatabase(url) + (options.schema ? `#${options.schema}` : '');
  const db = new PgDb(conninfo, name);
  try {
    if (options.schema) db.exec(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
    migratePg(db);
    db.versioned = true;
  } catch (e) {
    db.close();
    if (e instanceof StoreError) throw e;
    throw new StoreError(`${name}: cannot migrate database: ${(e as Error).message}`, { file: name });
  }
  return db;
}

/**
 * The URL with libpq's timeouts where it names none: a server that does not answer a connection within 10 s fails it
 * (libpq would wait forever, and the connection is opened synchronously), and over TCP a server that stops
 * acknowledging fails the statement after 30 s instead of never.
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
