// Watching the configuration file: a valid edit is handed over with what changed, an invalid one is reported and ignored.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { watch } from 'chokidar';
import { type Config, parseConfig } from '../config/config.js';
import { ConfigError } from '../domain/errors.js';
import { createDebouncer } from './debounce.js';

/** A component by slugs. */
export interface ComponentKey {
  project: string;
  component: string;
}

/** What an edit of the configuration changed. */
export interface ConfigDiff {
  added: ComponentKey[];
  removed: ComponentKey[];
  /** Components whose settings differ (a new repository, branch, file mask …). */
  changed: ComponentKey[];
  /** Projects whose own settings differ (enable_hooks, hook_secret, …); they apply without a re-sync. */
  projectsChanged: string[];
  /** Top-level keys that only a restart applies (`database`, `repos_dir`). */
  needsRestart: string[];
}

/** A running watcher. */
export interface Watcher {
  /** Resolves once the initial scan is done and edits are being seen. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface ConfigWatchHandlers {
  onChange(config: Config, diff: ConfigDiff): void;
  onInvalid(error: Error): void;
}

/** JSON with object keys sorted, so key order in the file does not count as a change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * Compares two configurations component by component.
 * @example diffConfig(before, after).added // [{ project: 'hello', component: 'web' }]
 */
export function diffConfig(before: Config | null, after: Config): ConfigDiff {
  const index = (config: Config | null) => {
    const map = new Map<string, { key: ComponentKey; text: string }>();
    for (const p of config?.projects ?? [])
      for (const c of p.components) map.set(`${p.slug}/${c.slug}`, { key: { project: p.slug, component: c.slug }, text: canonical(c) });
    return map;
  };
  const old = index(before);
  const now = index(after);
  const diff: ConfigDiff = { added: [], removed: [], changed: [], projectsChanged: [], needsRestart: [] };
  for (const [id, entry] of now) {
    const previous = old.get(id);
    if (!previous) diff.added.push(entry.key);
    else if (previous.text !== entry.text) diff.changed.push(entry.key);
  }
  for (const [id, entry] of old) if (!now.has(id)) diff.removed.push(entry.key);
  const settings = (config: Config | null) => new Map((config?.projects ?? []).map(({ components: _c, ...rest }) => [rest.slug, canonical(rest)]));
  const oldProjects = settings(before);
  for (const [slug, text] of settings(after)) if (oldProjects.has(slug) && oldProjects.get(slug) !== text) diff.projectsChanged.push(slug);
  for (const key of ['database', 'repos_dir'] as const) if (before && before[key] !== after[key]) diff.needsRestart.push(key);
  return diff;
}

/**
 * Watches the configuration file. Each edit (debounced) is parsed and validated: a valid one calls `onChange` with
 * the new configuration and the difference to the one before, an invalid one calls `onInvalid` and the running
 * configuration stays as it was. Editors that replace the file (rename over it) are handled. `initial` is the running
 * configuration the first edit is compared with (default: the file as it is now, when valid).
 * @example const w = watchConfig(config.file, { onChange: (c) => (current = c), onInvalid: (e) => log(e.message) });
 */
export function watchConfig(file: string, handlers: ConfigWatchHandlers, opts: { initial?: Config; debounceMs?: number } = {}): Watcher {
  let lastText: string | null = null;
  let current: Config | null = opts.initial ?? null;
  if (!current) {
    try {
      lastText = readFileSync(file, 'utf8');
      current = parseConfig(lastText, file);
    } catch {
      // an invalid or missing file: the first valid edit counts as adding everything
    }
  }
  const debounce = createDebouncer(opts.debounceMs ?? 100);
  let closed = false;
  const reload = async () => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (e as Error).message;
      if (!closed) handlers.onInvalid(new ConfigError(`${file}: ${reason}; keeping the running configuration`, { file, problems: [reason] }));
      return;
    }
    if (closed || text === lastText) return;
    lastText = text;
    let next: Config;
    try {
      next = parseConfig(text, file);
    } catch (e) {
      handlers.onInvalid(e as Error);
      return;
    }
    const diff = diffConfig(current, next);
    current = next;
    handlers.onChange(next, diff);
  };
  const watcher = watch(file, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 } });
  const schedule = () => debounce.trigger('config', () => void reload());
  watcher.on('add', schedule).on('change', schedule).on('unlink', schedule);
  watcher.on('error', (e) => handlers.onInvalid(e instanceof Error ? e : new Error(String(e))));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      closed = true;
      debounce.cancel();
      await watcher.close();
    },
  };
}
