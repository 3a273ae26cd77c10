// The update a notification queues: resolve the component in the current configuration, then pull it or re-scan it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ComponentHandle, type GitRunner, openComponent } from '../component/handle.js';
import { sharersOf } from '../component/resolve.js';
import type { Config } from '../config/config.js';
import { type RepositoryResult, pullComponent } from '../operations/index.js';
import type { Store } from '../store/index.js';
import { findComponent } from '../store/projects.repo.js';
import { applyConfig } from '../sync/config.js';
import { type ComponentSyncResult, syncShared } from '../sync/index.js';
import type { UpdateFn } from './queue.js';

/** What one queued update did. */
export interface ComponentUpdate {
  project: string;
  component: string;
  ok: boolean;
  /** How it was done: a pull of upstream, a (re-)scan of the files, or nothing because the component is gone. */
  kind: 'pull' | 'scan' | 'skipped';
  /** One line about the outcome, credential-free. */
  detail: string;
  /** The sync that brought the store up to date, when one ran. */
  sync?: ComponentSyncResult;
  /** The syncs of the components sharing the working copy (weblate:// links) that followed. */
  shared?: ComponentSyncResult[];
}

/** Brings one configured component up to date. */
export type PullFn = (h: ComponentHandle) => Promise<ComponentUpdate>;

export interface ComponentUpdaterOptions {
  store: Store;
  /** The configuration in force when the update runs (it may have changed since the notification). */
  getConfig: () => Config;
  /** Default: `pullOrScan`. */
  pull?: PullFn;
  /** Where the pulls' git work runs (`tms serve`'s git worker); default: this thread. */
  git?: GitRunner;
}

function fromSync(kind: 'scan', result: ComponentSyncResult): ComponentUpdate {
  return {
    project: result.project,
    component: result.component,
    ok: result.ok,
    kind,
    sync: result,
    detail: result.ok ? `${result.parsed} file(s) parsed` : (result.error ?? 'failed'),
  };
}

function fromPull(project: string, component: string, result: RepositoryResult): ComponentUpdate {
  const ok = result.result && (result.sync?.ok ?? true);
  return {
    project,
    component,
    ok,
    kind: 'pull',
    sync: result.sync,
    ...(result.shared ? { shared: result.shared } : {}),
    detail: result.detail ?? (result.sync ? 'updated' : 'Already up to date.'),
  };
}

/**
 * The write path's `pullComponent` (fetch, commit pending edits, rebase or merge per merge_style, re-parse the
 * changed files; changes 21/20 or 23/22) for a cloned git component. A component without a working copy yet is
 * cloned and loaded by `syncComponent`, and a `vcs: local` component, which has no upstream, is re-scanned.
 */
export async function pullOrScan(h: ComponentHandle): Promise<ComponentUpdate> {
  if (!h.git || !existsSync(path.join(h.dir, '.git'))) {
    // the components sharing the working copy are cloned and loaded with it
    const [own, ...shared] = await syncShared([h, ...(await sharersOf(h))]);
    return { ...fromSync('scan', own!), ...(shared.length > 0 ? { shared } : {}) };
  }
  return fromPull(h.project.slug, h.component.slug, await pullComponent(h));
}

/**
 * The queue's `update` function over the store: looks the component up in the configuration in force and brings it
 * up to date. It takes the component's mutex itself (inside the pull or sync), so give the queue `lock: false`.
 * @example createUpdateQueue({ update: createComponentUpdater({ store, getConfig }), lock: false })
 */
export function createComponentUpdater(opts: ComponentUpdaterOptions): UpdateFn {
  const pull = opts.pull ?? pullOrScan;
  return async (projectSlug, componentSlug): Promise<ComponentUpdate> => {
    const config = opts.getConfig();
    const project = config.projects.find((p) => p.slug === projectSlug);
    const component = project?.components.find((c) => c.slug === componentSlug);
    if (!project || !component) {
      return { project: projectSlug, component: componentSlug, ok: true, kind: 'skipped', detail: 'no longer configured' };
    }
    // a component added to the configuration since the store last saw it
    if (!(await opts.store.read((tx) => findComponent(tx, project.slug, component.slug)))) await opts.store.write((tx) => applyConfig(tx, config));
    const update = await pull(await openComponent(opts.store, config, project, component, { git: opts.git }));
    // Weblate's automatic translation add-on, once new strings are in (outside the component's mutex)
    if ((update.sync?.added ?? 0) > 0 && component.addons.some((a) => a.name === 'weblate.autotranslate.autotranslate')) {
      const { runAutoTranslateAddon } = await import('../machinery/addon.js');
      update.sync!.warnings.push(...(await runAutoTranslateAddon(opts.store, config, project, component.slug)));
    }
    return update;
  };
}
