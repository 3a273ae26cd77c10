// The repository update queue: one update at a time per component, and a burst of notifications coalesced into one.
import { withComponentMutex } from '../component/mutex.js';
import { TmsError } from '../domain/errors.js';

/** Work offered to a queue that is closing (the server is stopping). */
export class QueueClosedError extends TmsError<{ project: string; component: string }> {}

/** Brings one component up to date (fetch, rebase or merge, re-parse what changed). */
export type UpdateFn = (project: string, component: string) => Promise<unknown>;

/** What `enqueue` did: started an update now, queued one behind the running one, or folded into a queued one. */
export type EnqueueOutcome = 'started' | 'queued' | 'coalesced';

export interface UpdateQueueOptions {
  update: UpdateFn;
  /** Called when an update throws; the queue carries on. */
  onError?: (error: unknown, project: string, component: string) => void;
  /** Called after each update with its result and duration. */
  onDone?: (project: string, component: string, result: unknown, ms: number) => void;
  /** Updates of different components running at once (default 4). */
  concurrency?: number;
  /**
   * Run each update inside `withComponentMutex('<project>/<component>')` (default true). Pass false when `update`
   * takes that lock itself, as `syncComponent` and `createComponentUpdater` do: the lock is not re-entrant.
   */
  lock?: boolean;
}

export interface UpdateQueue {
  /** Asks for an update of a component; returns at once. */
  enqueue(project: string, component: string): EnqueueOutcome;
  /** Components updating now and waiting, as `project/component`. */
  pending(): { running: string[]; queued: string[] };
  /** Resolves when nothing is running or waiting. */
  idle(): Promise<void>;
  /** Refuses new work and waits for what was accepted. */
  close(): Promise<void>;
}

interface Slot {
  project: string;
  component: string;
  running: boolean;
  queued: boolean;
}

/**
 * Creates the queue. Per component at most one update runs and one waits; asking again while one waits changes
 * nothing (it will see every push made before it starts).
 * @example const queue = createUpdateQueue({ update: (p, c) => pull(p, c) }); queue.enqueue('hello', 'app');
 */
export function createUpdateQueue(opts: UpdateQueueOptions): UpdateQueue {
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const useLock = opts.lock ?? true;
  const slots = new Map<string, Slot>();
  const ready: string[] = [];
  let active = 0;
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const settleIdle = () => {
    if (slots.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const pump = () => {
    while (active < concurrency && ready.length > 0) {
      const key = ready.shift()!;
      const slot = slots.get(key);
      if (!slot || slot.running || !slot.queued) continue;
      slot.queued = false;
      slot.running = true;
      active++;
      void run(key, slot);
    }
  };

  const run = async (key: string, slot: Slot) => {
    const started = performance.now();
    try {
      const work = () => opts.update(slot.project, slot.component);
      const result = useLock ? await withComponentMutex(key, work) : await work();
      opts.onDone?.(slot.project, slot.component, result, performance.now() - started);
    } catch (error) {
      opts.onError?.(error, slot.project, slot.component);
    } finally {
      active--;
      slot.running = false;
      if (slot.queued) ready.push(key);
      else slots.delete(key);
      pump();
      settleIdle();
    }
  };

  return {
    enqueue(project, component) {
      if (closed) throw new QueueClosedError('the update queue is closed', { project, component });
      const key = `${project}/${component}`;
      const slot = slots.get(key);
      if (slot?.queued) return 'coalesced';
      if (slot) {
        // running: it goes back to `ready` when the running update finishes
        slot.queued = true;
        return 'queued';
      }
      slots.set(key, { project, component, running: false, queued: true });
      ready.push(key);
      pump();
      return slots.get(key)?.running ? 'started' : 'queued';
    },
    pending() {
      const running: string[] = [];
      const queued: string[] = [];
      for (const [key, slot] of slots) {
        if (slot.running) running.push(key);
        if (slot.queued) queued.push(key);
      }
      return { running, queued };
    },
    idle() {
      if (slots.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    close() {
      closed = true;
      return this.idle();
    },
  };
}
