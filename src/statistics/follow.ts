// Keeps translations' statistics in step with a change of some of their units: each unit's share is read before and
// after the change and its translation's counters move by the difference (domain/statistics.ts), instead of every unit
// being counted again. The one way the write paths (edits, suggestions, comments, checks) keep the counts.
import { statsDelta } from '../domain/statistics.js';
import type { Tx } from '../store/db.js';
import { addStatsDelta, refreshStats, unitStatsFacts } from '../store/stats.repo.js';

/** A unit whose share of its translation's statistics a change may move. */
export interface CountedUnit {
  id: number;
  translationId: number;
}

/**
 * Runs `work` (call inside a transaction) and moves the statistics of `units`' translations by each unit's change of
 * share; a translation without statistics yet, or a unit gone, is counted again. `unchanged(result)` true skips the
 * second read (the work changed nothing); `lastChange: false` keeps the translation's last change as it was (a
 * check that changed is no change of the translation's).
 * @example await followUnitStats(tx, [{ id: unit.id, translationId: unit.translation_id }], () => insertSuggestion(tx, s))
 */
export async function followUnitStats<T>(
  tx: Tx,
  units: readonly CountedUnit[],
  work: () => Promise<T>,
  opts: { lastChange?: boolean; unchanged?: (result: T) => boolean } = {},
): Promise<T> {
  const before = [];
  for (const u of units) before.push(await unitStatsFacts(tx, u.id));
  const result = await work();
  if (opts.unchanged?.(result)) return result;
  for (const [i, u] of units.entries()) {
    const was = before[i];
    const is = await unitStatsFacts(tx, u.id);
    if (was && is) await addStatsDelta(tx, u.translationId, statsDelta(was, is), { lastChange: opts.lastChange });
    else await refreshStats(tx, [u.translationId]);
  }
  return result;
}
