// Running syncs: one component under its mutex (with several nodes, its working copy aligned first), a project's
// components, every project.
import { withComponentMutex } from '../component/mutex.js';
import { type ComponentTarget, resolveComponent } from '../component/resolve.js';
import type { Config } from '../config/config.js';
import { TmsError } from '../domain/errors.js';
import type { Store } from '../store/index.js';
import { alignWorkingCopy } from './align.js';
import { applyConfig } from './config.js';
import { collectGarbage } from './gc.js';
import { type ComponentSyncResult, type SyncOptions, syncLocked } from './sync.js';

export class UnknownProjectError extends TmsError<{ project: string; component?: string }> {}

/**
 * Brings one component's store up to date with its repository. Never throws for a repository or
 * file problem: the result says what failed. Files whose blob did not change are not read.
 * @example const r = await syncComponent(await openComponent(store, config, project, component));
 */
export async function syncComponent(h: ComponentTarget, opts: SyncOptions = {}): Promise<ComponentSyncResult> {
  // not operations/exclusive.ts's withMutex, whose handle carries a format (the registry loads every parser)
  return withComponentMutex(
    h.key,
    async () => {
      // several nodes: the working copy first brought to the store's commit (a failure here shows in the sync's own);
      // when that cloned or followed upstream, its sync is this sync (a second would find nothing and report nothing)
      const aligned = await alignWorkingCopy(h, opts).catch(() => undefined);
      return aligned?.synced ?? syncLocked(h, opts);
    },
    h.config.lock_timeout_ms,
    h.nodes,
  );
}

/**
 * Syncs every component of a project (or just one); one component's failure does not stop the others.
 * Applies the configuration to the store first, so new projects and components appear.
 */
export async function syncProject(
  store: Store,
  config: Config,
  projectSlug: string,
  componentSlug?: string,
  opts: SyncOptions = {},
): Promise<ComponentSyncResult[]> {
  const project = config.projects.find((p) => p.slug === projectSlug);
  if (!project) throw new UnknownProjectError(`unknown project "${projectSlug}"`, { project: projectSlug });
  const components = componentSlug ? project.components.filter((c) => c.slug === componentSlug) : project.components;
  if (componentSlug && components.length === 0) {
    throw new UnknownProjectError(`unknown component "${projectSlug}/${componentSlug}"`, { project: projectSlug, component: componentSlug });
  }
  await store.write((tx) => applyConfig(tx, config));
  const results: ComponentSyncResult[] = [];
  // each component gets its own isomorphic-git cache (unless one is given), so pack data is freed between components
  for (const component of components) {
    const result = await syncComponent(await resolveComponent(store, config, project, component), opts);
    // Weblate's automatic translation add-on, once the new strings are in (outside the component's mutex)
    if (result.added > 0 && component.addons.some((a) => a.name === 'weblate.autotranslate.autotranslate')) {
      const { runAutoTranslateAddon } = await import('../machinery/addon.js');
      result.warnings.push(...(await runAutoTranslateAddon(store, config, project, component.slug)));
    }
    results.push(result);
    if (components.length > 1 && result.parsed > 0) collectGarbage();
  }
  return results;
}

/** Syncs every configured project. */
export async function syncAll(store: Store, config: Config, opts: SyncOptions = {}): Promise<ComponentSyncResult[]> {
  const results: ComponentSyncResult[] = [];
  for (const project of config.projects) results.push(...(await syncProject(store, config, project.slug, undefined, opts)));
  return results;
}
