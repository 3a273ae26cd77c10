// Webhook notifications accepted: delivery ids already handled, so a redelivered notification does not queue a second
// update, and (kept in the store) the updates they asked for until those have run, so a restart runs them.
import type { Config } from '../config/config.js';
import { acceptHookDelivery, finishRequestedUpdate, requestedUpdateMark, requestedUpdates } from '../store/hook-deliveries.repo.js';
import type { ComponentKey, Store } from '../store/index.js';
import type { UpdateFn, UpdateQueue } from './queue.js';

export interface DeliveryLog {
  /**
   * Accepts a notification asking for `updates`: false when its delivery `id` was accepted before (nothing is
   * recorded then), else remembers the id (when there is one) and true.
   */
  accept(id: string | undefined, updates: readonly ComponentKey[]): boolean | Promise<boolean>;
}

/**
 * Remembers the last `limit` delivery ids (oldest forgotten first), in memory: a restart forgets them, and the updates.
 * @example const log = createDeliveryLog(); log.accept('github:72d3162e', []) // true, then false
 */
export function createDeliveryLog(limit = 10_000): DeliveryLog & { readonly size: number } {
  const ids = new Set<string>();
  return {
    accept(id) {
      if (id === undefined) return true;
      if (ids.has(id)) return false;
      ids.add(id);
      if (ids.size > limit) ids.delete(ids.values().next().value as string);
      return true;
    },
    get size() {
      return ids.size;
    },
  };
}

/**
 * The delivery log `tms serve` uses: kept in the database (the newest `limit` ids) with the updates each accepted
 * notification asked for, in one transaction. A restart neither forgets which deliveries it handled nor the updates
 * they queued that had not finished (`resumeRequestedUpdates`).
 * @example const log = createStoredDeliveryLog(store); await log.accept('github:72d3162e', [{ project: 'hello', component: 'app' }])
 */
export function createStoredDeliveryLog(store: Store, limit = 10_000): DeliveryLog {
  return {
    accept: (id, updates) => store.write((tx) => acceptHookDelivery(tx, id ?? null, new Date().toISOString(), limit, updates)),
  };
}

/**
 * Wraps a component update so that, once it has finished (done or failed: a failure is recorded as the component's
 * alert), the requests it answered are forgotten; a request that arrived while it ran stays for the next one.
 */
export function finishingRequests(store: Store, update: UpdateFn): UpdateFn {
  return async (project, component) => {
    const mark = await store.read((tx) => requestedUpdateMark(tx, { project, component }));
    try {
      return await update(project, component);
    } finally {
      await store.write((tx) => finishRequestedUpdate(tx, { project, component }, mark));
    }
  };
}

/**
 * Queues the updates accepted notifications asked for that had not finished when the process stopped (a crash, a
 * kill); requests for components no longer configured are dropped. Returns what was queued.
 */
export async function resumeRequestedUpdates(store: Store, config: Config, queue: UpdateQueue): Promise<ComponentKey[]> {
  const resumed: ComponentKey[] = [];
  for (const u of await store.read((tx) => requestedUpdates(tx))) {
    const configured = config.projects.find((p) => p.slug === u.project)?.components.some((c) => c.slug === u.component);
    if (!configured) {
      await store.write((tx) => finishRequestedUpdate(tx, u, Number.MAX_SAFE_INTEGER));
      continue;
    }
    queue.enqueue(u.project, u.component);
    resumed.push(u);
  }
  return resumed;
}
