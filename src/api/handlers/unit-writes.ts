// Handlers that change strings: translate a unit (PATCH/PUT), add a string to a translation (POST …/units/), delete a string.
import { State } from '../../domain/unit.js';
import { addUnit, deleteUnit, editUnit } from '../../operations/index.js';
import type { UnitRecord } from '../../store/index.js';
import { unitRecord } from '../../store/unit-records.repo.js';
import { type Answer, json } from '../answer.js';
import { hasField, integerField, listField, stringField } from '../body.js';
import type { RequestContext } from '../context.js';
import { notFound, permissionDenied, validationError } from '../errors.js';
import { toJson } from '../json.js';
import { projectOfComponent, translationOf } from '../lookup.js';
import { unitSerializer } from '../serializers/unit.js';
import { type WriteContext, fieldsError, handleOf, mayEditElsewhere, refusal, refusalText, requirePermission, targetOf } from '../write.js';

const BOTH = 'Please provide both state and target for a partial update';
const SOURCE_PROPERTIES = 'Source strings properties can be set only on source strings';

/** A unit by `{id}` with its translation, component and project; 404 when it is not visible. */
async function unitOf(ctx: RequestContext) {
  const raw = ctx.params.id;
  if (!/^\d{1,15}$/.test(raw!)) throw notFound();
  const unit = await ctx.services.store.read((tx) => unitRecord(tx, Number.parseInt(raw!, 10)));
  const translation = unit && ctx.catalog.translationsById.get(unit.translationId);
  if (!unit || !translation || !ctx.access.translation(translation)) throw notFound();
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  return { unit, translation, component, project: projectOfComponent(ctx, component) };
}

/** `target` as Weblate's PluralField takes it: a list of strings, or one string for a singular unit. */
function targetList(ctx: WriteContext): string[] {
  const value = listField(ctx.body, 'target');
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value))
    throw validationError('target', `Expected a list of items but got type "${typeof value === 'number' ? 'int' : 'dict'}".`, 'not_a_list');
  value.forEach((v, i) => {
    if (typeof v !== 'string') throw validationError(`target.${i}`, 'Not a valid string.');
  });
  return value as string[];
}

/** The write serializer's view of a unit: what PATCH and PUT answer. */
function writeView(unit: UnitRecord, target: string[]): string {
  return toJson({ target, state: unit.state, explanation: unit.explanation, extra_flags: unit.extraFlags, labels: [] });
}

/**
 * `PATCH /api/units/<id>/` (and `PUT` with `full`): translates the unit when `target` or `state` is sent (both
 * needed), as Weblate's UnitWriteSerializer; records 5/2/36/37 and leaves the unit pending.
 */
export async function updateUnit(ctx: WriteContext, full: boolean): Promise<Answer> {
  const { unit, translation, component, project } = await unitOf(ctx);
  const body = ctx.body;
  if (full) {
    const missing = ['target', 'labels'].filter((name) => !hasField(body, name));
    if (missing.length > 0) throw fieldsError(missing, 'This field is required.', 'required');
  }
  // tms keeps no labels and no source string properties: only what the unit has already is accepted.
  const labels = listField(body, 'labels');
  if (labels !== undefined && !(Array.isArray(labels) && labels.length === 0)) {
    throw validationError('labels', 'tms keeps no labels: only an empty list is accepted.');
  }
  for (const [name, current] of [
    ['explanation', unit.explanation],
    ['extra_flags', unit.extraFlags],
  ] as const) {
    const value = stringField(body, name);
    if (value === undefined || value === current) continue;
    if (!(translation.isSource && unit.sourceUnitId === null)) throw permissionDenied(SOURCE_PROPERTIES);
    throw validationError(name, 'tms does not store source string properties yet.');
  }
  const hasTarget = hasField(body, 'target');
  const hasState = hasField(body, 'state');
  let target = unit.target.split('\u001e\u001e');
  if (hasTarget || hasState) {
    if (!hasTarget || !hasState) throw fieldsError(['state', 'target'], BOTH);
    target = targetList(ctx);
    const state = integerField(body, 'state');
    if (state === undefined) throw validationError('state', 'This field may not be null.', 'null');
    const on = targetOf(ctx, project, component, translation, unit);
    requirePermission(ctx, 'unit.edit', on);
    if (state === State.APPROVED) {
      const reason = refusal(ctx, 'unit.review', on);
      if (reason !== null) throw validationError('state', refusalText(reason) ?? 'You do not have permission to approve translations.');
    }
    const result = await editUnit(ctx.services.store, {
      unitId: unit.id,
      target,
      state,
      user: ctx.user,
      maxChars: ctx.services.config.max_string_chars,
      // the same string elsewhere in the project is filled when the user may edit it there (as an edit of its own)
      mayPropagateTo: mayEditElsewhere(ctx),
    });
    target = result.target;
  }
  const after = (await ctx.services.store.read((tx) => unitRecord(tx, unit.id))) ?? unit;
  return json(writeView(after, target));
}

/**
 * `POST /api/translations/<p>/<c>/<lang>/units/`: adds a string (`key` + `value` to a monolingual component's
 * source, `context?` + `source` + `target` to a bilingual one); answers the new unit, as Weblate (200).
 */
export async function addTranslationUnit(ctx: WriteContext): Promise<Answer> {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  requirePermission(ctx, 'unit.add', targetOf(ctx, project, component, translation));
  const body = ctx.body;
  const state = integerField(body, 'state');
  const result = await addUnit(await handleOf(ctx, project, component), ctx.params.language!, {
    key: stringField(body, 'key'),
    value: listField(body, 'value') as string[] | undefined,
    context: stringField(body, 'context'),
    source: listField(body, 'source') as string[] | undefined,
    target: listField(body, 'target') as string[] | undefined,
    state,
    user: ctx.user,
  });
  const fresh = await ctx.reload();
  const unit = await fresh.services.store.read((tx) => unitRecord(tx, result.unitId));
  if (!unit) throw notFound();
  return json(unitSerializer.write(unit, fresh));
}

/** `DELETE /api/units/<id>/`: removes the string from every translation of its component (63 per unit); 204. */
export async function removeUnit(ctx: WriteContext): Promise<Answer> {
  const { unit, translation, component, project } = await unitOf(ctx);
  requirePermission(ctx, 'unit.delete', targetOf(ctx, project, component, translation, unit));
  await deleteUnit(await handleOf(ctx, project, component), unit.id, ctx.user);
  return { status: 204, bytes: new Uint8Array(), contentType: '' };
}
