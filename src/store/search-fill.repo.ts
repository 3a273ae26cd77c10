// SQLite search index's fill after a first load's commit: the unit id ranges units_fts lacks (units_fts_pending), one chunk of the fill, and its segments merged once at the end.
import type { Tx } from './db.js';
import { searchText } from './migrations.js';
import { preparedOnce } from './statements.js';

/**
 * Unit ids a chunk of the fill indexes in one transaction (ids of a load are consecutive: about as many units).
 * KeePassXC's 72k units, 36 chunks: ~30 ms of CPU a chunk, the fill's CPU ×1.05–1.1 of one statement (500 a chunk:
 * ×1.27); the longest chunk ~250 ms at a load average of 14 (BENCHMARKS.md).
 */
export const FILL_CHUNK_UNITS = 2000;

/**
 * Pages of merged index a chunk of the fill's last stage writes (FTS5's `merge` command, each a transaction): the
 * segments the chunks left, merged into one a few megabytes at a time (KeePassXC's index, ~5,700 pages: a dozen).
 */
export const MERGE_CHUNK_PAGES = 500;

/** FTS5's own defaults, which the fill sets back once it has merged (units_fts never sets them otherwise). */
const AUTOMERGE = 4;
const CRISISMERGE = 16;

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
  // a fill's merges are left while automerge is 0 (only the fill sets it so)
  merging: tx.prepare("SELECT EXISTS (SELECT 1 FROM units_fts_config WHERE k = 'automerge' AND v = 0)").pluck(),
  holdMerges: tx.prepare("INSERT INTO units_fts (units_fts, rank) VALUES ('automerge', 0), ('crisismerge', 64)"),
  restoreMerges: tx.prepare(`INSERT INTO units_fts (units_fts, rank) VALUES ('automerge', ${AUTOMERGE}), ('crisismerge', ${CRISISMERGE})`),
  // a negative count: segments of every level merged into one (an `optimize` in steps)
  merge: tx.prepare(`INSERT INTO units_fts (units_fts, rank) VALUES ('merge', -${MERGE_CHUNK_PAGES})`),
  totalChanges: tx.prepare('SELECT total_changes()').pluck(),
}));

/**
 * After a first load's rows (in its transaction, the triggers of units_fts dropped): every unit is left to the fill.
 * The store had no unit before the load, so the index holds none, and a range left by an earlier load holds no unit.
 * The fill's chunks leave their segments unmerged (FTS5's automerge off, its crisis merges at 64 segments of a
 * level rather than 16) and merge them once at the end: FTS5 merging as each chunk commits rewrote the index level
 * by level, ~0.45 s of KeePassXC's 1.2 s fill, against ~0.3 s for the one merge (BENCHMARKS.md).
 * @example await leaveUnitsToFill(tx) // then recreate the triggers; the fill runs once committed
 */
export async function leaveUnitsToFill(tx: Tx): Promise<void> {
  const s = sql(tx);
  await s.clear.run();
  await s.mark.run();
  await s.holdMerges.run();
}

/** Whether some units' texts are not in the search's index yet, or its segments not merged since (a fill to run). */
export async function searchFillPending(tx: Tx): Promise<boolean> {
  const s = sql(tx);
  return (await s.any.get()) === 1 || (await s.merging.get()) === 1;
}

/**
 * Indexes the next `FILL_CHUNK_UNITS` unit ids left to the fill, as the units are now (in the caller's writing
 * transaction), and moves the range past them; once none is left, merges the next `MERGE_CHUNK_PAGES` pages of the
 * index's segments, and when nothing is left to merge sets FTS5's merging back; false when nothing was left.
 * @example while (await store.write(fillSearchChunk)) await setImmediate();
 */
export async function fillSearchChunk(tx: Tx, chunk = FILL_CHUNK_UNITS): Promise<boolean> {
  const s = sql(tx);
  const range = (await s.first.get()) as { lo: number; hi: number } | undefined;
  if (!range) return await mergeChunk(tx);
  const end = Math.min(range.lo + chunk - 1, range.hi);
  await s.fill.run(range.lo, end);
  if (end >= range.hi) await s.done.run(range.lo);
  else await s.advance.run(end + 1, range.lo);
  return true;
}

/** One step of the merge after a fill; false when there was none to take (FTS5's merging then set back). */
async function mergeChunk(tx: Tx): Promise<boolean> {
  const s = sql(tx);
  if ((await s.merging.get()) !== 1) return false;
  const before = Number(await s.totalChanges.get());
  await s.merge.run();
  // FTS5 counts two changes or more where its `merge` wrote something (SQLite's documentation of the command)
  if (Number(await s.totalChanges.get()) - before >= 2) return true;
  await s.restoreMerges.run();
  return false;
}
