// Keeps translations' statistics in step with a change of some of their units: each unit's share is read before and
// after the change and its translation's counters move by the difference (domain/statistics.ts), instead of every unit
// being counted again. The one way the write paths (edits, suggestions, comments, checks) keep the counts.
import { type StatsDelta, statsDelta } from '../domain/statistics.js';
import type { Tx } from '../store/db.js';
import { addStatsDeltas, refreshStats, unitStatsFactsOf } from '../store/stats.repo.js';

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
  // each read and write a statement for all the units (a statement per unit cost a round trip each on PostgreSQL)
  const ids = units.map((u) => u.id);
  // the units' facts read before the work's statements, sent with them (its answer is needed only after the work)
  const [before, result] = await Promise.all([unitStatsFactsOf(tx, ids), work()]);
  if (opts.unchanged?.(result)) return result;
  const after = await unitStatsFactsOf(tx, ids);
  const deltas = new Map<number, StatsDelta>();
  const recount = new Set<number>();
  for (const u of units) {
    const was = before.get(u.id);
    const is = after.get(u.id);
    if (!was || !is) {
      recount.add(u.translationId);
      continue;
    }
    const delta = statsDelta(was, is);
    const sum = deltas.get(u.translationId);
    if (!sum) deltas.set(u.translationId, delta);
    else for (const k of Object.keys(delta) as (keyof StatsDelta)[]) sum[k] += delta[k];
  }
  await addStatsDeltas(tx, deltas, { lastChange: opts.lastChange });
  await refreshStats(tx, recount);
  return result;
}
