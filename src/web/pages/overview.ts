// Browsing pages: projects (the visitor's languages first), components, translations, project languages, languages, engagement and git export.

import { notFound } from '../../api/errors.js';
import { componentOf, projectOf, projectOfComponent, translationOf } from '../../api/lookup.js';
import { AUTOMATIC_LABEL } from '../../api/search.js';
import { countsOf, reviewOf } from '../../api/serializers/translation.js';
import { type Counts, siteStats } from '../../api/statistics.js';
import { configOf, refusal, targetOf } from '../../api/write.js';
import { openComponent } from '../../component/handle.js';
import { NotFoundError } from '../../domain/errors.js';
import { type RepositoryStatus, repositoryStatus } from '../../operations/index.js';
import { componentAlerts } from '../../store/alerts.repo.js';
import { automaticallyTranslatedCount } from '../../store/autotranslate.repo.js';
import type { Component, Language, Project, Translation } from '../../store/index.js';
import type { WebAnswer, WebContext } from '../context.js';
import { languagesOfVisitor } from '../context.js';
import { num, paths, pct, when } from '../format.js';
import { type Html, html } from '../html.js';
import { autoTranslateForm } from './autotranslate.js';
import { changeList, recentChanges } from './changes.js';
import { checkCountsList } from './checks.js';
import { labelsPath } from './labels.js';
import { type StatsRow, WAITING_FOR_REVIEW, listPage, page, percents, progress, progressLegend, statsTable, sumStats, waitingForReview } from './layout.js';
import { canStartTranslation } from './new-language.js';

export function visibleProjects(ctx: WebContext): readonly Project[] {
  return ctx.access.projectList();
}

/** The visible components of each project: grouped once per catalog snapshot and caller. */
function visibleComponents(ctx: WebContext, project: Project): readonly Component[] {
  return ctx.access.remember('componentsByProject', () => groupBy(ctx.access.componentList(), (c) => c.projectId)).get(project.id) ?? [];
}

function translationsOf(ctx: WebContext, component: Component): Translation[] {
  return ctx.catalog.translationsByComponent.get(component.id) ?? [];
}

function projectTranslations(ctx: WebContext, project: Project): Translation[] {
  return visibleComponents(ctx, project).flatMap((c) => translationsOf(ctx, c));
}

const statsOf = (ctx: WebContext, translations: Translation[]) => sumStats(translations.map((t) => ctx.catalog.stats.get(t.id)));

function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export const projectStats = (ctx: WebContext, project: Project): Counts => siteStats(ctx.access, ctx.catalog).projects.get(project.id) ?? sumStats([]);

/** A project's languages with their statistics: the visitor's languages (`first`) first, each part by name. */
function projectLanguages(ctx: WebContext, project: Project, first: ReadonlySet<number> = new Set()): [Language, Counts][] {
  const languages = siteStats(ctx.access, ctx.catalog).projectLanguages.get(project.id) ?? new Map<number, Counts>();
  return [...languages]
    .map(([id, counts]): [Language, Counts] => [ctx.catalog.languages.get(id)!, counts])
    .sort((a, b) => Number(first.has(b[0].id)) - Number(first.has(a[0].id)) || a[0].name.localeCompare(b[0].name));
}

/** `/projects/<p>/`: the project's components and languages (the visitor's languages first). */
export async function projectPage(ctx: WebContext): Promise<WebAnswer> {
  const project = projectOf(ctx);
  const mine = await languagesOfVisitor(ctx);
  const components = listPage(ctx, visibleComponents(ctx, project));
  const componentRows: StatsRow[] = components.rows.map((c) => ({
    name: html`<a href=${paths.component(ctx.catalog, c)}>${c.name}</a>${c.settings.is_glossary ? html` <span class="tag">glossary</span>` : ''}`,
    counts: statsOf(ctx, translationsOf(ctx, c)),
  }));
  // a second list on the page: its own parameter, so that either pager keeps the other's page
  const languages = listPage(ctx, projectLanguages(ctx, project, mine), { param: 'lang_page', label: 'Pages of languages' });
  const languageRows: StatsRow[] = languages.rows.map(([l, counts]) => ({
    name: html`<a href=${paths.projectLanguage(project, l)}>${l.name}</a>`,
    counts,
    translate: paths.projectLanguage(project, l),
  }));
  const body = html`<h1>${project.name}</h1>
    ${summary(projectStats(ctx, project))}
    ${project.settings.instructions && html`<p class="instructions">${String(project.settings.instructions)}</p>`}
    ${statsTable('Components', 'Component', componentRows)} ${components.pager} ${statsTable('Languages', 'Language', languageRows)} ${languages.pager}
    <p><a href=${`/changes/?project=${encodeURIComponent(project.slug)}`}>All changes in ${project.name}</a> · <a href=${`/engage/${encodeURIComponent(project.slug)}/`}>Share</a>${ctx.access.can('project.edit', { project }) && html` · <a href=${labelsPath(project)}>Labels</a>`}</p>`;
  return { html: page(ctx, { title: project.name, crumbs: [{ label: project.name }], body }) };
}

function summary(c: ReturnType<typeof sumStats>): Html {
  const p = percents(c);
  // one line: htm drops the whitespace around a line break at a text's edge, and with it the space before a number
  return html`<div class="summary">
    ${progress(c)}
    <p>
      <strong data-stat="translated">${pct(p.translated)}</strong> translated · ${pct(p.fuzzy)} needs editing · ${pct(p.approved)} approved · ${num(c.total)} strings · ${num(c.translated_words)} of ${num(c.total_words)} words translated
    </p>
    ${progressLegend()}
  </div>`;
}

async function statusOf(ctx: WebContext, project: Project, component: Component): Promise<RepositoryStatus | null> {
  try {
    const config = configOf(ctx, project, component);
    return await repositoryStatus(await openComponent(ctx.services.store, ctx.services.config, config.project, config.component, { git: ctx.services.git }));
  } catch (e) {
    if (e instanceof NotFoundError || (e as { status?: number }).status === 404) return null;
    throw e;
  }
}

/** Which repository operations the caller may run on a component (none for translators). */
export function repositoryOperations(ctx: WebContext, project: Project, component: Component): string[] {
  const on = { project, component };
  const ops: string[] = [];
  if (ctx.access.can('vcs.commit', on)) ops.push('commit');
  if (ctx.access.can('vcs.push', on)) ops.push('push');
  if (ctx.access.can('vcs.update', on)) ops.push('pull');
  if (ctx.access.can('vcs.reset', on)) ops.push('reset', 'cleanup');
  if (ctx.access.can('component.lock', on)) ops.push(component.locked ? 'unlock' : 'lock');
  return ops;
}

const ALERT_TEXT: Record<string, string> = {
  ParseError: 'A translation file could not be parsed',
  NoMaskMatches: 'The file mask matches no file',
  DuplicateLanguage: 'Several files map to the same language',
};

/** `/projects/<p>/<c>/`: translations (the visitor's languages first), repository status, alerts, recent changes, downloads. */
export async function componentPage(ctx: WebContext): Promise<WebAnswer> {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  const translations = translationsOf(ctx, component);
  const mine = await languagesOfVisitor(ctx);
  // the visitor's languages first, the rest as they were
  const shown = listPage(
    ctx,
    [...translations].sort((a, b) => Number(mine.has(b.languageId)) - Number(mine.has(a.languageId))),
  );
  const rows: StatsRow[] = shown.rows.map((t) => ({
    name: html`<a href=${paths.translation(ctx.catalog, t)}>${ctx.catalog.languages.get(t.languageId)!.name}</a>${t.isSource ? html` <span class="tag">source</span>` : ''}`,
    counts: countsOf(t, ctx),
    translate: paths.translate(ctx.catalog, t),
  }));
  const canStatus = ctx.access.can('meta:vcs.status', { project });
  const status = canStatus ? await statusOf(ctx, project, component) : null;
  const alerts = await ctx.services.store.read((tx) => componentAlerts(tx, component.id));
  const ops = repositoryOperations(ctx, project, component);
  const zip = ctx.urls.api(`components/${encodeURIComponent(project.slug)}/${encodeURIComponent(component.slug)}/file/`);
  const body = html`<h1>${component.name}</h1>
    ${summary(statsOf(ctx, translations))}
    ${component.locked && html`<p class="notice" role="status">This component is locked: translating is paused.</p>`}
    ${
      alerts.length > 0 &&
      html`<section aria-labelledby="alerts"><h2 id="alerts">Alerts</h2>
        <ul class="alerts">
          ${alerts.map((a) => html`<li class="alert" data-alert=${a.name}><strong>${ALERT_TEXT[a.name] ?? a.name}</strong> <code>${alertDetail(a.details)}</code></li>`)}
        </ul></section>`
    }
    ${statsTable('Translations', 'Language', rows)} ${shown.pager}
    ${canStartTranslation(ctx, project, component) && html`<p><a href=${`/new-lang/${encodeURIComponent(project.slug)}/${encodeURIComponent(component.slug)}/`}>Start new translation</a></p>`}
    ${
      status &&
      html`<section aria-labelledby="repo"><h2 id="repo">Repository</h2>
        <ul class="repo-status">
          <li>${status.needs_commit ? 'Pending changes not committed yet' : 'No pending changes'}</li>
          <li>${status.needs_push ? 'Commits waiting to be pushed (ahead of upstream)' : 'Nothing to push'}</li>
          <li>${status.needs_merge ? 'Upstream has new commits (behind)' : 'Up to date with upstream'}</li>
          ${status.merge_failure && html`<li class="error">Merge failure: ${status.merge_failure}</li>`}
        </ul>
        ${ops.length > 0 && html`<p><a href=${paths.repository(ctx.catalog, component)}>Manage repository</a></p>`}
      </section>`
    }
    <section aria-labelledby="files"><h2 id="files">Files</h2>
      <p><a href=${zip} download>Download all translations (ZIP)</a>; each language's page downloads and uploads its file.</p>
      <p><a href=${paths.screenshots(ctx.catalog, component)}>Screenshots</a> of the component's strings.</p>
    </section>
    <section aria-labelledby="recent"><h2 id="recent">Recent changes</h2>
      ${changeList(ctx, await recentChanges(ctx, { componentId: component.id }, 10))}
      <p><a href=${`/changes/?project=${encodeURIComponent(project.slug)}&component=${encodeURIComponent(component.slug)}`}>All changes</a></p>
    </section>`;
  return {
    html: page(ctx, {
      title: `${project.name} / ${component.name}`,
      crumbs: [{ label: project.name, href: paths.project(project) }, { label: component.name }],
      body,
    }),
  };
}

function alertDetail(details: string): string {
  try {
    const value = JSON.parse(details) as Record<string, unknown>;
    return Object.keys(value).length === 0 ? '' : JSON.stringify(value);
  } catch {
    return details;
  }
}

/** The translation page's filters into the editor: label, search, count (Weblate's names: "Unfinished" is empty or needing editing). */
export function stringFilters(counts: Counts, review: boolean): { label: string; q: string; count: number }[] {
  const filters = [
    { label: 'All strings', q: '', count: counts.total },
    { label: 'Unfinished', q: 'state:<translated', count: counts.total - counts.translated },
    { label: 'Untranslated', q: 'state:empty', count: counts.total - counts.translated - counts.fuzzy },
    { label: 'Needs editing', q: 'state:needs-editing', count: counts.fuzzy },
  ];
  if (review) filters.push({ label: 'Waiting for review', q: WAITING_FOR_REVIEW, count: waitingForReview(counts) });
  filters.push({ label: 'Approved', q: 'state:approved', count: counts.approved });
  return filters;
}

/** `/projects/<p>/<c>/<lang>/`: one translation, its filters into the editor, its file, recent changes. */
export async function translationPage(ctx: WebContext): Promise<WebAnswer> {
  if (ctx.params.component === '-') return projectLanguagePage(ctx);
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  const language = ctx.catalog.languages.get(translation.languageId)!;
  const counts = countsOf(translation, ctx);
  const automatic = await ctx.services.store.read((tx) => automaticallyTranslatedCount(tx, translation.id));
  const translate = paths.translate(ctx.catalog, translation);
  const canUpload = ctx.access.can('upload.perform', { project, component });
  // without a choice here an upload changes only untranslated strings: the correction of a translated one is skipped
  const canOverwrite = ctx.access.can('upload.overwrite', { project, component });
  const canOverwriteApproved = canOverwrite && ctx.access.can('unit.review', { project, component });
  const file = ctx.urls.api(
    `translations/${encodeURIComponent(project.slug)}/${encodeURIComponent(component.slug)}/${encodeURIComponent(language.code)}/file/`,
  );
  const body = html`<h1>${component.name} — ${language.name}</h1>
    ${summary(counts)}
    <section aria-labelledby="strings"><h2 id="strings">Strings</h2>
      <ul class="filters">
        ${stringFilters(counts, reviewOf(translation, ctx)).map(
          (f) =>
            html`<li><a href=${f.q ? `${translate}?q=${encodeURIComponent(f.q)}` : translate} data-filter=${f.q}>${f.label}</a> <span class="count">${num(Math.max(0, f.count))}</span></li>`,
        )}
        ${counts.failing > 0 && html`<li><a href=${`${translate}?q=${encodeURIComponent('has:check')}`}>Failing checks</a> <span class="count">${num(counts.failing)}</span></li>`}
        ${automatic > 0 && html`<li><a href=${`${translate}?q=${encodeURIComponent(`label:"${AUTOMATIC_LABEL}"`)}`}>${AUTOMATIC_LABEL}</a> <span class="count">${num(automatic)}</span></li>`}
      </ul>
      <form method="get" action=${translate} class="search" role="search">
        <label for="q">Search strings</label>
        <input id="q" name="q" type="search" placeholder="e.g. source:file state:<translated" />
        <button type="submit">Search</button>
      </form>
      <p class="tools"><a href=${paths.zen(ctx.catalog, translation)}>Zen mode</a>${
        refusal(ctx, 'unit.edit', targetOf(ctx, project, component, translation)) === null &&
        html` · <a href=${paths.replace(ctx.catalog, translation)}>Search and replace</a>`
      }${
        refusal(ctx, 'unit.bulk_edit', targetOf(ctx, project, component, translation)) === null &&
        html` · <a href=${paths.bulkEdit(ctx.catalog, translation)}>Bulk edit</a>`
      }</p>
    </section>
    ${await checkCountsList(ctx, translation)}
    <section aria-labelledby="files"><h2 id="files">File</h2>
      <p><a href=${file} download>Download ${translation.filename || 'the file'}</a></p>
      ${
        canUpload &&
        html`<form method="post" action=${`/upload${translate.slice('/translate'.length)}`} enctype="multipart/form-data" class="upload">
          <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
          <span class="pair">
            <label for="file">Translation file to upload</label>
            <input id="file" name="file" type="file" required />
          </span>
          <span class="pair">
            <label for="method">Upload method</label>
            <select id="method" name="method">
              <option value="translate">Add as translation</option>
              <option value="fuzzy">Add as needing edit</option>
              <option value="replace">Replace existing file</option>
            </select>
          </span>
          ${
            canOverwrite &&
            html`<span class="pair">
              <label for="conflicts">Existing strings</label>
              <select id="conflicts" name="conflicts">
                <option value="ignore">Change only untranslated strings</option>
                <option value="replace-translated">Change translated strings</option>
                ${canOverwriteApproved && html`<option value="replace-approved">Change translated and approved strings</option>`}
              </select>
            </span>`
          }
          <button type="submit">Upload</button>
        </form>`
      }
    </section>
    ${autoTranslateForm(ctx, translation)}
    <section aria-labelledby="recent"><h2 id="recent">Recent changes</h2>${changeList(ctx, await recentChanges(ctx, { translationId: translation.id }, 10))}</section>`;
  return {
    html: page(ctx, {
      title: `${component.name} — ${language.name}`,
      crumbs: [
        { label: project.name, href: paths.project(project) },
        { label: component.name, href: paths.component(ctx.catalog, component) },
        { label: language.name },
      ],
      body,
    }),
  };
}

function languageOfParam(ctx: WebContext): Language {
  const language = ctx.catalog.languagesByCode.get(ctx.params.language!);
  if (!language) throw notFound();
  return language;
}

/** `/projects/<p>/-/<lang>/` (and `/translate/<p>/-/<lang>/`): a project's components in one language. */
export function projectLanguagePage(ctx: WebContext): WebAnswer {
  const project = projectOf(ctx);
  const language = languageOfParam(ctx);
  const translations = ctx.access.remember(`projectLanguage:${project.id}/${language.id}`, () =>
    projectTranslations(ctx, project).filter((t) => t.languageId === language.id),
  );
  const counts = siteStats(ctx.access, ctx.catalog).projectLanguages.get(project.id)?.get(language.id);
  if (translations.length === 0 || !counts) throw notFound();
  const shown = listPage(ctx, translations);
  const rows: StatsRow[] = shown.rows.map((t) => ({
    name: html`<a href=${paths.translation(ctx.catalog, t)}>${ctx.catalog.componentsById.get(t.componentId)!.name}</a>`,
    counts: countsOf(t, ctx),
    translate: paths.translate(ctx.catalog, t),
  }));
  const body = html`<h1>${project.name} — ${language.name}</h1>
    ${summary(counts)} ${statsTable('Components', 'Component', rows)} ${shown.pager}`;
  return {
    html: page(ctx, {
      title: `${project.name} — ${language.name}`,
      crumbs: [{ label: project.name, href: paths.project(project) }, { label: language.name }],
      body,
    }),
  };
}

/** `/languages/`: the languages with visible translations, a page at a time. */
export function languagesPage(ctx: WebContext): WebAnswer {
  const sums = siteStats(ctx.access, ctx.catalog).languages;
  const byName = ctx.access.remember('languagesByName', () =>
    [...sums.keys()].map((id) => ctx.catalog.languages.get(id)!).sort((a, b) => a.name.localeCompare(b.name)),
  );
  const shown = listPage(
    ctx,
    byName.map((l): [Language, Counts] => [l, sums.get(l.id)!]),
  );
  const rows: StatsRow[] = shown.rows.map(([l, counts]) => ({
    name: html`<a href=${paths.language(l)}>${l.name}</a> <span class="code">${l.code}</span>`,
    counts,
  }));
  return {
    html: page(ctx, {
      title: 'Languages',
      crumbs: [{ label: 'Languages' }],
      body: html`<h1>Languages</h1>${statsTable('Languages', 'Language', rows)}${shown.pager}${progressLegend()}`,
    }),
  };
}

/** `/languages/<code>/`: one language across the visible projects. */
export function languagePage(ctx: WebContext): WebAnswer {
  const language = languageOfParam(ctx);
  const translated = ctx.access.remember(`languageProjects:${language.id}`, () =>
    visibleProjects(ctx).flatMap((project): [Project, Counts][] => {
      const counts = siteStats(ctx.access, ctx.catalog).projectLanguages.get(project.id)?.get(language.id);
      return counts ? [[project, counts]] : [];
    }),
  );
  const projects = listPage(ctx, translated);
  const rows: StatsRow[] = projects.rows.map(([project, counts]) => ({
    name: html`<a href=${paths.projectLanguage(project, language)}>${project.name}</a>`,
    counts,
  }));
  const body = html`<h1>${language.name}</h1>
    <dl class="facts">
      <dt>Code</dt><dd>${language.code}</dd>
      <dt>Text direction</dt><dd>${language.direction === 'rtl' ? 'right to left' : 'left to right'}</dd>
      <dt>Plural forms</dt><dd>${language.pluralNumber}: <code>${language.pluralFormula}</code></dd>
    </dl>
    ${rows.length > 0 ? [statsTable('Projects', 'Project', rows), projects.pager, progressLegend()] : html`<p>No project is translated into ${language.name} yet.</p>`}
    <p><a href=${`/changes/?lang=${encodeURIComponent(language.code)}`}>Changes in ${language.name}</a></p>`;
  return { html: page(ctx, { title: language.name, crumbs: [{ label: 'Languages', href: '/languages/' }, { label: language.name }], body }) };
}

/** `/engage/<p>/` and `/engage/<p>/-/<lang>/`: the invitation to translate a project. */
export function engagePage(ctx: WebContext): WebAnswer {
  const project = projectOf(ctx);
  if (ctx.params.component !== undefined && ctx.params.component !== '-') throw notFound();
  const language = ctx.params.language === undefined ? undefined : languageOfParam(ctx);
  const translations = projectTranslations(ctx, project).filter((t) => !language || t.languageId === language.id);
  if (language && translations.length === 0) throw notFound();
  const counts = statsOf(ctx, translations);
  const target = language ? paths.projectLanguage(project, language) : paths.project(project);
  const body = html`<div class="engage">
    <h1>Get involved in ${project.name}${language ? html` — ${language.name}` : ''}</h1>
    <p>Hi, and thank you for your interest. ${project.name} is being translated with tms: help make it available in your language.</p>
    ${summary(counts)}
    <p><a class="button" href=${target}>Translate ${project.name}</a></p>
  </div>`;
  return { html: page(ctx, { title: `Get involved in ${project.name}`, body }) };
}

/** `/git/<p>/<c>/` (the API's `git_export`): where the component's repository lives. */
export function gitExportPage(ctx: WebContext): WebAnswer {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  const config = ctx.services.config.projects.find((p) => p.slug === project.slug)?.components.find((c) => c.slug === component.slug);
  const body = html`<h1>Repository of ${component.name}</h1>
    <p>tms does not serve git itself: the component's translations are committed to and pushed from its upstream repository.</p>
    <dl class="facts">
      <dt>Branch</dt><dd>${config?.branch ?? ''}</dd>
      <dt>Last change</dt><dd>${when(statsOf(ctx, translationsOf(ctx, component)).last_change)}</dd>
    </dl>
    <p><a href=${paths.component(ctx.catalog, component)}>Back to ${component.name}</a></p>`;
  return {
    html: page(ctx, {
      title: `Repository of ${component.name}`,
      crumbs: [
        { label: project.name, href: paths.project(project) },
        { label: component.name, href: paths.component(ctx.catalog, component) },
        { label: 'git' },
      ],
      body,
    }),
  };
}
