// `tms backup <file>` and `tms restore <file>`: a consistent online copy of the database, and putting one back.
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { isPostgresUrl } from '../config/database.js';
import { inspectDatabase, openStore, restoreDatabase } from '../store/index.js';
import { CliFailure, type CliIo } from './io.js';
import { servingProcesses } from './serve-lock.js';

/** Backups are SQLite's: a PostgreSQL database is saved and restored with PostgreSQL's own tools. */
function sqliteOnly(config: Config, what: string): void {
  if (isPostgresUrl(config.database)) {
    throw new CliFailure(
      `tms ${what} copies a SQLite database; this configuration uses PostgreSQL: use pg_dump and pg_restore (or tms db copy to a SQLite file)`,
    );
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Writes a consistent snapshot of the database to `file` with SQLite's online backup API, while `tms serve` keeps
 * serving and writing; the copy is checked (`PRAGMA integrity_check`) before it replaces `file`.
 * @example await runBackup(config, io, 'tms-2025-03-01.sqlite')
 */
export async function runBackup(config: Config, io: CliIo, file: string): Promise<number> {
  sqliteOnly(config, 'backup');
  const target = path.resolve(file);
  if (target === path.resolve(config.database)) throw new CliFailure('the backup file is the database itself');
  const temp = `${target}.tmp-${process.pid}`;
  const started = performance.now();
  const store = await openStore(config.database);
  try {
    await store.backup(temp);
  } catch (e) {
    rmSync(temp, { force: true });
    throw new CliFailure(`backup failed: ${(e as Error).message}`);
  } finally {
    await store.close();
  }
  const check = inspectDatabase(temp);
  if (!check.ok) {
    rmSync(temp, { force: true });
    throw new CliFailure(`backup failed: the copy does not pass the integrity check: ${check.problems.join('; ')}`);
  }
  renameSync(temp, target);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.out(`tms: backed up ${config.database} to ${target} (${mib(statSync(target).size)}, schema ${check.version}, integrity ok, ${seconds} s)`);
  return 0;
}

/**
 * Puts a backup back in place of the database. Refuses while a `tms serve` process has the database open (stop it
 * first), and refuses a file that is not an intact tms database or is newer than this tms.
 * @example await runRestore(config, io, 'tms-2025-03-01.sqlite')
 */
export async function runRestore(config: Config, io: CliIo, file: string): Promise<number> {
  sqliteOnly(config, 'restore');
  const source = path.resolve(file);
  if (!existsSync(source)) throw new CliFailure(`${source}: file not found`);
  if (source === path.resolve(config.database)) throw new CliFailure('the backup file is the database itself');
  const serving = servingProcesses(config.database);
  if (serving.length > 0) throw new CliFailure(`the database is being served (process ${serving.join(', ')}); stop tms serve first`);
  const check = inspectDatabase(source);
  if (!check.ok) throw new CliFailure(`${source}: does not pass the integrity check: ${check.problems.join('; ')}`);
  if (check.version === 0) throw new CliFailure(`${source}: not a tms database (no schema)`);
  if (check.version > check.current) throw new CliFailure(`${source}: schema version ${check.version} is newer than this tms (${check.current}); upgrade tms`);
  const pages = await restoreDatabase(source, config.database);
  // the restored copy is migrated when it is opened: an older backup comes up to this tms's schema now
  const store = await openStore(config.database);
  await store.close();
  io.out(`tms: restored ${config.database} from ${source} (${pages} pages, schema ${check.version} → ${check.current})`);
  return 0;
}
