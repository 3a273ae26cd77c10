// One git/sync operation per component at a time: a keyed in-process mutex with a wait limit (not Weblate's component
// lock), and, when several nodes share one database, the database's lock for the component too.
import { TmsError } from '../domain/errors.js';
import type { ComponentLocks } from '../store/store.js';

/** The mutex could not be had in time (the API answers 423, Weblate's "repository locked"). */
export class MutexTimeoutError extends TmsError<{ key: string; waitedMs: number }> {}

const tails = new Map<string, Promise<void>>();

let nodeLocks: ComponentLocks | undefined;

/**
 * Several nodes serve one database (PostgreSQL): every component mutex of this process also takes the component's
 * lock in the database, so a component's git work runs on one node at a time. Undefined turns it off again.
 * @example useNodeLocks(store.componentLocks())
 */
export function useNodeLocks(locks: ComponentLocks | undefined): void {
  nodeLocks = locks;
}

/** The database's lock for a component was lost while its work ran (the lock's session ended): the work must stop. */
export class NodeLockLostError extends TmsError<{ key: string }> {}

/**
 * Throws NodeLockLostError when this node, one of several, no longer holds the database's lock for `key` (call from
 * the component's work, before a step another node must not overlap). Nothing to check on one node.
 * @example await confirmNodeLock(h.key); await push(…)
 */
export async function confirmNodeLock(key: string): Promise<void> {
  if (nodeLocks && !(await nodeLocks.held(key))) {
    throw new NodeLockLostError(`${key}: the database lock of the component was lost (its session ended); stopped before the push, every edit stays pending`, {
      key,
    });
  }
}

/** Whether this process is one of several nodes on one database (`useNodeLocks`): commits are pushed at once. */
export function multiNode(): boolean {
  return nodeLocks !== undefined;
}

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
  let unlock: (() => void) | null = null;
  try {
    if (nodeLocks) {
      // another node may hold it: wait for what is left of the time
      unlock = await nodeLocks.acquire(key, Math.max(0, timeoutMs - (Date.now() - started)));
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
