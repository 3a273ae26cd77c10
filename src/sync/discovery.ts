// Running the discovery add-on after a working copy moved: components found, changed or gone applied to the store and synced.
import { type ComponentTarget, repositoryOwner, resolveComponent } from '../component/resolve.js';
import { type Discovered, applyDiscovery } from '../config/config.js';
import { DISCOVERY_ADDON, repositoryFiles } from '../config/discovery.js';
import { discoveredBy, hasPendingEdits, listComponents } from '../store/projects.repo.js';
import { applyConfig } from './config.js';
import { type ComponentSyncResult, type SyncOptions, syncLocked } from './sync.js';
import type { WorkingCopyState } from './working-copy.js';

/** What the discovery add-on did after an update: the syncs of the components it added or changed, and what to say. */
export interface DiscoveryOutcome {
  synced: ComponentSyncResult[];
  /** Lines for the main component's result: components refused, or gone but kept for their pending edits. */
  warnings: string[];
}

/**
 * When the repository of `h` belongs to a component with Weblate's discovery add-on, brings the components the rule
 * finds in the working copy into the configuration (the object `h.config`, which the running process shares) and the
 * store, and syncs those added or changed from the working copy as `state` holds it. Components no longer found are
 * removed when the rule says `remove`, except those holding edits not committed yet (kept, and said). Call holding
 * the repository's mutex.
 * @example const { synced } = await runDiscovery(h, { dir: h.dir, head, update: 'fast-forward' })
 */
export async function runDiscovery(h: ComponentTarget, state: WorkingCopyState, opts: SyncOptions = {}): Promise<DiscoveryOutcome> {
  const outcome: DiscoveryOutcome = { synced: [], warnings: [] };
  const owner = repositoryOwner(h.config, h.project, h.component);
  if (!owner.component.addons.some((a) => a.name === DISCOVERY_ADDON)) return outcome;
  const key = `${owner.project.slug}/${owner.component.slug}`;
  // the components it made before (as the store keeps them); those holding edits not committed yet stay until the
  // edits are committed
  const stored = await h.store.read(async (tx) => (await listComponents(tx, h.row.project_id)).filter((row) => discoveredBy(row, key)));
  const holding = new Set<string>();
  for (const row of stored) if (await h.store.read((tx) => hasPendingEdits(tx, row.id))) holding.add(row.slug);
  const previous = stored.map((row): Discovered => {
    const s = JSON.parse(row.settings) as Discovered;
    return { ...s, name: row.name, slug: row.slug };
  });
  const change = applyDiscovery(h.config, owner.project.slug, owner.component.slug, repositoryFiles(h.dir), holding, previous);
  for (const r of change.refused) outcome.warnings.push(`discovery: ${r.slug} not added: ${r.reason}`);
  for (const slug of change.kept) outcome.warnings.push(`discovery: ${slug} is no longer found; kept until its pending edits are committed`);
  const configured = new Set(owner.project.components.map((c) => c.slug));
  const unconfigured = stored.some((row) => !configured.has(row.slug));
  if (change.added.length + change.updated.length + change.removed.length === 0 && !unconfigured) return outcome;
  const applied = await h.store.write((tx) => applyConfig(tx, h.config, { prune: (row) => discoveredBy(row, key) }));
  // an edit saved between the look above and this write keeps its component in the store (not in the configuration)
  for (const c of applied.keptComponents) outcome.warnings.push(`discovery: ${c.slug} is no longer found; kept in the store for its pending edits`);
  const project = h.config.projects.find((p) => p.slug === owner.project.slug)!;
  for (const slug of [...change.added, ...change.updated]) {
    const component = project.components.find((c) => c.slug === slug)!;
    const target = { ...(await resolveComponent(h.store, h.config, project, component, { git: h.gitRunner })), cache: h.cache };
    outcome.synced.push(await syncLocked(target, { ...opts, updated: state }));
  }
  return outcome;
}
