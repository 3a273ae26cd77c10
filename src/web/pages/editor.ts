// The translation editor (/translate/<p>/<c>/<lang>/): one string at a time, its context, plural forms, the strings around it, neighbours in other languages, glossary and history; saving goes through the API's own unit update.

import { queryValue } from '../../api/context.js';
import { notFound, validationError } from '../../api/errors.js';
import { updateUnit } from '../../api/handlers/unit-writes.js';
import { projectOfComponent, translationOf } from '../../api/lookup.js';
import { SearchSyntaxError, parseUnitQuery } from '../../api/search.js';
import type { WriteContext } from '../../api/write.js';
import { checksumToHash, hashToChecksum } from '../../domain/hash.js';
import { PLURAL_SEPARATOR, State } from '../../domain/unit.js';
import type { TranslationPlural } from '../../languages/translation-plural.js';
import { catalogPlural } from '../../operations/index.js';
import { findUnitByHash } from '../../store/edits.repo.js';
import type { Translation, UnitFilter, UnitRecord } from '../../store/index.js';
import { countTranslationUnitRecords, translationUnitRecords, unitRecord } from '../../store/unit-records.repo.js';
import { componentUnitsByHash, translationUnits } from '../../store/units.repo.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue, signedIn } from '../context.js';
import { num, paths, when } from '../format.js';
import { type Html, html } from '../html.js';
import { changeList, recentChanges } from './changes.js';
import { checksSection, unitChecksShown } from './checks.js';
import { discussionOf, discussionPanes } from './discussion.js';
import { abilitiesOf, actionButtons, readOnlyNotice, stateOfForm } from './editor-actions.js';
import { ageFacts, keyboardHelp, locations, screenshotFacts, surroundingsOf, surroundingsSections } from './editor-context.js';
import { labelChip, page } from './layout.js';
import { projectLanguagePage } from './overview.js';
import { targetsOfForm, unitOfForm } from './unit-form.js';

export const FILTER_NAMES: Record<string, string> = {
  '': 'All strings',
  'state:<translated': 'Unfinished strings',
  'state:empty': 'Untranslated strings',
  'state:needs-editing': 'Strings needing editing',
  'state:translated': 'Strings waiting for review',
  'state:approved': 'Approved strings',
  'has:check': 'Strings with failing checks',
};

/** The editor's search parsed (a 400 naming the error when it does not parse). */
export function filterOf(q: string): UnitFilter | null {
  try {
    return parseUnitQuery(q);
  } catch (e) {
    if (e instanceof SearchSyntaxError) throw validationError('q', `Could not parse the search: ${e.message}`);
    throw e;
  }
}

function and(filter: UnitFilter | null, extra: UnitFilter): UnitFilter {
  return filter ? { kind: 'and', items: [filter, extra] } : extra;
}

/** A query string for the editor that keeps the search. */
export function editorQuery(q: string, extra: Record<string, string | number>): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  for (const [k, v] of Object.entries(extra)) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

// Whole numbers the labels' examples are looked for in: 0…1000, then the millions that reach CLDR's integer `many`
// (French, Spanish, Italian, Portuguese)
const EXAMPLE_NUMBERS: number[] = [];
for (let n = 0; n <= 1000; n++) EXAMPLE_NUMBERS.push(n);
for (let k = 4; k <= 9; k++) for (const m of [1, 2, 3, 5, 11]) EXAMPLE_NUMBERS.push(m * 10 ** k);

/**
 * Names and example numbers of a translation's plural forms, `one: 1, 21, 31…` (the ellipsis only when the form has
 * more numbers than shown: German's `one: 1`, Czech's `few: 2, 3, 4`): the format's CLDR names where it gives them
 * (Android, .stringsdict), else CLDR's name for the form's first example in the file's language.
 */
export function pluralLabels(code: string, plural: TranslationPlural): string[] {
  const examples: number[][] = Array.from({ length: plural.number }, () => []);
  // a fourth example, never shown, tells whether the form goes on
  for (const n of EXAMPLE_NUMBERS) {
    if (examples.every((e) => e.length >= 4)) break;
    const form = plural.formOf(n);
    if (form >= 0 && form < examples.length && examples[form]!.length < 4) examples[form]!.push(n);
  }
  let rules: Intl.PluralRules | undefined;
  try {
    rules = new Intl.PluralRules(code.replace(/_/g, '-').replace(/@.*/, ''));
  } catch {
    rules = undefined;
  }
  const names = examples.map((list, i) => plural.tags?.[i] ?? (list.length > 0 && rules ? rules.select(list[0]!) : null));
  // a form no whole number takes is CLDR's `other` (fractions) unless another form has that name
  const seen = new Set<string>();
  return examples.map((list, i) => {
    let name = names[i] ?? (names.includes('other') ? `form ${i}` : 'other');
    if (seen.has(name)) name = `${name} (${i})`;
    seen.add(name);
    return list.length > 0 ? `${name}: ${list.slice(0, 3).join(', ')}${list.length > 3 ? '…' : ''}` : name;
  });
}

const SPECIAL = /(\u00a0|\u202f|\t|\n| +$|^ +|%(?:\d+\$)?[-#+ 0-9.]*[sdifuxXcpn%@]|%\d+|\{\{?[\w.]+\}?\}|\$\{[\w.]+\}|<\/?[a-zA-Z][^>]*>)/gm;

/** Text with placeholders and invisible characters made visible (non-breaking spaces, edge spaces, tabs, newlines). */
export function visible(text: string): Html[] {
  const out: Html[] = [];
  let last = 0;
  for (const m of text.matchAll(SPECIAL)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const s = m[0];
    if (s === '\u00a0') out.push(html`<span class="sp" title="non-breaking space">⍽</span>`);
    else if (s === '\u202f') out.push(html`<span class="sp" title="narrow non-breaking space">⍽</span>`);
    else if (s === '\t') out.push(html`<span class="sp" title="tab">→</span>`);
    else if (s === '\n') out.push(html`<span class="sp" title="new line">↵</span>`, html`<br />`);
    else if (/^ +$/.test(s)) out.push(html`<span class="sp" title=${`${s.length} space(s) at the edge`}>${'·'.repeat(s.length)}</span>`);
    else out.push(html`<span class="ph" title="placeholder">${s}</span>`);
    last = at + s.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

interface Located {
  unit: UnitRecord;
  offset: number;
}

/** The unit the request names (`checksum`, `after` a position, or the 1-based `offset`), with its offset in the filter. */
async function locate(ctx: WebContext, translation: Translation, sourceId: number | null, filter: UnitFilter | null): Promise<Located | null> {
  const { store } = ctx.services;
  const checksum = queryValue(ctx, 'checksum');
  const after = queryValue(ctx, 'after');
  let unit: UnitRecord | undefined;
  if (checksum !== undefined) {
    let hash: bigint;
    try {
      hash = checksumToHash(checksum);
    } catch {
      throw notFound();
    }
    unit = await store.read(async (tx) => {
      const found = await findUnitByHash(tx, translation.id, hash);
      return found && unitRecord(tx, found.id);
    });
    if (!unit) throw notFound();
  } else if (after !== undefined && /^\d{1,9}$/.test(after)) {
    const next = and(filter, { kind: 'number', field: 'position', op: '>', value: Number(after) });
    [unit] = await store.read((tx) => translationUnitRecords(tx, translation.id, sourceId, next, { limit: 1, offset: 0 }));
    if (!unit) return null;
  } else {
    const raw = queryValue(ctx, 'offset') ?? '1';
    const offset = /^\d{1,9}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
    [unit] = await store.read((tx) => translationUnitRecords(tx, translation.id, sourceId, filter, { limit: 1, offset: offset - 1 }));
    if (!unit) return null;
    return { unit, offset };
  }
  const earlier = and(filter, { kind: 'number', field: 'position', op: '<', value: unit.position });
  const before = await store.read((tx) => countTranslationUnitRecords(tx, translation.id, earlier));
  return { unit, offset: before + 1 };
}

/** `GET /translate/<p>/<c>/<lang>/`: the editor on one string. */
export async function editorPage(ctx: WebContext, message?: { text: string; error?: boolean }): Promise<WebAnswer> {
  if (ctx.params.component === '-') return projectLanguagePage(ctx);
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  const language = ctx.catalog.languages.get(translation.languageId)!;
  const siblings = ctx.catalog.translationsByComponent.get(component.id) ?? [];
  const source = siblings.find((t) => t.isSource);
  const q = queryValue(ctx, 'q') ?? '';
  const filter = filterOf(q);
  const total = await ctx.services.store.read((tx) => countTranslationUnitRecords(tx, translation.id, filter));
  const located = await locate(ctx, translation, source?.id ?? null, filter);
  const base = paths.translate(ctx.catalog, translation);
  const title = `${component.name} — ${language.name}`;
  const crumbs = [
    { label: project.name, href: paths.project(project) },
    { label: component.name, href: paths.component(ctx.catalog, component) },
    { label: language.name, href: paths.translation(ctx.catalog, translation) },
    { label: 'Translate' },
  ];
  const filterName = FILTER_NAMES[q] ?? `Search: ${q}`;
  if (!located) {
    const body = html`<h1>${title}</h1>
      <p role="status" class="done" data-done="1">${total === 0 ? `No strings match: ${filterName}.` : `You reached the end of: ${filterName}.`}</p>
      <p><a href=${paths.translation(ctx.catalog, translation)}>Back to ${language.name}</a>${total > 0 && html` · <a href=${`${base}${editorQuery(q, { offset: 1 })}`}>Start again</a>`}</p>`;
    return { html: page(ctx, { title, crumbs, body, script: true }) };
  }
  const { unit, offset } = located;
  const discussion = await discussionOf(ctx, translation, unit);
  const can = abilitiesOf(ctx, translation, unit);
  const plural = unit.source.includes(PLURAL_SEPARATOR);
  const sourceForms = unit.source.split(PLURAL_SEPARATOR);
  const labels = plural ? pluralLabels(language.code, catalogPlural(ctx.catalog, translation)) : [''];
  const forms = unit.target.split(PLURAL_SEPARATOR);
  const targets = labels.map((_, i) => forms[i] ?? '');
  const sourceLanguage = source ? ctx.catalog.languages.get(source.languageId) : undefined;
  const [others, glossary, history, checks, around] = await Promise.all([
    otherLanguages(ctx, translation, unit),
    glossaryTerms(ctx, translation, unit),
    recentChanges(ctx, { unitId: unit.id }, 20),
    unitChecksShown(ctx, unit),
    surroundingsOf(ctx, translation, unit),
  ]);
  const prev = offset > 1 ? `${base}${editorQuery(q, { offset: offset - 1 })}` : null;
  const next = offset < total ? `${base}${editorQuery(q, { offset: offset + 1 })}` : null;
  const checksum = hashToChecksum(unit.idHash);
  const dir = language.direction === 'rtl' ? 'rtl' : 'ltr';
  const body = html`<div class="editor" data-unit=${unit.id} data-position=${unit.position} data-offset=${offset} data-total=${total} data-q=${q} data-base=${base}>
    <h1>${title}</h1>
    <p class="position" aria-live="polite">
      <span class="filter-name">${filterName}</span>: string <strong data-position-text>${num(offset)} / ${num(total)}</strong>
    </p>
    ${message && html`<p role=${message.error ? 'alert' : 'status'} class=${message.error ? 'error' : 'notice'}>${message.text}</p>`}
    <nav aria-label="Strings" class="unit-nav">
      ${prev ? html`<a href=${prev} rel="prev" data-nav="prev" aria-keyshortcuts="Alt+PageUp">← Previous</a>` : html`<span class="disabled">← Previous</span>`}
      ${next ? html`<a href=${next} rel="next" data-nav="next" aria-keyshortcuts="Alt+PageDown">Next →</a>` : html`<span class="disabled">Next →</span>`}
      ${offset > 1 && html`<a href=${`${base}${editorQuery(q, { offset: 1 })}`} data-nav="first" aria-keyshortcuts="Alt+Home">First</a>`}
      ${offset < total && html`<a href=${`${base}${editorQuery(q, { offset: total })}`} data-nav="last" aria-keyshortcuts="Alt+End">Last</a>`}
      <a href=${`${paths.zen(ctx.catalog, translation)}${editorQuery(q, { offset })}`} data-mode="zen" aria-keyshortcuts="Alt+Z">Zen mode</a>
    </nav>
    <div class="editor-grid">
      <div class="editor-main">
      <form method="post" action=${`${base}${editorQuery(q, { offset })}`} class="translate-form" id="translate-form">
        <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
        <input type="hidden" name="unit" value=${unit.id} />
        <input type="hidden" name="checksum" value=${checksum} />
        <section class="source" aria-labelledby="source-h">
          <h2 id="source-h">Source${sourceLanguage ? ` (${sourceLanguage.name})` : ''}</h2>
          ${sourceForms.map(
            (s, i) => html`<div class="source-text" lang=${sourceLanguage?.code ?? 'en'} dir=${sourceLanguage?.direction === 'rtl' ? 'rtl' : 'ltr'}>
              ${plural && html`<span class="form-label">${i === 0 ? 'Singular' : 'Plural'}</span>`}
              <p>${visible(s)}</p>
            </div>`,
          )}
          <dl class="facts">
            ${unit.context && html`<dt>Context</dt><dd><code>${unit.context}</code></dd>`}
            ${unit.note && html`<dt>Developer comment</dt><dd>${unit.note}</dd>`}
            ${unit.explanation && html`<dt>Explanation</dt><dd>${unit.explanation}</dd>`}
            ${unit.location && html`<dt>Location</dt><dd>${locations(component, translation, unit)}</dd>`}
            ${(unit.flags || unit.extraFlags) && html`<dt>Flags</dt><dd><code>${[unit.flags, unit.extraFlags].filter(Boolean).join(', ')}</code></dd>`}
            ${unit.labels.length > 0 && html`<dt>Labels</dt><dd><ul class="labels-list">${unit.labels.map((l) => html`<li>${labelChip(l)}</li>`)}</ul></dd>`}
            <dt>State</dt><dd data-state=${unit.state}>${stateName(unit.state)}${unit.pending ? ' (not committed yet)' : ''}</dd>
            ${
              unit.state === State.FUZZY &&
              unit.previousSource &&
              html`<dt>Previous source</dt><dd data-previous-source lang=${sourceLanguage?.code ?? 'en'}>${unit.previousSource
                .split(PLURAL_SEPARATOR)
                .map((s) => html`<p>${visible(s)}</p>`)}</dd>`
            }
            ${ageFacts(unit, around, history)}
            ${screenshotFacts(around)}
          </dl>
        </section>
        <section class="target" aria-labelledby="target-h">
          <h2 id="target-h">Translation (${language.name})</h2>
          ${readOnlyNotice(can)}
          ${targets.map(
            (t, i) => html`<div class="field">
              <label for=${`target_${i}`}>${plural ? labels[i] : language.name}</label>
              <textarea id=${`target_${i}`} name=${`target_${i}`} lang=${language.code} dir=${dir} rows=${Math.min(8, Math.max(2, t.split('\n').length + 1))} readonly=${!can.edit && !can.suggest} autofocus=${(can.edit || can.suggest) && i === 0} aria-describedby="shortcuts">${t}</textarea>
            </div>`,
          )}
          ${
            can.edit &&
            html`<div class="field check">
              <input type="checkbox" id="fuzzy" name="fuzzy" value="1" checked=${unit.state === State.FUZZY} />
              <label for="fuzzy">Needs editing</label>
            </div>`
          }
          ${actionButtons(can, unit, next)}
          <p id="shortcuts" class="hint">${
            can.edit
              ? 'Ctrl+Enter saves and opens the next string; Alt+PageDown / Alt+PageUp go to the next / previous string; Alt+1…9 copies a memory match; ? (outside a field) lists every shortcut.'
              : can.suggest
                ? 'You may suggest a translation here; someone who may edit it accepts it.'
                : signedIn(ctx)
                  ? 'You may not edit this string.'
                  : html`<a href=${`/accounts/login/?next=${encodeURIComponent(`${base}?checksum=${checksum}`)}`}>Sign in</a> to translate.`
          }</p>
        </section>
      </form>
      ${surroundingsSections(ctx, translation, unit, around, { code: language.code, dir })}
      ${keyboardHelp()}
      </div>
      <aside class="side">
        ${checksSection(ctx, translation, unit, checks)}
        ${discussionPanes(ctx, discussion, unit, `${base}${editorQuery(q, { offset })}`, { code: language.code, dir })}
        <section aria-labelledby="glossary-h">
          <h2 id="glossary-h">Glossary</h2>
          ${glossary.length === 0 ? html`<p>No glossary terms in this string.</p>` : html`<dl class="glossary">${glossary.map((g) => html`<dt>${g.source}</dt><dd lang=${language.code} dir=${dir}>${g.target || '—'}</dd>`)}</dl>`}
        </section>
        <section aria-labelledby="others-h">
          <h2 id="others-h">Other languages</h2>
          ${
            others.length === 0
              ? html`<p>No other translations.</p>`
              : html`<ul class="others">${others.map(
                  (o) =>
                    html`<li><a href=${o.href}>${o.language.name}</a>: <span lang=${o.language.code} dir=${o.language.direction === 'rtl' ? 'rtl' : 'ltr'}>${o.target
                      .split(PLURAL_SEPARATOR)
                      .filter((f) => f !== '')
                      .join(' | ')}</span></li>`,
                )}</ul>`
          }
        </section>
        <section aria-labelledby="history-h">
          <h2 id="history-h">History</h2>
          ${changeList(ctx, history, { where: false, list: true })}
        </section>
      </aside>
    </div>
  </div>`;
  return { html: page(ctx, { title, crumbs, body, script: true }) };
}

function stateName(state: number): string {
  return state === State.EMPTY
    ? 'Untranslated'
    : state === State.FUZZY
      ? 'Needs editing'
      : state === State.TRANSLATED
        ? 'Translated'
        : state === State.APPROVED
          ? 'Approved'
          : 'Read-only';
}

async function otherLanguages(ctx: WebContext, translation: Translation, unit: UnitRecord) {
  const units = await ctx.services.store.read((tx) => componentUnitsByHash(tx, translation.componentId, unit.idHash));
  const out = [];
  for (const u of units) {
    const t = ctx.catalog.translationsById.get(u.translation_id);
    // an untranslated plural is its empty forms joined: no more a translation than an empty string
    if (!t || t.id === translation.id || t.isSource || u.target.split(PLURAL_SEPARATOR).every((f) => f === '')) continue;
    out.push({
      language: ctx.catalog.languages.get(t.languageId)!,
      target: u.target,
      href: `${paths.translate(ctx.catalog, t)}?checksum=${hashToChecksum(u.id_hash)}`,
    });
  }
  return out.sort((a, b) => a.language.name.localeCompare(b.language.name));
}

/** Terms of the project's glossaries (in this language) that occur in the unit's source, as whole words. */
async function glossaryTerms(ctx: WebContext, translation: Translation, unit: UnitRecord): Promise<{ source: string; target: string }[]> {
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const glossaries = ctx.catalog.components.filter((c) => c.projectId === component.projectId && c.settings.is_glossary && ctx.access.component(c));
  const text = unit.source.toLocaleLowerCase();
  const out: { source: string; target: string }[] = [];
  for (const g of glossaries) {
    const gt = ctx.catalog.translationsByKey.get(`${g.id}/${ctx.catalog.languages.get(translation.languageId)!.code}`);
    if (!gt) continue;
    for (const term of await ctx.services.store.read((tx) => translationUnits(tx, gt.id))) {
      const word = term.source.split(PLURAL_SEPARATOR)[0]!.toLocaleLowerCase().trim();
      if (!word) continue;
      const at = text.indexOf(word);
      if (at < 0) continue;
      const before = text[at - 1];
      const after = text[at + word.length];
      if ((before && /[\p{L}\p{N}]/u.test(before)) || (after && /[\p{L}\p{N}]/u.test(after))) continue;
      out.push({ source: term.source.split(PLURAL_SEPARATOR)[0]!, target: term.target.split(PLURAL_SEPARATOR)[0]! });
      if (out.length >= 20) return out;
    }
  }
  return out;
}

/**
 * `POST /translate/<p>/<c>/<lang>/` (forms without script): saves through the API's unit update (same checks,
 * same change records), then shows the string again (`save`) or the next one (`save_next`).
 */
export async function saveTranslation(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const unit = await unitOfForm(ctx, translation);
  const targets = targetsOfForm(ctx);
  const state = stateOfForm(ctx, targets, unit.state);
  const write: WriteContext = {
    ...ctx,
    params: { ...ctx.params, id: String(unit.id) },
    body: { kind: 'json', json: { target: targets, state }, form: new Map(), files: new Map() },
    reload: async () => ctx,
  };
  await updateUnit(write, false);
  const q = queryValue(ctx, 'q') ?? '';
  const base = paths.translate(ctx.catalog, translation);
  // a zen mode row saved without script: back to its place in the list
  const zen = formValue(ctx, 'zen');
  if (zen !== undefined && /^\d{1,9}$/.test(zen))
    return { redirect: `${paths.zen(ctx.catalog, translation)}${editorQuery(q, { offset: zen })}#unit-${unit.id}` };
  if (formValue(ctx, 'save_next') !== undefined || formValue(ctx, 'approve') !== undefined)
    return { redirect: `${base}${editorQuery(q, { after: unit.position })}` };
  return { redirect: `${base}${editorQuery(q, { checksum: hashToChecksum(unit.idHash) })}` };
}
