// Zen mode (/zen/<p>/<c>/<lang>/, Weblate's address): the strings of a search as one scrolling list, each edited in place or suggested on; the script saves a string as the translator leaves its field, and without script each row is a form of its own.

import { queryValue } from '../../api/context.js';
import { projectOfComponent, translationOf } from '../../api/lookup.js';
import { hashToChecksum } from '../../domain/hash.js';
import { PLURAL_SEPARATOR, State } from '../../domain/unit.js';
import { catalogPlural } from '../../operations/index.js';
import type { Translation, UnitRecord } from '../../store/index.js';
import { countTranslationUnitRecords, translationUnitRecords } from '../../store/unit-records.repo.js';
import type { WebAnswer, WebContext } from '../context.js';
import { num, paths } from '../format.js';
import { type Html, html } from '../html.js';
import { abilitiesOf, readOnlyNotice } from './editor-actions.js';
import { FILTER_NAMES, editorQuery, filterOf, pluralLabels, visible } from './editor.js';
import { page } from './layout.js';

/** Strings a page of the list shows by default (`?count=` up to ZEN_MAX); the script appends the next page as the translator scrolls. */
export const ZEN_PAGE = 50;
export const ZEN_MAX = 500;

const STATE_TEXT: Record<number, string> = {
  [State.EMPTY]: 'Untranslated',
  [State.FUZZY]: 'Needs editing',
  [State.TRANSLATED]: 'Translated',
  [State.APPROVED]: 'Approved',
  [State.READONLY]: 'Read-only',
};

interface RowContext {
  translation: Translation;
  labels: string[];
  lang: { code: string; dir: string; name: string };
  sourceLang: { code: string; dir: string };
  action: string;
  offset: number;
  editor: string;
}

function zenRow(ctx: WebContext, r: RowContext, unit: UnitRecord): Html {
  const can = abilitiesOf(ctx, r.translation, unit);
  const plural = unit.source.includes(PLURAL_SEPARATOR);
  const sources = unit.source.split(PLURAL_SEPARATOR);
  const forms = unit.target.split(PLURAL_SEPARATOR);
  const labels = plural ? r.labels : [''];
  const checksum = hashToChecksum(unit.idHash);
  const id = (i: number) => `zen-${unit.id}-${i}`;
  // the field's name for a screen reader: the source it translates (and the form)
  const sourceId = `zen-${unit.id}-source`;
  return html`<li class="zen-unit" id=${`unit-${unit.id}`} data-unit=${unit.id}>
    <form method="post" action=${r.action} class="zen-form" data-suggest-only=${!can.edit && can.suggest ? '1' : undefined}>
      <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
      <input type="hidden" name="unit" value=${unit.id} />
      <input type="hidden" name="checksum" value=${checksum} />
      <input type="hidden" name="zen" value=${r.offset} />
      <div class="zen-source" id=${sourceId} lang=${r.sourceLang.code} dir=${r.sourceLang.dir}>
        ${sources.map((s, i) => html`<p>${plural && html`<span class="form-label">${i === 0 ? 'Singular: ' : 'Plural: '}</span>`}${visible(s)}</p>`)}
      </div>
      <p class="zen-meta">
        ${unit.context && html`<code>${unit.context}</code> · `}<span data-state=${unit.state}>${STATE_TEXT[unit.state] ?? unit.state}</span> · <a href=${`${r.editor}?checksum=${checksum}`}>Open in the editor</a>
      </p>
      ${readOnlyNotice(can)}
      ${labels.map(
        (label, i) => html`<div class="field">
          ${plural ? html`<label for=${id(i)}>${label}</label>` : html`<label for=${id(i)} class="sr-only">${r.lang.name}</label>`}
          <textarea id=${id(i)} name=${`target_${i}`} lang=${r.lang.code} dir=${r.lang.dir} rows="2" readonly=${!can.edit && !can.suggest} aria-describedby=${sourceId}>${forms[i] ?? ''}</textarea>
        </div>`,
      )}
      ${
        (can.edit || can.suggest) &&
        html`<div class="zen-actions">
          ${
            can.edit &&
            html`<span class="field check">
              <input type="checkbox" id=${`zen-${unit.id}-fuzzy`} name="fuzzy" value="1" checked=${unit.state === State.FUZZY} />
              <label for=${`zen-${unit.id}-fuzzy`}>Needs editing</label>
            </span>
            <button type="submit" name="save" value="1" class="zen-save">Save</button>`
          }
          ${can.suggest && html`<button type="submit" name="suggest" value="1" class="zen-suggest" aria-keyshortcuts="Alt+Enter">Suggest</button>`}
        </div>`
      }
      <p class="zen-status" role="status"></p>
    </form>
  </li>`;
}

/** `GET /zen/<p>/<c>/<lang>/?q=&offset=`: a page of the search's strings, each editable in place. */
export async function zenPage(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  const language = ctx.catalog.languages.get(translation.languageId)!;
  const source = (ctx.catalog.translationsByComponent.get(component.id) ?? []).find((t) => t.isSource);
  const sourceLanguage = source ? ctx.catalog.languages.get(source.languageId) : undefined;
  const q = queryValue(ctx, 'q') ?? '';
  const filter = filterOf(q);
  const raw = queryValue(ctx, 'offset') ?? '1';
  const offset = /^\d{1,9}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
  const rawCount = queryValue(ctx, 'count');
  const count = rawCount !== undefined && /^\d{1,4}$/.test(rawCount) ? Math.min(ZEN_MAX, Math.max(1, Number(rawCount))) : ZEN_PAGE;
  const keep: Record<string, number> = count === ZEN_PAGE ? {} : { count };
  const { store } = ctx.services;
  const [total, units] = await Promise.all([
    store.read((tx) => countTranslationUnitRecords(tx, translation.id, filter)),
    store.read((tx) => translationUnitRecords(tx, translation.id, source?.id ?? null, filter, { limit: count, offset: offset - 1 })),
  ]);
  const base = paths.zen(ctx.catalog, translation);
  const editor = paths.translate(ctx.catalog, translation);
  const r: RowContext = {
    translation,
    labels: pluralLabels(language.code, catalogPlural(ctx.catalog, translation)),
    lang: { code: language.code, dir: language.direction === 'rtl' ? 'rtl' : 'ltr', name: `Translation (${language.name})` },
    sourceLang: { code: sourceLanguage?.code ?? 'en', dir: sourceLanguage?.direction === 'rtl' ? 'rtl' : 'ltr' },
    action: `${editor}${editorQuery(q, {})}`,
    offset,
    editor,
  };
  const title = `${component.name} — ${language.name} (zen)`;
  const last = offset - 1 + units.length;
  const more = last < total ? `${base}${editorQuery(q, { ...keep, offset: last + 1 })}` : null;
  const filterName = FILTER_NAMES[q] ?? `Search: ${q}`;
  const body = html`<div class="zen" data-base=${base} data-q=${q}>
    <h1>${component.name} — ${language.name}</h1>
    <p class="position"><span class="filter-name">${filterName}</span>: ${num(total)} strings${offset > 1 ? `, from string ${num(offset)}` : ''}</p>
    <p class="zen-links">
      <a href=${`${editor}${editorQuery(q, { offset })}`} data-mode="editor" aria-keyshortcuts="Alt+Z">Standard editor</a>
      ${offset > 1 && html` · <a href=${`${base}${editorQuery(q, { ...keep, offset: Math.max(1, offset - count) })}`} rel="prev">Previous strings</a>`}
    </p>
    <p id="zen-help" class="hint">Each string is saved when you leave its field (Tab); Ctrl+Enter saves and moves to the next string; Suggest (Alt+Enter) offers the text as a suggestion instead. A string you may only suggest on is never saved by leaving it.</p>
    ${units.length === 0 ? html`<p role="status">No strings match: ${filterName}.</p>` : html`<ol class="zen-list">${units.map((u) => zenRow(ctx, r, u))}</ol>`}
    ${more ? html`<p><a href=${more} class="zen-more" rel="next">More strings</a></p>` : units.length > 0 && html`<p class="zen-end">The end of the list.</p>`}
  </div>`;
  const crumbs = [
    { label: project.name, href: paths.project(project) },
    { label: component.name, href: paths.component(ctx.catalog, component) },
    { label: language.name, href: paths.translation(ctx.catalog, translation) },
    { label: 'Zen' },
  ];
  return { html: page(ctx, { title, crumbs, body, script: true }) };
}
