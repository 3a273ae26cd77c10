// Screenshots in the web interface (Weblate's /screenshots/<p>/<c>/ and /screenshot/<id>/): a component's list with an upload form, one screenshot with its strings and a search to link more, its image; every write through the API's handlers.

import { jsonText } from '../../api/answer.js';
import { toApiError, validationError } from '../../api/errors.js';
import * as api from '../../api/handlers/screenshots.js';
import { componentOf, idOf, projectOfComponent } from '../../api/lookup.js';
import { type WriteContext, refusal, targetOf } from '../../api/write.js';
import { hashToChecksum } from '../../domain/hash.js';
import type { Component, Project, ScreenshotRow, Translation } from '../../store/index.js';
import { componentScreenshots, findScreenshot, screenshotStrings } from '../../store/screenshots.repo.js';
import { translationUnitRecords } from '../../store/unit-records.repo.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue, refreshed } from '../context.js';
import { num, paths, pluralText, when } from '../format.js';
import { type Html, html } from '../html.js';
import { filterOf } from './editor.js';
import { page } from './layout.js';

/** Search results offered for linking at most. */
const FOUND = 20;

/** What the visitor may do with a component's screenshots. */
function abilities(ctx: WebContext, project: Project, component: Component, translation?: Translation) {
  const target = targetOf(ctx, project, component, translation);
  return {
    add: refusal(ctx, 'screenshot.add', target) === null,
    edit: refusal(ctx, 'screenshot.edit', target) === null,
    delete: refusal(ctx, 'screenshot.delete', target) === null,
  };
}

/** The API's write context over a page's form (its fields and files are the API's body). */
function writeContext(ctx: WebContext, params: Record<string, string> = ctx.params): WriteContext {
  return { ...ctx, params, body: ctx.body!, reload: async () => refreshed(ctx) };
}

/** Runs an API write; a refusal of the input (400) comes back as its message for the form to show, anything else is thrown. */
async function attempt(write: () => Promise<unknown>): Promise<string | null> {
  try {
    await write();
    return null;
  } catch (e) {
    const known = toApiError(e);
    if (known?.status === 400) return known.message;
    throw e;
  }
}

function problem(message: string | null | undefined): Html {
  return message && html`<p role="alert" class="error">${message}</p>`;
}

function languageOf(ctx: WebContext, s: ScreenshotRow): string {
  const t = ctx.catalog.translationsById.get(s.translation_id);
  return (t && ctx.catalog.languages.get(t.languageId)?.name) ?? '';
}

/** `GET /screenshots/<p>/<c>/`: the component's screenshots, and the upload form for those who may add one. */
export async function screenshotListPage(ctx: WebContext, message?: string | null): Promise<WebAnswer> {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  const rows = await ctx.services.store.read((tx) => componentScreenshots(tx, component.id));
  const translations = ctx.catalog.translationsByComponent.get(component.id) ?? [];
  const can = abilities(ctx, project, component);
  const body = html`<h1>Screenshots</h1>
    <p>Screenshots show translators where the strings of ${component.name} appear; each one lists the strings it shows, and the editor shows them beside those strings.</p>
    ${problem(message)}
    ${
      rows.length === 0
        ? html`<p>No screenshots yet.</p>`
        : html`<ul class="screenshot-list">
          ${rows.map(
            (s) => html`<li data-screenshot=${s.id}>
              <a href=${paths.screenshot(s.id)}>
                <img src=${paths.screenshotImage(s.id)} alt="" width=${s.width} height=${s.height} loading="lazy" />
                <span class="name">${s.name}</span>
              </a>
              <span class="meta">${languageOf(ctx, s)} · ${s.units.length === 1 ? '1 string' : `${num(s.units.length)} strings`}</span>
            </li>`,
          )}
        </ul>`
    }
    ${
      can.add &&
      html`<section aria-labelledby="add-h">
        <h2 id="add-h">Add a screenshot</h2>
        <form method="post" enctype="multipart/form-data" class="upload screenshot-upload">
          <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
          <span class="pair"><label for="name">Name</label><input id="name" name="name" required maxlength="200" /></span>
          <span class="pair"><label for="image">Image (PNG, JPEG or WebP)</label><input id="image" name="image" type="file" accept="image/png,image/jpeg,image/webp" required /></span>
          <span class="pair">
            <label for="language_code">Language</label>
            <select id="language_code" name="language_code">
              ${[...translations]
                .sort((a, b) => Number(b.isSource) - Number(a.isSource))
                .map((t) => {
                  const l = ctx.catalog.languages.get(t.languageId)!;
                  return html`<option value=${l.code}>${l.name}${t.isSource ? ' (source)' : ''}</option>`;
                })}
            </select>
          </span>
          <button type="submit" class="primary">Upload</button>
        </form>
      </section>`
    }`;
  return {
    status: message ? 400 : 200,
    html: page(ctx, {
      title: `${component.name} — Screenshots`,
      crumbs: [
        { label: project.name, href: paths.project(project) },
        { label: component.name, href: paths.component(ctx.catalog, component) },
        { label: 'Screenshots' },
      ],
      body,
    }),
  };
}

/** `POST /screenshots/<p>/<c>/` (multipart `name`, `image`, `language_code`): adds the screenshot and opens it. */
export async function uploadScreenshot(ctx: WebContext): Promise<WebAnswer> {
  let created: number | undefined;
  const message = await attempt(async () => {
    const answer = await api.createComponentScreenshot(writeContext(ctx));
    if ('json' in answer) created = (JSON.parse(jsonText(answer)) as { id: number }).id;
  });
  if (message !== null || created === undefined) return screenshotListPage(await refreshed(ctx), message ?? 'The screenshot was not added.');
  return { redirect: paths.screenshot(created), status: 303 };
}

/** A screenshot of a visible component, with where it belongs (404 otherwise). */
async function placed(ctx: WebContext) {
  const screenshot = await ctx.services.store.read((tx) => findScreenshot(tx, idOf(ctx)));
  const translation = screenshot && ctx.catalog.translationsById.get(screenshot.translation_id);
  const component = translation && ctx.catalog.componentsById.get(translation.componentId);
  if (!screenshot || !translation || !component || !ctx.access.component(component)) return undefined;
  return { screenshot, translation, component, project: projectOfComponent(ctx, component) };
}

/** `GET /screenshot/<id>/image/`: the image, as the API's `/file/` serves it (pages load it without spending API requests). */
export async function screenshotImagePage(ctx: WebContext): Promise<WebAnswer> {
  const answer = await api.screenshotFile(ctx);
  if (!('bytes' in answer)) throw new Error('a screenshot file answered JSON');
  return { bytes: answer.bytes, contentType: answer.contentType, headers: answer.headers };
}

function translatedText(translated: number, translations: number): Html {
  const state = translations > 0 && translated === translations ? 'translated' : translated === 0 ? 'untranslated' : 'fuzzy';
  return html`<span class=${`state ${state}`}>${translations === 0 ? 'no translations' : `translated in ${num(translated)} of ${num(translations)} languages`}</span>`;
}

/** `GET /screenshot/<id>/` (`?q=` searches the source strings to link): the image, its strings and, for editors, the forms. */
export async function screenshotPage(ctx: WebContext, message?: string | null): Promise<WebAnswer> {
  const found = await placed(ctx);
  if (!found) return { status: 404, html: page(ctx, { title: 'Not found', body: html`<h1>Not found</h1><p>There is no such screenshot.</p>` }) };
  const { screenshot: s, translation, component, project } = found;
  const can = abilities(ctx, project, component, translation);
  const q = ctx.query.find(([k]) => k === 'q')?.[1] ?? '';
  const source = (ctx.catalog.translationsByComponent.get(component.id) ?? []).find((t) => t.isSource);
  const filter = q.trim() === '' ? null : filterOf(q);
  const [linked, results] = await ctx.services.store.read((tx) =>
    Promise.all([
      screenshotStrings(tx, s.id),
      filter ? translationUnitRecords(tx, translation.id, source?.id ?? null, filter, { limit: FOUND, offset: 0 }) : Promise.resolve([]),
    ]),
  );
  const editor = paths.translate(ctx.catalog, translation);
  const hidden = html`<input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} /><input type="hidden" name="q" value=${q} />`;
  const isLinked = new Set(linked.map((l) => l.id));
  const body = html`<h1>Screenshot: ${s.name}</h1>
    ${problem(message)}
    <figure class="screenshot">
      <a href=${paths.screenshotImage(s.id)}><img src=${paths.screenshotImage(s.id)} alt=${s.name} width=${s.width} height=${s.height} /></a>
      <figcaption>${s.width} × ${s.height} px · ${languageOf(ctx, s)} · uploaded ${when(s.timestamp)}</figcaption>
    </figure>
    <section aria-labelledby="strings-h">
      <h2 id="strings-h">Strings in this screenshot</h2>
      ${
        linked.length === 0
          ? html`<p>No strings are linked to this screenshot yet.</p>`
          : html`<ul class="screenshot-strings">
            ${linked.map(
              (u) => html`<li data-unit=${u.id}>
                <a href=${`${editor}?checksum=${hashToChecksum(u.id_hash)}`}>${pluralText(u.source)}</a>
                ${u.context && html` <code>${u.context}</code>`} ${translatedText(u.translated, u.translations)}
                ${
                  can.edit &&
                  html`<form method="post" class="inline">${hidden}<input type="hidden" name="unit_id" value=${u.id} /><button type="submit" name="action" value="unlink" aria-label=${`Unlink “${pluralText(u.source)}”`}>Unlink</button></form>`
                }
              </li>`,
            )}
          </ul>`
      }
    </section>
    ${
      can.edit &&
      html`<section aria-labelledby="find-h">
        <h2 id="find-h">Link strings</h2>
        <form method="get" role="search" class="search">
          <label for="q">Search source strings</label>
          <input id="q" name="q" type="search" value=${q} placeholder="words, or the search language: key:app.quit" />
          <button type="submit">Search</button>
        </form>
        ${
          filter &&
          (results.length === 0
            ? html`<p>No strings match.</p>`
            : html`<ul class="screenshot-found">
              ${results.map(
                (u) => html`<li data-found=${u.id}>
                  ${pluralText(u.source)}${u.context && html` <code>${u.context}</code>`}
                  ${
                    isLinked.has(u.id)
                      ? html` <span class="tag">linked</span>`
                      : html`<form method="post" class="inline">${hidden}<input type="hidden" name="unit_id" value=${u.id} /><button type="submit" name="action" value="link" aria-label=${`Link “${pluralText(u.source)}”`}>Link</button></form>`
                  }
                </li>`,
              )}
            </ul>`)
        }
      </section>
      <section aria-labelledby="edit-h">
        <h2 id="edit-h">Edit</h2>
        <form method="post" class="upload">
          ${hidden}
          <span class="pair"><label for="name">Name</label><input id="name" name="name" value=${s.name} required maxlength="200" /></span>
          <button type="submit" name="action" value="rename">Rename</button>
        </form>
        <form method="post" enctype="multipart/form-data" class="upload">
          ${hidden}
          <span class="pair"><label for="image">New image</label><input id="image" name="image" type="file" accept="image/png,image/jpeg,image/webp" required /></span>
          <button type="submit" name="action" value="replace">Replace image</button>
        </form>
      </section>`
    }
    ${can.delete && html`<form method="post" class="inline">${hidden}<button type="submit" name="action" value="delete">Delete screenshot</button></form>`}
    <p><a href=${paths.screenshots(ctx.catalog, component)}>All screenshots of ${component.name}</a></p>`;
  return {
    status: message ? 400 : 200,
    html: page(ctx, {
      title: `${s.name} — Screenshots`,
      crumbs: [
        { label: project.name, href: paths.project(project) },
        { label: component.name, href: paths.component(ctx.catalog, component) },
        { label: 'Screenshots', href: paths.screenshots(ctx.catalog, component) },
        { label: s.name },
      ],
      body,
    }),
  };
}

/** `POST /screenshot/<id>/` with `action`: link or unlink `unit_id`, rename to `name`, replace the `image`, delete. */
export async function screenshotAction(ctx: WebContext): Promise<WebAnswer> {
  const found = await placed(ctx);
  if (!found) return screenshotPage(ctx);
  const action = formValue(ctx, 'action') ?? '';
  const q = formValue(ctx, 'q') ?? '';
  const write = writeContext(ctx);
  const message = await attempt(async () => {
    if (action === 'link') await api.linkScreenshotUnit(write);
    else if (action === 'unlink') await api.unlinkScreenshotUnit(writeContext(ctx, { ...ctx.params, unit_id: formValue(ctx, 'unit_id') ?? '' }));
    else if (action === 'rename') await api.updateScreenshot(write, true);
    else if (action === 'replace') await api.replaceScreenshotFile(write);
    else if (action === 'delete') await api.deleteScreenshot(write);
    else throw validationError('action', 'Choose link, unlink, rename, replace or delete.');
  });
  const after = await refreshed(ctx);
  if (message !== null) return screenshotPage({ ...after, query: [['q', q]] }, message);
  if (action === 'delete') return { redirect: paths.screenshots(after.catalog, found.component), status: 303 };
  return { redirect: `${paths.screenshot(found.screenshot.id)}${q ? `?q=${encodeURIComponent(q)}` : ''}`, status: 303 };
}
