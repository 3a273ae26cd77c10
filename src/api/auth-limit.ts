// Slowing token guessing: failed authentications are counted per client address, and past a limit a minute answers 429.

/** DRF's throttled answer text, with the seconds until the address may try again. */
function retryAfter(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export interface AuthLimiter {
  /** Seconds to wait when `address` may not try now, else null. */
  blocked(address: string): number | null;
  /** Counts a failed authentication from `address`. */
  failed(address: string): void;
}

/**
 * A fixed one-minute window per client address (a proxy in front makes every client one address: set the limit for
 * that). Memory is bounded: windows that ended are dropped, and at most `maxAddresses` are tracked.
 * @example const limiter = createAuthLimiter(30); limiter.failed('10.0.0.1'); limiter.blocked('10.0.0.1')
 */
export function createAuthLimiter(perMinute: number, now: () => number = Date.now, maxAddresses = 10_000): AuthLimiter {
  const windows = new Map<string, { start: number; failures: number }>();
  const WINDOW = 60_000;
  return {
    blocked(address) {
      const w = windows.get(address);
      if (!w) return null;
      const age = now() - w.start;
      if (age >= WINDOW) {
        windows.delete(address);
        return null;
      }
      return w.failures >= perMinute ? retryAfter(WINDOW - age) : null;
    },
    failed(address) {
      const t = now();
      const w = windows.get(address);
      if (w && t - w.start < WINDOW) {
        w.failures++;
        return;
      }
      if (windows.size >= maxAddresses) {
        for (const [key, value] of windows) if (t - value.start >= WINDOW) windows.delete(key);
        if (windows.size >= maxAddresses) windows.delete(windows.keys().next().value as string);
      }
      windows.set(address, { start: t, failures: 1 });
    },
  };
}
