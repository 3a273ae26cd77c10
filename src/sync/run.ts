// Running syncs: one component under its mutex (with several nodes, its working copy aligned first), a project's
// components, every project.
import { KnownStrings } from '../checks/known-strings.js';
import { withComponentMutex } from '../component/mutex.js';
import { type ComponentTarget, type Configured, resolveComponent, resolveComponents } from '../component/resolve.js';
import type { Config } from '../config/config.js';
import { TmsError } from '../domain/errors.js';
import type { Store } from '../store/index.js';
import { readSyncPoints } from '../store/sync-points.repo.js';
import { alignWorkingCopy } from './align.js';
import { applyConfig } from './config.js';
import { runDiscovery } from './discovery.js';
import { collectGarbageIfGrown } from './gc.js';
import { PARSE_POOL_THRESHOLD, type ParsePool, createParsePool, parseWorkers } from './parse-pool.js';
import { SHARE_BYTES, coreToSpare } from './share.js';
import { type ComponentSyncResult, type SyncOptions, emptyResult, moveUntouched, syncLocked } from './sync.js';
import type { WorkingCopyState } from './working-copy.js';

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
 * Syncs components that share one working copy (the first owns it, or links to its owner like the others): the
 * working copy is brought up to date once, by the first, and each component then reads what it holds; a component
 * whose files the fetched commits did not touch is not scanned. One mutex, the repository's, for all of them.
 * @example await syncShared([owner, ...linked]) // one fetch, then each component's files
 */
export async function syncShared(targets: readonly ComponentTarget[], given: SyncOptions = {}): Promise<ComponentSyncResult[]> {
  const [first, ...rest] = targets;
  if (!first) return [];
  // (a webhook's sync of a working copy's components is a run of its own: what it knows of their strings ends with it)
  const opts = given.known || rest.length === 0 ? given : { ...given, known: new KnownStrings() };
  return withComponentMutex(
    first.key,
    async () => {
      // several nodes: the working copy first brought to the store's commit (a failure here shows in the sync's own);
      // when that cloned or followed upstream, its sync is this sync (a second would find nothing and report nothing)
      const aligned = await alignWorkingCopy(first, opts).catch(() => undefined);
      // what each component compares first, read for all of them at once (under the mutex: only their own syncs below
      // write their rows until they are done)
      const points = await first.store.read((tx) =>
        readSyncPoints(
          tx,
          targets.map((t) => t.row.id),
        ),
      );
      // the first parses on a worker only while another group's components are written (nothing to overlap otherwise)
      // (and shares a large component's files with a worker when nothing comes before it)
      const done =
        aligned?.synced ?? (await syncLocked(first, { ...opts, points, pool: opts.after ? opts.pool : undefined, share: opts.after ? undefined : opts.share }));
      const results = [done];
      const state: WorkingCopyState | undefined =
        done.commit === null ? undefined : { dir: first.dir, head: done.commit, update: (done.update ?? 'up-to-date') as WorkingCopyState['update'] };
      // the components the fetched commits did not touch move to the new commit in one write, not one each
      const moved = state ? await moveUntouched(rest, state, points, opts.cache ?? first.cache, opts.force) : points;
      const pool = opts.pool ?? (rest.length > PARSE_POOL_THRESHOLD ? openPool(opts.threads, opts.spareCore) : undefined);
      try {
        // with parse workers, the next components are scanned and parsed while one is written (in order), one ahead
        // per worker (each holds its parsed files until written); without, one after the other
        const ahead = pool ? pool.size + 1 : 1;
        const running: Promise<ComponentSyncResult>[] = [];
        for (const [i, h] of rest.entries()) {
          if (!state && !done.ok) {
            // the working copy could not be brought up to date: what the first met is what every sharer meets
            const failed = { ...emptyResult(h.project.slug, h.component.slug), ok: false, error: done.error };
            opts.onEvent?.({ type: 'component-done', result: failed });
            running.push(Promise.resolve(failed));
            continue;
          }
          if (i >= ahead) await running[i - ahead];
          // one object cache for the working copy they share: its trees and pack are read once, not once per component
          // (without parse workers for the run, each is alone when written: it may share a large component's files)
          const synced = syncLocked(h, {
            cache: first.cache,
            ...opts,
            points: moved,
            pool,
            share: pool ? undefined : opts.share,
            after: running[i - 1],
            ...(state ? { updated: state } : { offline: true }),
          });
          running.push(synced);
          if (!pool) await synced;
        }
        results.push(...(await Promise.all(running)));
      } finally {
        if (pool && pool !== opts.pool) await pool.close();
      }
      // Weblate's discovery add-on: the components the repository's files make now
      if (state && first.git) {
        const discovered = await runDiscovery(first, state, { ...opts, pool: undefined, after: undefined });
        done.warnings.push(...discovered.warnings);
        results.push(...discovered.synced);
      }
      return results;
    },
    first.config.lock_timeout_ms,
    first.nodes,
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
  return syncConfigured(
    store,
    config,
    components.map((component) => ({ project, component })),
    opts,
  );
}

/**
 * Applies the configuration, then syncs the components given; components sharing a working copy (weblate:// links)
 * are synced together, in the order the first of them appears: one fetch for all. Each component gets its own
 * isomorphic-git cache (unless one is given), so pack data is freed between components.
 */
async function syncConfigured(store: Store, config: Config, components: readonly Configured[], opts: SyncOptions): Promise<ComponentSyncResult[]> {
  await store.write((tx) => applyConfig(tx, config));
  const groups = new Map<string, ComponentTarget[]>();
  const targets = await resolveComponents(store, config, components);
  for (const [i, { project, component }] of components.entries()) {
    // (the configuration was just applied: every component is in the store)
    const target = targets[i] ?? (await resolveComponent(store, config, project, component));
    const group = groups.get(target.key);
    if (group) group.push(target);
    else groups.set(target.key, [target]);
  }
  opts.onEvent?.({ type: 'components', total: components.length });
  // one pool of parse workers for the whole run (linked components share it); a run of few components has one only
  // for sharing a large component's files (no worker starts unless one is that large)
  const pool = opts.pool ?? (components.length > PARSE_POOL_THRESHOLD ? openPool(opts.threads, opts.spareCore) : undefined);
  const share = opts.share ?? pool ?? openPool(opts.threads, opts.spareCore);
  // the projects' strings known across the run's transactions (a read per language, not per component), for this run only
  const known = opts.known ?? (components.length > 1 ? new KnownStrings() : undefined);
  try {
    return await syncGroups(store, config, [...groups.values()], components.length, { ...opts, pool, share, known });
  } finally {
    if (pool && pool !== opts.pool) await pool.close();
    if (share && share !== pool && share !== opts.share) await share.close();
  }
}

async function syncGroups(
  store: Store,
  config: Config,
  groups: readonly ComponentTarget[][],
  count: number,
  opts: SyncOptions,
): Promise<ComponentSyncResult[]> {
  const finish = async (results: ComponentSyncResult[]) => {
    for (const result of results) {
      // Weblate's automatic translation add-on, once the new strings are in (outside the repository's mutex)
      // (looked up only then: a search of the configuration for each of 5,000 components took a second)
      const project = result.added > 0 ? config.projects.find((p) => p.slug === result.project) : undefined;
      const component = project?.components.find((c) => c.slug === result.component);
      if (project && component && component.addons.some((a) => a.name === 'weblate.autotranslate.autotranslate')) {
        const { runAutoTranslateAddon } = await import('../machinery/addon.js');
        result.warnings.push(...(await runAutoTranslateAddon(store, config, project, component.slug)));
      }
      if (count > 1 && result.parsed > 0) collectGarbageIfGrown();
    }
    return results;
  };
  // with parse workers, the next groups update their working copy and parse while one is written: each group's
  // writes wait for the group before it (its add-ons included), as one after the other would write them
  const ahead = opts.pool ? opts.pool.size + 1 : 1;
  const running: Promise<ComponentSyncResult[]>[] = [];
  for (const [i, group] of groups.entries()) {
    if (i >= ahead) await running[i - ahead];
    // (a group that failed as a whole, a lock not taken, fails the run when awaited below; the next does not wait on it)
    // (with parse workers, only the first group shares a large component's files: the others overlap with the one before)
    const synced = syncShared(group, opts.pool ? { ...opts, after: running[i - 1]?.catch(() => {}), share: i === 0 ? opts.share : undefined } : opts).then(
      finish,
    );
    running.push(synced);
    if (!opts.pool) await synced;
  }
  return (await Promise.all(running)).flat();
}

/**
 * The parse workers of a sync of `threads` threads (none when it is to parse on its own thread); `spare`: whether a
 * large component may be shared with one (default: a core to spare by the load average).
 */
function openPool(threads = 1, spare = () => coreToSpare()): ParsePool | undefined {
  const workers = parseWorkers(threads);
  return workers > 0 ? createParsePool(workers, PARSE_POOL_THRESHOLD, { bytes: SHARE_BYTES, spare }) : undefined;
}

/** Syncs every configured project. */
export async function syncAll(store: Store, config: Config, opts: SyncOptions = {}): Promise<ComponentSyncResult[]> {
  const all = config.projects.flatMap((project) => project.components.map((component) => ({ project, component })));
  return syncConfigured(store, config, all, opts);
}
