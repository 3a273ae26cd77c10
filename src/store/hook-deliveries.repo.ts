// The webhook delivery log (ids of deliveries already handled, the newest few thousand kept) and the component updates
// notifications asked for that have not finished yet (so a restart runs them).
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

/** A component by its slugs. */
export interface ComponentKey {
  project: string;
  component: string;
}

const sql = preparedOnce((tx: Tx) => ({
  insert: tx.prepare('INSERT OR IGNORE INTO hook_deliveries (delivery, received) VALUES (?, ?)'),
  prune: tx.prepare('DELETE FROM hook_deliveries WHERE id <= (SELECT max(id) FROM hook_deliveries) - ?'),
  request: tx.prepare(
    `INSERT INTO requested_updates (project, component, requested, seq)
     VALUES (?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM requested_updates))
     ON CONFLICT (project, component) DO UPDATE SET requested = excluded.requested, seq = excluded.seq`,
  ),
  requested: tx.prepare('SELECT project, component FROM requested_updates ORDER BY seq'),
  mark: tx.prepare('SELECT seq FROM requested_updates WHERE project = ? AND component = ?').pluck(),
  finish: tx.prepare('DELETE FROM requested_updates WHERE project = ? AND component = ? AND seq <= ?'),
}));

/** Records a delivery id (call inside a transaction); false when it was already there. Keeps the newest `limit`. */
export async function recordHookDelivery(tx: Tx, delivery: string, received: string, limit: number): Promise<boolean> {
  const fresh = (await sql(tx).insert.run(delivery, received)).changes === 1;
  if (fresh) await sql(tx).prune.run(limit);
  return fresh;
}

/**
 * Accepts a notification (call inside a transaction): its delivery id, when it has one, and the updates it asks for.
 * A repeated delivery id records nothing and returns false.
 */
export async function acceptHookDelivery(tx: Tx, delivery: string | null, received: string, limit: number, updates: readonly ComponentKey[]): Promise<boolean> {
  if (delivery !== null && !(await recordHookDelivery(tx, delivery, received, limit))) return false;
  for (const u of updates) await sql(tx).request.run(u.project, u.component, received);
  return true;
}

/** Updates asked for and not finished, oldest request first. */
export async function requestedUpdates(tx: Tx): Promise<ComponentKey[]> {
  return (await sql(tx).requested.all()) as ComponentKey[];
}

/** Where a component's requests stand (0: none): read when its update starts, given back when it has finished. */
export async function requestedUpdateMark(tx: Tx, update: ComponentKey): Promise<number> {
  return ((await sql(tx).mark.get(update.project, update.component)) as number | undefined) ?? 0;
}

/** Forgets a component's requests up to `mark` (read when the update that has now finished started). */
export async function finishRequestedUpdate(tx: Tx, update: ComponentKey, mark: number): Promise<void> {
  await sql(tx).finish.run(update.project, update.component, mark);
}
