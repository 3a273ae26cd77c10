// The parse pool of a sync of many components: worker threads that read and parse components' files while the
// sync's own thread writes the store, started only once a sync has parsed enough components to pay for them.
import { freemem } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../domain/worker.js';
import { type ParseJob, type ParseReply, decodeOutcomes } from './parse-job.js';
import type { ParseOutcome } from './scan.js';
import { SHARE_BYTES, coreToSpare } from './share.js';

/**
 * Components a sync parses on its own thread before it starts workers. A worker takes a few hundred ms of CPU to start
 * and load the formats, and its first parses run code not yet compiled (`npm run bench:parse-transfer`): a sync of a few
 * components, or a webhook's that reads one, would pay that for nothing.
 */
export const PARSE_POOL_THRESHOLD = 4;

/** Memory a parse worker may take (a large component's files parsed, ~10× their size): workers ≤ free memory / this. */
const WORKER_MEMORY = 512 * 1024 * 1024;

/** Workers that die before the pool gives up on them and parses on the sync's thread. */
const MAX_CRASHES = 3;

export interface ParsePool {
  /** Worker threads the pool may run. */
  readonly size: number;
  /**
   * Whether a component whose changed files weigh `bytes` is shared between the sync's thread and a worker: at least
   * `SHARE_BYTES`, and a core to spare (`coreToSpare`).
   */
  shares(bytes: number): boolean;
  /** Components parsed so far on workers and on the sync's own thread. */
  readonly parsed: { workers: number; here: number };
  /**
   * `job` parsed on a worker, or by `here` on this thread: below the threshold, when a file was found damaged (its
   * blob is restored from git here), when the worker failed or died. Never rejects unless `here` does.
   */
  parse(job: Omit<ParseJob, 'id'>, here: () => Promise<Map<string, ParseOutcome>>, eager?: boolean): Promise<Map<string, ParseOutcome>>;
  /**
   * Whether a worker is loaded and may take a job at once: starts one (whatever the threshold) when none runs, and
   * answers when it has loaded (false when the pool has none to give, or it died first). A large component's files
   * are shared with it from then on (`eager` jobs), while the sync's thread parses the others.
   */
  ready(): Promise<boolean>;
  /** Stops the workers. */
  close(): Promise<void>;
}

/**
 * The worker threads a sync of `threads` threads parses on (one thread is the sync's own, which writes): bounded by
 * the threads asked for and by free memory; 0 when the sync is to parse on its own thread.
 */
export function parseWorkers(threads: number, free = freemem()): number {
  return Math.max(0, Math.min(threads - 1, Math.floor(free / WORKER_MEMORY)));
}

interface Job {
  message: ParseJob;
  here: () => Promise<Map<string, ParseOutcome>>;
  resolve: (outcomes: Map<string, ParseOutcome>) => void;
  reject: (e: unknown) => void;
}

/**
 * A pool of `size` parse workers, started as jobs come once `threshold` jobs have been parsed on this thread (or
 * when a component is shared: `share`, `ready`).
 * @example const pool = createParsePool(parseWorkers(2)); await pool.parse(job, () => parseChanged(...)); await pool.close();
 */
export function createParsePool(
  size: number,
  threshold = PARSE_POOL_THRESHOLD,
  share: { bytes: number; spare: () => boolean } = { bytes: SHARE_BYTES, spare: () => coreToSpare() },
): ParsePool {
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  const queue: Job[] = [];
  let started = 0;
  let crashes = 0;
  let seen = 0;
  let nextId = 1;
  let closed = false;
  /** Workers that have loaded, and who waits for one to. */
  const loaded = new WeakSet<Worker>();
  const waiting: ((ok: boolean) => void)[] = [];
  const wake = (ok: boolean) => {
    for (const w of waiting.splice(0)) w(ok);
  };

  const parsed = { workers: 0, here: 0 };
  const runHere = (job: Job) => {
    parsed.here++;
    job.here().then(job.resolve, job.reject);
  };

  const start = (): Worker => {
    const w = startWorker(import.meta.url, 'parse-worker');
    started++;
    w.on('message', (reply: ParseReply) => {
      if ('ready' in reply) {
        loaded.add(w);
        wake(true);
        return;
      }
      const job = busy.get(w);
      if (!job || job.message.id !== reply.id) return;
      busy.delete(w);
      if ('outcomes' in reply) {
        parsed.workers++;
        job.resolve(decodeOutcomes(reply.outcomes));
      }
      // a damaged file is restored from git here; an unexpected failure meets the user as it would on this thread
      else runHere(job);
      idle.push(w);
      w.unref();
      dispatch();
    });
    // an uncaught error is followed by 'exit': the job is taken care of there
    w.on('error', () => {});
    w.on('exit', () => {
      started--;
      if (started === 0) wake(false);
      const at = idle.indexOf(w);
      if (at >= 0) idle.splice(at, 1);
      const job = busy.get(w);
      busy.delete(w);
      if (job) {
        // a worker that died (out of memory, a crash in native code; or stopped by close): its component is parsed
        // here, not lost
        if (!closed) crashes++;
        runHere(job);
      }
      if (!closed) dispatch();
    });
    return w;
  };

  const dispatch = () => {
    while (queue.length > 0) {
      if (crashes >= MAX_CRASHES) {
        for (const job of queue.splice(0)) runHere(job);
        return;
      }
      const w = idle.pop() ?? (started < size ? start() : undefined);
      if (!w) return;
      const job = queue.shift()!;
      busy.set(w, job);
      w.ref();
      w.postMessage(job.message);
    }
  };

  return {
    size,
    parsed,
    shares: (bytes) => size > 0 && bytes >= share.bytes && share.spare(),
    parse(message, here, eager = false) {
      return new Promise((resolve, reject) => {
        const job: Job = { message: { ...message, id: nextId++ }, here, resolve, reject };
        if (size === 0 || closed || (!eager && ++seen <= threshold)) runHere(job);
        else {
          queue.push(job);
          dispatch();
        }
      });
    },
    ready() {
      if (size === 0 || closed || crashes >= MAX_CRASHES) return Promise.resolve(false);
      if ([...idle, ...busy.keys()].some((w) => loaded.has(w))) return Promise.resolve(true);
      if (started === 0) {
        const w = start();
        idle.push(w);
        w.unref();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    async close() {
      closed = true;
      wake(false);
      for (const job of queue.splice(0)) runHere(job);
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}
