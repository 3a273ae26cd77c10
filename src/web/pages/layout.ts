// The page frame every web page shares (header, navigation, skip link, assets) and the shared pieces: progress bars, statistics tables.
import { queryValue } from '../../api/context.js';
import { sumStats } from '../../api/statistics.js';
import type { Counts } from '../../api/statistics.js';
import { percent } from '../../domain/percent.js';
import type { WebContext } from '../context.js';
import { num, pct } from '../format.js';
import { type Html, html, renderDocument } from '../html.js';

export interface Crumb {
  label: string;
  href?: string;
}

/**
 * What the frame of a page shows of the request: every page's context, or, for an error met before there was one (the
 * database does not answer), the assets, the path and no user.
 */
export type Frame = Pick<WebContext, 'assets' | 'csrf' | 'path'> & { user?: WebContext['user'] };

/** A whole page: `title` names it, `crumbs` say where it is, `script` loads the editor's script. */
export function page(ctx: Frame, opts: { title: string; crumbs?: Crumb[]; body: Html; script?: boolean; bodyClass?: string }): string {
  const css = ctx.assets.url('style.css');
  const js = opts.script ? ctx.assets.url('editor.js') : undefined;
  const user = ctx.user && ctx.user.is_anonymous === 0 ? ctx.user : null;
  const icon = ctx.assets.url('favicon.ico');
  return renderDocument(html`
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="csrf-token" content=${ctx.csrf} />
        <title>${opts.title} — tms</title>
        <link rel="icon" href=${icon ?? 'data:,'} />
        ${css && html`<link rel="stylesheet" href=${css} />`}
        ${js && html`<script defer src=${js}></script>`}
      </head>
      <body class=${opts.bodyClass}>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="/">tms</a>
          <nav aria-label="Site">
            <ul>
              <li><a href="/">Dashboard</a></li>
              <li><a href="/languages/">Languages</a></li>
              <li><a href="/changes/">Changes</a></li>
              ${
                user
                  ? html`<li><a href="/accounts/profile/">${user.full_name || user.username}</a></li>
                      <li>
                        <form method="post" action="/accounts/logout/" class="inline">
                          <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
                          <button type="submit" class="link">Sign out</button>
                        </form>
                      </li>`
                  : html`<li><a href=${`/accounts/login/?next=${encodeURIComponent(ctx.path)}`}>Sign in</a></li>`
              }
            </ul>
          </nav>
        </header>
        ${
          opts.crumbs &&
          html`<nav aria-label="Breadcrumb" class="crumbs">
            <ol>
              ${opts.crumbs.map((c) => html`<li>${c.href ? html`<a href=${c.href}>${c.label}</a>` : html`<span aria-current="page">${c.label}</span>`}</li>`)}
            </ol>
          </nav>`
        }
        <main id="main" tabindex="-1">${opts.body}</main>
      </body>
    </html>
  `);
}

/** A label as a chip: its colour as a dot beside its name (the name carries the meaning; the colour only helps). */
export function labelChip(label: { name: string; color: string; description?: string }): Html {
  return html`<span class="label" title=${label.description || undefined}><span class="swatch" style=${`--swatch: ${label.color}`} aria-hidden="true"></span>${label.name}</span>`;
}

/** Percentages of a set of strings: approved, translated (approved included), needing editing. */
export function percents(c: Counts): { translated: number; approved: number; fuzzy: number } {
  return { translated: percent(c.translated, c.total), approved: percent(c.approved, c.total), fuzzy: percent(c.fuzzy, c.total) };
}

/** The search of strings translated and not approved yet: Weblate's "Waiting for review". */
export const WAITING_FOR_REVIEW = 'state:translated';

/** How many strings wait for review: translated, neither approved nor read-only. */
export function waitingForReview(c: Counts): number {
  return Math.max(0, c.translated - c.approved - c.readonly);
}

/** What the progress bars' colours mean (shown once beside the bars of a page). */
export function progressLegend(): Html {
  return html`<ul class="legend" aria-label="Progress bar colours">
    <li><span class="swatch approved"></span> Approved</li>
    <li><span class="swatch translated"></span> Translated, waiting for review or without review</li>
    <li><span class="swatch fuzzy"></span> Needs editing</li>
    <li><span class="swatch empty"></span> Untranslated</li>
  </ul>`;
}

/** A progress bar: approved, translated and needs-editing parts, with the figures as text too. */
export function progress(c: Counts): Html {
  const p = percents(c);
  const translatedOnly = Math.max(0, p.translated - p.approved);
  return html`<div class="progress" role="img" aria-label=${`${pct(p.translated)} translated, ${pct(p.approved)} approved, ${pct(p.fuzzy)} needs editing`}>
    <span class="bar approved" style=${`width:${p.approved}%`}></span>
    <span class="bar translated" style=${`width:${translatedOnly}%`}></span>
    <span class="bar fuzzy" style=${`width:${p.fuzzy}%`}></span>
  </div>`;
}

/** One row of a statistics table: a linked name, a progress bar, the translated percentage, and word counts. */
export interface StatsRow {
  name: Html;
  counts: Counts;
  translate?: string;
}

export function statsTable(caption: string, first: string, rows: StatsRow[]): Html {
  return html`<table class="stats">
    <caption>${caption}</caption>
    <thead>
      <tr>
        <th scope="col">${first}</th>
        <th scope="col">Progress</th>
        <th scope="col" class="num">Translated</th>
        <th scope="col" class="num">Needs editing</th>
        <th scope="col" class="num">Approved</th>
        <th scope="col" class="num">Words</th>
        <th scope="col"><span class="sr-only">Actions</span></th>
      </tr>
    </thead>
    <tbody>
      ${rows.map((r) => {
        const p = percents(r.counts);
        return html`<tr>
          <th scope="row">${r.name}</th>
          <td class="bar-cell">${progress(r.counts)}</td>
          <td class="num" data-label="Translated" data-stat="translated">${pct(p.translated)}</td>
          <td class="num" data-label="Needs editing" data-stat="fuzzy">${pct(p.fuzzy)}</td>
          <td class="num" data-label="Approved" data-stat="approved">${pct(p.approved)}</td>
          <td class="num" data-label="Words"><span data-stat="words">${num(r.counts.translated_words)} / ${num(r.counts.total_words)}</span></td>
          <td class="actions">${r.translate && html`<a href=${r.translate}>Translate</a>`}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

export { sumStats };

/** Rows a page shows of a list that grows with the site (projects of the dashboard, components of a project). */
export const LIST_PAGE = 100;

/**
 * One page (`?page=`, from 1; out of range shows the nearest) of a list that grows with the site, and the pager
 * under it (nothing when the list fits on one page). A page with two lists names the second's parameter (`param`,
 * e.g. `lang_page`) and its pager (`label`); the pager's links keep the rest of the query, the other list's page too.
 * @example const { rows, pager } = listPage(ctx, components); html`${statsTable('Components', 'Component', rows.map(row))}${pager}`
 */
export function listPage<T>(
  ctx: WebContext,
  items: readonly T[],
  { param = 'page', label = 'Pages', size = LIST_PAGE }: { param?: string; label?: string; size?: number } = {},
): { rows: readonly T[]; pager: Html } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const n = Math.min(pages, Math.max(1, Number.parseInt(queryValue(ctx, param) ?? '1', 10) || 1));
  const rows = items.slice((n - 1) * size, n * size);
  if (pages === 1) return { rows, pager: null };
  const kept = ctx.query.filter(([key]) => key !== param).map(([key, value]): [string, string] => [key, value]);
  const to = (k: number) => `${ctx.path}?${new URLSearchParams([...kept, [param, String(k)]]).toString()}`;
  return {
    rows,
    pager: html`<nav aria-label=${label} class="pager">
      ${n > 1 && html`<a href=${to(n - 1)} rel="prev">Previous</a>`}
      <span>Page ${num(n)} of ${num(pages)}</span>
      ${n < pages && html`<a href=${to(n + 1)} rel="next">Next</a>`}
    </nav>`,
  };
}
