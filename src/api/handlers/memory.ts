// Handlers for the translation memory (`/api/memory/`), component lists (`/api/component-lists/`), the site search
// (`/api/search/`) and the metrics (`/api/metrics/`), as Weblate's views answer them.

import { accounts } from '../../store/accounts.repo.js';
import * as lists from '../../store/component-lists.repo.js';
import * as memory from '../../store/memory.repo.js';
import { metrics } from '../../store/metrics.repo.js';
import { type Answer, json } from '../answer.js';
import { booleanField, field, stringField } from '../body.js';
import { type RequestContext, queryValue } from '../context.js';
import { notAuthenticated, notFound, permissionDenied, validationError } from '../errors.js';
import { toJson } from '../json.js';
import { idOf } from '../lookup.js';
import { paginate, paginateArray } from '../pagination.js';
import { componentSerializer } from '../serializers/component.js';
import { componentListSerializer, memorySerializer } from '../serializers/memory.js';
import { type WriteContext, requirePermission } from '../write.js';

/** `GET /api/memory/`: every entry by id, for superusers only ("Access not allowed" otherwise, 401 when anonymous). */
export async function listMemory(ctx: RequestContext): Promise<Answer> {
  if (ctx.user.is_anonymous) throw notAuthenticated();
  if (!ctx.access.principal.superuser) throw permissionDenied('Access not allowed');
  const { store } = ctx.services;
  return json(
    await paginate(
      ctx,
      'standard',
      await store.read((tx) => memory.countMemory(tx)),
      (slice) => store.read((tx) => memory.listMemory(tx, slice)),
      (m) => memorySerializer.write(m, ctx),
    ),
  );
}

async function memoryOf(ctx: RequestContext) {
  if (ctx.user.is_anonymous) throw notAuthenticated();
  if (!ctx.access.principal.superuser) throw permissionDenied('Access not allowed');
  const entry = await ctx.services.store.read((tx) => memory.findMemory(tx, idOf(ctx)));
  if (!entry) throw notFound();
  return entry;
}

export async function getMemory(ctx: RequestContext): Promise<Answer> {
  return json(memorySerializer.write(await memoryOf(ctx), ctx));
}

/**
 * `DELETE /api/memory/<id>/`: `memory.delete` on the entry, as Weblate checks it: the owner of a personal entry, the
 * permission on the entry's project, or the site-wide `memory.manage`; 204.
 */
export async function deleteMemory(ctx: WriteContext): Promise<Answer> {
  const entry = await memoryOf(ctx);
  const project = entry.project_id === null ? undefined : ctx.catalog.projectsById.get(entry.project_id);
  const own = entry.user_id !== null && entry.user_id === ctx.user.id;
  const allowed = own || (project ? ctx.access.can('memory.delete', { project }) : ctx.access.can('memory.manage'));
  if (!allowed) throw permissionDenied('Can not delete memory entry');
  await ctx.services.store.write((tx) => memory.deleteMemory(tx, entry.id));
  return { status: 204, bytes: new Uint8Array(), contentType: '' };
}

/** Component lists with a visible component, or none at all (Weblate's filter), by id. */
async function visibleLists(ctx: RequestContext) {
  return (await ctx.services.store.read((tx) => lists.componentLists(tx))).filter(
    (l) =>
      l.components.length === 0 ||
      l.components.some((id) => {
        const c = ctx.catalog.componentsById.get(id);
        return c !== undefined && ctx.access.component(c);
      }),
  );
}

export async function listComponentLists(ctx: RequestContext): Promise<Answer> {
  return json(paginateArray(ctx, 'standard', await visibleLists(ctx), (l) => componentListSerializer.write(l, ctx)));
}

async function componentListOf(ctx: RequestContext) {
  const slug = ctx.params.slug ?? '';
  const list = (await visibleLists(ctx)).find((l) => l.slug === slug);
  if (!list) throw notFound();
  return list;
}

export async function getComponentList(ctx: RequestContext): Promise<Answer> {
  return json(componentListSerializer.write(await componentListOf(ctx), ctx));
}

function requireListEdit(ctx: RequestContext): void {
  if (!ctx.access.can('componentlist.edit')) throw permissionDenied('Can not manage component lists');
}

/** `POST /api/component-lists/`: `name`, `slug`, `show_dashboard`; 201 with the record (componentlist.edit). */
export async function createComponentList(ctx: WriteContext): Promise<Answer> {
  requireListEdit(ctx);
  const name = stringField(ctx.body, 'name')?.trim() ?? '';
  const slug = stringField(ctx.body, 'slug')?.trim() ?? '';
  const errors: string[] = [];
  if (name === '') errors.push('name');
  if (slug === '') errors.push('slug');
  if (errors.length > 0) throw validationError(errors[0]!, 'This field is required.', 'required');
  if (!/^[-a-zA-Z0-9_]+$/.test(slug) || slug.length > 100)
    throw validationError('slug', 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.');
  if (name.length > 100) throw validationError('name', 'Ensure this field has no more than 100 characters.', 'max_length');
  const created = await ctx.services.store.write((tx) =>
    lists.createComponentList(tx, { name, slug, showDashboard: booleanField(ctx.body, 'show_dashboard') ?? true }),
  );
  if (!created) throw validationError('slug', 'Component list with this name or slug already exists.', 'unique');
  const fresh = await ctx.reload();
  const url = fresh.urls.api(`component-lists/${encodeURIComponent(slug)}/`);
  return { status: 201, json: componentListSerializer.write(created, fresh), headers: { Location: url } };
}

export async function deleteComponentList(ctx: WriteContext): Promise<Answer> {
  const list = await componentListOf(ctx);
  requireListEdit(ctx);
  await ctx.services.store.write((tx) => lists.deleteComponentList(tx, list.slug));
  return { status: 204, bytes: new Uint8Array(), contentType: '' };
}

/** `GET /api/component-lists/<slug>/components/`: its visible components by id, paginated. */
export async function listComponentListComponents(ctx: RequestContext): Promise<Answer> {
  const list = await componentListOf(ctx);
  const components = list.components.flatMap((id) => {
    const c = ctx.catalog.componentsById.get(id);
    return c && ctx.access.component(c) ? [c] : [];
  });
  return json(paginateArray(ctx, 'standard', components, (c) => componentSerializer.write(c, ctx)));
}

/** `POST /api/component-lists/<slug>/components/` with `component_id`: adds a visible component; the list record. */
export async function addComponentListComponent(ctx: WriteContext): Promise<Answer> {
  const list = await componentListOf(ctx);
  requireListEdit(ctx);
  const raw = field(ctx.body, 'component_id');
  if (raw === undefined) throw validationError('component_id', 'This field is required.', 'required');
  const id = typeof raw === 'number' ? raw : /^\d{1,15}$/.test(String(raw)) ? Number(raw) : Number.NaN;
  const component = Number.isInteger(id) ? ctx.catalog.componentsById.get(id) : undefined;
  if (!component || !ctx.access.component(component)) throw validationError('component_id', 'Component matching query does not exist.');
  await ctx.services.store.write((tx) => lists.setComponentListMember(tx, list.id, component.id, true));
  const fresh = await ctx.reload();
  const updated = await fresh.services.store.read((tx) => lists.findComponentList(tx, list.slug));
  return json(componentListSerializer.write(updated!, fresh));
}

/** `DELETE /api/component-lists/<slug>/components/<component_slug>/`: 204; 404 when the list does not hold it. */
export async function removeComponentListComponent(ctx: WriteContext): Promise<Answer> {
  const list = await componentListOf(ctx);
  requireListEdit(ctx);
  const component = list.components.map((id) => ctx.catalog.componentsById.get(id)).find((c) => c?.slug === ctx.params.component);
  if (!component) throw notFound();
  await ctx.services.store.write((tx) => lists.setComponentListMember(tx, list.id, component.id, false));
  return { status: 204, bytes: new Uint8Array(), contentType: '' };
}

/**
 * `GET /api/search/?q=`: Weblate's site search, a plain list of `{url, name, category}`: at most five projects,
 * components, users and languages whose name (or slug, code, username) contains the text, each kind by name.
 */
export async function siteSearch(ctx: RequestContext): Promise<Answer> {
  const q = (queryValue(ctx, 'q') ?? '').toLowerCase();
  const out: { url: string; name: string; category: string }[] = [];
  if (q !== '' && !q.includes('\u0000')) {
    const has = (...values: string[]) => values.some((v) => v.toLowerCase().includes(q));
    const byName = <T extends { name: string }>(items: T[]) => items.sort((a, b) => a.name.localeCompare(b.name)).slice(0, 5);
    const projects = byName(ctx.catalog.projects.filter((p) => ctx.access.project(p) && has(p.name, p.slug)));
    for (const p of projects) out.push({ url: `/projects/${encodeURIComponent(p.slug)}/`, name: p.name, category: 'Project' });
    const components = byName(ctx.catalog.components.filter((c) => ctx.access.component(c) && has(c.name, c.slug)));
    for (const c of components) {
      const p = ctx.catalog.projectsById.get(c.projectId)!;
      out.push({ url: `/projects/${encodeURIComponent(p.slug)}/${encodeURIComponent(c.slug)}/`, name: `${p.name}/${c.name}`, category: 'Component' });
    }
    const users = await ctx.services.store.read((tx) => accounts(tx, {}, { limit: 10000, offset: 0 }));
    for (const u of users
      .filter((u) => has(u.username, u.full_name))
      .sort((a, b) => a.username.localeCompare(b.username))
      .slice(0, 5)) {
      out.push({ url: `/user/${encodeURIComponent(u.username)}/`, name: u.username, category: 'User' });
    }
    for (const l of byName([...ctx.catalog.languages.values()].filter((l) => has(l.name, l.code)))) {
      out.push({ url: `/languages/${encodeURIComponent(l.code)}/`, name: l.name, category: 'Language' });
    }
  }
  return json(toJson(out));
}

// OpenMetrics help texts, one per gauge, in Weblate's order.
const METRIC_HELP: readonly [string, string][] = [
  ['units', 'Number of translation units.'],
  ['units_translated', 'Number of translated translation units.'],
  ['users', 'Number of users.'],
  ['changes', 'Number of recorded changes.'],
  ['projects', 'Number of projects.'],
  ['components', 'Number of components.'],
  ['translations', 'Number of translations.'],
  ['languages', 'Number of configured languages.'],
  ['checks', 'Number of triggered quality checks.'],
  ['configuration_errors', 'Number of active configuration errors.'],
  ['suggestions', 'Number of pending suggestions.'],
];

/**
 * `GET /api/metrics/` (signed-in users): Weblate's MetricsSerializer as JSON, or OpenMetrics text with
 * `?format=openmetrics` (one gauge per count). tms runs no task queues: `celery_queues` is empty.
 */
export async function serverMetrics(ctx: RequestContext): Promise<Answer> {
  if (ctx.user.is_anonymous) throw notAuthenticated();
  const m = await ctx.services.store.read((tx) => metrics(tx));
  const format = queryValue(ctx, 'format') ?? '';
  if (format === 'openmetrics') {
    const lines: string[] = [];
    for (const [name, help] of METRIC_HELP) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${m[name as keyof typeof m]}`);
    }
    lines.push('# HELP tms_info tms build information.', '# TYPE tms_info gauge', `tms_info{version="${ctx.services.version}"} 1`, '# EOF', '');
    return { bytes: new TextEncoder().encode(lines.join('\n')), contentType: 'application/openmetrics-text; version=1.0.0; charset=utf-8' };
  }
  if (format !== '' && format !== 'json' && format !== 'api') throw notFound();
  return json(toJson({ ...m, celery_queues: {}, name: ctx.services.config.site_title ?? 'tms' }));
}
