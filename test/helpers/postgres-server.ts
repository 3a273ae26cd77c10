// A throwaway PostgreSQL server: initdb into a temporary folder, listening on a unix socket there only, run as the
// `postgres` user when we are root (PostgreSQL refuses root); stopped and started again at will, removed at the end.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

export interface PostgresServer {
  /** The folder holding the data, the socket and the log. */
  dir: string;
  /** A `postgresql://` URL of `database` on this server (no password: trust authentication on the socket). */
  url(database: string): string;
  /** Runs SQL with psql in `database`. */
  psql(database: string, sql: string): void;
  /** Stops the server (`pg_ctl stop`, `fast` unless told): every session ends. */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Starts it again and waits until it takes connections. */
  start(): void;
  /** Stops it and removes its folder. */
  remove(): void;
}

/** Where the PostgreSQL server programs are (pg_config, else Debian's layout); throws when they are not installed. */
export function postgresBinDir(): string {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
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
 * Creates and starts a server with the databases named (each with pg_trgm).
 * @example const pg = startPostgres(['tms_test']); … pg.url('tms_test') … pg.remove()
 */
export function startPostgres(databases: readonly string[]): PostgresServer {
  const bin = postgresBinDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'tms-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(uid), Number(gid));
  }
  chmodSync(dir, 0o755);
  const pg = (program: string, args: string[]): void => {
    const file = path.join(bin, program);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    else execFileSync(file, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  // tests open many sessions at once (a connection per store, several processes): room for them
  const options = `-k ${dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500`;
  let running = false;
  const server: PostgresServer = {
    dir,
    url: (database) => `postgresql:///${database}?host=${encodeURIComponent(dir)}&user=postgres`,
    psql: (database, sql) =>
      execFileSync(path.join(bin, 'psql'), ['-h', dir, '-U', 'postgres', '-d', database, '-qc', sql], { stdio: ['ignore', 'ignore', 'inherit'] }),
    start() {
      pg('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']);
      running = true;
    },
    stop(mode = 'fast') {
      if (!running) return;
      pg('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
      running = false;
    },
    remove() {
      try {
        server.stop('immediate');
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
    server.start();
    for (const database of databases) {
      server.psql('postgres', `CREATE DATABASE ${database}`);
      server.psql(database, 'CREATE EXTENSION pg_trgm');
    }
  } catch (e) {
    server.remove();
    throw e;
  }
  return server;
}
