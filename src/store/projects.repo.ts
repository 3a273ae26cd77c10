// Projects and components in the store, kept in step with the configuration file.
import type { ComponentConfig, Config, ProjectConfig } from '../config/config.js';
import { redactUrl } from '../domain/url.js';
import { type Db, now } from './db.js';

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

/**
 * Creates or updates the configured projects and components (by slug); ids stay stable. With `prune`, components
 * no longer configured are deleted with their translations, units and history — except those holding edits not
 * committed yet, which are kept (and reported) so no user's edit is lost — and projects left empty go too.
 */
export function applyConfig(db: Db, config: Config, opts: { prune?: boolean } = {}): ApplyConfigResult {
  const upsertProject = db.prepare(
    `INSERT INTO projects (slug, name, settings, created) VALUES (?, ?, ?, ?)
     ON CONFLICT (slug) DO UPDATE SET name = excluded.name, settings = excluded.settings
     WHERE name IS NOT excluded.name OR settings IS NOT excluded.settings`,
  );
  const upsertComponent = db.prepare(
    `INSERT INTO components (project_id, slug, name, settings, created) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id, slug) DO UPDATE SET name = excluded.name, settings = excluded.settings
     WHERE name IS NOT excluded.name OR settings IS NOT excluded.settings`,
  );
  const projectId = db.prepare('SELECT id FROM projects WHERE slug = ?').pluck();
  // Changed settings (mask, format, template, language rules, aliases …) can change what the files mean:
  // the next sync of such a component reads every file again instead of trusting blob ids.
  const rescanComponent = db.prepare('UPDATE components SET synced_commit = NULL WHERE id = ?');
  const rescanTranslations = db.prepare("UPDATE translations SET revision = '' WHERE component_id = ?");
  const rescan = (componentId: number) => {
    rescanComponent.run(componentId);
    rescanTranslations.run(componentId);
  };
  return db.transaction(() => {
    const keptProjects = new Set<number>();
    const keptComponents = new Set<number>();
    for (const p of config.projects) {
      const projectBefore = findProjectBySlug(db, p.slug);
      const projectJson = JSON.stringify(projectSettings(p));
      upsertProject.run(p.slug, p.name, projectJson, now());
      const pid = projectId.get(p.slug) as number;
      keptProjects.add(pid);
      const projectChanged = projectBefore !== undefined && projectBefore.settings !== projectJson;
      for (const c of p.components) {
        const before = findComponent(db, p.slug, c.slug);
        const json = JSON.stringify(componentSettings(c));
        upsertComponent.run(pid, c.slug, c.name, json, now());
        const id = before?.id ?? findComponent(db, p.slug, c.slug)!.id;
        if (before && (projectChanged || before.settings !== json)) rescan(id);
        keptComponents.add(id);
      }
    }
    const removedProjects = (db.prepare('SELECT * FROM projects').all() as ProjectRow[]).filter((r) => !keptProjects.has(r.id));
    const removedComponents = (db.prepare('SELECT * FROM components').all() as ComponentRow[]).filter((r) => !keptComponents.has(r.id));
    const kept: ComponentRow[] = [];
    if (opts.prune) {
      const hasEdits = db.prepare(
        `SELECT EXISTS (SELECT 1 FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.component_id = ? AND u.pending = 1)
             OR EXISTS (SELECT 1 FROM pending_removals r JOIN translations t ON t.id = r.translation_id WHERE t.component_id = ?)`,
      ).pluck();
      for (const c of removedComponents) {
        if (hasEdits.get(c.id, c.id)) kept.push(c);
        else db.prepare('DELETE FROM components WHERE id = ?').run(c.id);
      }
      const stillUsed = db.prepare('SELECT 1 FROM components WHERE project_id = ? LIMIT 1').pluck();
      for (const p of removedProjects) if (stillUsed.get(p.id) === undefined) db.prepare('DELETE FROM projects WHERE id = ?').run(p.id);
    }
    return { removedProjects, removedComponents, keptComponents: kept };
  })();
}

export function findProjectBySlug(db: Db, slug: string): ProjectRow | undefined {
  return db.prepare('SELECT * FROM projects WHERE slug = ?').get(slug) as ProjectRow | undefined;
}

export function findComponent(db: Db, projectSlug: string, componentSlug: string): ComponentRow | undefined {
  return db
    .prepare('SELECT c.* FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = ? AND c.slug = ?')
    .get(projectSlug, componentSlug) as ComponentRow | undefined;
}

export function listComponents(db: Db, projectId?: number): ComponentRow[] {
  return projectId === undefined
    ? (db.prepare('SELECT * FROM components ORDER BY id').all() as ComponentRow[])
    : (db.prepare('SELECT * FROM components WHERE project_id = ? ORDER BY id').all(projectId) as ComponentRow[]);
}
