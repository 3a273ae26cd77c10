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
    'INSERT INTO requested_updates (project, component, requested) VALUES (?, ?, ?) ON CONFLICT (project, component) DO UPDATE SET requested = excluded.requested',
  ),
  requested: db.prepare('SELECT project, component FROM requested_updates ORDER BY requested, project, component'),
  finish: db.prepare('DELETE FROM requested_updates WHERE project = ? AND component = ? AND requested < ?'),
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

/** Forgets a component's requests made before `started` (the start of an update that has finished). */
export function finishRequestedUpdate(db: Db, update: ComponentKey, started: string): void {
  sql(db).finish.run(update.project, update.component, started);
}
