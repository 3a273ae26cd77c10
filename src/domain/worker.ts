// Starting a worker thread on one of tms's modules, compiled or (in tests and benchmarks) from its TypeScript source.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';

const requireHere = createRequire(import.meta.url);

/**
 * A worker thread running module `name` beside the module at `base` (pass `import.meta.url`): its compiled `.js`
 * when it has been built, else its `.ts` source through tsx. `data` reaches the worker as `workerData.data`.
 * @example const w = startWorker(import.meta.url, 'git-worker')
 */
export function startWorker(base: string, name: string, data?: unknown): Worker {
  // loaded here, not with the module: the store imports this one, and most commands start no worker
  const { Worker } = requireHere('node:worker_threads') as typeof import('node:worker_threads');
  const compiled = new URL(`./${name}.js`, base);
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, { workerData: { data } });
  // tsx's loader hooks are registered inside the worker itself: loaders given on the command line stay on the main thread
  const require = createRequire(base);
  const manifest = require.resolve('tsx/package.json');
  const api = (require(manifest) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
  const workerData = { data, tsx: pathToFileURL(path.join(path.dirname(manifest), api)).href, entry: new URL(`./${name}.ts`, base).href };
  const boot = "const { workerData } = require('node:worker_threads'); import(workerData.tsx).then((m) => { m.register(); return import(workerData.entry); });";
  return new Worker(boot, { eval: true, workerData });
}
