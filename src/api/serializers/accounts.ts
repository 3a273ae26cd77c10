// User, Group (team) and Role records, as Weblate's basic user, group and role serializers.
import type { AccountRow, GroupRecordRow, RoleRecordRow } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import { seg } from '../urls.js';
import type { Ctx } from './common.js';

/** `/api/users/<username>/` (the basic record: no e-mail, no permissions). */
export const userSerializer = new Serializer<AccountRow, Ctx>('User', [
  { name: 'id', type: t.integer, get: (u) => u.id },
  { name: 'full_name', type: t.string, get: (u) => u.full_name },
  { name: 'username', type: t.string, get: (u) => u.username },
]);

/** `/api/groups/<id>/` */
export const groupSerializer = new Serializer<GroupRecordRow, Ctx>('Group', [
  { name: 'id', type: t.integer, get: (g) => g.id },
  { name: 'name', type: t.string, get: (g) => g.name },
  {
    name: 'defining_project',
    type: t.nullable(t.url),
    get: (g, ctx) => (g.defining_project === null ? null : ctx.urls.api(`projects/${seg(g.defining_project)}/`)),
  },
  { name: 'project_selection', type: t.integer, get: (g) => g.project_selection },
  { name: 'language_selection', type: t.integer, get: (g) => g.language_selection },
  { name: 'url', type: t.url, get: (g, ctx) => ctx.urls.api(`groups/${g.id}/`) },
  { name: 'roles', type: t.array(t.url), get: (g, ctx) => g.roles.map((id) => ctx.urls.api(`roles/${id}/`)) },
  { name: 'languages', type: t.array(t.url), get: (g, ctx) => g.languages.map((code) => ctx.urls.api(`languages/${seg(code)}/`)) },
  { name: 'projects', type: t.array(t.url), get: (g, ctx) => g.projects.map((slug) => ctx.urls.api(`projects/${seg(slug)}/`)) },
  // tms has no component lists.
  { name: 'componentlists', type: t.array(t.url), get: () => [] },
  {
    name: 'components',
    type: t.array(t.url),
    get: (g, ctx) => g.components.map((c) => ctx.urls.api(`components/${seg(c.project)}/${seg(c.component)}/`)),
  },
]);

/** `/api/roles/<id>/` */
export const roleSerializer = new Serializer<RoleRecordRow, Ctx>('Role', [
  { name: 'id', type: t.integer, get: (r) => r.id },
  { name: 'name', type: t.string, get: (r) => r.name },
  { name: 'permissions', type: t.array(t.string), get: (r) => r.permissions },
  { name: 'url', type: t.url, get: (r, ctx) => ctx.urls.api(`roles/${r.id}/`) },
]);
