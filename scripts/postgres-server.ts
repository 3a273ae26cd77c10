// A throwaway PostgreSQL server for tests and benchmarks: initdb into a temporary directory, listening on a unix socket
// there only, as an unprivileged user (PostgreSQL refuses to run as root: `postgres` then), durability off (fsync,
// synchronous_commit, full_page_writes), a database with pg_trgm. `stop()` stops it and removes the directory.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/** A running server: the libpq URL of its database, and how to remove it. */
export interface PostgresServer {
  /** `postgresql:///<database>?host=<socket dir>&user=postgres` */
  url: string;
  /** The socket (and data) directory. */
  dir: string;
  /** Creates one more database (with pg_trgm) on the server; returns its URL. */
  createDatabase(name: string): string;
  /** Stops the server and removes its directory; safe to call twice. */
  stop(): void;
}

function binDir(): string {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // no pg_config: Debian's layout
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  throw new Error('PostgreSQL server programs not found (install the postgresql package)');
}

/**
 * Starts a server (synchronously) with one database, `database`.
 * @example const pg = startPostgres('tms_test'); try { … pg.url … } finally { pg.stop(); }
 */
export function startPostgres(database = 'tms_test', options: { maxConnections?: number } = {}): PostgresServer {
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'tms-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(uid), Number(gid));
  }
  chmodSync(dir, 0o755);

  /** Runs a server program, as `postgres` when we are root. */
  const pg = (program: string, args: string[]) => {
    const file = path.join(bin, program);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    else execFileSync(file, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  let started = false;
  const stop = () => {
    if (started) {
      try {
        pg('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // already gone
      }
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const psql = (db: string, sql: string) => execFileSync(path.join(bin, 'psql'), ['-h', dir, '-U', 'postgres', '-d', db, '-qc', sql], { stdio: 'inherit' });
  const urlOf = (db: string) => `postgresql:///${db}?host=${encodeURIComponent(dir)}&user=postgres`;
  const createDatabase = (name: string) => {
    psql('postgres', `CREATE DATABASE ${name}`);
    psql(name, 'CREATE EXTENSION pg_trgm');
    return urlOf(name);
  };
  try {
    pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
    // tests open many sessions at once (a connection per store, several processes): room for them
    const flags = `-k ${dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=${options.maxConnections ?? 500}`;
    pg('pg_ctl', ['-D', data, '-o', flags, '-l', path.join(dir, 'server.log'), '-w', 'start']);
    started = true;
    return { url: createDatabase(database), dir, createDatabase, stop };
  } catch (e) {
    stop();
    throw e;
  }
}
