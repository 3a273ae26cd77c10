import type { ComponentConfig, Config, ProjectConfig } from '../config/config.js';
import { Action } from '../domain/actions.js';
import { redactUrl } from '../domain/url.js';
import { setComponentAddons } from './addons.repo.js';
import { recordChangeRow } from './changes.repo.js';
import { recheckComponent, refreshInconsistentOfProject, settleInconsistent } from './checks.repo.js';
import { type Db, now } from './db.js';
// Projects and components in the store, kept in step with the configuration file.
import { pruneMemorySources } from './memory.repo.js';
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
export type ComponentSettings = Omit<ComponentConfig, 'password' | 'repoResolved'>;

function projectSettings(p: ProjectConfig): ProjectSettings {
  const { components: _components, ...rest } = p;
  return rest;
}

function componentSettings(c: ComponentConfig): ComponentSettings {
  const { password: _password, repoResolved: _resolved, ...rest } = c;
  return { ...rest, repo: redactUrl(c.repo), push: redactUrl(c.push) };
}

export interface ApplyConfigResult {
  /** Projects no longer configured (deleted when pruning and empty). */
  removedProjects: ProjectRow[];
  /** Components no longer configured (deleted when pruning, unless kept). */
  removedComponents: ComponentRow[];
  /** Components no longer configured that were kept because they hold uncommitted edits. */
  keptComponents: ComponentRow[];
}

const sql = preparedOnce((db: Db) => ({
  upsertProject: db.prepare(
    `INSERT INTO projects (slug, name, settings, created) VALUES (?, ?, ?, ?)
     ON CONFLICT (slug) DO UPDATE SET name = excluded.name, settings = excluded.settings
     WHERE projects.name IS NOT excluded.name OR projects.settings IS NOT excluded.settings`,
  ),
  upsertComponent: db.prepare(
    `INSERT INTO components (project_id, slug, name, settings, created) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id, slug) DO UPDATE SET name = excluded.name, settings = excluded.settings
     WHERE components.name IS NOT excluded.name OR components.settings IS NOT excluded.settings`,
  ),
  projectId: db.prepare('SELECT id FROM projects WHERE slug = ?').pluck(),
  rescanComponent: db.prepare('UPDATE components SET synced_commit = NULL WHERE id = ?'),
  rescanTranslations: db.prepare("UPDATE translations SET revision = '' WHERE component_id = ?"),
  allProjects: db.prepare('SELECT * FROM projects ORDER BY id'),
  allComponents: db.prepare('SELECT * FROM components ORDER BY id'),
  componentsOf: db.prepare('SELECT * FROM components WHERE project_id = ? ORDER BY id'),
  hasEdits: db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.component_id = ? AND u.pending = 1)
           OR EXISTS (SELECT 1 FROM pending_removals r JOIN translations t ON t.id = r.translation_id WHERE t.component_id = ?)`,
    )
    .pluck(),
  deleteComponent: db.prepare('DELETE FROM components WHERE id = ?'),
  projectUsed: db.prepare('SELECT 1 FROM components WHERE project_id = ? LIMIT 1').pluck(),
  deleteProject: db.prepare('DELETE FROM projects WHERE id = ?'),
  projectBySlug: db.prepare('SELECT * FROM projects WHERE slug = ?'),
  component: db.prepare('SELECT c.* FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = ? AND c.slug = ?'),
  componentById: db.prepare('SELECT * FROM components WHERE id = ?'),
  syncedCommit: db.prepare('SELECT synced_commit FROM components WHERE id = ?').pluck(),
  setSyncedCommit: db.prepare('UPDATE components SET synced_commit = ? WHERE id = ?'),
  locked: db.prepare('SELECT locked FROM components WHERE id = ?').pluck(),
  setLocked: db.prepare('UPDATE components SET locked = ? WHERE id = ?'),
}));

function checkSettingsChanged(before: string, after: string): boolean {
  const pick = (json: string) => {
    const s = JSON.parse(json) as Record<string, unknown>;
    return JSON.stringify([s.check_flags, s.enforced_checks, s.file_format, s.source_language, s.allow_translation_propagation]);
  };
  return pick(before) !== pick(after);
}

/**
 * Creates or updates the configured projects and components (by slug); ids stay stable. With `prune`, components
 * no longer configured are deleted with their translations, units and history — except those holding edits not
 * committed yet, which are kept (and reported) so no user's edit is lost — and projects left empty go too.
 */
export function applyConfig(db: Db, config: Config, opts: { prune?: boolean } = {}): ApplyConfigResult {
  const s = sql(db);
  // Changed settings (mask, format, template, language rules, aliases …) can change what the files mean:
  // the next sync of such a component reads every file again instead of trusting blob ids.
  const rescan = (componentId: number) => {
    s.rescanComponent.run(componentId);
    s.rescanTranslations.run(componentId);
  };
  const keptProjects = new Set<number>();
  const keptComponents = new Set<number>();
  for (const p of config.projects) {
    const projectBefore = findProjectBySlug(db, p.slug);
    const projectJson = JSON.stringify(projectSettings(p));
    s.upsertProject.run(p.slug, p.name, projectJson, now());
    const pid = s.projectId.get(p.slug) as number;
    keptProjects.add(pid);
    const projectChanged = projectBefore !== undefined && projectBefore.settings !== projectJson;
    for (const c of p.components) {
      const before = findComponent(db, p.slug, c.slug);
      const json = JSON.stringify(componentSettings(c));
      s.upsertComponent.run(pid, c.slug, c.name, json, now());
      const id = before?.id ?? findComponent(db, p.slug, c.slug)!.id;
      if (before && (projectChanged || before.settings !== json)) {
        rescan(id);
        // check flags, enforced checks or the format may have changed: the stored checks follow at once
        if (checkSettingsChanged(before.settings, json) || (projectChanged && checkSettingsChanged(projectBefore.settings, projectJson))) {
          recheckComponent(db, id);
        }
      }
      setComponentAddons(db, id, c.addons ?? []);
      keptComponents.add(id);
    }
  }
  const removedProjects = (s.allProjects.all() as ProjectRow[]).filter((r) => !keptProjects.has(r.id));
  const removedComponents = (s.allComponents.all() as ComponentRow[]).filter((r) => !keptComponents.has(r.id));
  const kept: ComponentRow[] = [];
  if (opts.prune) {
    const projects = new Set<number>();
    for (const c of removedComponents) {
      if (s.hasEdits.get(c.id, c.id)) kept.push(c);
      else {
        s.deleteComponent.run(c.id);
        projects.add(c.project_id);
      }
    }
    // strings of the project flagged inconsistent with a deleted component's translations only
    for (const p of projects) settleInconsistent(db, refreshInconsistentOfProject(db, p));
    for (const p of removedProjects) if (s.projectUsed.get(p.id) === undefined) s.deleteProject.run(p.id);
    if (projects.size > 0) pruneMemorySources(db);
  }
  return { removedProjects, removedComponents, keptComponents: kept };
}

export function findProjectBySlug(db: Db, slug: string): ProjectRow | undefined {
  return sql(db).projectBySlug.get(slug) as ProjectRow | undefined;
}

export function findComponent(db: Db, projectSlug: string, componentSlug: string): ComponentRow | undefined {
  return sql(db).component.get(projectSlug, componentSlug) as ComponentRow | undefined;
}

export function listComponents(db: Db, projectId?: number): ComponentRow[] {
  const s = sql(db);
  return (projectId === undefined ? s.allComponents.all() : s.componentsOf.all(projectId)) as ComponentRow[];
}

/** The commit of the working copy the store was last synced from (or moved to by a commit). */
export function syncedCommitOf(db: Db, componentId: number): string | null {
  return (sql(db).syncedCommit.get(componentId) as string | null | undefined) ?? null;
}

export function setSyncedCommit(db: Db, componentId: number, commit: string | null): void {
  sql(db).setSyncedCommit.run(commit, componentId);
}

/** Whether the component is locked (Weblate's component lock: no edits, added strings or uploads). */
export function isComponentLocked(db: Db, componentId: number): boolean {
  return sql(db).locked.get(componentId) === 1;
}

/**
 * Locks or unlocks a component and records 14/15 (`details.auto` false) (call inside a transaction). Nothing is
 * recorded when the component already was so. Returns whether anything changed; undefined for an unknown component.
 */
export function setComponentLocked(db: Db, componentId: number, locked: boolean, userId: number | null, timestamp: string): boolean | undefined {
  const s = sql(db);
  const row = s.componentById.get(componentId) as ComponentRow | undefined;
  if (!row) return undefined;
  if ((row.locked === 1) === locked) return false;
  s.setLocked.run(locked ? 1 : 0, componentId);
  recordChangeRow(db, { action: locked ? Action.LOCK : Action.UNLOCK, timestamp, projectId: row.project_id, componentId, userId, details: { auto: false } });
  return true;
}
