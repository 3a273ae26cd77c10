// Search and replace (/replace/<p>/<c>/<lang>/, Weblate's address): a text or RE2 pattern replaced in the translations a search selects, every change previewed before it is applied.
import { queryValue } from '../../api/context.js';
import { projectOfComponent, translationOf } from '../../api/lookup.js';
import { refusal, requirePermission, targetOf } from '../../api/write.js';
import { type BulkTarget, type ReplaceSpec, planReplace, replaceInTranslation } from '../../operations/index.js';
import type { Translation } from '../../store/index.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue } from '../context.js';
import { num, paths, pluralText, strings } from '../format.js';
import { html } from '../html.js';
import { filterOf } from './editor.js';
import { page } from './layout.js';

/** Changes the preview lists at most (the count says how many there are). */
const PREVIEW_ROWS = 1000;

function scopeOf(ctx: WebContext, translation: Translation) {
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  const target = targetOf(ctx, project, component, translation);
  requirePermission(ctx, 'unit.edit', target);
  const to: BulkTarget = { projectId: project.id, componentId: component.id, translationId: translation.id, languageId: translation.languageId };
  return { component, project, to, rights: { review: refusal(ctx, 'unit.review', target) === null } };
}

function specOf(read: (name: string) => string | undefined): ReplaceSpec & { q: string } {
  const q = read('q') ?? '';
  return { q, search: read('search') ?? '', replacement: read('replacement') ?? '', regex: read('regex') === '1', filter: filterOf(q) };
}

/** `GET /replace/<p>/<c>/<lang>/?q=&search=&replacement=&regex=1`: the form, and with a search the preview of every change. */
export async function replacePage(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const { component, project, to, rights } = scopeOf(ctx, translation);
  const language = ctx.catalog.languages.get(translation.languageId)!;
  const spec = specOf((name) => queryValue(ctx, name));
  const preview = spec.search === '' ? null : await planReplace(ctx.services.store, to, spec, rights);
  const done = queryValue(ctx, 'changed');
  const action = paths.replace(ctx.catalog, translation);
  const dir = language.direction === 'rtl' ? 'rtl' : 'ltr';
  const body = html`<h1>Search and replace — ${component.name} — ${language.name}</h1>
    ${done !== undefined && html`<p class="notice" role="status" data-changed=${done}>${strings(Number(done))} changed.</p>`}
    <form method="get" action=${action} class="replace-form">
      <div class="field"><label for="search">Search for</label><input id="search" name="search" value=${spec.search} required /></div>
      <div class="field"><label for="replacement">Replace with</label><input id="replacement" name="replacement" value=${spec.replacement} /></div>
      <div class="field check"><input type="checkbox" id="regex" name="regex" value="1" checked=${spec.regex} /><label for="regex">Regular expression (RE2; $1 in the replacement names a group)</label></div>
      <div class="field"><label for="q">In the strings of this search (empty: every string)</label><input id="q" name="q" type="search" value=${spec.q} /></div>
      <button type="submit">Preview</button>
    </form>
    ${
      preview &&
      html`<section aria-labelledby="preview-h">
        <h2 id="preview-h">Preview</h2>
        <p data-planned=${preview.planned.length}>${strings(preview.planned.length)} to change${preview.skipped > 0 ? `; left as they are (read-only, or approved: only reviewers change them): ${strings(preview.skipped)}` : ''}.</p>
        ${
          preview.planned.length > 0 &&
          html`<table class="changes replace-preview">
            <thead><tr><th scope="col">Source</th><th scope="col">Now</th><th scope="col">After</th></tr></thead>
            <tbody>
              ${preview.planned.slice(0, PREVIEW_ROWS).map(
                (p) => html`<tr data-unit=${p.unit.id}>
                  <td data-label="Source">${pluralText(p.unit.source)}</td>
                  <td data-label="Now" lang=${language.code} dir=${dir}>${pluralText(p.unit.target)}</td>
                  <td class="text" data-label="After" lang=${language.code} dir=${dir}>${pluralText(p.target)}</td>
                </tr>`,
              )}
            </tbody>
          </table>
          ${preview.planned.length > PREVIEW_ROWS && html`<p class="hint">The first ${num(PREVIEW_ROWS)} of ${num(preview.planned.length)} changes are shown.</p>`}
          <form method="post" action=${action} class="replace-apply">
            <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
            <input type="hidden" name="q" value=${spec.q} />
            <input type="hidden" name="search" value=${spec.search} />
            <input type="hidden" name="replacement" value=${spec.replacement} />
            ${spec.regex && html`<input type="hidden" name="regex" value="1" />`}
            <button type="submit" class="primary">Replace in ${strings(preview.planned.length)}</button>
          </form>`
        }
      </section>`
    }
    <p><a href=${paths.translation(ctx.catalog, translation)}>Back to ${language.name}</a></p>`;
  const crumbs = [
    { label: project.name, href: paths.project(project) },
    { label: component.name, href: paths.component(ctx.catalog, component) },
    { label: language.name, href: paths.translation(ctx.catalog, translation) },
    { label: 'Search and replace' },
  ];
  return { html: page(ctx, { title: `Search and replace — ${component.name} — ${language.name}`, crumbs, body }) };
}

/** `POST /replace/<p>/<c>/<lang>/`: applies the replacement (as previewed) in one transaction. */
export async function replaceStrings(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const { to, rights } = scopeOf(ctx, translation);
  const spec = specOf((name) => formValue(ctx, name));
  const result = await replaceInTranslation(ctx.services.store, to, spec, { id: ctx.user.id }, rights);
  return { redirect: `${paths.replace(ctx.catalog, translation)}?changed=${result.changed}` };
}
