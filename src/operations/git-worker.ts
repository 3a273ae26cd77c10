// The git worker thread: runs the git work of repository operations (see git-ops.ts) off the thread serving requests.
import { parentPort } from 'node:worker_threads';
import { type GitOp, gitOps } from './git-ops.js';

interface Call {
  id: number;
  op: GitOp;
  args: unknown;
}

parentPort!.on('message', async ({ id, op, args }: Call) => {
  try {
    const value = await (gitOps[op] as (a: unknown) => Promise<unknown>)(args);
    parentPort!.postMessage({ id, value });
  } catch (e) {
    const error =
      e instanceof Error
        ? { name: e.name, message: e.message, code: (e as { code?: unknown }).code, data: (e as { data?: unknown }).data }
        : { message: String(e) };
    parentPort!.postMessage({ id, error });
  }
});
