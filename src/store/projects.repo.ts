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

/**
 * Creates or updates the configured projects and components (by slug); ids stay stable.
 * Objects no longer configured are left in place and returned, so the caller decides.
 */
export function applyConfig(db: Db, config: Config): { removedProjects: ProjectRow[]; removedComponents: ComponentRow[] } {
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
  return db.transaction(() => {
    const keptProjects = new Set<number>();
    const keptComponents = new Set<number>();
    for (const p of config.projects) {
      upsertProject.run(p.slug, p.name, JSON.stringify(projectSettings(p)), now());
      const pid = projectId.get(p.slug) as number;
      keptProjects.add(pid);
      for (const c of p.components) {
        upsertComponent.run(pid, c.slug, c.name, JSON.stringify(componentSettings(c)), now());
        keptComponents.add(findComponent(db, p.slug, c.slug)!.id);
      }
    }
    const removedProjects = (db.prepare('SELECT * FROM projects').all() as ProjectRow[]).filter((r) => !keptProjects.has(r.id));
    const removedComponents = (db.prepare('SELECT * FROM components').all() as ComponentRow[]).filter((r) => !keptComponents.has(r.id));
    return { removedProjects, removedComponents };
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
