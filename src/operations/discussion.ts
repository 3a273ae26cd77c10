// Suggestions and comments on strings: suggest, accept (the suggestion's author becomes the translation's), delete, vote
// (with automatic acceptance), comment, resolve, delete; each records Weblate's change. Permissions are the caller's.
import { Action } from '../domain/actions.js';
import { NotFoundError, forbidden, invalid } from '../domain/errors.js';
import { PLURAL_SEPARATOR, State, describeCharacter, joinPlural, unwritableCharacter } from '../domain/unit.js';
import { type CountedUnit, followUnitStats } from '../statistics/follow.js';
import { unitChange } from '../store/changes.repo.js';
import * as comments from '../store/comments.repo.js';
import { findEditableUnit } from '../store/edits.repo.js';
import type { ChangeInput, EditableUnit, Store } from '../store/index.js';
import { now } from '../store/index.js';
import { createLabel, projectLabels } from '../store/labels.repo.js';
import { isComponentLocked } from '../store/projects.repo.js';
import * as suggestions from '../store/suggestions.repo.js';
import { sourceStringsOf } from '../store/units.repo.js';
import { type UnitEdit, editUnit, propagateEdit, saveUnitEdit } from './edit.js';
import { COMPONENT_LOCKED } from './lock.js';
import { pluralForms } from './plural-forms.js';
import { editSourceStrings } from './source-strings.js';
import { followTemplateEdit } from './template-source.js';

/** Who acts: a user id, or null for an anonymous visitor (their records carry no user, as Weblate's). */
export type DiscussionActor = { id: number } | null;

async function unitOf(store: Store, unitId: number): Promise<EditableUnit> {
  const unit = await store.read((tx) => findEditableUnit(tx, unitId));
  if (!unit) throw new NotFoundError('unit', String(unitId));
  return unit;
}

/** The unit as the statistics follow it. */
function counted(unit: EditableUnit): CountedUnit {
  return { id: unit.id, translationId: unit.translation_id };
}

function changeOf(unit: EditableUnit, action: number, user: DiscussionActor, extra: Partial<ChangeInput> = {}): ChangeInput {
  return unitChange(unit, { action, timestamp: now(), userId: user?.id ?? null, authorId: user?.id ?? null, ...extra });
}

/** The forms of a suggestion, checked as a translation would be, joined as stored. */
function suggestionText(unit: EditableUnit, target: readonly string[]): string {
  const expected = unit.source.includes(PLURAL_SEPARATOR) ? pluralForms(unit) : 1;
  if (target.length !== expected) throw invalid('target', 'Number of plurals does not match');
  for (const text of target) {
    const bad = unwritableCharacter(text);
    if (bad !== null) throw invalid('target', `String contains control character or unpaired surrogate: ${describeCharacter(bad)}`);
  }
  if (target.every((t) => t === '')) throw invalid('target', 'Can not suggest an empty translation.');
  return joinPlural(target);
}

/**
 * Suggests a translation for a string (change 4). Returns the suggestion id, or null when it was skipped: equal to
 * the current translation, or a suggestion with the same text exists already.
 * @example await suggest(store, { unitId: 42, target: ['Öffnen'], user: { id: 3 } })
 */
export async function suggest(store: Store, input: { unitId: number; target: readonly string[]; user: DiscussionActor }): Promise<number | null> {
  const unit = await unitOf(store, input.unitId);
  if (unit.state === State.READONLY) throw forbidden('The string is read-only.');
  const target = suggestionText(unit, input.target);
  if ((target === unit.target && unit.state >= State.TRANSLATED) || (await store.read((tx) => suggestions.hasSuggestion(tx, unit.id, target)))) return null;
  const timestamp = now();
  const [id] = await store.write((tx) =>
    followUnitStats(tx, [counted(unit)], () =>
      suggestions.addSuggestions(tx, [
        { unitId: unit.id, target, userId: input.user?.id ?? null, timestamp, change: changeOf(unit, Action.SUGGESTION, input.user, { target, timestamp }) },
      ]),
    ),
  );
  return id!;
}

/** A suggestion with its unit; NotFoundError when either is gone. */
export async function suggestionOf(store: Store, suggestionId: number) {
  const suggestion = await store.read((tx) => suggestions.findSuggestion(tx, suggestionId));
  if (!suggestion) throw new NotFoundError('suggestion', String(suggestionId));
  return { suggestion, unit: await unitOf(store, suggestion.unit_id) };
}

/**
 * Accepts a suggestion: the string takes its text as translated (a pending edit, change 7) with the suggestion's
 * author as the translation's author (the commit's author), and the suggestion is removed. As any translated edit in
 * Weblate, the text fills the same string in the project's other components where `mayPropagateTo` allows (change 77
 * each; absent: not propagated).
 */
export async function acceptSuggestion(
  store: Store,
  suggestionId: number,
  user: { id: number },
  mayPropagateTo?: UnitEdit['mayPropagateTo'],
): Promise<{ changeId: number; state: number; propagated: number[] }> {
  const { suggestion, unit } = await suggestionOf(store, suggestionId);
  if (await store.read((tx) => isComponentLocked(tx, unit.component_id))) throw forbidden(COMPONENT_LOCKED);
  if (unit.state === State.READONLY) throw forbidden('The string is read-only.');
  const timestamp = now();
  const author = suggestion.user_id ?? user.id;
  const state = unit.state === State.APPROVED ? State.APPROVED : State.TRANSLATED;
  return store.write(async (tx) => {
    const saved = await saveUnitEdit(tx, unit, {
      target: suggestion.target,
      state,
      authorId: author,
      timestamp,
      change: changeOf(unit, Action.ACCEPT, user, {
        authorId: author,
        target: suggestion.target,
        old: unit.target,
        timestamp,
        details: { state, old_state: unit.state, source: unit.source },
      }),
    });
    await followTemplateEdit(tx, unit, suggestion.target, { userId: user.id, timestamp });
    await followUnitStats(tx, [counted(unit)], () => suggestions.deleteSuggestion(tx, suggestion.id, null));
    const propagated =
      mayPropagateTo && saved.state >= State.TRANSLATED
        ? await propagateEdit(tx, unit, {
            target: suggestion.target,
            plurals: unit.source.includes(PLURAL_SEPARATOR) ? pluralForms(unit) : 1,
            userId: user.id,
            authorId: author,
            timestamp,
            mayPropagateTo,
          })
        : [];
    return { ...saved, propagated };
  });
}

/** Deletes a suggestion (change 26). */
export async function deleteSuggestion(store: Store, suggestionId: number, user: DiscussionActor): Promise<void> {
  const { suggestion, unit } = await suggestionOf(store, suggestionId);
  const change = changeOf(unit, Action.SUGGESTION_DELETE, user, { target: suggestion.target });
  await store.write((tx) => followUnitStats(tx, [counted(unit)], () => suggestions.deleteSuggestion(tx, suggestion.id, change)));
}

/**
 * Votes on a suggestion (+1, −1, or 0 to withdraw); at `autoaccept` votes (when above 0) it is accepted by the voter
 * (propagated as acceptSuggestion does).
 * Returns the vote total and whether it was accepted.
 */
export async function voteSuggestion(
  store: Store,
  suggestionId: number,
  user: { id: number },
  value: number,
  autoaccept: number,
  mayPropagateTo?: UnitEdit['mayPropagateTo'],
): Promise<{ votes: number; accepted: boolean }> {
  if (![1, 0, -1].includes(value)) throw invalid('vote', 'A vote is 1, -1 or 0.');
  await suggestionOf(store, suggestionId);
  const votes = (await store.write((tx) => suggestions.voteSuggestion(tx, suggestionId, user.id, value))) ?? 0;
  if (autoaccept > 0 && votes >= autoaccept) {
    await acceptSuggestion(store, suggestionId, user, mayPropagateTo);
    return { votes, accepted: true };
  }
  return { votes, accepted: false };
}

/** Comments on a string (change 3); on a source string it shows in every translation. Returns the comment id. */
export async function addComment(store: Store, input: { unitId: number; comment: string; user: DiscussionActor }): Promise<number> {
  const unit = await unitOf(store, input.unitId);
  const text = input.comment.trim();
  if (text === '') throw invalid('comment', 'This field may not be blank.');
  const bad = unwritableCharacter(text.replace(/[\n\t]/g, ' '));
  if (bad !== null) throw invalid('comment', `Comment contains control character: ${describeCharacter(bad)}`);
  const timestamp = now();
  const comment = {
    unitId: unit.id,
    comment: text,
    userId: input.user?.id ?? null,
    timestamp,
    change: changeOf(unit, Action.COMMENT, input.user, { target: text, timestamp }),
  };
  const id = await store.write(async (tx) => {
    const key = await comments.commentKeyOf(tx, unit.id);
    return key && followUnitStats(tx, await comments.unitsShowing(tx, key), () => comments.addComment(tx, key, comment));
  });
  if (id === undefined) throw new NotFoundError('unit', String(input.unitId));
  return id;
}

/** A comment with the unit it was written on; NotFoundError when either is gone. */
export async function commentOf(store: Store, commentId: number) {
  const comment = await store.read((tx) => comments.findComment(tx, commentId));
  if (!comment) throw new NotFoundError('comment', String(commentId));
  return { comment, unit: await unitOf(store, comment.unit_id) };
}

/** Resolves a comment (change 65). */
export async function resolveComment(store: Store, commentId: number, user: DiscussionActor): Promise<void> {
  const { comment, unit } = await commentOf(store, commentId);
  if (comment.resolved === 1) return;
  const change = changeOf(unit, Action.COMMENT_RESOLVE, user, { target: comment.comment });
  await store.write(async (tx) => followUnitStats(tx, await comments.unitsShowing(tx, comment), () => comments.resolveComment(tx, comment.id, change)));
}

/** Deletes a comment (change 64). */
export async function deleteComment(store: Store, commentId: number, user: DiscussionActor): Promise<void> {
  const { comment, unit } = await commentOf(store, commentId);
  const change = changeOf(unit, Action.COMMENT_DELETE, user, { target: comment.comment });
  await store.write(async (tx) => followUnitStats(tx, await comments.unitsShowing(tx, comment), () => comments.deleteComment(tx, comment.id, change)));
}

/** The label Weblate puts on a reported source string of a bilingual component (red, created in the project when missing). */
export const SOURCE_NEEDS_REVIEW = 'Source needs review';

/**
 * Reports an issue with a source string (Weblate's "report" comment scope, offered with the project's
 * `source_review`): the comment goes on the source string, which is then marked "Needs editing" where tms edits
 * its text (a monolingual template string, translated and not read-only) or gets the project's label "Source needs
 * review" where it does not (a bilingual component's source, read-only). Answers the comment's id.
 * @example await reportSourceIssue(store, { sourceUnitId: 42, comment: 'Typo: "Quti"', user: { id: 3 } })
 */
export async function reportSourceIssue(store: Store, input: { sourceUnitId: number; comment: string; user: { id: number } }): Promise<number> {
  const source = await unitOf(store, input.sourceUnitId);
  if (!source.is_source) throw invalid('scope', 'Only a source string can be reported.');
  if (!source.review) throw invalid('scope', 'Source strings are not reviewed in this project.');
  const id = await addComment(store, { unitId: source.id, comment: input.comment, user: input.user });
  if (source.monolingual) {
    if (source.state >= State.TRANSLATED && source.state !== State.READONLY)
      await editUnit(store, { unitId: source.id, target: source.target.split(PLURAL_SEPARATOR), state: State.FUZZY, user: input.user });
    return id;
  }
  await store.write(async (tx) => {
    const label =
      (await projectLabels(tx, source.project_id)).find((l) => l.name === SOURCE_NEEDS_REVIEW) ??
      (await createLabel(tx, { projectId: source.project_id, name: SOURCE_NEEDS_REVIEW, description: '', color: 'red' }));
    const string = (await sourceStringsOf(tx, [source.id])).get(source.id);
    if (label && string) await editSourceStrings(tx, [string], { addLabels: [label] }, input.user, now());
  });
  return id;
}
