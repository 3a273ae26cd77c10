// Webhook delivery ids already handled, so a redelivered notification does not queue a second update: in memory, or kept in the store.
import type { Store } from '../store/index.js';

export interface DeliveryLog {
  /** True when `id` was seen before; otherwise remembers it and returns false. */
  seen(id: string): boolean | Promise<boolean>;
}

/**
 * Remembers the last `limit` delivery ids (oldest forgotten first), in memory: a restart forgets them.
 * @example const log = createDeliveryLog(); log.seen('github:72d3162e') // false, then true
 */
export function createDeliveryLog(limit = 10_000): DeliveryLog & { readonly size: number } {
  const ids = new Set<string>();
  return {
    seen(id) {
      if (ids.has(id)) return true;
      ids.add(id);
      if (ids.size > limit) ids.delete(ids.values().next().value as string);
      return false;
    },
    get size() {
      return ids.size;
    },
  };
}

/**
 * The delivery log `tms serve` uses: kept in the database (the newest `limit` ids), so a restart does not forget
 * which deliveries it handled.
 * @example const log = createStoredDeliveryLog(store); await log.seen('github:72d3162e') // false, then true
 */
export function createStoredDeliveryLog(store: Store, limit = 10_000): DeliveryLog {
  return {
    seen: (id) => store.recordHookDelivery(id, new Date().toISOString(), limit).then((fresh) => !fresh),
  };
}
