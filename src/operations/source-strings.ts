// What belongs to a source string rather than to one translation: its flags kept in tms (`extra_flags`) and its labels, changed and recorded as Weblate records them.
import { recheckUnits } from '../checks/refresh.js';
import { Action } from '../domain/actions.js';
import { recordChangeRows, unitChange } from '../store/changes.repo.js';
import type { ChangeInput, Tx } from '../store/index.js';
import { type Label, editUnitLabels } from '../store/labels.repo.js';
import { refreshStats } from '../store/stats.repo.js';
import { type SourceString, componentUnitsByHash, setExtraFlags } from '../store/units.repo.js';

/** A change to source strings: their new flags (from the current ones), labels to put on and to take off. */
export interface SourceEdit {
  flags?: (current: string) => string;
  addLabels?: readonly Label[];
  removeLabels?: readonly Label[];
}

/**
 * Applies `edit` to source strings inside the caller's transaction: a string's new flags are set on its unit in every
 * translation of the component (its checks run again, statistics follow) and recorded once, on the source string, as
 * 79 (Extra flags updated); each label put on or taken off is recorded there as 86 (Label added) or 87 (Label
 * removed), with the label's name as the change's target. Answers how many strings' flags and labels changed.
 * @example await editSourceStrings(tx, [source], { addLabels: [ui] }, { id: 7 }, now())
 */
export async function editSourceStrings(
  tx: Tx,
  strings: readonly SourceString[],
  edit: SourceEdit,
  user: { id: number },
  timestamp: string,
): Promise<{ flagged: number; labelled: number }> {
  const changes: ChangeInput[] = [];
  const recorded = (s: SourceString, action: number, target: string, old = '') =>
    unitChange({ ...s }, { action, timestamp, userId: user.id, authorId: user.id, target, old });
  let flagged = 0;
  if (edit.flags) {
    const updates: { id: number; extraFlags: string }[] = [];
    const translations = new Set<number>();
    for (const s of strings) {
      const flags = edit.flags(s.extra_flags);
      if (flags === s.extra_flags) continue;
      flagged++;
      changes.push(recorded(s, Action.EXTRA_FLAGS, flags, s.extra_flags));
      for (const u of await componentUnitsByHash(tx, s.component_id, s.id_hash)) {
        updates.push({ id: u.id, extraFlags: flags });
        translations.add(u.translation_id);
      }
    }
    if (updates.length > 0) {
      await setExtraFlags(tx, updates);
      await recheckUnits(
        tx,
        updates.map((u) => u.id),
      );
      await refreshStats(tx, translations);
    }
  }
  const add = edit.addLabels ?? [];
  const remove = edit.removeLabels ?? [];
  let labelled = 0;
  if (add.length > 0 || remove.length > 0) {
    const byId = new Map(strings.map((s) => [s.id, s]));
    const names = new Map([...add, ...remove].map((l) => [l.id, l.name]));
    const changed = await editUnitLabels(
      tx,
      [...byId.keys()],
      add.map((l) => l.id),
      remove.map((l) => l.id),
    );
    for (const c of changed) changes.push(recorded(byId.get(c.unitId)!, c.added ? Action.LABEL_ADD : Action.LABEL_REMOVE, names.get(c.labelId)!));
    labelled = new Set(changed.map((c) => c.unitId)).size;
  }
  if (changes.length > 0) await recordChangeRows(tx, changes);
  return { flagged, labelled };
}
