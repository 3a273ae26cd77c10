// Runs git work in one worker thread per process, so a commit's time is its own, not the request traffic's.
// Under load every `await` of isomorphic-git's many small file operations waited for a turn of an event loop busy
// with requests (a commit took ×5.6 its quiet time); in the worker those turns are the worker's own.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../domain/worker.js';
import { VcsError } from '../vcs/index.js';
import { type GitOp, type GitOps, gitOps } from './git-ops.js';

interface Reply {
  id: number;
  value?: unknown;
  error?: { name?: string; message: string; code?: unknown; data?: unknown };
}

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();

/** `TMS_GIT_WORKER=0` runs the git work on the calling thread (for debugging). */
function useWorker(): boolean {
  return process.env.TMS_GIT_WORKER !== '0';
}

/** The git worker thread, replies routed to their callers; a worker that stops fails every call waiting on it. */
function start(): Worker {
  const w = startWorker(import.meta.url, 'git-worker');
  w.on('message', (reply: Reply) => {
    const call = waiting.get(reply.id);
    if (!call) return;
    waiting.delete(reply.id);
    if (waiting.size === 0) w.unref();
    if (reply.error) call.reject(revive(reply.error));
    else call.resolve(reply.value);
  });
  const fail = (e: unknown) => {
    if (worker === w) worker = null;
    for (const call of waiting.values()) call.reject(e instanceof Error ? e : new Error(`the git worker stopped: ${String(e)}`));
    waiting.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the git worker exited with code ${code}`)));
  w.unref();
  return w;
}

/** The error as thrown in the worker: VcsError keeps its class and data (callers act on `data.kind`). */
function revive(e: NonNullable<Reply['error']>): Error {
  if (e.name === 'VcsError') {
    const error = new VcsError('', e.data as VcsError['data']);
    error.message = e.message;
    return error;
  }
  const error = new Error(e.message) as Error & { code?: unknown; data?: unknown };
  if (e.name) error.name = e.name;
  if (e.code !== undefined) error.code = e.code;
  if (e.data !== undefined) error.data = e.data;
  return error;
}

/**
 * Runs one git operation of `git-ops.ts` in the worker and resolves with its result.
 * @example const oids = await gitWork('commitSeries', { dir: h.dir, commits })
 */
export function gitWork<K extends GitOp>(op: K, args: Parameters<GitOps[K]>[0]): ReturnType<GitOps[K]> {
  if (!useWorker()) return (gitOps[op] as (a: unknown) => ReturnType<GitOps[K]>)(args);
  worker ??= start();
  const w = worker;
  const id = nextId++;
  return new Promise<unknown>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    if (waiting.size === 1) w.ref();
    w.postMessage({ id, op, args });
  }) as ReturnType<GitOps[K]>;
}

/**
 * Starts the worker ahead of the first operation and resolves once it has loaded (`tms serve` calls it at start, so
 * the first commit does not pay for loading git in a new thread).
 */
export async function startGitWorker(): Promise<void> {
  await gitWork('ready', {});
}

/** Stops the worker (it starts again on the next call); lets tests and `tms serve` end cleanly. */
export async function stopGitWorker(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}
