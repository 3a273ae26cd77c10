// What a user may do on the editor's string (save, approve, suggest) and why not, the form's buttons and notice, and the state a save asks for.
import { projectOfComponent } from '../../api/lookup.js';
import { refusal, refusalText, targetOf } from '../../api/write.js';
import type { DenyReason } from '../../auth/check.js';
import { State } from '../../domain/unit.js';
import type { Translation, UnitRecord } from '../../store/index.js';
import type { WebContext } from '../context.js';
import { formValue, signedIn } from '../context.js';
import { type Html, html } from '../html.js';

/** What the signed-in user may do on one string, through the API's permission resolver. */
export interface Abilities {
  /** Save a translation (`unit.edit` on this string: an approved string needs a reviewer). */
  edit: boolean;
  /** Approve and unapprove (`unit.review`: reviews on for this translation, the source's `source_review`). */
  review: boolean;
  /** Suggest a translation (`suggestion.add`; never on the source language or a read-only string). */
  suggest: boolean;
  /** Why the string cannot be saved here, for the notice (undefined when it can, or for anonymous visitors). */
  reason?: string;
  /** The refusal's code, for tests and styles (`locked`, `read-only`, `review-needed` …). */
  code?: DenyReason;
}

/** Why a refused edit is refused, in words a translator can act on. */
function reasonText(reason: DenyReason, translation: Translation, unit: UnitRecord): string {
  if (reason === 'locked') return 'The component is locked: translating is paused until a manager unlocks it.';
  if (reason === 'review-needed') return 'This string is approved: only reviewers can change it. You can suggest a change instead.';
  if (reason === 'read-only' || unit.state === State.READONLY) {
    if (translation.isSource) return 'This is the source string of a bilingual component: it changes in the repository, not here.';
    if (/(^|,)\s*read-only\s*(,|$)/.test(`${unit.flags},${unit.extraFlags}`)) return 'This string is read-only: it has the read-only flag.';
    return 'This string is read-only: its file marks it so.';
  }
  return refusalText(reason) ?? 'You may not edit strings of this component.';
}

/** The abilities of the request's user on `unit`. */
export function abilitiesOf(ctx: WebContext, translation: Translation, unit: UnitRecord): Abilities {
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const target = targetOf(ctx, projectOfComponent(ctx, component), component, translation, unit);
  if (!signedIn(ctx)) return { edit: false, review: false, suggest: false };
  const denied = refusal(ctx, 'unit.edit', target);
  const edit = denied === null;
  const review = edit && refusal(ctx, 'unit.review', target) === null;
  const suggest = unit.state !== State.READONLY && !translation.isSource && refusal(ctx, 'suggestion.add', target) === null;
  return denied === null ? { edit, review, suggest } : { edit, review, suggest, reason: reasonText(denied, translation, unit), code: denied };
}

/** The state a save asks for: the approve / unapprove buttons, else "needs editing", else the string's approval kept. */
export function stateOfForm(ctx: WebContext, targets: string[], current: number): number {
  if (targets.every((t) => t === '')) return State.EMPTY;
  if (formValue(ctx, 'approve') !== undefined) return State.APPROVED;
  if (formValue(ctx, 'unapprove') !== undefined) return State.TRANSLATED;
  if (formValue(ctx, 'fuzzy') !== undefined) return State.FUZZY;
  return current === State.APPROVED ? State.APPROVED : State.TRANSLATED;
}

/** The notice above the fields when the string cannot be saved here, with the reason. */
export function readOnlyNotice(a: Abilities): Html {
  return a.reason ? html`<p class="notice readonly" role="status" data-readonly=${a.code}>${a.reason}</p>` : null;
}

/** The form's buttons: Save / Save and continue, Approve or Unapprove for reviewers, Suggest for those who may suggest, Skip. */
export function actionButtons(a: Abilities, unit: UnitRecord, skip: string | null): Html {
  const approved = unit.state === State.APPROVED;
  return html`<div class="buttons">
    ${a.edit && html`<button type="submit" name="save" value="1" class="primary">Save</button>`}
    ${a.edit && html`<button type="submit" name="save_next" value="1" aria-keyshortcuts="Control+Enter">Save and continue</button>`}
    ${
      a.review &&
      (approved
        ? html`<button type="submit" name="unapprove" value="1" title="Keep the text as translated, waiting for review again">Unapprove</button>`
        : html`<button type="submit" name="approve" value="1" class=${a.edit ? '' : 'primary'} title="Save the text as approved and open the next string">Approve</button>`)
    }
    ${a.suggest && html`<button type="submit" name="suggest" value="1" class=${a.edit ? '' : 'primary'} aria-keyshortcuts="Alt+Enter">Suggest</button>`}
    ${skip && html`<a href=${skip} class="button secondary" data-nav="skip" title="Leave this string as it is and open the next one">Skip</a>`}
  </div>`;
}
