// Automatic translation from the translation page: the managers' form and its action, which starts the API's own
// automatic translation task and shows its progress.
import { jsonText } from '../../api/answer.js';
import { autoTranslateTranslation } from '../../api/handlers/machinery.js';
import { projectOfComponent, translationOf } from '../../api/lookup.js';
import { type WriteContext, refusal, targetOf } from '../../api/write.js';
import { ENGINE_IDS } from '../../machinery/index.js';
import type { Translation } from '../../store/index.js';
import type { WebAnswer, WebContext } from '../context.js';
import { refreshed } from '../context.js';
import { paths } from '../format.js';
import { type Html, html } from '../html.js';
import { page } from './layout.js';

/** The form on a translation's page, for users with `translation.auto`; empty for others. */
export function autoTranslateForm(ctx: WebContext, translation: Translation): Html | '' {
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  if (refusal(ctx, 'translation.auto', targetOf(ctx, project, component, translation)) !== null) return '';
  const machinery = ctx.services.machinery(project.slug);
  const engines = ENGINE_IDS.filter((id) => machinery.usable(id));
  const others = ctx.catalog.components.filter((c) => c.projectId === project.id && c.id !== component.id && ctx.access.component(c));
  const action = `/auto-translate${paths.translate(ctx.catalog, translation).slice('/translate'.length)}`;
  return html`<section aria-labelledby="auto-h"><h2 id="auto-h">Automatic translation</h2>
    <form method="post" action=${action} class="autotranslate">
      <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
      <span class="pair">
        <label for="auto-mode">Mode</label>
        <select id="auto-mode" name="mode">
          <option value="suggest">Add as suggestion</option>
          <option value="fuzzy">Add as "Needing edit"</option>
          <option value="translate">Add as translation</option>
        </select>
      </span>
      <span class="pair">
        <label for="auto-filter">Strings</label>
        <select id="auto-filter" name="filter_type">
          <option value="todo">Unfinished strings</option>
          <option value="nottranslated">Untranslated strings</option>
          <option value="fuzzy">Strings needing edit</option>
          <option value="all">All strings (translated ones change only with "Add as translation")</option>
        </select>
      </span>
      <span class="pair">
        <label for="auto-source">Source</label>
        <select id="auto-source" name="auto_source">
          <option value="others">Other components of the project</option>
          <option value="mt">Machine translation</option>
        </select>
      </span>
      <span class="pair">
        <label for="auto-component">Component</label>
        <select id="auto-component" name="component">
          <option value="">All components of the project</option>
          ${others.map((c) => html`<option value=${c.id}>${c.name}</option>`)}
        </select>
      </span>
      <fieldset><legend>Engines (machine translation)</legend>
        ${engines.map(
          (id, i) =>
            html`<label><input type="checkbox" name="engines" value=${id} checked=${i === 0 ? 'checked' : undefined} /> ${machinery.nameOf(id)}</label>`,
        )}
      </fieldset>
      <span class="pair">
        <label for="auto-threshold">Score threshold</label>
        <input id="auto-threshold" name="threshold" type="number" min="1" max="100" value="80" />
      </span>
      <button type="submit">Apply</button>
    </form>
  </section>`;
}

/** `POST /auto-translate/<p>/<c>/<lang>/`: starts the task through the API's handler and shows its progress. */
export async function startAutoTranslation(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const write: WriteContext = { ...ctx, body: ctx.body!, reload: async () => refreshed(ctx) };
  const answer = await autoTranslateTranslation(write);
  const result = 'json' in answer ? (JSON.parse(jsonText(answer)) as { details: string; task_url: string }) : { details: '', task_url: '' };
  const after = await refreshed(ctx);
  const body = html`<h1>Automatic translation</h1>
    <div data-task=${result.task_url}>
      <progress max="100" value="0" aria-label="Progress"></progress>
      <p role="status" class="notice" data-task-status>${result.details}</p>
    </div>
    <p><a href=${paths.translation(after.catalog, translation)}>Back to the translation</a></p>`;
  return { html: page(after, { title: 'Automatic translation', body, script: true }) };
}
