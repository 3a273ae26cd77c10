// Runs a command against a throwaway PostgreSQL server: initdb into a temporary directory, listening on a unix socket
// there only, as an unprivileged user (PostgreSQL refuses to run as root: `postgres` then), a database `tms_test`
// with pg_trgm; the command gets TMS_TEST_POSTGRES (the suite then stores in PostgreSQL) and the server is stopped and
// removed afterwards, whatever the command's outcome.
//   npm run test:postgres            (vitest run against PostgreSQL)
//   tsx scripts/with-postgres.ts <command …>
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

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

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: tsx scripts/with-postgres.ts <command …>');
  process.exit(2);
}

const bin = binDir();
const dir = mkdtempSync(path.join(tmpdir(), 'tms-pg-'));
const data = path.join(dir, 'data');
const asRoot = userInfo().uid === 0;
if (asRoot) {
  const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
  const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
  chownSync(dir, Number(ids), Number(gid));
}
chmodSync(dir, 0o755);

/** Runs a server program, as `postgres` when we are root. */
function pg(program: string, args: string[]): void {
  const file = path.join(bin, program);
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  else execFileSync(file, args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

let started = false;
function stop(): void {
  if (started) {
    try {
      pg('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // already gone
    }
    started = false;
  }
  rmSync(dir, { recursive: true, force: true });
}

let code = 1;
try {
  pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
  // tests open many sessions at once (a connection per store, several processes): room for them
  const options = `-k ${dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500`;
  pg('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  started = true;
  const psql = (db: string, sql: string) => execFileSync(path.join(bin, 'psql'), ['-h', dir, '-U', 'postgres', '-d', db, '-qc', sql], { stdio: 'inherit' });
  psql('postgres', 'CREATE DATABASE tms_test');
  psql('tms_test', 'CREATE EXTENSION pg_trgm');
  const url = `postgresql:///tms_test?host=${encodeURIComponent(dir)}&user=postgres`;
  console.log(`with-postgres: PostgreSQL at ${dir} (database tms_test)`);
  code = await new Promise<number>((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env: { ...process.env, TMS_TEST_POSTGRES: url } });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
    child.on('error', (e) => {
      console.error(`with-postgres: ${e.message}`);
      resolve(1);
    });
  });
} finally {
  stop();
}
process.exit(code);
