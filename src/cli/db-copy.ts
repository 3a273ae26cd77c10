// `tms db copy <from> <to>`: moves a whole tms database between SQLite files and PostgreSQL databases, verified.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isPostgresUrl, shownDatabase } from '../config/database.js';
import { type CopyEnd, copyDatabase, databaseIdentity, openCopySource, openCopyTarget, refuseNonEmpty, removeSqliteFile } from '../store/copy/copy.js';
import { CliFailure, type CliIo } from './io.js';
import { servingProcesses } from './serve-lock.js';

/** A SQLite file as one path, whichever way it was spelled (symbolic links followed when it exists). */
function filePath(file: string): string {
  const resolved = path.resolve(file);
  return existsSync(resolved) ? realpathSync(resolved) : resolved;
}

/** Refuses a SQLite database that a `tms serve` has open. */
function refuseServed(database: string, role: string): void {
  if (isPostgresUrl(database)) return;
  const serving = servingProcesses(path.resolve(database));
  if (serving.length > 0) {
    throw new CliFailure(`${database}: the ${role} is being served (process ${serving.join(', ')}); stop tms serve first`);
  }
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/**
 * Copies the database `from` into the empty database `to` (each a SQLite file or a `postgresql://` URL), then
 * verifies every table by row count and checksum and prints them; exit 1 on any difference.
 * @example await runDbCopy(io, 'tms.sqlite', 'postgresql://tms@db.example/tms')
 */
export async function runDbCopy(io: CliIo, from: string, to: string): Promise<number> {
  const shownFrom = shownDatabase(from);
  const shownTo = shownDatabase(to);
  if (from === to || (!isPostgresUrl(from) && !isPostgresUrl(to) && filePath(from) === filePath(to))) {
    throw new CliFailure(`${shownFrom} and ${shownTo} are the same database: nothing to copy`);
  }
  refuseServed(from, 'source');
  refuseServed(to, 'target');
  const createdFile = !isPostgresUrl(to) && !existsSync(to);
  const started = performance.now();
  let source: CopyEnd | undefined;
  let target: CopyEnd | undefined;
  let copied = false;
  try {
    source = await openCopySource(from);
    target = await openCopyTarget(to);
    if (databaseIdentity(source) === databaseIdentity(target)) {
      throw new CliFailure(`${shownFrom} and ${shownTo} are the same database: nothing to copy`);
    }
    refuseNonEmpty(target);
    io.err(`tms: copying ${source.shown} → ${target.shown}`);
    let tableStarted = performance.now();
    let verifying = false;
    const checks = copyDatabase(source, target, (event) => {
      if (event.phase !== 'copy') {
        // the copy's transaction is committed (its indexes built) when the first table is verified
        if (!verifying) io.err(`tms: committed (${seconds(started)}); verifying every table`);
        verifying = true;
        return;
      }
      if (event.rows === 0 && !event.done) tableStarted = performance.now();
      if (event.done) io.err(`tms: copied ${event.table}: ${event.rows} rows (${seconds(tableStarted)})`);
    });
    copied = true;
    const width = Math.max(...checks.map((c) => c.table.length), 'table'.length);
    io.out(`${'table'.padEnd(width)}  ${'rows'.padStart(9)}  ${'checksum'.padEnd(16)}  ok`);
    for (const c of checks) {
      const sum = c.ok ? c.targetChecksum.slice(0, 16) : `${c.sourceChecksum.slice(0, 7)}≠${c.targetChecksum.slice(0, 7)}`;
      const rows = c.sourceRows === c.targetRows ? String(c.targetRows) : `${c.sourceRows}≠${c.targetRows}`;
      io.out(`${c.table.padEnd(width)}  ${rows.padStart(9)}  ${sum.padEnd(16)}  ${c.ok ? 'ok' : 'MISMATCH'}`);
    }
    const total = checks.reduce((n, c) => n + c.targetRows, 0);
    const bad = checks.filter((c) => !c.ok);
    if (bad.length > 0) {
      io.err(`tms: the copy differs from ${source.shown} in ${bad.map((c) => c.table).join(', ')}; do not switch to ${target.shown}`);
      return 1;
    }
    io.err(`tms: copied ${total} rows in ${checks.length} tables from ${source.shown} to ${target.shown}, verified (${seconds(started)})`);
    return 0;
  } finally {
    source?.db.close();
    target?.db.close();
    if (!copied && createdFile) removeSqliteFile(to);
  }
}
