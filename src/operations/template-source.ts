// A monolingual template's source string edited in tms: the string's units in the component's other translations take the new source at once.
import { recheckUnits, refreshInconsistent, refreshSourceChecksOf, settleInconsistent } from '../checks/refresh.js';
import { Action } from '../domain/actions.js';
import { unitContentHash } from '../domain/hash.js';
import { State, splitPlural } from '../domain/unit.js';
import { codePoints, countWords } from '../domain/words.js';
import { getFormat } from '../formats/registry.js';
import { followUnitStats } from '../statistics/follow.js';
import { recordChanges, unitChange } from '../store/changes.repo.js';
import type { ChangeInput, EditableUnit, Tx } from '../store/index.js';
import { type StringSourceUpdate, type StringUnit, setStringSource, stringUnitsOf } from '../store/units.repo.js';

/** The template's string that was edited: its unit, where it is, and the component's file format. */
export interface EditedTemplateString {
  id: number;
  component_id: number;
  project_id: number;
  file_format: string;
}

/**
 * What a string's unit in another translation becomes when the template's source changes from `previous` to `source`
 * (Weblate's update_source_units; the rule a sync applies to the same change read from the files): a translated or
 * approved string needs editing, `previous` its previous source; one needing editing since `source` was its source
 * (the change taken back) is translated again; the others keep their state.
 */
export function sourceChangedState(
  u: Pick<StringUnit, 'state' | 'target' | 'previous_source'>,
  previous: string,
  source: string,
): { state: number; previousSource: string } {
  if (u.state === State.FUZZY && u.previous_source === source && u.target !== '') return { state: State.TRANSLATED, previousSource: '' };
  if (u.state === State.TRANSLATED || u.state === State.APPROVED) return { state: State.FUZZY, previousSource: previous };
  return { state: u.state, previousSource: u.previous_source };
}

/**
 * After an edit of `unit` to `target` was stored (call inside its transaction): where the unit is a monolingual
 * template's string and its text changed, changeTemplateSource. The one step every way of editing a string takes.
 * @example await followTemplateEdit(tx, unit, 'Save all', { userId: 3, timestamp: now() })
 */
export async function followTemplateEdit(
  tx: Tx,
  unit: EditedTemplateString & Pick<EditableUnit, 'is_source' | 'monolingual' | 'target'>,
  target: string,
  change: { userId: number | null; timestamp: string },
): Promise<void> {
  if (!unit.is_source || !unit.monolingual || target === unit.target) return;
  await changeTemplateSource(tx, unit, { previous: unit.target, source: target, ...change });
}

/**
 * After the template's unit `edited` was given the text `source` in place of `previous` (call inside the transaction
 * that stored it): the string's unit in every translation of the component takes `source` as its source (the
 * template's own too), the others' states follow sourceChangedState, each recorded as 30 (Source string changed: the
 * old source and the new); their checks run again and the statistics follow. A translation's file holds no source,
 * so its units stay as they are in it, unless the format states "needs editing" (PO, XLIFF): then the units whose
 * state changed are pending, for the commit to write it. Every step a statement or a few for all the units.
 * @example await changeTemplateSource(tx, edited, { previous: 'Save', source: 'Save all', userId: 3, timestamp: now() })
 */
export async function changeTemplateSource(
  tx: Tx,
  edited: EditedTemplateString,
  change: { previous: string; source: string; userId: number | null; timestamp: string },
): Promise<void> {
  const units = await stringUnitsOf(tx, edited.id);
  const own = units.find((u) => u.id === edited.id);
  if (!own) return;
  const statesInFile = getFormat(edited.file_format).fuzzy === true;
  const updates: StringSourceUpdate[] = [];
  const changes: ChangeInput[] = [];
  for (const u of units) {
    if (u.id === edited.id) {
      updates.push({ id: u.id, state: null, previousSource: null, mark: false });
      continue;
    }
    const next = sourceChangedState(u, change.previous, change.source);
    updates.push({ id: u.id, state: next.state, previousSource: next.previousSource, mark: statesInFile && next.state !== u.state });
    const place = { id: u.id, translation_id: u.translation_id, component_id: edited.component_id, project_id: edited.project_id, language_id: u.language_id };
    changes.push(
      unitChange(place, {
        action: Action.SOURCE_CHANGE,
        timestamp: change.timestamp,
        userId: change.userId,
        authorId: change.userId,
        target: change.source,
        old: change.previous,
        details: { state: next.state, old_state: u.state, source: change.source },
      }),
    );
  }
  const forms = splitPlural(change.source);
  const counted = units.map((u) => ({ id: u.id, translationId: u.translation_id }));
  const translations = [...new Set(counted.map((u) => u.translationId))];
  const ids = counted.map((u) => u.id);
  await followUnitStats(tx, counted, async () => {
    // the write, the changes and the checks' first reads sent together, in this order (the reads see the new source)
    await Promise.all([
      setStringSource(
        tx,
        { text: change.source, contentHash: unitContentHash(forms, own.context), numWords: countWords(forms), numChars: codePoints(change.source) },
        updates,
        change.userId,
      ),
      recordChanges(tx, changes),
      recheckUnits(tx, ids, translations),
    ]);
    const inconsistent = await refreshInconsistent(tx, ids, new Set(translations));
    await refreshSourceChecksOf(tx, new Map([[edited.component_id, new Set([own.id_hash])]]));
    await settleInconsistent(tx, inconsistent);
  });
}
