// Which processes serve a database: `tms serve` leaves `<database>.serving.<pid>` beside it, so `tms restore` can refuse.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isPostgresUrl } from '../config/database.js';
import { processAlive } from '../domain/process.js';

const MARK = '.serving.';

/**
 * Marks the database as served by this process; returns the release. A mark left by a killed process is stale:
 * `servingProcesses` ignores (and removes) it.
 * @example const release = claimServeLock(config.database); … release();
 */
export function claimServeLock(database: string): () => void {
  // several nodes serve one PostgreSQL database: there is no file to mark (nor a restore over it)
  if (isPostgresUrl(database)) return () => {};
  const mark = `${database}${MARK}${process.pid}`;
  try {
    writeFileSync(mark, `${process.pid}\n`);
  } catch {
    return () => {};
  }
  return () => rmSync(mark, { force: true });
}

/** The live processes serving `database` (stale marks of dead processes are removed). */
export function servingProcesses(database: string): number[] {
  if (isPostgresUrl(database)) return [];
  const dir = path.dirname(database);
  const prefix = `${path.basename(database)}${MARK}`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (processAlive(pid)) pids.push(pid);
    else rmSync(path.join(dir, name), { force: true });
  }
  return pids;
}
