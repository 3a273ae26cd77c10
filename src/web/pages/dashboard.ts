// Where a visitor lands: the dashboard (the strings of their languages that need work, what waits for their review, their and the site's recent activity, every project) and the site-wide string search (/search/).

import { queryValue } from '../../api/context.js';
import { projectOfComponent } from '../../api/lookup.js';
import { countsOf, reviewOf } from '../../api/serializers/translation.js';
import { checksumOf } from '../../api/serializers/unit.js';
import { refusal, targetOf } from '../../api/write.js';
import type { Project, Translation } from '../../store/index.js';
import { unitRecords } from '../../store/unit-records.repo.js';
import type { WebAnswer, WebContext } from '../context.js';
import { languagesOfVisitor, signedIn } from '../context.js';
import { num, paths, pluralText, strings } from '../format.js';
import { type Html, html } from '../html.js';
import { changeList, recentChanges } from './changes.js';
import { filterOf } from './editor.js';
import { type StatsRow, WAITING_FOR_REVIEW, listPage, page, progressLegend, statsTable, waitingForReview } from './layout.js';
import { projectStats, visibleProjects } from './overview.js';

/** How many rows each list of the dashboard shows (the rest is counted): the page does not grow with the site. */
const ROWS = 20;
/** How many changes each activity list shows. */
const ACTIVITY = 10;
/** The editor's filter of strings that need work (Weblate's "Unfinished": empty or needing editing). */
const UNFINISHED = 'state:<translated';

/** `Project / Component — Language`, linking to the translation's page. */
function translationName(ctx: WebContext, t: Translation): Html {
  const component = ctx.catalog.componentsById.get(t.componentId)!;
  const project = ctx.catalog.projectsById.get(component.projectId)!;
  return html`<a href=${paths.translation(ctx.catalog, t)}>${project.name} / ${component.name} — ${ctx.catalog.languages.get(t.languageId)!.name}</a>`;
}

/** The first `ROWS` of `rows` (most first) as a table of translations, a count, and a link into the editor's filter. */
function queueTable(
  ctx: WebContext,
  opts: { id: string; heading: string; attr: string; title: string; count: string; link: string; q: string; empty: Html },
  rows: { translation: Translation; n: number }[],
): Html {
  rows.sort((a, b) => b.n - a.n || a.translation.id - b.translation.id);
  return html`<section aria-labelledby=${opts.heading} class=${`queue ${opts.id}`}>
    <h2 id=${opts.heading}>${opts.title}</h2>
    ${
      rows.length === 0
        ? opts.empty
        : html`<table>
            <thead><tr><th scope="col">Translation</th><th scope="col" class="num">${opts.count}</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              ${rows.slice(0, ROWS).map(
                ({ translation: t, n }) => html`<tr>
                  <th scope="row">${translationName(ctx, t)}</th>
                  <td class="num" ...${{ [opts.attr]: n }}>${num(n)}</td>
                  <td><a href=${`${paths.translate(ctx.catalog, t)}?q=${encodeURIComponent(opts.q)}`}>${opts.link}</a></td>
                </tr>`,
              )}
            </tbody>
          </table>
          ${rows.length > ROWS && html`<p class="hint">${num(rows.length - ROWS)} more translations.</p>`}`
    }
  </section>`;
}

/** The visitor's languages' translations with strings that need work, from the kept statistics (no count per request). */
function myWork(ctx: WebContext, mine: Set<number>): Html {
  if (!signedIn(ctx)) return null;
  if (mine.size === 0) {
    return html`<section aria-labelledby="my-work-h" class="queue my-work">
      <h2 id="my-work-h">Your languages</h2>
      <p>Choose the languages you translate in <a href="/accounts/profile/#languages">your profile</a>: their strings that need work are listed here.</p>
    </section>`;
  }
  const rows: { translation: Translation; n: number }[] = [];
  for (const t of ctx.access.translationList()) {
    if (t.isSource || !mine.has(t.languageId)) continue;
    const c = countsOf(t, ctx);
    const unfinished = c.total - c.translated;
    if (unfinished > 0) rows.push({ translation: t, n: unfinished });
  }
  return queueTable(
    ctx,
    {
      id: 'my-work',
      heading: 'my-work-h',
      attr: 'data-unfinished',
      title: 'Strings of your languages that need work',
      count: 'Unfinished',
      link: 'Translate',
      q: UNFINISHED,
      empty: html`<p>Every string of your languages is translated.</p>`,
    },
    rows,
  );
}

type Queue = { translation: Translation; n: number }[];

/** Of `translations` (in id order), those with strings waiting for the caller's review and with suggestions the caller may accept. */
function findQueues(ctx: WebContext, translations: readonly Translation[]): { waiting: Queue; suggested: Queue } {
  const waiting: Queue = [];
  const suggested: Queue = [];
  for (const t of translations) {
    const counts = countsOf(t, ctx);
    const review = reviewOf(t, ctx) ? waitingForReview(counts) : 0;
    if (review === 0 && counts.suggestions === 0) continue;
    const component = ctx.catalog.componentsById.get(t.componentId)!;
    const on = targetOf(ctx, projectOfComponent(ctx, component), component, t);
    if (review > 0 && refusal(ctx, 'unit.review', on) === null) waiting.push({ translation: t, n: review });
    if (counts.suggestions > 0 && refusal(ctx, 'suggestion.accept', on) === null) suggested.push({ translation: t, n: counts.suggestions });
  }
  return { waiting, suggested };
}

/** For reviewers: translations with strings waiting for review, and with suggestions to accept (of their languages, when chosen). */
function reviewQueues(ctx: WebContext, mine: Set<number>): Html {
  if (!signedIn(ctx)) return null;
  // depends on the catalog and the caller's permissions only: found once per catalog snapshot and caller, and moved
  // by the translations whose statistics an edit changed (not found again from every translation)
  const queues = ctx.access.rememberSums(
    'dashboardQueues',
    () => findQueues(ctx, ctx.access.translationList()),
    (previous, change) => {
      const changed = new Set(change.changed);
      const found = findQueues(
        ctx,
        [...changed].flatMap((id) => {
          const t = ctx.catalog.translationsById.get(id);
          return t && ctx.access.translation(t) ? [t] : [];
        }),
      );
      // each list in id order, as the visible translations are
      const merge = (kept: Queue, more: Queue) => {
        const left = kept.filter((r) => !changed.has(r.translation.id));
        return left.length === kept.length && more.length === 0 ? kept : [...left, ...more].sort((a, b) => a.translation.id - b.translation.id);
      };
      return { waiting: merge(previous.waiting, found.waiting), suggested: merge(previous.suggested, found.suggested) };
    },
  );
  const ofMine = (rows: { translation: Translation; n: number }[]) => (mine.size === 0 ? [...rows] : rows.filter((r) => mine.has(r.translation.languageId)));
  const waiting = ofMine(queues.waiting);
  const suggested = ofMine(queues.suggested);
  return [
    waiting.length > 0 &&
      queueTable(
        ctx,
        {
          id: 'review-queue',
          heading: 'review-h',
          attr: 'data-waiting',
          title: 'Waiting for review',
          count: 'Strings',
          link: 'Review',
          q: WAITING_FOR_REVIEW,
          empty: null,
        },
        waiting,
      ),
    suggested.length > 0 &&
      queueTable(
        ctx,
        {
          id: 'suggestion-queue',
          heading: 'suggestions-h',
          attr: 'data-suggestions',
          title: 'Suggestions to review',
          count: 'Suggestions',
          link: 'Review',
          q: 'has:suggestion',
          empty: null,
        },
        suggested,
      ),
  ];
}

/** The site-wide search box (the editor's search language, across every visible translation). */
function searchBox(q = ''): Html {
  return html`<form method="get" action="/search/" class="search site-search" role="search">
    <label for="site-q">Search strings</label>
    <input id="site-q" name="q" type="search" value=${q} placeholder="e.g. Open file, or label:UI language:de" />
    <button type="submit">Search</button>
  </form>`;
}

/** `/` and `/projects/`: the search box, the visitor's work and reviews, recent activity, every visible project with its progress. */
export async function dashboard(ctx: WebContext): Promise<WebAnswer> {
  const mine = await languagesOfVisitor(ctx);
  const [own, site] = await Promise.all([
    signedIn(ctx) ? recentChanges(ctx, { user: ctx.user.username }, ACTIVITY) : Promise.resolve(null),
    recentChanges(ctx, {}, ACTIVITY),
  ]);
  const projects = listPage(ctx, visibleProjects(ctx));
  const rows: StatsRow[] = projects.rows.map((p) => ({ name: html`<a href=${paths.project(p)}>${p.name}</a>`, counts: projectStats(ctx, p) }));
  const body = html`<h1>Dashboard</h1>
    ${searchBox()}
    <div class="dashboard-grid">
      ${myWork(ctx, mine)} ${reviewQueues(ctx, mine)}
    </div>
    ${rows.length === 0 ? html`<p>No projects to show${ctx.user.is_anonymous ? ' — sign in to see private ones' : ''}.</p>` : [statsTable('Projects', 'Project', rows), projects.pager, progressLegend()]}
    <div class="dashboard-grid">
      ${
        own &&
        html`<section aria-labelledby="own-activity-h" class="activity own-activity">
          <h2 id="own-activity-h">Your recent activity</h2>
          ${changeList(ctx, own)}
          <p><a href=${`/changes/?user=${encodeURIComponent(ctx.user.username)}`}>All your changes</a></p>
        </section>`
      }
      <section aria-labelledby="site-activity-h" class="activity site-activity">
        <h2 id="site-activity-h">Recent activity on the site</h2>
        ${changeList(ctx, site)}
        <p><a href="/changes/">All changes</a></p>
      </section>
    </div>`;
  return { html: page(ctx, { title: 'Dashboard', body }) };
}

/** How many strings a site search lists per page. */
const SEARCH_PAGE = 50;

/** `GET /search/?q=&offset=`: strings of every visible translation the search selects, by id, each a link into its editor. */
export async function searchPage(ctx: WebContext): Promise<WebAnswer> {
  const q = (queryValue(ctx, 'q') ?? '').trim();
  const offset = Math.max(0, Number.parseInt(queryValue(ctx, 'offset') ?? '0', 10) || 0);
  const filter = q === '' ? null : filterOf(q);
  // one page and one row more (is there a next page?), never a count of every match; read in id order when the
  // visitor sees most translations, so that a common search stops at the page's end
  const visible = ctx.access.translationIds();
  const byId = ctx.access.unitsById();
  const found = filter === null ? [] : await ctx.services.store.read((tx) => unitRecords(tx, visible, filter, { limit: SEARCH_PAGE + 1, offset }, { byId }));
  const more = found.length > SEARCH_PAGE;
  const next = (at: number) => `/search/?${new URLSearchParams({ q, offset: String(at) })}`;
  const body = html`<h1>Search</h1>
    ${searchBox(q)}
    ${
      filter !== null &&
      (found.length === 0
        ? html`<p role="status">No strings match.</p>`
        : html`<p role="status" data-found=${Math.min(found.length, SEARCH_PAGE)}>${offset > 0 ? `From ${num(offset + 1)}: ` : ''}${strings(Math.min(found.length, SEARCH_PAGE))}${more ? ' (more on the next page)' : ''}.</p>
          <ol class="search-results" start=${offset + 1}>
            ${found.slice(0, SEARCH_PAGE).map((u) => {
              const t = ctx.catalog.translationsById.get(u.translationId)!;
              return html`<li>
                <a href=${`${paths.translate(ctx.catalog, t)}?checksum=${checksumOf(u.idHash)}`}>${pluralText(u.source)}</a>
                <small>${translationName(ctx, t)}</small>
                ${u.target && html`<p class="text">${pluralText(u.target)}</p>`}
              </li>`;
            })}
          </ol>
          <p>${offset > 0 && html`<a href=${next(Math.max(0, offset - SEARCH_PAGE))}>← Previous</a> `}${more && html`<a href=${next(offset + SEARCH_PAGE)}>Next →</a>`}</p>`)
    }
    <p class="hint">The search language is the editor's (and the API's <code>?q=</code>): words, <code>source:</code>, <code>target:</code>, <code>state:</code>, <code>label:</code>, <code>language:</code>, <code>project:</code>…</p>`;
  return { html: page(ctx, { title: q ? `Search: ${q}` : 'Search', crumbs: [{ label: 'Search' }], body }) };
}
