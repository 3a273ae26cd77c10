// Where repository operations' git work runs: a GitWorker thread that the process owning it (`tms serve`) starts and
// passes to the component handles it opens, or the calling thread. Under load every `await` of isomorphic-git's many
// small file operations waited for a turn of an event loop busy with requests (a commit took ×5.6 its quiet time); in
// the worker those turns are the worker's own.
import type { Worker } from 'node:worker_threads';
import type { ComponentTarget, GitRunner } from '../component/resolve.js';
import { startWorker } from '../domain/worker.js';
import { VcsError } from '../vcs/index.js';
import { type GitOp, type GitOps, gitOps } from './git-ops.js';

interface Reply {
  id: number;
  value?: unknown;
  error?: { name?: string; message: string; code?: unknown; data?: unknown };
}

/**
 * Runs one git operation of `git-ops.ts` where `h` says (its handle's git worker, else this thread) and resolves with
 * its result.
 * @example const oids = await gitWork(h, 'commitSeries', { dir: h.dir, commits })
 */
export function gitWork<K extends GitOp>(h: Pick<ComponentTarget, 'gitRunner'>, op: K, args: Parameters<GitOps[K]>[0]): ReturnType<GitOps[K]> {
  if (h.gitRunner) return h.gitRunner.run(op, args) as ReturnType<GitOps[K]>;
  return (gitOps[op] as (a: unknown) => ReturnType<GitOps[K]>)(args);
}

/**
 * One worker thread running git operations, replies routed to their callers; a thread that stops fails every call
 * waiting on it, and the next call starts another. Give it to `openComponent` (`{ git }`) to use it.
 * @example const git = new GitWorker(); await git.start(); openComponent(store, config, p, c, { git }); await git.stop();
 */
export class GitWorker implements GitRunner {
  #worker: Worker | null = null;
  #nextId = 1;
  readonly #waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();

  run(op: string, args: unknown): Promise<unknown> {
    this.#worker ??= this.#spawn();
    const w = this.#worker;
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      if (this.#waiting.size === 1) w.ref();
      w.postMessage({ id, op, args });
    });
  }

  /** Starts the thread ahead of the first operation and resolves once it has loaded (the first commit does not wait). */
  async start(): Promise<void> {
    await this.run('ready', {});
  }

  /** Stops the thread (the next operation starts another); lets `tms serve` and tests end cleanly. */
  async stop(): Promise<void> {
    const w = this.#worker;
    this.#worker = null;
    if (w) await w.terminate();
  }

  #spawn(): Worker {
    const w = startWorker(import.meta.url, 'git-worker');
    w.on('message', (reply: Reply) => {
      const call = this.#waiting.get(reply.id);
      if (!call) return;
      this.#waiting.delete(reply.id);
      if (this.#waiting.size === 0) w.unref();
      if (reply.error) call.reject(revive(reply.error));
      else call.resolve(reply.value);
    });
    const fail = (e: unknown) => {
      if (this.#worker === w) this.#worker = null;
      for (const call of this.#waiting.values()) call.reject(e instanceof Error ? e : new Error(`the git worker stopped: ${String(e)}`));
      this.#waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`the git worker exited with code ${code}`)));
    w.unref();
    return w;
  }
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
