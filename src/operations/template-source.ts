// A monolingual template's source strings edited in tms: the strings' units in the component's other translations take the new source at once.
import { recheckUnits, refreshInconsistent, refreshSourceChecksOf, settleInconsistent } from '../checks/refresh.js';
import { Action } from '../domain/actions.js';
import { unitContentHash } from '../domain/hash.js';
import { State, splitPlural } from '../domain/unit.js';
import { codePoints, countWords } from '../domain/words.js';
import { getFormat } from '../formats/registry.js';
import { followUnitStats } from '../statistics/follow.js';
import { recordChanges, unitChange } from '../store/changes.repo.js';
import type { ChangeInput, EditableUnit, Tx } from '../store/index.js';
import { type StringSourceUpdate, type StringUnit, setStringSources, stringUnitsOf, templateTranslationOf, unitTargetsOf } from '../store/units.repo.js';

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
 * template's string and its text changed, changeTemplateSources. The step an edit and an accepted suggestion take.
 * @example await followTemplateEdit(tx, unit, 'Save all', { userId: 3, timestamp: now() })
 */
export async function followTemplateEdit(
  tx: Tx,
  unit: EditedTemplateString & Pick<EditableUnit, 'is_source' | 'monolingual' | 'target'>,
  target: string,
  change: { userId: number | null; timestamp: string },
): Promise<void> {
  if (!unit.is_source || !unit.monolingual || target === unit.target) return;
  await changeTemplateSources(tx, unit, [{ id: unit.id, previous: unit.target, source: target }], change);
}

/**
 * Before targets are stored on units of translation `translationId` (uploaded, replaced; call inside the transaction
 * that stores them): where it is a monolingual template, changeTemplateSources for the strings whose text changes.
 */
export async function followTemplateTargets(
  tx: Tx,
  translationId: number,
  edits: readonly { id: number; target: string }[],
  change: { userId: number | null; timestamp: string },
): Promise<void> {
  const template = edits.length > 0 ? await templateTranslationOf(tx, translationId) : undefined;
  if (!template) return;
  const targets = new Map(edits.map((e) => [e.id, e.target]));
  const changed: { id: number; previous: string; source: string }[] = [];
  for (const u of await unitTargetsOf(tx, [...targets.keys()])) {
    const target = targets.get(u.id)!;
    if (target !== u.target) changed.push({ id: u.id, previous: u.target, source: target });
  }
  await changeTemplateSources(tx, template, changed, change);
}

/**
 * After the template's units `edits` were given the text `source` in place of `previous` (call inside the transaction
 * that stores them): each string's unit in every translation of the component takes `source` as its source (the
 * template's own too), the others' states follow sourceChangedState, each recorded as 30 (Source string changed: the
 * old source and the new); their checks run again and the statistics follow. A translation's file holds no source,
 * so its units stay as they are in it, unless the format states "needs editing" (PO, TS, XLIFF): then the units whose
 * state changed are pending, for the commit to write it. Every step a statement or a few for all the strings' units.
 * @example await changeTemplateSources(tx, template, [{ id: 42, previous: 'Save', source: 'Save all' }], { userId: 3, timestamp: now() })
 */
export async function changeTemplateSources(
  tx: Tx,
  template: Omit<EditedTemplateString, 'id'>,
  edits: readonly { id: number; previous: string; source: string }[],
  change: { userId: number | null; timestamp: string },
): Promise<void> {
  if (edits.length === 0) return;
  const byId = new Map(edits.map((e) => [e.id, e]));
  const units = await stringUnitsOf(tx, [...byId.keys()]);
  const contexts = new Map(units.filter((u) => u.id === u.of_id).map((u) => [u.id, u.context]));
  const sources = new Map(
    edits.map((e) => {
      const forms = splitPlural(e.source);
      const context = contexts.get(e.id) ?? '';
      return [e.id, { text: e.source, contentHash: unitContentHash(forms, context), numWords: countWords(forms), numChars: codePoints(e.source) }];
    }),
  );
  const statesInFile = getFormat(template.file_format).fuzzy === true;
  const updates: StringSourceUpdate[] = [];
  const changes: ChangeInput[] = [];
  const hashes = new Set<bigint>();
  for (const u of units) {
    const edit = byId.get(u.of_id)!;
    const source = sources.get(u.of_id)!;
    if (u.id === u.of_id) {
      hashes.add(u.id_hash);
      updates.push({ id: u.id, source, state: null, previousSource: null, mark: false });
      continue;
    }
    const next = sourceChangedState(u, edit.previous, edit.source);
    updates.push({ id: u.id, source, state: next.state, previousSource: next.previousSource, mark: statesInFile && next.state !== u.state });
    const place = {
      id: u.id,
      translation_id: u.translation_id,
      component_id: template.component_id,
      project_id: template.project_id,
      language_id: u.language_id,
    };
    changes.push(
      unitChange(place, {
        action: Action.SOURCE_CHANGE,
        timestamp: change.timestamp,
        userId: change.userId,
        authorId: change.userId,
        target: edit.source,
        old: edit.previous,
        details: { state: next.state, old_state: u.state, source: edit.source },
      }),
    );
  }
  const counted = units.map((u) => ({ id: u.id, translationId: u.translation_id }));
  const translations = [...new Set(counted.map((u) => u.translationId))];
  const ids = counted.map((u) => u.id);
  await followUnitStats(tx, counted, async () => {
    // the write, the changes and the checks' first reads sent together, in this order (the reads see the new source)
    await Promise.all([setStringSources(tx, updates, change.userId), recordChanges(tx, changes), recheckUnits(tx, ids, translations)]);
    const inconsistent = await refreshInconsistent(tx, ids, new Set(translations));
    await refreshSourceChecksOf(tx, new Map([[template.component_id, hashes]]));
    await settleInconsistent(tx, inconsistent);
  });
}
