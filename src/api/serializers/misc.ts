// Small records: add-ons, repository status, component lock, the API root.
import type { CatalogAddon, CatalogComponent } from '../../store/catalog.query.js';
import { Serializer, t } from '../serializer.js';
import { type Ctx, componentPath, projectPath } from './common.js';

/** `/api/addons/<id>/` */
export const addonSerializer = new Serializer<CatalogAddon, Ctx>('Addon', [
  {
    name: 'component',
    type: t.nullable(t.url),
    get: (a, ctx) => {
      const component = a.componentId === null ? undefined : ctx.catalog.componentsById.get(a.componentId);
      return component ? ctx.urls.api(`components/${componentPath(ctx.catalog, component)}`) : null;
    },
  },
  {
    name: 'project',
    type: t.nullable(t.url),
    get: (a, ctx) => {
      const project = a.projectId === null ? undefined : ctx.catalog.projectsById.get(a.projectId);
      return project ? ctx.urls.api(`projects/${projectPath(project)}`) : null;
    },
  },
  { name: 'name', type: t.string, get: (a) => a.name },
  { name: 'id', type: t.integer, get: (a) => a.id },
  { name: 'configuration', type: t.object, get: (a) => a.configuration },
  { name: 'url', type: t.url, get: (a, ctx) => ctx.urls.api(`addons/${a.id}/`) },
]);

/** Repository status as the store knows it. */
export interface RepositoryRow {
  url: string;
  needsCommit: boolean;
  needsMerge: boolean;
  needsPush: boolean;
  remoteCommit: Record<string, unknown> | null;
  weblateCommit: Record<string, unknown> | null;
  status: string;
  mergeFailure: string | null;
}

/** `/api/projects/<p>/repository/` */
export const projectRepositorySerializer = new Serializer<RepositoryRow, Ctx>('ProjectRepository', [
  { name: 'needs_commit', type: t.boolean, get: (r) => r.needsCommit },
  { name: 'needs_merge', type: t.boolean, get: (r) => r.needsMerge },
  { name: 'needs_push', type: t.boolean, get: (r) => r.needsPush },
  { name: 'url', type: t.url, get: (r) => r.url },
]);

/** `/api/components/<p>/<c>/repository/` and the translation's. */
export const repositorySerializer = new Serializer<RepositoryRow, Ctx>('Repository', [
  ...projectRepositorySerializer.fields,
  { name: 'remote_commit', type: t.nullable(t.object), get: (r) => r.remoteCommit },
  { name: 'weblate_commit', type: t.nullable(t.object), get: (r) => r.weblateCommit },
  { name: 'status', type: t.string, get: (r) => r.status },
  { name: 'merge_failure', type: t.nullable(t.string), get: (r) => r.mergeFailure },
]);

/** `/api/components/<p>/<c>/lock/` */
export const lockSerializer = new Serializer<CatalogComponent, Ctx>('Lock', [{ name: 'locked', type: t.boolean, get: (c) => c.locked }]);

/** Categories: tms has none, so the lists are always empty; the record is Weblate's, for the schema. */
export const categorySerializer = new Serializer<unknown, Ctx>('Category', [
  { name: 'id', type: t.integer, get: () => 0 },
  { name: 'name', type: t.string, get: () => '' },
  { name: 'slug', type: t.string, get: () => '' },
  { name: 'project', type: t.url, get: () => '' },
  { name: 'category', type: t.nullable(t.url), get: () => null },
  { name: 'url', type: t.url, get: () => '' },
  { name: 'statistics_url', type: t.url, get: () => '' },
]);

/** Labels: tms has none yet; the record is Weblate's, for the schema. */
export const labelSerializer = new Serializer<unknown, Ctx>('Label', [
  { name: 'id', type: t.integer, get: () => 0 },
  { name: 'name', type: t.string, get: () => '' },
  { name: 'description', type: t.string, get: () => '' },
  { name: 'color', type: t.string, get: () => '' },
]);
