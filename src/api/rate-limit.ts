// Weblate's API throttling (DRF's sliding window): a request history per caller, X-RateLimit-* headers, 429 past the rate.

/** A DRF rate: so many requests per so many milliseconds. */
export interface Rate {
  requests: number;
  windowMs: number;
}

const PERIODS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a DRF rate (`100/day`, `5000/hour`, `10/m`: only the period's first letter counts, as in DRF); null for ''.
 * @example parseRate('100/day') // { requests: 100, windowMs: 86_400_000 }
 */
export function parseRate(rate: string): Rate | null {
  const match = /^(\d+)\/([smhd])[a-z]*$/.exec(rate.trim());
  if (!match) return null;
  return { requests: Number(match[1]), windowMs: PERIODS[match[2]!]! };
}

/** The outcome of one check: the headers Weblate's ThrottlingMiddleware sends, and the wait when refused. */
export interface RateCheck {
  allowed: boolean;
  /** Seconds until a request would be allowed (refused requests only), as DRF's `wait()` rounded up. */
  retryAfter: number;
  headers: Record<string, string>;
}

export interface RateLimiter {
  readonly rate: Rate;
  /** Records a request of `key` when allowed (DRF: a refused request is not added to the history). */
  check(key: string): RateCheck;
  /** Callers tracked now. */
  readonly size: number;
}

/**
 * A sliding-window limiter as DRF's SimpleRateThrottle: refused when the history within the window holds
 * `requests` entries; `X-RateLimit-Reset` is `duration - (now - newest)` as Weblate's middleware computes it.
 * Memory is bounded: at most `maxKeys` callers (the one seen longest ago is dropped first), each at most `requests`
 * timestamps.
 * @example const anon = createRateLimiter(parseRate('100/day')!); anon.check('10.0.0.1').allowed
 */
export function createRateLimiter(rate: Rate, now: () => number = Date.now, maxKeys = 10_000): RateLimiter {
  // key → request times, oldest first; Map order is least recently used first
  const histories = new Map<string, number[]>();
  return {
    rate,
    get size() {
      return histories.size;
    },
    check(key) {
      const t = now();
      let history = histories.get(key);
      if (history) {
        histories.delete(key);
        let drop = 0;
        while (drop < history.length && history[drop]! <= t - rate.windowMs) drop++;
        if (drop > 0) history = history.slice(drop);
      } else {
        history = [];
        if (histories.size >= maxKeys) histories.delete(histories.keys().next().value as string);
      }
      const allowed = history.length < rate.requests;
      if (allowed) history.push(t);
      histories.set(key, history);
      const newest = history[history.length - 1];
      const reset = newest === undefined ? rate.windowMs : rate.windowMs - (t - newest);
      const headers = {
        'X-RateLimit-Limit': String(rate.requests),
        'X-RateLimit-Remaining': String(Math.max(0, rate.requests - history.length)),
        'X-RateLimit-Reset': String(Math.floor(reset / 1000)),
      };
      if (allowed) return { allowed, retryAfter: 0, headers };
      const wait = rate.windowMs - (t - history[0]!);
      return { allowed, retryAfter: Math.max(1, Math.ceil(wait / 1000)), headers };
    },
  };
}
