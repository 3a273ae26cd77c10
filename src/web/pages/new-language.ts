// Starting a new translation from the component page (Weblate's /new-lang/<p>/<c>/): the API's own language add.
import { addComponentTranslation } from '../../api/handlers/files.js';
import { componentOf, projectOfComponent } from '../../api/lookup.js';
import { refusal, targetOf } from '../../api/write.js';
import type { Component, Project } from '../../store/index.js';
import type { WebAnswer, WebContext } from '../context.js';
import { refreshed, signedIn } from '../context.js';
import { paths } from '../format.js';
import { html } from '../html.js';
import { page } from './layout.js';

/** Whether the visitor may start a new translation of the component here (the link on the component page). */
export function canStartTranslation(ctx: WebContext, project: Project, component: Component): boolean {
  return signedIn(ctx) && (component.settings.new_lang ?? 'add') === 'add' && refusal(ctx, 'translation.add', targetOf(ctx, project, component)) === null;
}

/** `GET /new-lang/<p>/<c>/`: the languages the component does not have yet, to pick one. */
export async function newLanguagePage(ctx: WebContext): Promise<WebAnswer> {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  const present = new Set((ctx.catalog.translationsByComponent.get(component.id) ?? []).map((t) => t.languageId));
  const languages = [...ctx.catalog.languages.values()].filter((l) => !present.has(l.id)).sort((a, b) => a.name.localeCompare(b.name));
  const allowed = canStartTranslation(ctx, project, component);
  const body = html`<h1>Start new translation</h1>
    ${
      allowed
        ? html`<form method="post" class="new-language">
            <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
            <div class="field">
              <label for="language_code">Language</label>
              <select id="language_code" name="language_code" required>
                ${languages.map((l) => html`<option value=${l.code}>${l.name} (${l.code})</option>`)}
              </select>
            </div>
            <p class="hint">
              The new file is ${component.settings.new_base ? html`a copy of <code>${component.settings.new_base}</code> with every translation emptied` : 'made empty, as the file format starts one'};
              it is committed${component.settings.push_on_commit === false ? '' : ' and pushed'} at once.
            </p>
            <div class="buttons"><button type="submit" class="primary">Start new translation</button></div>
          </form>`
        : html`<p>${signedIn(ctx) ? 'You may not start new translations of this component.' : html`<a href=${`/accounts/login/?next=${encodeURIComponent(ctx.path)}`}>Sign in</a> to start a new translation.`}</p>`
    }`;
  return {
    html: page(ctx, {
      title: `${component.name} — Start new translation`,
      crumbs: [
        { label: project.name, href: paths.project(project) },
        { label: component.name, href: paths.component(ctx.catalog, component) },
        { label: 'Start new translation' },
      ],
      body,
    }),
  };
}

/** `POST /new-lang/<p>/<c>/` (`language_code`): adds the language as the API does and opens its translation page. */
export async function addNewLanguage(ctx: WebContext): Promise<WebAnswer> {
  const component = componentOf(ctx);
  await addComponentTranslation({ ...ctx, body: ctx.body!, reload: async () => refreshed(ctx) });
  const after = await refreshed(ctx);
  const code = ctx.body?.form.get('language_code')?.[0] ?? '';
  const language = [...after.catalog.languages.values()].find((l) => l.code === code);
  const translation = language ? after.catalog.translationsByKey.get(`${component.id}/${language.code}`) : undefined;
  return { redirect: translation ? paths.translation(after.catalog, translation) : paths.component(after.catalog, component), status: 303 };
}
