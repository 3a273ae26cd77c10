// The webhook delivery log (ids of deliveries already handled, the newest few thousand kept) and the component updates
// notifications asked for that have not finished yet (so a restart runs them).
import type { Db } from './db.js';
import { preparedOnce } from './statements.js';

/** A component by its slugs. */
export interface ComponentKey {
  project: string;
  component: string;
}

const sql = preparedOnce((db: Db) => ({
  insert: db.prepare('INSERT OR IGNORE INTO hook_deliveries (delivery, received) VALUES (?, ?)'),
  prune: db.prepare('DELETE FROM hook_deliveries WHERE id <= (SELECT max(id) FROM hook_deliveries) - ?'),
  request: db.prepare(
    `INSERT INTO requested_updates (project, component, requested, seq)
     VALUES (?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM requested_updates))
     ON CONFLICT (project, component) DO UPDATE SET requested = excluded.requested, seq = excluded.seq`,
  ),
  requested: db.prepare('SELECT project, component FROM requested_updates ORDER BY seq'),
  mark: db.prepare('SELECT seq FROM requested_updates WHERE project = ? AND component = ?').pluck(),
  finish: db.prepare('DELETE FROM requested_updates WHERE project = ? AND component = ? AND seq <= ?'),
}));

/** Records a delivery id (call inside a transaction); false when it was already there. Keeps the newest `limit`. */
export function recordHookDelivery(db: Db, delivery: string, received: string, limit: number): boolean {
  const fresh = sql(db).insert.run(delivery, received).changes === 1;
  if (fresh) sql(db).prune.run(limit);
  return fresh;
}

/**
 * Accepts a notification (call inside a transaction): its delivery id, when it has one, and the updates it asks for.
 * A repeated delivery id records nothing and returns false.
 */
export function acceptHookDelivery(db: Db, delivery: string | null, received: string, limit: number, updates: readonly ComponentKey[]): boolean {
  if (delivery !== null && !recordHookDelivery(db, delivery, received, limit)) return false;
  for (const u of updates) sql(db).request.run(u.project, u.component, received);
  return true;
}

/** Updates asked for and not finished, oldest request first. */
export function requestedUpdates(db: Db): ComponentKey[] {
  return sql(db).requested.all() as ComponentKey[];
}

/** Where a component's requests stand (0: none): read when its update starts, given back when it has finished. */
export function requestedUpdateMark(db: Db, update: ComponentKey): number {
  return (sql(db).mark.get(update.project, update.component) as number | undefined) ?? 0;
}

/** Forgets a component's requests up to `mark` (read when the update that has now finished started). */
export function finishRequestedUpdate(db: Db, update: ComponentKey, mark: number): void {
  sql(db).finish.run(update.project, update.component, mark);
}
