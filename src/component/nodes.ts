// Several nodes on one PostgreSQL database: this process joins them, taking the database's lock per component.

import { isPostgresUrl } from '../config/database.js';
import type { Store } from '../store/index.js';
import { useNodeLocks } from './mutex.js';

/**
 * When `database` is a PostgreSQL URL, every component's git work of this process runs under the database's lock for
 * the component (and commits are pushed at once); returns what leaves again. Nothing changes on SQLite.
 * @example const leave = joinNodes(store, config.database); … leave();
 */
export function joinNodes(store: Store, database: string): () => void {
  if (!isPostgresUrl(database)) return () => {};
  useNodeLocks(store.componentLocks());
  return () => useNodeLocks(undefined);
}
