// Projects and components in the store, kept in step with the configuration file.

import type { ComponentConfig, Config, ProjectConfig } from '../config/config.js';
import { Action } from '../domain/actions.js';
import { redactUrl } from '../domain/url.js';
import { addonsByComponent, setComponentAddons } from './addons.repo.js';
import { type ChangeInput, recordChangeRow } from './changes.repo.js';
import { type Tx, now } from './db.js';
import { preparedOnce } from './statements.js';

export interface ProjectRow {
  id: number;
  slug: string;
  name: string;
  settings: string;
  created: string;
}

export interface ComponentRow {
  id: number;
  project_id: number;
  slug: string;
  name: string;
  settings: string;
  locked: number;
  synced_commit: string | null;
  created: string;
}

/** Project settings as stored: the configuration without its components. */
export type ProjectSettings = Omit<ProjectConfig, 'components'>;
/** Component settings as stored: the configuration with credentials removed. */
export type ComponentSettings = Omit<ComponentConfig, 'password' | 'repoResolved' | 'linkedTo' | 'discoveredBy'> & {
  /** `<project>/<component>` whose discovery add-on made the component (absent for configured components). */
  discovered_by?: string;
};

function projectSettings(p: ProjectConfig): ProjectSettings {
  const { components: _components, ...rest } = p;
  return rest;
}

function componentSettings(c: ComponentConfig): ComponentSettings {
  const { password: _password, repoResolved: _resolved, linkedTo: _linked, discoveredBy, ...rest } = c;
  return { ...rest, repo: redactUrl(c.repo), push: redactUrl(c.push), ...(discoveredBy ? { discovered_by: discoveredBy } : {}) };
}

export interface ApplyConfigResult {
  /** Projects no longer configured (deleted when pruning and empty). */
  removedProjects: ProjectRow[];
  /** Components no longer configured (deleted when pruning, unless kept). */
  removedComponents: ComponentRow[];
  /** Components no longer configured that were kept because they hold uncommitted edits. */
  keptComponents: ComponentRow[];
}

/** What writeConfig did, with what follows it (sync/config.ts applyConfig runs that in the same transaction). */
export interface WrittenConfig extends ApplyConfigResult {
  /** Components whose check settings changed: their checks run again. */
  recheck: number[];
  /** Projects that lost components: their `inconsistent` checks and the memory's index follow. */
  pruned: number[];
}

const sql = preparedOnce((tx: Tx) => ({
  upsertProject: tx.prepare(
    `INSERT INTO projects (slug, name, settings, created) VALUES (?, ?, ?, ?)
     ON CONFLICT (slug) DO UPDATE SET name = excluded.name, settings = excluded.settings
     WHERE projects.name IS DISTINCT FROM excluded.name OR projects.settings IS DISTINCT FROM excluded.settings`,
  ),
  upsertComponent: tx.prepare(
    `INSERT INTO components (project_id, slug, name, settings, created) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id, slug) DO UPDATE SET name = excluded.name, settings = excluded.settings
     WHERE components.name IS DISTINCT FROM excluded.name OR components.settings IS DISTINCT FROM excluded.settings`,
  ),
  projectId: tx.prepare('SELECT id FROM projects WHERE slug = ?').pluck(),
  rescanComponent: tx.prepare('UPDATE components SET synced_commit = NULL WHERE id = ?'),
  rescanTranslations: tx.prepare("UPDATE translations SET revision = '' WHERE component_id = ?"),
  allProjects: tx.prepare('SELECT * FROM projects ORDER BY id'),
  allComponents: tx.prepare('SELECT * FROM components ORDER BY id'),
  componentsWithProject: tx.prepare('SELECT c.*, p.slug AS project_slug FROM components c JOIN projects p ON p.id = c.project_id'),
  componentsOf: tx.prepare('SELECT * FROM components WHERE project_id = ? ORDER BY id'),
  hasEdits: tx
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.component_id = ? AND u.pending = 1)
           OR EXISTS (SELECT 1 FROM pending_removals r JOIN translations t ON t.id = r.translation_id WHERE t.component_id = ?)`,
    )
    .pluck(),
  withEdits: tx.prepare(
    `SELECT t.component_id FROM translations t WHERE t.component_id IN (${tx.dialect.idsOfJson})
       AND (EXISTS (SELECT 1 FROM units u WHERE u.translation_id = t.id AND u.pending = 1)
         OR EXISTS (SELECT 1 FROM pending_removals r WHERE r.translation_id = t.id))`,
  ),
  deleteComponent: tx.prepare('DELETE FROM components WHERE id = ?'),
  projectUsed: tx.prepare('SELECT 1 FROM components WHERE project_id = ? LIMIT 1').pluck(),
  deleteProject: tx.prepare('DELETE FROM projects WHERE id = ?'),
  projectBySlug: tx.prepare('SELECT * FROM projects WHERE slug = ?'),
  component: tx.prepare('SELECT c.* FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = ? AND c.slug = ?'),
  componentById: tx.prepare('SELECT * FROM components WHERE id = ?'),
  syncedCommit: tx.prepare('SELECT synced_commit FROM components WHERE id = ?').pluck(),
  syncedCommits: tx.prepare(`SELECT id, synced_commit FROM components WHERE id IN (${tx.dialect.idsOfJson})`),
  setSyncedCommit: tx.prepare('UPDATE components SET synced_commit = ? WHERE id = ?'),
  setSyncedCommits: tx.prepare(`UPDATE components SET synced_commit = ? WHERE id IN (${tx.dialect.idsOfJson})`),
  locked: tx.prepare('SELECT locked FROM components WHERE id = ?').pluck(),
  setLocked: tx.prepare('UPDATE components SET locked = ? WHERE id = ?'),
}));

function checkSettingsChanged(before: string, after: string): boolean {
  const pick = (json: string) => {
    const s = JSON.parse(json) as Record<string, unknown>;
    return JSON.stringify([s.check_flags, s.enforced_checks, s.file_format, s.source_language, s.allow_translation_propagation]);
  };
  return pick(before) !== pick(after);
}

/** Which components no longer configured are deleted: all (`true`), or those a filter picks (a discovery's own). */
export type Prune = true | ((row: ComponentRow) => boolean);

/** Whether the component holds edits not committed yet (pending strings or removals). */
export async function hasPendingEdits(tx: Tx, componentId: number): Promise<boolean> {
  return Boolean(await sql(tx).hasEdits.get(componentId, componentId));
}

/** Of these components, those with edits not yet committed (`hasPendingEdits` for many, in one statement). */
export async function componentsWithPendingEdits(tx: Tx, componentIds: readonly number[]): Promise<Set<number>> {
  if (componentIds.length === 0) return new Set();
  const rows = (await sql(tx).withEdits.all(JSON.stringify(componentIds))) as { component_id: number }[];
  return new Set(rows.map((r) => Number(r.component_id)));
}

/** Whether the stored component was made by the discovery add-on of `key` (`<project>/<component>`). */
export function discoveredBy(row: ComponentRow, key: string): boolean {
  return (JSON.parse(row.settings) as ComponentSettings).discovered_by === key;
}

/**
 * Creates or updates the configured projects and components (by slug); ids stay stable. With `prune`, components
 * no longer configured are deleted with their translations, units and history — except those holding edits not
 * committed yet, which are kept (and reported) so no user's edit is lost — and projects left empty go too.
 */
export async function writeConfig(tx: Tx, config: Config, opts: { prune?: Prune } = {}): Promise<WrittenConfig> {
  const s = sql(tx);
  // Changed settings (mask, format, template, language rules, aliases …) can change what the files mean:
  // the next sync of such a component reads every file again instead of trusting blob ids.
  const rescan = async (componentId: number) => {
    await s.rescanComponent.run(componentId);
    await s.rescanTranslations.run(componentId);
  };
  const keptProjects = new Set<number>();
  const keptComponents = new Set<number>();
  const recheck: number[] = [];
  const pruned: number[] = [];
  // what the store holds, read in three statements (not a few per component): only what differs is written
  const projects = (await s.allProjects.all()) as ProjectRow[];
  const components = (await s.allComponents.all()) as ComponentRow[];
  const projectsBySlug = new Map(projects.map((r) => [r.slug, r]));
  const componentsByKey = new Map(components.map((r) => [`${r.project_id}/${r.slug}`, r]));
  const addons = await addonsByComponent(tx);
  for (const p of config.projects) {
    const projectBefore = projectsBySlug.get(p.slug);
    const projectJson = JSON.stringify(projectSettings(p));
    if (!projectBefore || projectBefore.name !== p.name || projectBefore.settings !== projectJson)
      await s.upsertProject.run(p.slug, p.name, projectJson, now());
    const pid = projectBefore?.id ?? ((await s.projectId.get(p.slug)) as number);
    keptProjects.add(pid);
    const projectChanged = projectBefore !== undefined && projectBefore.settings !== projectJson;
    for (const c of p.components) {
      const before = componentsByKey.get(`${pid}/${c.slug}`);
      const json = JSON.stringify(componentSettings(c));
      if (!before || before.name !== c.name || before.settings !== json) await s.upsertComponent.run(pid, c.slug, c.name, json, now());
      const id = before?.id ?? (await findComponent(tx, p.slug, c.slug))!.id;
      if (before && (projectChanged || before.settings !== json)) {
        await rescan(id);
        // check flags, enforced checks or the format may have changed: the stored checks follow
        if (checkSettingsChanged(before.settings, json) || (projectChanged && checkSettingsChanged(projectBefore.settings, projectJson))) {
          recheck.push(id);
        }
      }
      await setComponentAddons(tx, id, c.addons ?? [], addons.get(id) ?? []);
      keptComponents.add(id);
    }
  }
  const removedProjects = projects.filter((r) => !keptProjects.has(r.id));
  const removedComponents = components.filter((r) => !keptComponents.has(r.id));
  const kept: ComponentRow[] = [];
  if (opts.prune) {
    const projects = new Set<number>();
    for (const c of removedComponents) {
      if (opts.prune !== true && !opts.prune(c)) continue;
      if (await s.hasEdits.get(c.id, c.id)) kept.push(c);
      else {
        await s.deleteComponent.run(c.id);
        projects.add(c.project_id);
      }
    }
    if (opts.prune === true) for (const p of removedProjects) if ((await s.projectUsed.get(p.id)) === undefined) await s.deleteProject.run(p.id);
    for (const p of projects) pruned.push(p);
  }
  return { removedProjects, removedComponents, keptComponents: kept, recheck, pruned };
}

export async function findProjectBySlug(tx: Tx, slug: string): Promise<ProjectRow | undefined> {
  return (await sql(tx).projectBySlug.get(slug)) as ProjectRow | undefined;
}

export async function findComponent(tx: Tx, projectSlug: string, componentSlug: string): Promise<ComponentRow | undefined> {
  return (await sql(tx).component.get(projectSlug, componentSlug)) as ComponentRow | undefined;
}

/** Every stored component by `<project slug>/<component slug>` (one statement, for a sync of many). */
export async function componentsBySlug(tx: Tx): Promise<Map<string, ComponentRow>> {
  const rows = (await sql(tx).componentsWithProject.all()) as (ComponentRow & { project_slug: string })[];
  return new Map(rows.map(({ project_slug, ...row }) => [`${project_slug}/${row.slug}`, row]));
}

export async function listComponents(tx: Tx, projectId?: number): Promise<ComponentRow[]> {
  const s = sql(tx);
  return (projectId === undefined ? await s.allComponents.all() : await s.componentsOf.all(projectId)) as ComponentRow[];
}

/** The commit of the working copy the store was last synced from (or moved to by a commit). */
export async function syncedCommitOf(tx: Tx, componentId: number): Promise<string | null> {
  return ((await sql(tx).syncedCommit.get(componentId)) as string | null | undefined) ?? null;
}

/** The synced commits of several components (one statement), by component id. */
export async function syncedCommitsOf(tx: Tx, componentIds: readonly number[]): Promise<Map<number, string | null>> {
  const rows = (await sql(tx).syncedCommits.all(JSON.stringify(componentIds))) as Pick<ComponentRow, 'id' | 'synced_commit'>[];
  return new Map(rows.map((r) => [r.id, r.synced_commit]));
}

export async function setSyncedCommit(tx: Tx, componentId: number, commit: string | null): Promise<void> {
  await sql(tx).setSyncedCommit.run(commit, componentId);
}

/** `setSyncedCommit` for several components at once, in one statement (the components of a shared repository). */
export async function setSyncedCommits(tx: Tx, componentIds: readonly number[], commit: string | null): Promise<void> {
  if (componentIds.length > 0) await sql(tx).setSyncedCommits.run(commit, JSON.stringify(componentIds));
}

/** Whether the component is locked (Weblate's component lock: no edits, added strings or uploads). */
export async function isComponentLocked(tx: Tx, componentId: number): Promise<boolean> {
  return (await sql(tx).locked.get(componentId)) === 1;
}

/**
 * Records one change per component named, for a configuration the store may not have seen yet (it is applied first
 * when a component is missing), e.g. change 53 for a webhook (call inside a transaction); returns the change ids.
 */
export async function recordComponentChanges(
  tx: Tx,
  config: Config,
  components: readonly { project: string; component: string }[],
  change: Omit<ChangeInput, 'projectId' | 'componentId'>,
): Promise<number[]> {
  let missing = false;
  for (const c of components) if (!(await findComponent(tx, c.project, c.component))) missing = true;
  // components only created (no prune, no settings changed): nothing for the checks to follow
  if (missing) await writeConfig(tx, config);
  const ids: number[] = [];
  for (const c of components) {
    const row = (await findComponent(tx, c.project, c.component))!;
    ids.push(await recordChangeRow(tx, { ...change, projectId: row.project_id, componentId: row.id }));
  }
  return ids;
}

/**
 * Locks or unlocks a component and records 14/15 (`details.auto` false) (call inside a transaction). Nothing is
 * recorded when the component already was so. Returns whether anything changed; undefined for an unknown component.
 */
export async function setComponentLocked(tx: Tx, componentId: number, locked: boolean, userId: number | null, timestamp: string): Promise<boolean | undefined> {
  const s = sql(tx);
  const row = (await s.componentById.get(componentId)) as ComponentRow | undefined;
  if (!row) return undefined;
  if ((row.locked === 1) === locked) return false;
  await s.setLocked.run(locked ? 1 : 0, componentId);
  await recordChangeRow(tx, {
    action: locked ? Action.LOCK : Action.UNLOCK,
    timestamp,
    projectId: row.project_id,
    componentId,
    userId,
    details: { auto: false },
  });
  return true;
}
