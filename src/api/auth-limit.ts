// Slowing password and token guessing: failed authentications counted per client address (and per username for sign-ins); past a limit a minute answers 429.

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

/** Web sign-in limits: per address and username, per address, and the failures a username has seen from anywhere. */
export interface SignInLimiter {
  /** Seconds `address` must wait before trying `username` again, else null. */
  blocked(address: string, username: string): number | null;
  /** Milliseconds a sign-in as `username` waits first: failures from anywhere slow it down, never refuse it. */
  delay(username: string): number;
  /** Counts a failed sign-in as `username` from `address`. */
  failed(address: string, username: string): void;
}

export interface SignInLimits {
  /** Failures a minute from one address for one username before that address waits (default 5). */
  perUsername: number;
  /** Failures a minute from one address, whatever the usernames, before it waits (default 10). */
  perAddress: number;
  /** Failures a minute for one username from every address together before its sign-ins are slowed (default 5). */
  slowAfter: number;
  /** How long a slowed sign-in waits (default 1000 ms). */
  slowMs: number;
}

/**
 * Sign-in throttling that no stranger can turn into a lockout: an address that keeps failing waits (for one username,
 * then for all), while a username under attack from elsewhere is only slowed, so its owner signs in from a clean
 * address. Usernames are compared case-insensitively.
 * @example const limits = createSignInLimiter(); limits.failed('10.0.0.9', 'admin'); limits.blocked('10.0.0.1', 'admin') // null
 */
export function createSignInLimiter(limits: Partial<SignInLimits> = {}, now: () => number = Date.now): SignInLimiter {
  const { perUsername = 5, perAddress = 10, slowAfter = 5, slowMs = 1000 } = limits;
  const pairs = createAuthLimiter(perUsername, now);
  const addresses = createAuthLimiter(perAddress, now);
  const usernames = createAuthLimiter(slowAfter, now);
  const pair = (address: string, username: string) => `${address}\n${username.toLowerCase()}`;
  return {
    blocked(address, username) {
      return addresses.blocked(address) ?? pairs.blocked(pair(address, username));
    },
    delay(username) {
      return usernames.blocked(username.toLowerCase()) === null ? 0 : slowMs;
    },
    failed(address, username) {
      addresses.failed(address);
      pairs.failed(pair(address, username));
      usernames.failed(username.toLowerCase());
    },
  };
}
