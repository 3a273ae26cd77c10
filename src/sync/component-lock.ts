// One git/sync operation per component at a time: a keyed async mutex with a wait limit.
import { TmsError } from '../domain/errors.js';

export class LockTimeoutError extends TmsError<{ key: string; waitedMs: number }> {}

const tails = new Map<string, Promise<void>>();

/** How long an operation waits for a component's lock: `TMS_LOCK_TIMEOUT_MS`, default one minute. */
export function defaultLockTimeoutMs(): number {
  const configured = Number(process.env.TMS_LOCK_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : 60_000;
}

/**
 * Runs `work` once every earlier holder of `key` has finished; throws LockTimeoutError when that
 * takes longer than `timeoutMs` (the API turns it into 423).
 * @example await withComponentLock('hello/app', () => syncComponent(...))
 */
export async function withComponentLock<T>(key: string, work: () => Promise<T>, timeoutMs = defaultLockTimeoutMs()): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  try {
    await Promise.race([
      previous,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new LockTimeoutError(`could not obtain the repository lock for ${key} within ${timeoutMs} ms`, { key, waitedMs: Date.now() - started })), timeoutMs);
      }),
    ]);
  } catch (e) {
    // Give up our place: the next waiter follows whoever we waited for.
    previous.then(release, release);
    if (tails.get(key) === tail) void tail.then(() => { if (tails.get(key) === tail) tails.delete(key); });
    throw e;
  } finally {
    clearTimeout(timer);
  }
  try {
    return await work();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
