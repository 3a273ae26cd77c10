// The memory entry record (`/api/memory/<id>/`) and the component list record (`/api/component-lists/<slug>/`), as Weblate's serializers.
import type { ComponentListRow, MemoryRow } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import { type Ctx, componentPath } from './common.js';

/** `/api/memory/<id>/`: languages and project by id, as Weblate's MemorySerializer (a model serializer without links). */
export const memorySerializer = new Serializer<MemoryRow, Ctx>('Memory', [
  { name: 'id', type: t.integer, get: (m) => m.id },
  { name: 'source', type: t.string, get: (m) => m.source },
  { name: 'target', type: t.string, get: (m) => m.target },
  { name: 'source_language', type: t.integer, get: (m) => m.source_language_id },
  { name: 'target_language', type: t.integer, get: (m) => m.target_language_id },
  { name: 'origin', type: t.string, get: (m) => m.origin },
  { name: 'project', type: t.nullable(t.integer), get: (m) => m.project_id },
  { name: 'from_file', type: t.boolean, get: (m) => m.from_file === 1 },
  { name: 'shared', type: t.boolean, get: (m) => m.shared === 1 },
]);

/** `/api/component-lists/<slug>/`: the visible components as links, the automatic assignment rules. */
export const componentListSerializer = new Serializer<ComponentListRow, Ctx>('ComponentList', [
  { name: 'name', type: t.string, get: (l) => l.name },
  { name: 'slug', type: t.string, get: (l) => l.slug },
  { name: 'id', type: t.integer, get: (l) => l.id },
  { name: 'show_dashboard', type: t.boolean, get: (l) => l.show_dashboard === 1 },
  {
    name: 'components',
    type: t.array(t.url),
    get: (l, ctx) =>
      l.components.flatMap((id) => {
        const c = ctx.catalog.componentsById.get(id);
        return c && ctx.access.component(c) ? [ctx.urls.api(`components/${componentPath(ctx.catalog, c)}`)] : [];
      }),
  },
  { name: 'auto_assign', type: t.array(t.object), get: (l) => l.auto_assign },
  { name: 'url', type: t.url, get: (l, ctx) => ctx.urls.api(`component-lists/${encodeURIComponent(l.slug)}/`) },
]);
