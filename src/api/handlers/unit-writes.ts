// Handlers that change strings: translate a unit (PATCH/PUT), add a string to a translation (POST …/units/), delete a string.
import { State } from '../../domain/unit.js';
import { COMPONENT_LOCKED, addUnit, deleteUnit, editSourceStrings, editUnit, editedFlags } from '../../operations/index.js';
import { type UnitRecord, now } from '../../store/index.js';
import { type Label, projectLabels } from '../../store/labels.repo.js';
import { isComponentLocked } from '../../store/projects.repo.js';
import { unitRecord } from '../../store/unit-records.repo.js';
import { sourceStringsOf } from '../../store/units.repo.js';
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
  return toJson({ target, state: unit.state, explanation: unit.explanation, extra_flags: unit.extraFlags, labels: unit.labels.map((l) => l.id) });
}

/** `labels` of a write: a list of the project's label ids (DRF's "Invalid pk" otherwise). */
function labelsField(body: WriteContext['body'], projectLabels: readonly Label[]): Label[] | undefined {
  const value = listField(body, 'labels');
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => {
    const id = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isInteger(id))
      throw validationError('labels', `Incorrect type. Expected pk value, received ${typeof v === 'string' ? 'str' : typeof v}.`, 'incorrect_type');
    const label = projectLabels.find((l) => l.id === id);
    if (!label) throw validationError('labels', `Invalid pk "${id}" - object does not exist.`, 'does_not_exist');
    return label;
  });
}

/**
 * The source string properties of a write (`extra_flags`, `labels`; `explanation` only as it is): changed only on a
 * source string by whoever may edit sources (403 "Source strings properties can be set only on source strings"
 * otherwise), as Weblate; a value equal to the current one is no change.
 */
async function sourceProperties(ctx: WriteContext, at: Awaited<ReturnType<typeof unitOf>>): Promise<void> {
  const { unit, translation, component, project } = at;
  const body = ctx.body;
  const explanation = stringField(body, 'explanation');
  const flags = stringField(body, 'extra_flags');
  const wanted = labelsField(body, hasField(body, 'labels') ? await ctx.services.store.read((tx) => projectLabels(tx, project.id)) : []);
  const current = new Set(unit.labels.map((l) => l.id));
  const addLabels = (wanted ?? []).filter((l) => !current.has(l.id));
  const removeLabels = wanted === undefined ? [] : unit.labels.filter((l) => !wanted.some((w) => w.id === l.id));
  const newFlags = flags === undefined ? undefined : editedFlags('', flags, '');
  const flagsChange = newFlags !== undefined && newFlags !== unit.extraFlags;
  const explanationChange = explanation !== undefined && explanation !== unit.explanation;
  if (!flagsChange && !explanationChange && addLabels.length === 0 && removeLabels.length === 0) return;
  if (!translation.isSource) throw permissionDenied(SOURCE_PROPERTIES);
  requirePermission(ctx, 'source.edit', targetOf(ctx, project, component, translation));
  if (explanationChange) throw validationError('explanation', 'tms does not store explanations of source strings yet.');
  const store = ctx.services.store;
  if (await store.read((tx) => isComponentLocked(tx, component.id))) throw permissionDenied(COMPONENT_LOCKED);
  await store.write(async (tx) => {
    const source = (await sourceStringsOf(tx, [unit.id])).get(unit.id);
    if (!source) throw notFound();
    await editSourceStrings(tx, [source], { flags: flagsChange ? () => newFlags : undefined, addLabels, removeLabels }, ctx.user, now());
  });
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
  await sourceProperties(ctx, { unit, translation, component, project });
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
