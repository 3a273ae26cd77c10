// Per-key debouncing for file events: one call after a quiet period, however many events came before it.

export interface Debouncer {
  /** (Re)starts the quiet period of `key`; `fire` runs once it passes without another trigger. */
  trigger(key: string, fire: () => void): void;
  /** Drops every pending call. */
  cancel(): void;
}

/** @example const d = createDebouncer(300); d.trigger('hello/app', () => queue.enqueue('hello', 'app')); */
export function createDebouncer(ms: number): Debouncer {
  const timers = new Map<string, NodeJS.Timeout>();
  return {
    trigger(key, fire) {
      clearTimeout(timers.get(key));
      timers.set(
        key,
        setTimeout(() => {
          timers.delete(key);
          fire();
        }, ms),
      );
    },
    cancel() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
