// Recently seen webhook delivery ids, so a redelivered notification does not queue a second update (memory only, bounded).

export interface DeliveryLog {
  /** True when `id` was seen before; otherwise remembers it and returns false. */
  seen(id: string): boolean;
  readonly size: number;
}

/**
 * Remembers the last `limit` delivery ids (oldest forgotten first). Kept in memory: a restart forgets them, which
 * is safe because a repeated update only re-fetches.
 * @example const log = createDeliveryLog(); log.seen('github:72d3162e') // false, then true
 */
export function createDeliveryLog(limit = 10_000): DeliveryLog {
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
