// The Change record, as Weblate's ChangeSerializer (the spec's fields: no `old`, no `details`).
import { actionName } from '../../domain/actions.js';
import type { ChangeRecordRow } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import { seg } from '../urls.js';
import { type Ctx, componentPath, iso } from './common.js';
import { pathOf } from './translation.js';

/** `/api/changes/<id>/` */
export const changeSerializer = new Serializer<ChangeRecordRow, Ctx>('Change', [
  { name: 'unit', type: t.nullable(t.url), get: (c, ctx) => (c.unit_id === null ? null : ctx.urls.api(`units/${c.unit_id}/`)) },
  {
    name: 'component',
    type: t.nullable(t.url),
    get: (c, ctx) => {
      const component = c.component_id === null ? undefined : ctx.catalog.componentsById.get(c.component_id);
      return component ? ctx.urls.api(`components/${componentPath(ctx.catalog, component)}`) : null;
    },
  },
  {
    name: 'translation',
    type: t.nullable(t.url),
    get: (c, ctx) => {
      const translation = c.translation_id === null ? undefined : ctx.catalog.translationsById.get(c.translation_id);
      return translation ? ctx.urls.api(`translations/${pathOf(translation, ctx)}`) : null;
    },
  },
  { name: 'user', type: t.nullable(t.url), get: (c, ctx) => (c.user === null ? null : ctx.urls.api(`users/${seg(c.user)}/`)) },
  { name: 'author', type: t.nullable(t.url), get: (c, ctx) => (c.author === null ? null : ctx.urls.api(`users/${seg(c.author)}/`)) },
  { name: 'timestamp', type: t.timestamp, get: (c) => iso(c.timestamp) },
  { name: 'action', type: t.integer, get: (c) => c.action },
  { name: 'target', type: t.string, get: (c) => c.target },
  { name: 'id', type: t.integer, get: (c) => c.id },
  { name: 'action_name', type: t.string, get: (c) => actionName(c.action) },
  { name: 'url', type: t.url, get: (c, ctx) => ctx.urls.api(`changes/${c.id}/`) },
]);
