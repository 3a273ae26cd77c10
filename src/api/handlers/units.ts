// Handlers for units: a translation's units (position order, ?q=), all units (id order), one unit.
import type { UnitFilter } from '../../store/index.js';
import { countTranslationUnitRecords, countUnitRecords, translationUnitRecords, unitRecord, unitRecords } from '../../store/unit-records.repo.js';
import { type Answer, json } from '../answer.js';
import { type RequestContext, queryValue } from '../context.js';
import { notFound, validationError } from '../errors.js';
import { idOf, translationOf } from '../lookup.js';
import { paginate } from '../pagination.js';
import { SearchSyntaxError, parseUnitQuery } from '../search.js';
import { unitSerializer } from '../serializers/unit.js';

/** The `q` filter of the request (unit lists, file conversions); a query that does not parse is a 400 on `q`. */
export function unitFilterOf(ctx: RequestContext): UnitFilter | null {
  const q = queryValue(ctx, 'q');
  if (q === undefined) return null;
  try {
    return parseUnitQuery(q);
  } catch (e) {
    if (e instanceof SearchSyntaxError) throw validationError('q', `Could not parse query string: ${e.message}`);
    throw e;
  }
}

export async function listTranslationUnits(ctx: RequestContext): Promise<Answer> {
  const translation = translationOf(ctx);
  const filter = unitFilterOf(ctx);
  const source = (ctx.catalog.translationsByComponent.get(translation.componentId) ?? []).find((tr) => tr.isSource);
  const { store } = ctx.services;
  return json(
    await paginate(
      ctx,
      'standard',
      await store.read((tx) => countTranslationUnitRecords(tx, translation.id, filter)),
      (slice) => store.read((tx) => translationUnitRecords(tx, translation.id, source?.id ?? null, filter, slice)),
      (u) => unitSerializer.write(u, ctx),
    ),
  );
}

export async function listUnits(ctx: RequestContext): Promise<Answer> {
  const filter = unitFilterOf(ctx);
  const visible = ctx.access.translationIds();
  const { store } = ctx.services;
  return json(
    await paginate(
      ctx,
      'large',
      await store.read((tx) => countUnitRecords(tx, visible, filter)),
      (slice) => store.read((tx) => unitRecords(tx, visible, filter, slice, { byId: ctx.access.unitsById() })),
      (u) => unitSerializer.write(u, ctx),
    ),
  );
}

export async function getUnit(ctx: RequestContext): Promise<Answer> {
  const unit = await ctx.services.store.read((tx) => unitRecord(tx, idOf(ctx)));
  const translation = unit && ctx.catalog.translationsById.get(unit.translationId);
  if (!unit || !translation || !ctx.access.translation(translation)) throw notFound();
  return json(unitSerializer.write(unit, ctx));
}
