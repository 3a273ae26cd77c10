// Opening the store: the one place that knows which engine holds the data.
import { openSqlStore } from './sql-store.js';
import type { Store } from './store.js';

export type * from './store.js';

/**
 * Opens the store named by the configuration's `database` (a SQLite file, or a `postgresql://` URL); safe to call on
 * every start.
 * @example const store = await openStore(config.database);
 */
export async function openStore(database: string): Promise<Store> {
  return openSqlStore(database);
}

/** The ISO 8601 timestamp with milliseconds and `Z` that every stored time uses. */
export { type DatabaseInspection, inspectDatabase, now, restoreDatabase } from './db.js';
