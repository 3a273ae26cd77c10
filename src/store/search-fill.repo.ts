// SQLite search index's fill after a first load's commit: the unit id ranges units_fts lacks (units_fts_pending) and one chunk of the fill.
import type { Tx } from './db.js';
import { searchText } from './migrations.js';
import { preparedOnce } from './statements.js';

/**
 * Unit ids a chunk of the fill indexes in one transaction (ids of a load are consecutive: about as many units).
 * KeePassXC's 72k units, 36 chunks: ~30 ms of CPU a chunk, the fill's CPU ×1.05–1.1 of one statement (500 a chunk:
 * ×1.27); the longest chunk, where FTS5 merges its segments, ~250 ms at a load average of 14 (BENCHMARKS.md).
 */
export const FILL_CHUNK_UNITS = 2000;

const sql = preparedOnce((tx: Tx) => ({
  first: tx.prepare('SELECT lo, hi FROM units_fts_pending ORDER BY lo LIMIT 1'),
  any: tx.prepare('SELECT EXISTS (SELECT 1 FROM units_fts_pending)').pluck(),
  // what the triggers of units_fts write for a unit, for the units of an id range
  fill: tx.prepare(`INSERT INTO units_fts (rowid, source, target, context)
    SELECT id, ${searchText('source')}, ${searchText('target')}, ${searchText('context')} FROM units WHERE id BETWEEN ? AND ?`),
  advance: tx.prepare('UPDATE units_fts_pending SET lo = ? WHERE lo = ?'),
  done: tx.prepare('DELETE FROM units_fts_pending WHERE lo = ?'),
  clear: tx.prepare('DELETE FROM units_fts_pending'),
  mark: tx.prepare('INSERT INTO units_fts_pending (lo, hi) SELECT min(id), max(id) FROM units HAVING count(*) > 0'),
}));

/**
 * After a first load's rows (in its transaction, the triggers of units_fts dropped): every unit is left to the fill.
 * The store had no unit before the load, so the index holds none, and a range left by an earlier load holds no unit.
 * @example await leaveUnitsToFill(tx) // then recreate the triggers; the fill runs once committed
 */
export async function leaveUnitsToFill(tx: Tx): Promise<void> {
  const s = sql(tx);
  await s.clear.run();
  await s.mark.run();
}

/** Whether some units' texts are not in the search's index yet (a fill to run). */
export async function searchFillPending(tx: Tx): Promise<boolean> {
  return (await sql(tx).any.get()) === 1;
}

/**
 * Indexes the next `FILL_CHUNK_UNITS` unit ids left to the fill, as the units are now (in the caller's writing
 * transaction), and moves the range past them; false when nothing was left.
 * @example while (await store.write(fillSearchChunk)) await setImmediate();
 */
export async function fillSearchChunk(tx: Tx, chunk = FILL_CHUNK_UNITS): Promise<boolean> {
  const s = sql(tx);
  const range = (await s.first.get()) as { lo: number; hi: number } | undefined;
  if (!range) return false;
  const end = Math.min(range.lo + chunk - 1, range.hi);
  await s.fill.run(range.lo, end);
  if (end >= range.hi) await s.done.run(range.lo);
  else await s.advance.run(end + 1, range.lo);
  return true;
}
