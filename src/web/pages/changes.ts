// The change history as pages show it: the /changes/ page with its filters, and the recent-changes lists of other pages.

import { queryValue } from '../../api/context.js';
import { notFound } from '../../api/errors.js';
import { actionName } from '../../domain/actions.js';
import { changeRecords } from '../../store/change-records.repo.js';
import type { ChangeFilter, ChangeRecordRow } from '../../store/index.js';
import type { WebAnswer, WebContext } from '../context.js';
import { paths, pluralText, when } from '../format.js';
import { type Html, html } from '../html.js';
import { page } from './layout.js';

/** The newest changes the caller may see within a scope. */
export function recentChanges(ctx: WebContext, scope: Omit<ChangeFilter, 'visibleProjects' | 'hiddenComponents'>, limit: number): Promise<ChangeRecordRow[]> {
  return ctx.services.store.read((tx) =>
    changeRecords(tx, { ...scope, visibleProjects: ctx.access.projectIds(), hiddenComponents: ctx.access.hiddenComponentIds() }, { limit, offset: 0 }),
  );
}

/**
 * A table of changes: when, who, what, where (left out where every change is of one string: `where: false`); a
 * narrow pane gets a list instead (`list: true`), whose texts keep their whole width and break between words.
 */
export function changeList(ctx: WebContext, changes: ChangeRecordRow[], opts: { where?: boolean; list?: boolean } = {}): Html {
  if (changes.length === 0) return html`<p>No changes yet.</p>`;
  if (opts.list) {
    return html`<ol class="history">
      ${changes.map(
        (c) => html`<li data-action=${c.action}>
          <span class="what">${actionName(c.action)}</span> <small>${c.user ?? 'tms'}, <time datetime=${c.timestamp}>${when(c.timestamp)}</time></small>
          ${c.target && html`<p class="text">${pluralText(c.target)}</p>`}
        </li>`,
      )}
    </ol>`;
  }
  const withWhere = opts.where !== false;
  return html`<table class="changes">
    <thead><tr><th scope="col">When</th><th scope="col">User</th><th scope="col">Action</th>${withWhere && html`<th scope="col">Where</th>`}<th scope="col">Text</th></tr></thead>
    <tbody>
      ${changes.map((c) => {
        const translation = c.translation_id === null ? undefined : ctx.catalog.translationsById.get(c.translation_id);
        const component = c.component_id === null ? undefined : ctx.catalog.componentsById.get(c.component_id);
        const where = translation
          ? html`<a href=${paths.translation(ctx.catalog, translation)}>${component?.name} — ${ctx.catalog.languages.get(translation.languageId)?.name}</a>`
          : component
            ? html`<a href=${paths.component(ctx.catalog, component)}>${component.name}</a>`
            : '';
        return html`<tr data-action=${c.action}>
          <td data-label="When"><time datetime=${c.timestamp}>${when(c.timestamp)}</time></td>
          <td data-label="User">${c.user ?? 'tms'}</td>
          <td data-label="Action">${actionName(c.action)}</td>
          ${withWhere && html`<td data-label="Where">${where}</td>`}
          <td class="text">${pluralText(c.target)}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

const PAGE = 50;

/** `/changes/?project=&component=&lang=&user=&page=`: the change history, filtered. */
export async function changesPage(ctx: WebContext): Promise<WebAnswer> {
  const filter: Omit<ChangeFilter, 'visibleProjects' | 'hiddenComponents'> = {};
  const projectSlug = queryValue(ctx, 'project') || undefined;
  const componentSlug = queryValue(ctx, 'component') || undefined;
  const lang = queryValue(ctx, 'lang') || undefined;
  const user = queryValue(ctx, 'user') || undefined;
  if (projectSlug) {
    const project = ctx.catalog.projectsBySlug.get(projectSlug);
    if (!project || !ctx.access.project(project)) throw notFound();
    filter.projectId = project.id;
    if (componentSlug) {
      const component = ctx.catalog.componentsByPath.get(`${projectSlug}/${componentSlug}`);
      if (!component || !ctx.access.component(component)) throw notFound();
      filter.componentId = component.id;
    }
  }
  if (lang) {
    const language = ctx.catalog.languagesByCode.get(lang);
    if (!language) throw notFound();
    filter.languageId = language.id;
  }
  if (user) filter.user = user;
  const pageNumber = Math.max(1, Math.min(10_000, Number.parseInt(queryValue(ctx, 'page') ?? '1', 10) || 1));
  const changes = await ctx.services.store.read((tx) =>
    changeRecords(
      tx,
      { ...filter, visibleProjects: ctx.access.projectIds(), hiddenComponents: ctx.access.hiddenComponentIds() },
      { limit: PAGE + 1, offset: (pageNumber - 1) * PAGE },
    ),
  );
  const more = changes.length > PAGE;
  const keep = (extra: Record<string, string>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ project: projectSlug, component: componentSlug, lang, user, ...extra })) if (v) q.set(k, v);
    return `/changes/?${q}`;
  };
  const body = html`<h1>Changes</h1>
    <form method="get" action="/changes/" class="filters-form">
      <label for="f-project">Project</label>
      <input id="f-project" name="project" value=${projectSlug ?? ''} />
      <label for="f-component">Component</label>
      <input id="f-component" name="component" value=${componentSlug ?? ''} />
      <label for="f-lang">Language code</label>
      <input id="f-lang" name="lang" value=${lang ?? ''} />
      <label for="f-user">User</label>
      <input id="f-user" name="user" value=${user ?? ''} />
      <button type="submit">Filter</button>
    </form>
    ${changeList(ctx, changes.slice(0, PAGE))}
    <nav aria-label="Pages" class="pager">
      ${pageNumber > 1 && html`<a href=${keep({ page: String(pageNumber - 1) })} rel="prev">Newer</a>`}
      ${more && html`<a href=${keep({ page: String(pageNumber + 1) })} rel="next">Older</a>`}
    </nav>`;
  return { html: page(ctx, { title: 'Changes', crumbs: [{ label: 'Changes' }], body }) };
}
