// One git/sync operation per component at a time: a keyed in-process mutex with a wait limit (not Weblate's component lock).
import { TmsError } from '../domain/errors.js';

/** The mutex could not be had in time (the API answers 423, Weblate's "repository locked"). */
export class MutexTimeoutError extends TmsError<{ key: string; waitedMs: number }> {}

const tails = new Map<string, Promise<void>>();

/**
 * Runs `work` once every earlier holder of `key` has finished; throws MutexTimeoutError when that
 * takes longer than `timeoutMs`.
 * @example await withComponentMutex('hello/app', () => syncComponent(h), 60_000)
 */
export async function withComponentMutex<T>(key: string, work: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
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
        timer = setTimeout(
          () =>
            reject(new MutexTimeoutError(`could not obtain the repository lock for ${key} within ${timeoutMs} ms`, { key, waitedMs: Date.now() - started })),
          timeoutMs,
        );
      }),
    ]);
  } catch (e) {
    // Give up our place: the next waiter follows whoever we waited for.
    previous.then(release, release);
    if (tails.get(key) === tail)
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
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
