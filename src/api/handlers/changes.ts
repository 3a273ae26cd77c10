// Handlers for the change history: all, per project, component or translation; filters user, action, time range.
import { ACTION_NAMES } from '../../domain/actions.js';
import { changeRecord, changeRecords, countChangeRecords } from '../../store/changes.query.js';
import type { ChangeFilter } from '../../store/index.js';
import { type Answer, json } from '../answer.js';
import { type RequestContext, queryValue, queryValues } from '../context.js';
import { ApiError, notFound, validationError } from '../errors.js';
import { componentOf, idOf, projectOf, translationOf } from '../lookup.js';
import { paginate } from '../pagination.js';
import { changeSerializer } from '../serializers/change.js';

const ISO_DATE_TIME = /^(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d(?::\d\d(?:\.\d+)?)?))?\s*(Z|[+-]\d\d(?::?\d\d)?)?$/i;

/** An ISO 8601 date or date-time as stored (UTC, `Z`); a time without a zone is UTC, as Weblate's TIME_ZONE. */
export function parseTimestamp(value: string): string | null {
  const m = ISO_DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [, date, time, zone] = m;
  let text = time ? `${date}T${time}` : `${date}T00:00:00`;
  const z = zone?.toUpperCase();
  if (z) text += z.length === 3 ? `${z}:00` : z.length === 5 ? `${z.slice(0, 3)}:${z.slice(3)}` : z;
  else text += 'Z';
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function filterOf(ctx: RequestContext, scope: Partial<ChangeFilter>): ChangeFilter {
  const filter: ChangeFilter = {
    ...scope,
    visibleProjects: ctx.access.projectIds(),
    hiddenComponents: ctx.access.hiddenComponentIds(),
  };
  const user = queryValue(ctx, 'user');
  if (user !== undefined && user !== '') filter.user = user;
  const actions = queryValues(ctx, 'action').filter((a) => a !== '');
  if (actions.length > 0) {
    const bad = actions.filter((a) => !/^\d+$/.test(a) || ACTION_NAMES[Number(a)] === undefined);
    if (bad.length > 0) {
      throw new ApiError(
        400,
        bad.map((a) => ({ code: 'invalid_choice', detail: `Select a valid choice. ${a} is not one of the available choices.`, attr: 'action' })),
        {},
        true,
      );
    }
    filter.actions = actions.map(Number);
  }
  for (const [param, key] of [
    ['timestamp_after', 'after'],
    ['timestamp_before', 'before'],
  ] as const) {
    const raw = queryValue(ctx, param);
    if (raw === undefined || raw === '') continue;
    const parsed = parseTimestamp(raw);
    if (parsed === null) throw validationError(param, 'Enter a valid date/time.');
    filter[key] = parsed;
  }
  return filter;
}

async function list(ctx: RequestContext, scope: Partial<ChangeFilter>): Promise<Answer> {
  const filter = filterOf(ctx, scope);
  const { store } = ctx.services;
  return json(
    await paginate(
      ctx,
      'standard',
      await store.read((tx) => countChangeRecords(tx, filter)),
      (slice) => store.read((tx) => changeRecords(tx, filter, slice)),
      (c) => changeSerializer.write(c, ctx),
    ),
  );
}

export function listChanges(ctx: RequestContext): Promise<Answer> {
  return list(ctx, {});
}

export function listProjectChanges(ctx: RequestContext): Promise<Answer> {
  return list(ctx, { projectId: projectOf(ctx).id });
}

export function listComponentChanges(ctx: RequestContext): Promise<Answer> {
  return list(ctx, { componentId: componentOf(ctx).id });
}

export function listTranslationChanges(ctx: RequestContext): Promise<Answer> {
  return list(ctx, { translationId: translationOf(ctx).id });
}

export async function getChange(ctx: RequestContext): Promise<Answer> {
  const change = await ctx.services.store.read((tx) => changeRecord(tx, idOf(ctx)));
  if (!change) throw notFound();
  const project = change.project_id === null ? undefined : ctx.catalog.projectsById.get(change.project_id);
  const component = change.component_id === null ? undefined : ctx.catalog.componentsById.get(change.component_id);
  if ((project && !ctx.access.project(project)) || (component && !ctx.access.component(component))) throw notFound();
  return json(changeSerializer.write(change, ctx));
}
