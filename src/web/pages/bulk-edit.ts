// The bulk edit page (/bulk-edit/<p>/<c>/<lang>/, Weblate's address): the state, flags and labels of every string a search selects changed at once, for users with `unit.bulk_edit`.
import { queryValue } from '../../api/context.js';
import { permissionDenied, validationError } from '../../api/errors.js';
import { projectOfComponent, translationOf } from '../../api/lookup.js';
import { refusal, requirePermission, targetOf } from '../../api/write.js';
import { State } from '../../domain/unit.js';
import { bulkEdit as bulkEditStrings } from '../../operations/index.js';
import type { Translation } from '../../store/index.js';
import { type Label, projectLabels } from '../../store/labels.repo.js';
import { countTranslationUnitRecords } from '../../store/unit-records.repo.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue } from '../context.js';
import { paths, strings } from '../format.js';
import { type Html, html } from '../html.js';
import { filterOf } from './editor.js';
import { labelChip, page } from './layout.js';

const STATES: [number, string][] = [
  [State.FUZZY, 'Needs editing'],
  [State.TRANSLATED, 'Translated (waiting for review where reviews are on)'],
  [State.APPROVED, 'Approved'],
];

function scopeOf(ctx: WebContext, translation: Translation) {
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  const target = targetOf(ctx, project, component, translation);
  requirePermission(ctx, 'unit.bulk_edit', target);
  // a string's flags are its source's: Weblate asks for the right to edit the source
  return { component, project, review: refusal(ctx, 'unit.review', target) === null, flags: refusal(ctx, 'source.edit', target) === null };
}

/** A set of checkboxes, one per label of the project. */
function labelChoice(name: string, legend: string, labels: readonly Label[]): Html {
  return html`<fieldset class="field label-choice">
    <legend>${legend}</legend>
    ${labels.map((l) => html`<label class="check"><input type="checkbox" name=${name} value=${l.id} /> ${labelChip(l)}</label>`)}
  </fieldset>`;
}

/** The labels of the project that `name` lists (ids), 400 for any other. */
function chosenLabels(ctx: WebContext, name: string, labels: readonly Label[]): Label[] {
  return (ctx.body?.form.get(name) ?? []).map((id) => {
    const label = labels.find((l) => String(l.id) === id);
    if (!label) throw validationError(name, `No label ${id} in this project.`);
    return label;
  });
}

/** `GET /bulk-edit/<p>/<c>/<lang>/?q=`: the search, how many strings it selects, the state to give them. */
export async function bulkEditPage(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const { component, project, review, flags } = scopeOf(ctx, translation);
  const language = ctx.catalog.languages.get(translation.languageId)!;
  const q = queryValue(ctx, 'q') ?? '';
  const filter = filterOf(q);
  const [count, labels] = await ctx.services.store.read(async (tx) => [
    await countTranslationUnitRecords(tx, translation.id, filter),
    flags ? await projectLabels(tx, project.id) : [],
  ]);
  const done = queryValue(ctx, 'changed');
  const skipped = queryValue(ctx, 'skipped');
  const flagged = queryValue(ctx, 'flagged');
  const labelled = queryValue(ctx, 'labelled');
  const action = paths.bulkEdit(ctx.catalog, translation);
  const body = html`<h1>Bulk edit — ${component.name} — ${language.name}</h1>
    ${done !== undefined && html`<p class="notice" role="status" data-changed=${done} data-flagged=${flagged ?? '0'} data-labelled=${labelled ?? '0'}>${strings(Number(done))} changed state${skipped && Number(skipped) > 0 ? `, ${strings(Number(skipped))} kept theirs (read-only, empty or approved)` : ''}${flagged && Number(flagged) > 0 ? `; the flags of ${strings(Number(flagged))} changed` : ''}${labelled && Number(labelled) > 0 ? `; the labels of ${strings(Number(labelled))} changed` : ''}.</p>`}
    <form method="get" action=${action} class="search" role="search">
      <label for="q">Strings to change (search)</label>
      <input id="q" name="q" type="search" value=${q} placeholder="e.g. state:needs-editing source:file" />
      <button type="submit">Search</button>
    </form>
    <p data-count=${count}>${strings(count)} match${q ? '' : ' (every string of the translation)'}.</p>
    <form method="post" action=${`${action}${q ? `?q=${encodeURIComponent(q)}` : ''}`} class="bulk-form">
      <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
      <input type="hidden" name="q" value=${q} />
      <div class="field">
        <label for="state">New state</label>
        <select id="state" name="state">
          <option value="">No change</option>
          ${STATES.filter(([s]) => s !== State.APPROVED || review).map(([s, label]) => html`<option value=${s}>${label}</option>`)}
        </select>
      </div>
      ${
        flags &&
        html`<div class="field"><label for="add_flags">Add flags</label><input id="add_flags" name="add_flags" placeholder="e.g. max-length:80, ignore-end-stop" /></div>
          <div class="field"><label for="remove_flags">Remove flags</label><input id="remove_flags" name="remove_flags" placeholder="e.g. ignore-end-stop" /></div>`
      }
      ${flags && labels.length > 0 && [labelChoice('add_labels', 'Add labels', labels), labelChoice('remove_labels', 'Remove labels', labels)]}
      <p class="hint">${flags ? 'Flags and labels belong to the source string: they change in every language of the component, and its checks run again. ' : ''}Read-only and untranslated strings keep their state${review ? '' : ', and so do approved ones: only reviewers change them'}. Every change is recorded and committed as edits are.</p>
      <button type="submit" class="primary" disabled=${count === 0}>Change ${strings(count)}</button>
    </form>
    <p><a href=${paths.translation(ctx.catalog, translation)}>Back to ${language.name}</a></p>`;
  const crumbs = [
    { label: project.name, href: paths.project(project) },
    { label: component.name, href: paths.component(ctx.catalog, component) },
    { label: language.name, href: paths.translation(ctx.catalog, translation) },
    { label: 'Bulk edit' },
  ];
  return { html: page(ctx, { title: `Bulk edit — ${component.name} — ${language.name}`, crumbs, body }) };
}

/** `POST /bulk-edit/<p>/<c>/<lang>/`: applies the new state and flags to the search's strings in one transaction. */
export async function bulkEdit(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const { component, review, flags } = scopeOf(ctx, translation);
  const q = formValue(ctx, 'q') ?? '';
  const rawState = formValue(ctx, 'state') ?? '';
  const state = rawState === '' ? null : Number(rawState);
  if (state !== null && !STATES.some(([s]) => s === state)) throw validationError('state', 'Choose needs editing, translated or approved.');
  if (state === State.APPROVED && !review) throw validationError('state', 'Only reviewers approve strings, where reviews are on.');
  const addFlags = formValue(ctx, 'add_flags') ?? '';
  const removeFlags = formValue(ctx, 'remove_flags') ?? '';
  const labels = await ctx.services.store.read((tx) => projectLabels(tx, component.projectId));
  const addLabels = chosenLabels(ctx, 'add_labels', labels);
  const removeLabels = chosenLabels(ctx, 'remove_labels', labels);
  const sourceChange = addFlags.trim() !== '' || removeFlags.trim() !== '' || addLabels.length > 0 || removeLabels.length > 0;
  if (sourceChange && !flags) throw permissionDenied('Changing flags and labels needs the permission to edit source strings.');
  if (state === null && !sourceChange) throw validationError('state', 'Choose a state, flags or labels to change.');
  const result = await bulkEditStrings(
    ctx.services.store,
    { projectId: component.projectId, componentId: component.id, translationId: translation.id, languageId: translation.languageId },
    { state, addFlags, removeFlags, addLabels, removeLabels, filter: filterOf(q), user: { id: ctx.user.id }, rights: { review } },
  );
  const params = new URLSearchParams({
    ...(q ? { q } : {}),
    changed: String(result.changed),
    skipped: String(result.skipped),
    flagged: String(result.flagged),
    labelled: String(result.labelled),
  });
  return { redirect: `${paths.bulkEdit(ctx.catalog, translation)}?${params}` };
}
