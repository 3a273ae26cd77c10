// One git/sync operation per component at a time: a keyed in-process mutex with a wait limit (not Weblate's component
// lock), and, when several nodes share one database, the database's lock for the component too.
import { TmsError } from '../domain/errors.js';
import type { ComponentLocks } from '../store/store.js';

/** The mutex could not be had in time (the API answers 423, Weblate's "repository locked"). */
export class MutexTimeoutError extends TmsError<{ key: string; waitedMs: number }> {}

const tails = new Map<string, Promise<void>>();

/** The database's lock for a component was lost while its work ran (the lock's session ended): the work must stop. */
export class NodeLockLostError extends TmsError<{ key: string }> {}

/**
 * Throws NodeLockLostError when this node, one of several (`locks` given), no longer holds the database's lock for
 * `key` (call from the component's work, before a step another node must not overlap). Nothing to check on one node.
 * @example await confirmNodeLock(h.key, h.nodes); await push(…)
 */
export async function confirmNodeLock(key: string, locks: ComponentLocks | undefined): Promise<void> {
  if (locks && !(await locks.held(key))) {
    throw new NodeLockLostError(`${key}: the database lock of the component was lost (its session ended); stopped before the push, every edit stays pending`, {
      key,
    });
  }
}

/**
 * Runs `work` once every earlier holder of `key` has finished; throws MutexTimeoutError when that takes longer than
 * `timeoutMs`. With several nodes on one database (`locks`, a component target's `nodes`), the database's lock for
 * `key` is taken too, within what is left of the time.
 * @example await withComponentMutex(h.key, () => syncLocked(h), 60_000, h.nodes)
 */
export async function withComponentMutex<T>(key: string, work: () => Promise<T>, timeoutMs = 60_000, locks?: ComponentLocks): Promise<T> {
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
  let unlock: (() => void) | null = null;
  try {
    if (locks) {
      // another node may hold it: wait for what is left of the time
      unlock = await locks.acquire(key, Math.max(0, timeoutMs - (Date.now() - started)));
      if (!unlock) {
        throw new MutexTimeoutError(`could not obtain the repository lock for ${key} within ${timeoutMs} ms (another node holds it)`, {
          key,
          waitedMs: Date.now() - started,
        });
      }
    }
    return await work();
  } finally {
    unlock?.();
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
