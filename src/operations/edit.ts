// Translating a unit: Weblate's validation, the pending mark with its author, the change record and statistics at once.

import { enforceChecks } from '../checks/refresh.js';
import type { Actor } from '../component/handle.js';
import { Action } from '../domain/actions.js';
import { NotFoundError, forbidden, invalid } from '../domain/errors.js';
import { PLURAL_SEPARATOR, State, describeCharacter, joinPlural, splitPlural, unwritableCharacter } from '../domain/unit.js';
import { followUnitStats } from '../statistics/follow.js';
import { type UnitPlace, unitChange } from '../store/changes.repo.js';
import { findEditableUnit, propagationTargets, setPendingTargets } from '../store/edits.repo.js';
import { type ChangeInput, type EditableUnit, type Store, type Tx, now } from '../store/index.js';
import { isComponentLocked } from '../store/projects.repo.js';
import { COMPONENT_LOCKED } from './lock.js';
import { pluralForms } from './plural-forms.js';
import { followTemplateEdit } from './template-source.js';

/**
 * An edit that cannot be applied. `kind: 'invalid'` is bad input on `field` (the API answers 400 with
 * `attr = field`); `kind: 'forbidden'` is a unit that cannot be translated (read-only, a source string of a
 * bilingual component, a locked component; the API answers 403).
 */
export interface UnitEdit {
  unitId: number;
  /** One string per plural form (a one-element list for a singular unit). */
  target: readonly string[];
  /** 0 empty, 10 needs editing, 20 translated, 30 approved (only with review enabled). */
  state: number;
  user: Actor;
  /** The longest text a plural form may have (the configuration's `max_string_chars`); unlimited when absent. */
  maxChars?: number;
  /**
   * Whether the user may edit a unit the edit propagates to (the same string in another component of the project);
   * absent: the edit is not propagated.
   */
  mayPropagateTo?: (target: { projectId: number; componentId: number; translationId: number; state: number }) => boolean;
}

export interface UnitEditResult {
  unitId: number;
  /** False when target and state were already these: nothing was stored or recorded. */
  changed: boolean;
  /** The change action recorded (5, 2, 36 or 37), null when nothing changed. */
  action: number | null;
  changeId: number | null;
  target: string[];
  state: number;
  pending: boolean;
  /** The units of other components the edit was propagated to (change 77 each). */
  propagated: number[];
}

const EDITABLE_STATES: ReadonlySet<number> = new Set([State.EMPTY, State.FUZZY, State.TRANSLATED, State.APPROVED]);

/** The action Weblate records for a translation going from `oldState` to `newState` (§5.7.2). */
export function editAction(oldState: number, newState: number): number {
  if (newState === State.FUZZY) return Action.MARKED_EDIT;
  if (newState === State.APPROVED) return Action.APPROVE;
  return oldState >= State.FUZZY ? Action.CHANGE : Action.NEW;
}

/**
 * Translates a unit: validates as Weblate's unit PATCH does, stores target and state as a pending edit by
 * `user`, records the change (5 added, 2 changed, 36 approved, 37 marked for edit), runs the quality checks (a
 * failing check the component enforces makes a translated string "needs editing", change 76) and refreshes the
 * translation's statistics, all in one transaction; a translated edit fills the same string (source, context,
 * language) in the project's other components that allow propagation and `mayPropagateTo` allows, each an edit of its
 * own (change 77, checked as any edit). The file is written later, by `commitPending`.
 * Throws NotFoundError for an unknown unit, ValidationError (on `target` or `state`) for an edit that cannot be
 * applied, and ForbiddenError for a string that cannot be edited.
 * @example await editUnit(store, { unitId: 42, target: ['Datei öffnen'], state: 20, user: { id: 3 } })
 */
export async function editUnit(store: Store, edit: UnitEdit): Promise<UnitEditResult> {
  const unit = await store.read((tx) => findEditableUnit(tx, edit.unitId));
  if (!unit) throw new NotFoundError('unit', String(edit.unitId));

  if (await store.read((tx) => isComponentLocked(tx, unit.component_id))) throw forbidden(COMPONENT_LOCKED);
  if (unit.is_source && !unit.monolingual) throw forbidden('Source strings of a bilingual component cannot be translated.');
  if (unit.state === State.READONLY) throw forbidden('The string is read-only.');
  if (!Array.isArray(edit.target) || edit.target.some((t) => typeof t !== 'string')) throw invalid('target', 'Not a valid list of strings.');
  if (!Number.isInteger(edit.state) || !EDITABLE_STATES.has(edit.state)) throw invalid('state', 'Invalid state');
  const plural = unit.source.includes(PLURAL_SEPARATOR);
  const expected = plural ? pluralForms(unit) : 1;
  if (edit.target.length !== expected) throw invalid('target', 'Number of plurals does not match');
  // What the store keeps is what the file gets: text no file can hold is refused, not stored to be dropped later.
  for (const [i, text] of edit.target.entries()) {
    const field = expected > 1 ? `target.${i}` : 'target';
    const bad = unwritableCharacter(text);
    if (bad !== null) throw invalid(field, `String contains control character or unpaired surrogate: ${describeCharacter(bad)}`);
    if (edit.maxChars !== undefined && text.length > edit.maxChars) {
      throw invalid(field, `Ensure this field has no more than ${edit.maxChars} characters (it has ${text.length}).`);
    }
  }
  const empty = edit.target.every((t) => t === '');
  if (edit.state === State.EMPTY && !empty) throw invalid('state', 'Can not use empty state with non empty target');
  if (edit.state !== State.EMPTY && empty) throw invalid('state', 'Can not use non empty state with empty target');
  if (edit.state === State.APPROVED && !unit.review) {
    throw invalid('state', 'Approved state is not available as reviews are not enabled.');
  }

  const target = joinPlural(edit.target);
  if (target === unit.target && edit.state === unit.state) {
    return {
      unitId: unit.id,
      changed: false,
      action: null,
      changeId: null,
      target: splitPlural(unit.target),
      state: unit.state,
      pending: unit.pending === 1,
      propagated: [],
    };
  }
  const action = editAction(unit.state, edit.state);
  const timestamp = now();
  const change = (u: UnitPlace & { target: string; state: number; source: string }, action: number, state: number): ChangeInput =>
    unitChange(u, {
      action,
      timestamp,
      userId: edit.user.id,
      authorId: edit.user.id,
      target,
      old: u.target,
      details: { state, old_state: u.state, source: u.source },
    });
  let propagated: number[] = [];
  const saved = await store.write(async (tx) => {
    const saved = await saveUnitEdit(tx, unit, { target, state: edit.state, authorId: edit.user.id, timestamp, change: change(unit, action, edit.state) });
    // a monolingual template's text is its strings' source in every translation
    await followTemplateEdit(tx, unit, target, { userId: edit.user.id, timestamp });
    if (edit.mayPropagateTo && saved.state >= State.TRANSLATED) {
      propagated = await propagateEdit(tx, unit, {
        target,
        plurals: expected,
        userId: edit.user.id,
        authorId: edit.user.id,
        timestamp,
        mayPropagateTo: edit.mayPropagateTo,
      });
    }
    return saved;
  });
  return { unitId: unit.id, changed: true, action, changeId: saved.changeId, target: [...edit.target], state: saved.state, pending: true, propagated };
}

/**
 * Fills the same string (source, context, language) in the project's other components that allow propagation with a
 * translated `target` stored on `unit` (call inside the transaction that stored it): each a translated edit of its
 * own (Weblate's 77, by `userId`, the text's author `authorId`), checked as any edit, where `mayPropagateTo` allows it; read-only and approved
 * strings, ones holding this text already, other plural counts and locked components are left alone. Returns the
 * units filled.
 */
export async function propagateEdit(
  tx: Tx,
  unit: Pick<EditableUnit, 'id' | 'source'>,
  edit: {
    target: string;
    /** The unit's translation's plural forms (pluralForms). */
    plurals: number;
    /** Who made the edit (the changes' user), and whose text it is (their author). */
    userId: number;
    authorId: number;
    timestamp: string;
    mayPropagateTo: NonNullable<UnitEdit['mayPropagateTo']>;
  },
): Promise<number[]> {
  const forms = splitPlural(unit.source).length;
  const state = State.TRANSLATED;
  const edits: (UnitEditSave & { unit: Pick<EditableUnit, 'id' | 'translation_id'> })[] = [];
  for (const other of await propagationTargets(tx, unit.id)) {
    if (other.state === State.READONLY || other.state === State.APPROVED || (other.target === edit.target && other.state === state)) continue;
    if (splitPlural(other.source).length !== forms || (forms > 1 && other.plural_number !== edit.plurals)) continue;
    if (Number(other.locked) === 1) continue;
    const scope = { projectId: other.project_id, componentId: other.component_id, translationId: other.translation_id, state: other.state };
    if (!edit.mayPropagateTo(scope)) continue;
    const change = unitChange(other, {
      action: Action.PROPAGATED_EDIT,
      timestamp: edit.timestamp,
      userId: edit.userId,
      authorId: edit.authorId,
      target: edit.target,
      old: other.target,
      details: { state, old_state: other.state, source: other.source },
    });
    edits.push({ unit: other, target: edit.target, state, authorId: edit.authorId, timestamp: edit.timestamp, change });
  }
  // saved together: the string's `inconsistent` and the project's traits are settled once, not once per unit filled
  await saveUnitEdits(tx, edits);
  return edits.map((e) => e.unit.id);
}

/** An edit to store: target and state by its author at `timestamp`, with its change record. */
export interface UnitEditSave {
  target: string;
  state: number;
  authorId: number;
  timestamp: string;
  change: ChangeInput;
}

/**
 * Stores an edit as pending with its change record, its checks and the statistics (call inside a transaction).
 * A translated string failing a check the component enforces is saved as needing editing (change 76), as Weblate
 * does. Returns the change id and the state stored.
 */
export async function saveUnitEdit(
  tx: Tx,
  unit: Pick<EditableUnit, 'id' | 'translation_id'>,
  edit: UnitEditSave,
): Promise<{ changeId: number; state: number }> {
  const [saved] = await saveUnitEdits(tx, [{ unit, ...edit }]);
  return saved!;
}

/**
 * saveUnitEdit for several units at once (call inside a transaction): the changes recorded in order (each unit's
 * 76 right after its own change), the checks run together and the strings' `inconsistent` settled once; each
 * unit's translation's statistics move by its share. Returns, per edit in order, its change id and the state stored.
 */
export async function saveUnitEdits(
  tx: Tx,
  edits: readonly (UnitEditSave & { unit: Pick<EditableUnit, 'id' | 'translation_id'> })[],
): Promise<{ changeId: number; state: number }[]> {
  if (edits.length === 0) return [];
  const units = edits.map((e) => ({ id: e.unit.id, translationId: e.unit.translation_id }));
  // a few units changed: their translations' statistics move by their shares instead of being counted again
  // each step a statement or a few for all the units (a statement per unit cost a round trip each on PostgreSQL,
  // all inside the store's write lock)
  return followUnitStats(tx, units, async () => {
    // the targets' write sent with the checks' first reads, which come after it and see it (its answer is not needed)
    const pending = setPendingTargets(
      tx,
      edits.map((e) => ({ ...e, unitId: e.unit.id })),
    );
    const changeIds = new Map<number, number>();
    const [, states] = await Promise.all([
      pending,
      enforceChecks(
        tx,
        edits.map((e) => ({ id: e.unit.id, translationId: e.unit.translation_id, state: e.state, change: e.change })),
        [...new Set(units.map((u) => u.translationId))],
        { changeIds },
      ),
    ]);
    return edits.map((e) => ({ changeId: changeIds.get(e.unit.id)!, state: states.get(e.unit.id) ?? e.state }));
  });
}
