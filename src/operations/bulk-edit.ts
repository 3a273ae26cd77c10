// Changes to many strings of a translation at once: Weblate's bulk edit of their state, flags and labels, and search and replace in their translations, each applied in one transaction and recorded per string.

import { flagsText, parseFlags } from '../checks/flags.js';
import { Action } from '../domain/actions.js';
import { forbidden, invalid } from '../domain/errors.js';
import { compileUserReplacer } from '../domain/regex.js';
import { PLURAL_SEPARATOR, State, describeCharacter, unwritableCharacter } from '../domain/unit.js';
import { type ChangeInput, type UnitTargetEdit, now } from '../store/index.js';
import type { Store, UnitFilter } from '../store/index.js';
import type { Label } from '../store/labels.repo.js';
import { isComponentLocked } from '../store/projects.repo.js';
import { type UnitTextRow, translationUnitTexts } from '../store/unit-records.repo.js';
import { sourceStringsOf } from '../store/units.repo.js';
import { COMPONENT_LOCKED } from './lock.js';
import { editSourceStrings } from './source-strings.js';
import { saveUploadedTargets } from './upload.js';

/** The translation a change to many strings applies to, with the ids its change records name. */
export interface BulkTarget {
  projectId: number;
  componentId: number;
  translationId: number;
  languageId: number;
}

/** What the user may do beyond translating: approve (reviews on, `unit.review`), which also lets them change approved strings. */
export interface BulkRights {
  review: boolean;
}

export interface BulkResult {
  /** Strings changed. */
  changed: number;
  /** Strings the search selected but that were left as they were (read-only, approved without review rights, empty). */
  skipped: number;
}

/** Why a selected string is left alone, or null when it may change. */
function leftAlone(unit: UnitTextRow, rights: BulkRights): string | null {
  if (unit.state === State.READONLY) return 'read-only';
  if (unit.state === State.APPROVED && !rights.review) return 'approved';
  return null;
}

async function apply(store: Store, to: BulkTarget, edits: UnitTargetEdit[], changes: ChangeInput[]): Promise<void> {
  if (edits.length === 0) return;
  await store.write(async (tx) => {
    if (await isComponentLocked(tx, to.componentId)) throw forbidden(COMPONENT_LOCKED);
    await saveUploadedTargets(tx, to.translationId, edits, changes);
  });
}

function change(to: BulkTarget, user: { id: number }, unit: UnitTextRow, action: number, target: string, state: number, timestamp: string): ChangeInput {
  return {
    action,
    timestamp,
    projectId: to.projectId,
    componentId: to.componentId,
    translationId: to.translationId,
    unitId: unit.id,
    languageId: to.languageId,
    userId: user.id,
    authorId: user.id,
    target,
    old: unit.target,
    details: { state, old_state: unit.state, source: unit.source },
  };
}

/** The flags of a string with `add` set (a flag of the same name replaced) and the names in `remove` taken out. */
export function editedFlags(current: string, add: string, remove: string): string {
  const flags = parseFlags(current);
  parseFlags(add, flags);
  for (const name of parseFlags(remove).keys()) flags.delete(name);
  return flagsText(flags);
}

/** What a bulk edit changes: the state (null: kept), flags to add and remove (Weblate's flag lists), labels to put on and take off. */
export interface BulkEdit {
  state: number | null;
  addFlags: string;
  removeFlags: string;
  addLabels?: readonly Label[];
  removeLabels?: readonly Label[];
  filter: UnitFilter | null;
  user: { id: number };
  rights: BulkRights;
}

/**
 * Weblate's bulk edit of the strings a search selects: their state set to needs editing, translated (waiting for
 * review) or approved (`rights.review` needed), flags added or removed and labels put on or taken off (a string's
 * flags and labels are its source's, so the string changes in every language of the component and its checks run
 * again). Read-only and empty strings, and approved ones without review rights, keep their state; each state change
 * is recorded as 32 (Bulk status changed) and the strings become pending; flags and labels are recorded on the source
 * string (79, 86, 87), all in one transaction with the checks and statistics. Throws ForbiddenError while the
 * component is locked.
 * @example await bulkEdit(store, target, { state: State.FUZZY, addFlags: '', removeFlags: '', filter, user, rights })
 */
export async function bulkEdit(store: Store, to: BulkTarget, edit: BulkEdit): Promise<BulkResult & { flagged: number; labelled: number }> {
  if (await store.read((tx) => isComponentLocked(tx, to.componentId))) throw forbidden(COMPONENT_LOCKED);
  const units = await store.read((tx) => translationUnitTexts(tx, to.translationId, edit.filter));
  const timestamp = now();
  const edits: UnitTargetEdit[] = [];
  const changes: ChangeInput[] = [];
  let skipped = 0;
  if (edit.state !== null) {
    for (const u of units) {
      if (u.state === edit.state) continue;
      if (leftAlone(u, edit.rights) !== null || u.state === State.EMPTY) {
        skipped++;
        continue;
      }
      edits.push({ id: u.id, target: u.target, state: edit.state, authorId: edit.user.id, timestamp });
      changes.push(change(to, edit.user, u, Action.BULK_EDIT, u.target, edit.state, timestamp));
    }
  }
  const flags = edit.addFlags.trim() !== '' || edit.removeFlags.trim() !== '';
  const labels = (edit.addLabels?.length ?? 0) > 0 || (edit.removeLabels?.length ?? 0) > 0;
  if (edits.length === 0 && !((flags || labels) && units.length > 0)) return { changed: 0, skipped, flagged: 0, labelled: 0 };
  const source = await store.write(async (tx) => {
    if (await isComponentLocked(tx, to.componentId)) throw forbidden(COMPONENT_LOCKED);
    let done = { flagged: 0, labelled: 0 };
    if (flags || labels) {
      const strings = [
        ...(
          await sourceStringsOf(
            tx,
            units.map((u) => u.id),
          )
        ).values(),
      ];
      done = await editSourceStrings(
        tx,
        strings,
        {
          flags: flags ? (current) => editedFlags(current, edit.addFlags, edit.removeFlags) : undefined,
          addLabels: edit.addLabels,
          removeLabels: edit.removeLabels,
        },
        edit.user,
        timestamp,
      );
    }
    if (edits.length > 0) await saveUploadedTargets(tx, to.translationId, edits, changes);
    return done;
  });
  return { changed: edits.length, skipped, ...source };
}

/** What to replace: a text, or an RE2 pattern (`regex`) whose replacement may name its groups (`$1`). */
export interface ReplaceSpec {
  search: string;
  replacement: string;
  regex: boolean;
  filter: UnitFilter | null;
}

/** One string's translation before and after a replacement. */
export interface PlannedReplacement {
  unit: UnitTextRow;
  target: string;
}

/**
 * The strings a replacement changes, with their new translations (the preview): each plural form apart, read-only
 * and empty strings and approved ones without review rights left out (counted in `skipped`). Throws ValidationError
 * on an empty search, a pattern RE2 does not take, or a result no file can hold.
 */
export async function planReplace(
  store: Store,
  to: BulkTarget,
  spec: ReplaceSpec,
  rights: BulkRights,
): Promise<{ planned: PlannedReplacement[]; skipped: number }> {
  if (spec.search === '') throw invalid('search', 'Say what to search for.');
  let replace: (text: string) => string;
  if (spec.regex) {
    let pattern: ReturnType<typeof compileUserReplacer>;
    try {
      pattern = compileUserReplacer(spec.search);
    } catch (e) {
      throw invalid('search', `Not a regular expression RE2 takes: ${(e as Error).message}`);
    }
    replace = (text) => pattern.replace(text, spec.replacement);
  } else {
    replace = (text) => text.split(spec.search).join(spec.replacement);
  }
  const units = await store.read((tx) => translationUnitTexts(tx, to.translationId, spec.filter));
  const planned: PlannedReplacement[] = [];
  let skipped = 0;
  for (const u of units) {
    if (u.target === '' || u.state === State.EMPTY) continue;
    const target = u.target
      .split(PLURAL_SEPARATOR)
      .map((form) => replace(form))
      .join(PLURAL_SEPARATOR);
    if (target === u.target) continue;
    if (leftAlone(u, rights) !== null) {
      skipped++;
      continue;
    }
    for (const form of target.split(PLURAL_SEPARATOR)) {
      const bad = unwritableCharacter(form);
      if (bad !== null) throw invalid('replacement', `The replacement puts a control character or unpaired surrogate into a string: ${describeCharacter(bad)}`);
    }
    planned.push({ unit: u, target });
  }
  return { planned, skipped };
}

/**
 * Search and replace in a translation: the planned replacements applied in one transaction, each string keeping its
 * state (the checks may mark it as needing editing), recorded as 27 (Search and replace) and pending.
 * @example await replaceInTranslation(store, target, { search: 'Datei', replacement: 'File', regex: false, filter: null }, user, rights)
 */
export async function replaceInTranslation(store: Store, to: BulkTarget, spec: ReplaceSpec, user: { id: number }, rights: BulkRights): Promise<BulkResult> {
  if (await store.read((tx) => isComponentLocked(tx, to.componentId))) throw forbidden(COMPONENT_LOCKED);
  const { planned, skipped } = await planReplace(store, to, spec, rights);
  const timestamp = now();
  const edits = planned.map((p) => ({ id: p.unit.id, target: p.target, state: p.unit.state, authorId: user.id, timestamp }));
  const changes = planned.map((p) => change(to, user, p.unit, Action.REPLACE, p.target, p.unit.state, timestamp));
  await apply(store, to, edits, changes);
  return { changed: planned.length, skipped };
}
