// PostgreSQL search table's fill after a first load's commit: the unit id range unit_search lacks (unit_search_pending) and one chunk of the fill.
import type { Tx } from '../db.js';
import { preparedOnce } from '../statements.js';

/**
 * Unit ids a chunk of the fill writes to unit_search in one transaction (a load's ids are consecutive: about as many
 * units), holding the store's write lock meanwhile (BENCHMARKS.md, "PostgreSQL: the search's table filled after a
 * first load's commit").
 */
export const PG_FILL_CHUNK_UNITS = 5000;

/** What unit_search holds of a unit (migration 8's triggers): its texts lowercased as tms_icontains compares them. */
export const SEARCHED = `id, translation_id, lower(source COLLATE "und-x-icu"), lower(target COLLATE "und-x-icu"), lower(context COLLATE "und-x-icu")`;

const sql = preparedOnce((tx: Tx) => ({
  first: tx.prepare('SELECT lo, hi FROM unit_search_pending ORDER BY lo LIMIT 1'),
  any: tx.prepare('SELECT EXISTS (SELECT 1 FROM unit_search_pending)').pluck(),
  fill: tx.prepare(`INSERT INTO unit_search SELECT ${SEARCHED} FROM units WHERE id BETWEEN ? AND ?`),
  advance: tx.prepare('UPDATE unit_search_pending SET lo = ? WHERE lo = ?'),
  done: tx.prepare('DELETE FROM unit_search_pending WHERE lo = ?'),
  clear: tx.prepare('DELETE FROM unit_search_pending'),
  // every id a load can give: the store holds no unit before a first load
  all: tx.prepare('INSERT INTO unit_search_pending (lo, hi) VALUES (0, 9223372036854775807)'),
  mark: tx.prepare('INSERT INTO unit_search_pending (lo, hi) SELECT min(id), max(id) FROM units HAVING count(*) > 0'),
}));

/**
 * Runs a first load's writes (`write`, in the caller's transaction) leaving its units to the fill: every id pending
 * before its inserts (the insert trigger skips them), then the range narrowed to the units it wrote. The store held no
 * unit before, so unit_search holds none and a range left by an earlier load holds no unit.
 * @example await leavingLoadToFill(tx, () => insertEverything(tx)) // the fill runs once committed
 */
export async function leavingLoadToFill<T>(tx: Tx, write: () => Promise<T>): Promise<T> {
  const s = sql(tx);
  await s.clear.run();
  await s.all.run();
  const result = await write();
  await s.clear.run();
  await s.mark.run();
  return result;
}

/** Whether some units' texts are not in unit_search yet (a fill to run). */
export async function searchFillPending(tx: Tx): Promise<boolean> {
  return Boolean(await sql(tx).any.get());
}

/**
 * Writes the next `chunk` unit ids left to the fill to unit_search, as the units are now, and moves the range past
 * them; false when nothing was left. In a writing transaction, which holds the store's write lock (one writer across
 * every node): the range is read under it, so two processes filling take chunks in turns, each after the other's.
 * @example while (await store.write((tx) => fillSearchChunk(tx))) await setImmediate();
 */
export async function fillSearchChunk(tx: Tx, chunk = PG_FILL_CHUNK_UNITS): Promise<boolean> {
  const s = sql(tx);
  const range = (await s.first.get()) as { lo: number | bigint; hi: number | bigint } | undefined;
  if (!range) return false;
  const lo = Number(range.lo);
  const hi = Number(range.hi);
  const end = Math.min(lo + chunk - 1, hi);
  await s.fill.run(lo, end);
  if (end >= hi) await s.done.run(lo);
  else await s.advance.run(end + 1, lo);
  return true;
}
