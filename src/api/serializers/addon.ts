// The add-on record: `/api/addons/<id>/`.
import type { CatalogAddon } from '../../store/index.js';
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
