// The webhook delivery log: ids of deliveries already handled, the newest few thousand kept.
import type { Db } from './db.js';
import { preparedOnce } from './statements.js';

const sql = preparedOnce((db: Db) => ({
  insert: db.prepare('INSERT OR IGNORE INTO hook_deliveries (delivery, received) VALUES (?, ?)'),
  prune: db.prepare('DELETE FROM hook_deliveries WHERE id <= (SELECT max(id) FROM hook_deliveries) - ?'),
}));

/** Records a delivery id (call inside a transaction); false when it was already there. Keeps the newest `limit`. */
export function recordHookDelivery(db: Db, delivery: string, received: string, limit: number): boolean {
  const fresh = sql(db).insert.run(delivery, received).changes === 1;
  if (fresh) sql(db).prune.run(limit);
  return fresh;
}
