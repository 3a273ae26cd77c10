// The repository page for managers: status (pending, ahead, behind) and the API's own operations (commit, push, pull, reset, cleanup, lock).

import { jsonText } from '../../api/answer.js';
import { notFound, permissionDenied } from '../../api/errors.js';
import { componentOperation, setComponentLock } from '../../api/handlers/repository.js';
import { componentOf, projectOfComponent } from '../../api/lookup.js';
import { sharingWith } from '../../api/serializers/component.js';
import type { WriteContext } from '../../api/write.js';
import { configOf } from '../../api/write.js';
import { openComponent } from '../../component/handle.js';
import { repositoryStatus } from '../../operations/index.js';
import { pendingUnits } from '../../store/edits.repo.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue, refreshed, signedIn, toSignIn } from '../context.js';
import { paths, when } from '../format.js';
import { html } from '../html.js';
import { changeList, recentChanges } from './changes.js';
import { page } from './layout.js';
import { repositoryOperations } from './overview.js';

const LABELS: Record<string, string> = {
  commit: 'Commit',
  push: 'Push',
  pull: 'Pull',
  reset: 'Reset to upstream',
  cleanup: 'Clean up',
  lock: 'Lock',
  unlock: 'Unlock',
};

async function render(ctx: WebContext, result?: { ok: boolean; text: string }): Promise<WebAnswer> {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  const ops = repositoryOperations(ctx, project, component);
  if (!signedIn(ctx)) return toSignIn(ctx.path);
  if (!ctx.access.can('meta:vcs.status', { project })) throw permissionDenied();
  const config = configOf(ctx, project, component);
  const status = await repositoryStatus(
    await openComponent(ctx.services.store, ctx.services.config, config.project, config.component, { git: ctx.services.git }),
  );
  const pending = (await ctx.services.store.read((tx) => pendingUnits(tx, component.id))).length;
  // components sharing the repository (weblate:// links): their edits are committed and pushed with this one's
  const shared = sharingWith(ctx.catalog, component);
  const body = html`<h1>Repository of ${component.name}</h1>
    ${result && html`<p role=${result.ok ? 'status' : 'alert'} class=${result.ok ? 'notice' : 'error'} data-result=${result.ok ? 'ok' : 'failed'}>${result.text}</p>`}
    <dl class="facts repo-status">
      ${
        shared.length > 0 &&
        html`<dt>Repository</dt><dd data-shared=${shared.length}>shared with ${shared.map(
          (c, i) => html`${i > 0 ? ', ' : ''}<a href=${paths.component(ctx.catalog, c)}>${ctx.catalog.projectsById.get(c.projectId)?.name} / ${c.name}</a>`,
        )}</dd>`
      }
      <dt>Pending strings</dt><dd data-pending=${pending}>${pending}</dd>
      <dt>Ahead of upstream</dt><dd data-ahead=${status.ahead}>${status.ahead === 0 ? 'no' : `${status.ahead} commit${status.ahead === 1 ? '' : 's'} to push`}</dd>
      <dt>Behind upstream</dt><dd data-behind=${status.behind}>${status.behind === 0 ? 'no' : `${status.behind} upstream commit${status.behind === 1 ? '' : 's'} to pull`}</dd>
      <dt>Locked</dt><dd>${component.locked ? 'yes' : 'no'}</dd>
      ${status.weblate_commit && html`<dt>Last commit</dt><dd><code>${status.weblate_commit.shortrevision}</code> ${status.weblate_commit.summary}</dd>`}
      ${status.remote_commit && html`<dt>Upstream</dt><dd><code>${status.remote_commit.shortrevision}</code> ${status.remote_commit.summary}</dd>`}
      ${status.merge_failure && html`<dt>Merge failure</dt><dd class="error">${status.merge_failure}</dd>`}
    </dl>
    ${
      ops.length > 0
        ? html`<form method="post" action=${ctx.path} class="operations">
            <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
            <fieldset><legend>Operations</legend>
              ${ops.map((op) => html`<button type="submit" name="operation" value=${op}>${LABELS[op]}</button>`)}
            </fieldset>
          </form>`
        : html`<p>You may see the repository's status but not run operations on it.</p>`
    }
    <section aria-labelledby="recent"><h2 id="recent">Recent changes</h2>${changeList(ctx, await recentChanges(ctx, { componentId: component.id }, 10))}</section>
    <p class="hint">Checked ${when(new Date().toISOString())}.</p>`;
  return {
    html: page(ctx, {
      title: `Repository of ${component.name}`,
      crumbs: [
        { label: project.name, href: paths.project(project) },
        { label: component.name, href: paths.component(ctx.catalog, component) },
        { label: 'Repository' },
      ],
      body,
    }),
  };
}

/** `GET /repository/<p>/<c>/` */
export function repositoryPage(ctx: WebContext): Promise<WebAnswer> {
  return render(ctx);
}

/** `POST /repository/<p>/<c>/` with `operation`: the API's handler runs it (same permission checks: a translator gets 403). */
export async function repositoryOperation(ctx: WebContext): Promise<WebAnswer> {
  const operation = formValue(ctx, 'operation') ?? '';
  if (!Object.hasOwn(LABELS, operation)) throw notFound();
  const lock = operation === 'lock' || operation === 'unlock';
  const write: WriteContext = {
    ...ctx,
    body: { kind: 'json', json: lock ? { lock: operation === 'lock' } : { operation }, form: new Map(), files: new Map() },
    reload: async () => ctx,
  };
  const answer = lock ? await setComponentLock(write) : await componentOperation(write);
  const value = 'json' in answer ? (JSON.parse(jsonText(answer)) as { result?: boolean; detail?: string; locked?: boolean }) : {};
  const ok = lock ? true : value.result !== false;
  const text = lock
    ? value.locked
      ? 'The component is locked.'
      : 'The component is unlocked.'
    : `${LABELS[operation]}: ${ok ? 'done' : 'failed'}${value.detail ? ` — ${value.detail}` : ''}`;
  return render(await refreshed(ctx), { ok, text });
}
