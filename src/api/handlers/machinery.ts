// Handlers for machine translation: one engine's suggestions for a unit (the editor's panel), automatic translation
// of a translation (`POST …/autotranslate/`, a background task) and the tasks (`/api/tasks/<uuid>/`).
import { type AutoMode, type AutoTranslateJob, type ENGINE_IDS, type LanguagePair, autoTranslate } from '../../machinery/index.js';
import type { Component, Translation } from '../../store/index.js';
import { unitRecord } from '../../store/unit-records.repo.js';
import { type Answer, json } from '../answer.js';
import { field, listField, stringField } from '../body.js';
import type { RequestContext } from '../context.js';
import { notFound, validationError } from '../errors.js';
import { toJson } from '../json.js';
import { projectOfComponent, translationOf } from '../lookup.js';
import { SearchSyntaxError, parseUnitQuery } from '../search.js';
import { type WriteContext, requirePermission, targetOf } from '../write.js';

/** The language pair of a translation: its component's source language to its own. */
export function pairOf(ctx: RequestContext, translation: Translation): LanguagePair | undefined {
  const source = (ctx.catalog.translationsByComponent.get(translation.componentId) ?? []).find((t) => t.isSource);
  if (!source) return undefined;
  const code = (id: number, fallback: string) => ctx.catalog.languages.get(id)?.code ?? fallback;
  return {
    source: code(source.languageId, source.languageCode),
    target: code(translation.languageId, translation.languageCode),
    sourceId: source.languageId,
    targetId: translation.languageId,
  };
}

/**
 * `GET /api/units/<id>/machinery/<engine>/`: one configured engine's suggestions for the unit's source
 * (`machinery.view`), `{engine, name, status: ok|unavailable|error, suggestions: [{text, quality, source, origin}], error?}`;
 * an engine that fails or lacks the pair says so in `status`, never as an HTTP error.
 */
export async function unitMachinery(ctx: RequestContext): Promise<Answer> {
  const raw = ctx.params.id!;
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  const unit = await ctx.services.store.read((tx) => unitRecord(tx, Number(raw)));
  const translation = unit && ctx.catalog.translationsById.get(unit.translationId);
  if (!unit || !translation || !ctx.access.translation(translation)) throw notFound();
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  requirePermission(ctx, 'machinery.view', targetOf(ctx, project, component, translation, unit));
  const machinery = ctx.services.machinery(project.slug);
  const engine = ctx.params.engine!;
  if (!machinery.configured().some((id) => id === engine)) throw notFound(`No engine "${engine}" is configured.`);
  const pair = pairOf(ctx, translation);
  if (!pair) throw notFound();
  const answer = await machinery.answer(engine as (typeof ENGINE_IDS)[number], unit.source, pair, {
    projects: ctx.access.projectIds(),
    userId: ctx.user.is_anonymous ? null : ctx.user.id,
    unitId: unit.id,
    componentId: component.id,
  });
  return json(toJson({ ...answer, error: answer.error ?? null }));
}

const MODES: readonly AutoMode[] = ['suggest', 'translate', 'fuzzy'];
// Weblate's filter_type choices as search queries; whether each includes translated strings
const FILTERS: Readonly<Record<string, { q: string; translated: boolean }>> = {
  all: { q: '', translated: true },
  nottranslated: { q: 'state:empty', translated: false },
  todo: { q: 'state:<translated', translated: false },
  fuzzy: { q: 'state:needs-editing', translated: false },
};

function choice<T extends string>(ctx: WriteContext, name: string, allowed: readonly T[], fallback: T): T {
  const value = stringField(ctx.body, name);
  if (value === undefined || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw validationError(name, `"${value}" is not a valid choice.`, 'invalid_choice');
  return value as T;
}

/** The `component` of `auto_source=others`: an id, a slug of the project or `project/component`; visible. */
function componentChoice(ctx: WriteContext, own: Component): Component {
  const raw = field(ctx.body, 'component');
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
  if (text === undefined) throw validationError('component', 'Not a valid component.');
  const found = /^\d{1,15}$/.test(text)
    ? ctx.catalog.componentsById.get(Number(text))
    : (ctx.catalog.componentsByPath.get(text.includes('/') ? text : `${projectOfComponent(ctx, own).slug}/${text}`) ?? undefined);
  if (!found || !ctx.access.component(found)) throw validationError('component', `No component "${text}" found.`);
  return found;
}

/**
 * `POST /api/translations/<p>/<c>/<lang>/autotranslate/` (`translation.auto`): `mode` (suggest, translate, fuzzy),
 * `filter_type` (all, nottranslated, todo, fuzzy) and/or `q`, `auto_source` (others, mt), `component`, `engines`,
 * `threshold`. Starts a background task and answers `{details, task_url}`: the outcome when it ended within two
 * seconds, else "in progress" (follow `task_url`).
 */
export async function autoTranslateTranslation(ctx: WriteContext): Promise<Answer> {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  requirePermission(ctx, 'translation.auto', targetOf(ctx, project, component, translation));
  const mode = choice(ctx, 'mode', MODES, 'suggest');
  const q = stringField(ctx.body, 'q')?.trim() ?? '';
  const filterType = choice(ctx, 'filter_type', Object.keys(FILTERS), q === '' ? 'todo' : 'all');
  const query = [FILTERS[filterType]!.q, q]
    .filter((part) => part !== '')
    .map((part) => `(${part})`)
    .join(' AND ');
  let filter: AutoTranslateJob['filter'];
  try {
    filter = query === '' ? null : parseUnitQuery(query);
  } catch (e) {
    if (e instanceof SearchSyntaxError) throw validationError('q', `Could not parse query string: ${e.message}`);
    throw e;
  }
  const autoSource = choice(ctx, 'auto_source', ['others', 'mt'] as const, 'others');
  const machinery = ctx.services.machinery(project.slug);
  let source: AutoTranslateJob['source'];
  if (autoSource === 'others') {
    const chosen = field(ctx.body, 'component');
    const components =
      chosen === undefined || chosen === null || chosen === ''
        ? ctx.catalog.components.filter((c) => c.projectId === project.id && c.id !== component.id && ctx.access.component(c)).map((c) => c.id)
        : [componentChoice(ctx, component).id];
    source = { kind: 'others', components };
  } else {
    const engines = listField(ctx.body, 'engines');
    const list = typeof engines === 'string' ? [engines] : engines;
    if (!Array.isArray(list) || list.length === 0) throw validationError('engines', 'Select at least one engine for machine translation.');
    for (const e of list) {
      if (typeof e !== 'string' || !machinery.usable(e)) throw validationError('engines', `"${String(e)}" is not a valid choice.`, 'invalid_choice');
    }
    const threshold = field(ctx.body, 'threshold');
    const value = threshold === undefined || threshold === '' ? 80 : Number(threshold);
    if (!Number.isInteger(value) || value < 1 || value > 100) throw validationError('threshold', 'Ensure this value is an integer from 1 to 100.');
    source = { kind: 'mt', engines: [...new Set(list as (typeof ENGINE_IDS)[number][])], threshold: value };
  }
  const pair = pairOf(ctx, translation);
  if (!pair) throw validationError(null, 'The component has no source translation.');
  const key = `${project.slug}/${component.slug}/${ctx.params.language}`;
  if (ctx.services.tasks.running(key)) throw validationError(null, 'Automatic translation of this translation is already running.');
  const job: AutoTranslateJob = {
    translationId: translation.id,
    componentId: component.id,
    pair,
    mode,
    filter,
    overwrite: mode === 'translate' && FILTERS[filterType]!.translated,
    source,
    userId: ctx.user.id,
    projects: ctx.access.projectIds(),
  };
  const { store } = ctx.services;
  const task = ctx.services.tasks.start(key, ctx.user.id, async (report) => ({ ...(await autoTranslate(store, machinery, job, report)) }));
  const ended = await Promise.race([task.done.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2_000).unref())]);
  const details = ended ? String(task.result?.message ?? task.result?.error ?? '') : 'Automatic translation in progress.';
  return json(toJson({ details, task_url: ctx.urls.api(`tasks/${task.id}/`) }));
}

/** `GET /api/tasks/<uuid>/`: a background task of this server (its starter or a superuser): `{completed, progress, result, log}`. */
export function getTask(ctx: RequestContext): Answer {
  const task = ctx.services.tasks.get(ctx.params.uuid ?? '');
  if (!task || (task.ownerId !== ctx.user.id && !ctx.access.principal.superuser) || ctx.user.is_anonymous) throw notFound();
  return json(toJson({ completed: task.completed, progress: task.progress, result: task.result, log: task.log.join('\n') }));
}
