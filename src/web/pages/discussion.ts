// The editor's suggestions, comments and memory matches: the side panes and the form actions behind them (suggest,
// accept, delete, vote; comment, resolve, delete), each through the one permission resolver.
import { queryValue } from '../../api/context.js';
import { notFound, permissionDenied, validationError } from '../../api/errors.js';
import { projectOfComponent, translationOf } from '../../api/lookup.js';
import { type Permission, mayEditElsewhere, refusal, refusalText, targetOf } from '../../api/write.js';
import type { PermissionTarget } from '../../auth/check.js';
import { hashToChecksum } from '../../domain/hash.js';
import { splitPlural } from '../../domain/unit.js';
import {
  acceptSuggestion,
  addComment,
  deleteComment,
  deleteSuggestion,
  reportSourceIssue,
  resolveComment,
  suggest,
  voteSuggestion,
} from '../../operations/index.js';
import { unitComments } from '../../store/comments.repo.js';
import type { CommentRow, MemoryMatch, SuggestionRow, Translation, UnitRecord } from '../../store/index.js';
import { lookupMemory } from '../../store/memory.repo.js';
import { findSuggestion, unitSuggestions, userVote } from '../../store/suggestions.repo.js';
import { unitRecord } from '../../store/unit-records.repo.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue, signedIn } from '../context.js';
import { paths, pluralText, when } from '../format.js';
import { type Html, html } from '../html.js';

/** What the editor shows beside a string: its suggestions, comments and memory matches, and what the user may do. */
export interface Discussion {
  suggestions: SuggestionRow[];
  comments: CommentRow[];
  memory: MemoryMatch[];
  votes: Map<number, number>;
  can: (permission: Permission, own?: boolean) => boolean;
  voting: boolean;
  /** The configured machine translation engines whose suggestions the page fetches after loading (none without machinery.view). */
  engines: { id: string; name: string }[];
  /** A comment may report an issue with the source string (Weblate's "report" scope: `source_review`, a translation's string). */
  report: boolean;
}

function targetFor(ctx: WebContext, translation: Translation, unit: { state: number }): PermissionTarget {
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  return targetOf(ctx, projectOfComponent(ctx, component), component, translation, unit);
}

/** The side panes' data for one string. */
export async function discussionOf(ctx: WebContext, translation: Translation, unit: UnitRecord): Promise<Discussion> {
  const { store } = ctx.services;
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const target = targetFor(ctx, translation, unit);
  const source = (ctx.catalog.translationsByComponent.get(component.id) ?? []).find((t) => t.isSource);
  const machinery = ctx.services.machinery(projectOfComponent(ctx, component).slug);
  const mayUseMachinery = source !== undefined && !translation.isSource && refusal(ctx, 'machinery.view', target) === null;
  const engines = mayUseMachinery ? machinery.configured().map((id) => ({ id, name: machinery.nameOf(id) })) : [];
  const [suggestions, comments, memory] = await Promise.all([
    store.read((tx) => unitSuggestions(tx, unit.id)),
    store.read((tx) => unitComments(tx, unit.id)),
    mayUseMachinery
      ? store.read((tx) =>
          lookupMemory(
            tx,
            unit.source,
            source.languageId,
            translation.languageId,
            { projects: ctx.access.projectIds(), userId: signedIn(ctx) ? ctx.user.id : null },
            { excludeUnit: unit.id },
          ),
        )
      : Promise.resolve([] as MemoryMatch[]),
  ]);
  const votes = new Map<number, number>();
  if (signedIn(ctx) && component.settings.suggestion_voting)
    for (const s of suggestions) votes.set(s.id, await store.read((tx) => userVote(tx, s.id, ctx.user.id)));
  return {
    suggestions,
    comments,
    memory,
    votes,
    can: (permission, own = false) => signedIn(ctx) && refusal(ctx, permission, { ...target, ownItem: own }) === null,
    voting: Boolean(component.settings.suggestion_voting),
    engines,
    report: Boolean(projectOfComponent(ctx, component).settings.source_review) && unit.sourceUnitId !== null,
  };
}

function button(name: string, value: string | number, label: string, extra: Record<string, string> = {}): Html {
  return html`<button type="submit" name=${name} value=${String(value)} ...${extra}>${label}</button>`;
}

/** The three side panes: suggestions (accept, delete, vote), comments (add, resolve, delete), memory matches (copy). */
export function discussionPanes(ctx: WebContext, d: Discussion, unit: UnitRecord, action: string, lang: { code: string; dir: string }): Html {
  const form = (body: Html | Html[]) =>
    html`<form method="post" action=${action} class="inline"><input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} /><input type="hidden" name="unit" value=${unit.id} />${body}</form>`;
  const mine = (userId: number | null) => userId !== null && signedIn(ctx) && userId === ctx.user.id;
  return html`<section aria-labelledby="suggestions-h" class="suggestions">
      <h2 id="suggestions-h">Suggestions</h2>
      ${
        d.suggestions.length === 0
          ? html`<p>No suggestions.</p>`
          : html`<ul>${d.suggestions.map(
              (s) => html`<li data-suggestion=${s.id}>
                <span lang=${lang.code} dir=${lang.dir}>${pluralText(s.target)}</span>
                <small> — ${s.full_name || s.username || 'Anonymous'}, ${when(s.timestamp)}${d.voting ? `, ${s.votes} vote${s.votes === 1 ? '' : 's'}` : ''}</small>
                ${form([
                  d.can('suggestion.accept') ? button('accept', s.id, 'Accept') : '',
                  d.can('suggestion.delete', mine(s.user_id)) ? button('delete_suggestion', s.id, 'Delete') : '',
                  d.voting && d.can('suggestion.vote')
                    ? [
                        button('vote', `${s.id}:${d.votes.get(s.id) === 1 ? 0 : 1}`, d.votes.get(s.id) === 1 ? 'Withdraw vote' : 'Vote for', {
                          'aria-pressed': String(d.votes.get(s.id) === 1),
                        }),
                        button('vote', `${s.id}:${d.votes.get(s.id) === -1 ? 0 : -1}`, d.votes.get(s.id) === -1 ? 'Withdraw vote' : 'Vote against', {
                          'aria-pressed': String(d.votes.get(s.id) === -1),
                        }),
                      ]
                    : '',
                ])}
              </li>`,
            )}</ul>`
      }
    </section>
    <section aria-labelledby="comments-h" class="comments">
      <h2 id="comments-h">Comments</h2>
      ${
        d.comments.length === 0
          ? html`<p>No comments.</p>`
          : html`<ul>${d.comments.map(
              (c) => html`<li data-comment=${c.id} class=${c.resolved ? 'resolved' : ''}>
                <p>${c.comment}</p>
                <small>${c.full_name || c.username || 'Anonymous'}, ${when(c.timestamp)}${c.source ? ' · on the source string' : ''}${c.resolved ? ' · resolved' : ''}</small>
                ${form([
                  !c.resolved && d.can('comment.resolve', mine(c.user_id)) ? button('resolve_comment', c.id, 'Resolve') : '',
                  d.can('comment.delete', mine(c.user_id)) ? button('delete_comment', c.id, 'Delete') : '',
                ])}
              </li>`,
            )}</ul>`
      }
      ${
        d.can('comment.add')
          ? form(html`<label for="comment">New comment</label>
              <textarea id="comment" name="comment" rows="2"></textarea>
              <div class="field check"><input type="checkbox" id="comment_source" name="scope" value="source" /><label for="comment_source">On the source string (shown in every language)</label></div>
              ${d.report && html`<div class="field check"><input type="checkbox" id="comment_report" name="report" value="1" /><label for="comment_report">Report an issue with the source string (it is marked for review)</label></div>`}
              ${button('add_comment', 1, 'Comment')}`)
          : ''
      }
    </section>
    <section aria-labelledby="memory-h" class="memory">
      <h2 id="memory-h">Translation memory</h2>
      ${
        d.memory.length === 0
          ? html`<p>No similar strings.</p>`
          : html`<ol>${d.memory.map(
              (m, i) => html`<li data-memory=${m.id}>
                <span class="similarity">${m.similarity} %</span>
                <span lang=${lang.code} dir=${lang.dir} data-memory-target>${pluralText(m.target)}</span>
                <small> — ${pluralText(m.source)}${m.origin ? ` (${m.origin})` : ''}</small>
                <button type="button" data-copy=${JSON.stringify(splitPlural(m.target))} aria-keyshortcuts=${i < 9 ? `Alt+${i + 1}` : undefined} title=${i < 9 ? `Alt+${i + 1}` : ''}>Copy</button>
              </li>`,
            )}</ol>`
      }
    </section>
    ${
      d.engines.length > 0 &&
      html`<section aria-labelledby="machinery-h" class="machinery" data-machinery=${unit.id}>
        <h2 id="machinery-h">Automatic suggestions</h2>
        <p class="hint">Each engine's suggestions appear as they arrive; Alt+M copies the first.</p>
        ${d.engines.map(
          (e) => html`<div data-engine=${e.id} data-lang=${lang.code} data-dir=${lang.dir} aria-live="polite">
            <h3>${e.name}</h3>
            <p data-engine-status>Loading…</p>
            <ol></ol>
          </div>`,
        )}
      </section>`
    }`;
}

const ACTIONS = ['suggest', 'accept', 'delete_suggestion', 'vote', 'add_comment', 'resolve_comment', 'delete_comment'] as const;

/** Whether a POST to the editor is one of the discussion actions (else it saves a translation). */
export function isDiscussionAction(ctx: WebContext): boolean {
  return ACTIONS.some((a) => formValue(ctx, a) !== undefined);
}

function require(ctx: WebContext, permission: Permission, target: PermissionTarget): void {
  const reason = refusal(ctx, permission, target);
  if (reason !== null) throw permissionDenied(refusalText(reason));
}

function id(value: string | undefined, field: string): number {
  if (!value || !/^\d{1,15}$/.test(value)) throw validationError(field, 'Not a valid id.');
  return Number(value);
}

/** `POST /translate/<p>/<c>/<lang>/` with a discussion action: does it, then shows the string again. */
export async function discussionAction(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const unitId = id(formValue(ctx, 'unit'), 'unit');
  const unit = await ctx.services.store.read((tx) => unitRecord(tx, unitId));
  if (!unit || unit.translationId !== translation.id) throw notFound();
  const target = targetFor(ctx, translation, unit);
  const { store } = ctx.services;
  const user = { id: ctx.user.id };
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const suggestionOfUnit = async (field: string) => {
    const s = await store.read((tx) => findSuggestion(tx, id(formValue(ctx, field)?.split(':')[0], field)));
    if (!s || s.unit_id !== unit.id) throw notFound();
    return s;
  };
  const commentOfUnit = async (field: string) => {
    const c = (await store.read((tx) => unitComments(tx, unit.id))).find((x) => x.id === id(formValue(ctx, field), field));
    if (!c) throw notFound();
    return c;
  };
  if (formValue(ctx, 'suggest') !== undefined) {
    require(ctx, 'suggestion.add', target);
    const forms: string[] = [];
    for (let i = 0; i < 10; i++) {
      const v = formValue(ctx, `target_${i}`);
      if (v === undefined) break;
      forms.push(v.replace(/\r\n/g, '\n'));
    }
    await suggest(store, { unitId: unit.id, target: forms, user });
  } else if (formValue(ctx, 'accept') !== undefined) {
    const s = await suggestionOfUnit('accept');
    require(ctx, 'suggestion.accept', target);
    await acceptSuggestion(store, s.id, user, mayEditElsewhere(ctx));
  } else if (formValue(ctx, 'delete_suggestion') !== undefined) {
    const s = await suggestionOfUnit('delete_suggestion');
    require(ctx, 'suggestion.delete', { ...target, ownItem: s.user_id === ctx.user.id });
    await deleteSuggestion(store, s.id, user);
  } else if (formValue(ctx, 'vote') !== undefined) {
    const s = await suggestionOfUnit('vote');
    require(ctx, 'suggestion.vote', target);
    const value = Number(formValue(ctx, 'vote')!.split(':')[1] ?? 'x');
    if (![1, 0, -1].includes(value)) throw validationError('vote', 'A vote is 1, -1 or 0.');
    await voteSuggestion(store, s.id, user, value, Number(component.settings.suggestion_autoaccept ?? 0), mayEditElsewhere(ctx));
  } else if (formValue(ctx, 'add_comment') !== undefined) {
    require(ctx, 'comment.add', target);
    const comment = formValue(ctx, 'comment') ?? '';
    if (formValue(ctx, 'report') !== undefined && unit.sourceUnitId !== null)
      await reportSourceIssue(store, { sourceUnitId: unit.sourceUnitId, comment, user });
    else {
      let on = unit.id;
      if (formValue(ctx, 'scope') === 'source' && unit.sourceUnitId !== null) on = unit.sourceUnitId;
      await addComment(store, { unitId: on, comment, user });
    }
  } else if (formValue(ctx, 'resolve_comment') !== undefined) {
    const c = await commentOfUnit('resolve_comment');
    require(ctx, 'comment.resolve', { ...target, ownItem: c.user_id === ctx.user.id });
    await resolveComment(store, c.id, user);
  } else if (formValue(ctx, 'delete_comment') !== undefined) {
    const c = await commentOfUnit('delete_comment');
    require(ctx, 'comment.delete', { ...target, ownItem: c.user_id === ctx.user.id });
    await deleteComment(store, c.id, user);
  }
  const q = queryValue(ctx, 'q') ?? '';
  // a suggestion from a zen mode row: back to its place in the list
  const zen = formValue(ctx, 'zen');
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (zen !== undefined && /^\d{1,9}$/.test(zen)) {
    params.set('offset', zen);
    return { redirect: `${paths.zen(ctx.catalog, translation)}?${params}#unit-${unit.id}`, status: 303 };
  }
  params.set('checksum', hashToChecksum(unit.idHash));
  return { redirect: `${paths.translate(ctx.catalog, translation)}?${params}`, status: 303 };
}
