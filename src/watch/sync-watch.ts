// `tms sync --watch`: after the first sync, keep the store in step with the configuration and local components until stopped.

import type { Config } from '../config/config.js';
import { createUpdateQueue } from '../hooks/queue.js';
import { type ComponentUpdate, createComponentUpdater } from '../hooks/updater.js';
import { openStore } from '../store/index.js';
import type { ComponentSyncResult } from '../sync/index.js';
import { type WatchRuntime, startWatching } from './runtime.js';

export interface SyncWatchOptions {
  config: Config;
  project?: string;
  component?: string;
  all: boolean;
  out(line: string): void;
  err(line: string): void;
  /** The summary line of one sync (the CLI's `summaryLine`). */
  describe(result: ComponentSyncResult): string;
  /** Watching stops when this settles (the CLI passes SIGINT). */
  until: Promise<unknown>;
  debounceMs?: { config?: number; files?: number };
}

/**
 * Watches and re-syncs until `until` settles, then waits for running syncs and closes the store.
 * @example await runSyncWatch({ config, project: 'hello', all: false, out, err, describe: summaryLine, until: sigint });
 */
export async function runSyncWatch(opts: SyncWatchOptions): Promise<void> {
  const store = await openStore(opts.config.database);
  let runtime: WatchRuntime | undefined;
  const queue = createUpdateQueue({
    update: createComponentUpdater({ store, getConfig: () => runtime?.getConfig() ?? opts.config }),
    lock: false,
    concurrency: 1,
    onDone: (project, component, result) => {
      const update = result as ComponentUpdate;
      opts.out(update.sync ? opts.describe(update.sync) : `${project}/${component}: ${update.detail}`);
      if (!update.ok) opts.err(`tms: ${project}/${component}: ${update.detail}`);
    },
    onError: (e, project, component) => opts.err(`tms: ${project}/${component}: ${e instanceof Error ? e.message : String(e)}`),
  });
  const include = opts.all ? () => true : (p: string, c: string) => p === opts.project && (opts.component === undefined || c === opts.component);
  try {
    runtime = startWatching({ store, config: opts.config, queue, include, log: opts.out, debounceMs: opts.debounceMs });
    await runtime.ready();
    opts.out(`watching ${opts.config.file} and local components (Ctrl-C to stop)`);
    await opts.until;
    opts.out('stopping');
  } finally {
    await runtime?.close();
    await queue.close();
    await store.close();
  }
}
