// A running tms keeping itself in step: configuration edits applied live, local components re-scanned when they change.
import type { Config } from '../config/config.js';
import type { UpdateQueue } from '../hooks/queue.js';
import type { ApplyConfigResult, Store } from '../store/index.js';
import { applyConfig } from '../sync/config.js';
import { type ConfigDiff, watchConfig } from './config-watch.js';
import { watchLocalComponents } from './local-watch.js';

export interface WatchRuntimeOptions {
  store: Store;
  /** The configuration tms started with; `config.file` is watched. */
  config: Config;
  /** Where updates go (re-scans of local components, syncs of added or changed components). */
  queue: UpdateQueue;
  /** Which components to keep in sync (default: all); `tms sync --watch <project>` limits it to one project. */
  include?: (project: string, component: string) => boolean;
  /** One line per event worth telling (configuration applied or refused, files changed). */
  log?: (line: string) => void;
  debounceMs?: { config?: number; files?: number };
  /** Called with each configuration reload once the store has it (`tms serve --workers N` passes it to the workers). */
  onConfig?: (config: Config) => void;
}

export interface WatchRuntime {
  /** The configuration in force (the last valid version of the file). */
  getConfig(): Config;
  /** Resolves once every current watcher sees edits and the store has the last configuration reload (call again after a configuration change). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

function describeDiff(diff: ConfigDiff): string {
  const list = (keys: { project: string; component: string }[]) => keys.map((k) => `${k.project}/${k.component}`).join(', ');
  const parts: string[] = [];
  if (diff.added.length) parts.push(`added ${list(diff.added)}`);
  if (diff.changed.length) parts.push(`changed ${list(diff.changed)}`);
  if (diff.removed.length) parts.push(`removed ${list(diff.removed)}`);
  if (diff.projectsChanged.length) parts.push(`project settings of ${diff.projectsChanged.join(', ')}`);
  return parts.join('; ') || 'no component changes';
}

/**
 * Watches the configuration file and the local components. A valid edit of the file is applied to the store at once
 * (`store.applyConfig`), added and changed components are queued for a sync, and the local watchers follow the new
 * configuration; an invalid edit is logged and the running configuration kept. Removed components leave the store,
 * except those holding uncommitted edits (kept and logged), and are no longer watched or matched by hooks.
 * @example const rt = startWatching({ store, config, queue, log: console.log }); getConfig = rt.getConfig;
 */
export function startWatching(opts: WatchRuntimeOptions): WatchRuntime {
  const log = opts.log ?? (() => {});
  const include = opts.include ?? (() => true);
  let current = opts.config;
  let closed = false;

  const watchLocal = (config: Config) => {
    const w = watchLocalComponents(
      config,
      (project, component) => {
        log(`watch: ${project}/${component} changed on disk; re-scanning`);
        opts.queue.enqueue(project, component);
      },
      { include, debounceMs: opts.debounceMs?.files, onError: (e) => log(`watch: ${e.message}`) },
    );
    for (const t of w.watched) log(`watch: ${t.key.project}/${t.key.component}: ${t.what}`);
    return w;
  };
  let local = watchLocal(current);
  let switching: Promise<void> = Promise.resolve();
  let applying: Promise<void> = Promise.resolve();

  const configWatcher = watchConfig(
    opts.config.file,
    {
      onChange(next, diff) {
        if (closed) return;
        current = next;
        log(`watch: configuration reloaded: ${describeDiff(diff)}`);
        if (diff.needsRestart.length) log(`watch: ${diff.needsRestart.join(', ')} changed; restart tms to use the new value`);
        // Reloads apply in order; the queue gets the added and changed components once the store has them.
        applying = applying
          .then(async () => {
            let applied: ApplyConfigResult;
            try {
              applied = await opts.store.write((tx) => applyConfig(tx, next, { prune: true }));
            } finally {
              // the serving workers follow the configuration this process now uses, applied to the store or not
              if (!closed) opts.onConfig?.(next);
            }
            for (const c of applied.keptComponents) log(`watch: component ${c.slug} left the configuration but holds uncommitted edits; kept in the store`);
            if (closed) return;
            for (const k of [...diff.added, ...diff.changed]) if (include(k.project, k.component)) opts.queue.enqueue(k.project, k.component);
          })
          .catch((e: unknown) => log(`watch: configuration not applied to the store: ${e instanceof Error ? e.message : String(e)}`));
        const previous = local;
        local = watchLocal(next);
        switching = switching.then(() => previous.close());
      },
      onInvalid(error) {
        if (!closed) log(`watch: configuration not applied, keeping the running one: ${error.message}`);
      },
    },
    { initial: opts.config, debounceMs: opts.debounceMs?.config },
  );

  return {
    getConfig: () => current,
    ready: () => Promise.all([configWatcher.ready, local.ready, applying]).then(() => undefined),
    async close() {
      closed = true;
      await configWatcher.close();
      await applying;
      await switching;
      await local.close();
    },
  };
}
