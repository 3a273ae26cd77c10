// What the editor shows around its string: the nearby strings of the file, other occurrences of the string in the project, source information (locations linked to the repository browser, age, last change) and the keyboard help.
import path from 'node:path';
import { ACTIONS_CONTENT } from '../../domain/actions.js';
import { hashToChecksum } from '../../domain/hash.js';
import { PLURAL_SEPARATOR, State } from '../../domain/unit.js';
import type { ChangeRecordRow, Component, ScreenshotBrief, Translation, UnitRecord } from '../../store/index.js';
import { unitScreenshots } from '../../store/screenshots.repo.js';
import { unitRecord } from '../../store/unit-records.repo.js';
import { type PositionedUnit, type UnitBrief, nearbyUnits, unitsByHashIn } from '../../store/units.repo.js';
import type { WebContext } from '../context.js';
import { paths, pluralText, when } from '../format.js';
import { type Html, html } from '../html.js';

/** Strings shown before and after the edited one. */
const NEARBY = 5;
/** Other occurrences listed at most. */
const OCCURRENCES = 20;

/** The data of the panes around one string, read in one go. */
export interface UnitSurroundings {
  nearby: { before: PositionedUnit[]; after: PositionedUnit[] };
  /** The same string (source and context, or key) in the project's other components, in this language. */
  occurrences: UnitBrief[];
  /** The source language's unit (its timestamp is the source string's age), when it is another unit. */
  sourceUnit?: UnitRecord;
  /** The screenshots showing the string (linked to its source unit, or to this one). */
  screenshots: ScreenshotBrief[];
}

/** The translations of this language in the project's other components the user may see (a restricted one stays hidden). */
function siblingTranslations(ctx: WebContext, translation: Translation): number[] {
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const code = ctx.catalog.languages.get(translation.languageId)!.code;
  const ids: number[] = [];
  for (const c of ctx.catalog.components) {
    if (c.projectId !== component.projectId || c.id === component.id || !ctx.access.component(c)) continue;
    const t = ctx.catalog.translationsByKey.get(`${c.id}/${code}`);
    if (t) ids.push(t.id);
  }
  return ids;
}

export async function surroundingsOf(ctx: WebContext, translation: Translation, unit: UnitRecord): Promise<UnitSurroundings> {
  const siblings = siblingTranslations(ctx, translation);
  return ctx.services.store.read(async (tx) => {
    const [nearby, occurrences, sourceUnit, screenshots] = await Promise.all([
      nearbyUnits(tx, translation.id, unit.position, NEARBY),
      siblings.length === 0 ? Promise.resolve([]) : unitsByHashIn(tx, siblings, unit.idHash),
      unit.sourceUnitId !== null && unit.sourceUnitId !== unit.id ? unitRecord(tx, unit.sourceUnitId) : Promise.resolve(undefined),
      unitScreenshots(tx, unit.id, unit.sourceUnitId),
    ]);
    return { nearby, occurrences: occurrences.slice(0, OCCURRENCES), sourceUnit, screenshots };
  });
}

const STATE_CLASS: Record<number, string> = {
  [State.EMPTY]: 'untranslated',
  [State.FUZZY]: 'fuzzy',
  [State.TRANSLATED]: 'translated',
  [State.APPROVED]: 'approved',
  [State.READONLY]: 'readonly',
};
const STATE_TEXT: Record<number, string> = {
  [State.EMPTY]: 'untranslated',
  [State.FUZZY]: 'needs editing',
  [State.TRANSLATED]: 'translated',
  [State.APPROVED]: 'approved',
  [State.READONLY]: 'read-only',
};

function stateTag(state: number): Html {
  return html`<span class=${`state ${STATE_CLASS[state] ?? ''}`}>${STATE_TEXT[state] ?? String(state)}</span>`;
}

/** A line of a string list: its source linked to its editor, its state and translation. */
function stringLine(href: string, source: string, target: string, state: number, lang: { code: string; dir: string }, nav: boolean): Html {
  return html`<a href=${href} data-nav=${nav ? 'nearby' : undefined}>${pluralText(source)}</a> ${stateTag(state)}
    ${target.split(PLURAL_SEPARATOR).some((f) => f !== '') && html`<span class="target" lang=${lang.code} dir=${lang.dir}>${pluralText(target)}</span>`}`;
}

/** "Nearby strings" and "Other occurrences": each string one click (or Tab and Enter) away. */
export function surroundingsSections(
  ctx: WebContext,
  translation: Translation,
  unit: UnitRecord,
  s: UnitSurroundings,
  lang: { code: string; dir: string },
): Html {
  const base = paths.translate(ctx.catalog, translation);
  const line = (u: PositionedUnit) =>
    html`<li data-position=${u.position}>${stringLine(`${base}?checksum=${hashToChecksum(u.id_hash)}`, u.source, u.target, u.state, lang, true)}</li>`;
  return html`<section aria-labelledby="nearby-h" class="nearby">
      <h2 id="nearby-h">Nearby strings</h2>
      <ol>
        ${s.nearby.before.map(line)}
        <li class="current" aria-current="true"><strong>${pluralText(unit.source)}</strong> ${stateTag(unit.state)}</li>
        ${s.nearby.after.map(line)}
      </ol>
    </section>
    <section aria-labelledby="occurrences-h" class="occurrences">
      <h2 id="occurrences-h">Other occurrences</h2>
      ${
        s.occurrences.length === 0
          ? html`<p>The string occurs nowhere else in this project.</p>`
          : html`<ul>
            ${s.occurrences.map((o) => {
              const t = ctx.catalog.translationsById.get(o.translation_id);
              const component = t && ctx.catalog.componentsById.get(t.componentId);
              if (!t || !component) return null;
              return html`<li data-occurrence=${o.id}><span class="where">${component.name}:</span> ${stringLine(
                `${paths.translate(ctx.catalog, t)}?checksum=${hashToChecksum(o.id_hash)}`,
                o.source,
                o.target,
                o.state,
                lang,
                false,
              )}</li>`;
            })}
          </ul>`
      }
    </section>`;
}

/**
 * A location's link into the repository browser (`repoweb` with Weblate's `{{filename}}`, `{{line}}`, `{{branch}}`);
 * a path starting `./` or `../` is relative to the translation file (Qt Linguist writes them so).
 */
export function locationLink(component: Component, translation: Translation, location: string): string | undefined {
  const template = component.settings.repoweb;
  if (!template) return undefined;
  const m = /^(.*?)(?::(\d+))?$/.exec(location.trim());
  if (!m?.[1]) return undefined;
  let file = m[1];
  if (/^\.\.?\//.test(file)) file = path.posix.normalize(path.posix.join(path.posix.dirname(translation.filename), file));
  if (file.startsWith('../')) return undefined;
  return template
    .replace(/\{\{\s*filename\s*\}\}/g, file.split('/').map(encodeURIComponent).join('/'))
    .replace(/\{\{\s*line\s*\}\}/g, m[2] ?? '')
    .replace(/\{\{\s*branch\s*\}\}/g, encodeURIComponent(String(component.settings.branch ?? '')));
}

/** The string's locations, each linked to the repository browser where the component names one. */
export function locations(component: Component, translation: Translation, unit: UnitRecord): Html {
  const list = unit.location
    .split(/,\s*|\s+/)
    .map((l) => l.trim())
    .filter(Boolean);
  return list.map((l, i) => {
    const href = locationLink(component, translation, l);
    return html`${i > 0 ? ', ' : ''}${href ? html`<a href=${href} rel="noopener" data-location><code>${l}</code></a>` : html`<code>${l}</code>`}`;
  });
}

function ageOf(timestamp: string): string {
  const days = Math.floor((Date.now() - Date.parse(timestamp)) / 86_400_000);
  if (Number.isNaN(days)) return '';
  return days <= 0 ? 'today' : days === 1 ? 'yesterday' : `${days} days ago`;
}

/** The source string's age and the string's last change (who made it), as facts beside the source. */
export function ageFacts(unit: UnitRecord, s: UnitSurroundings, history: ChangeRecordRow[]): Html {
  const last = history.find((c) => ACTIONS_CONTENT.has(c.action));
  const sourceTime = s.sourceUnit?.timestamp ?? unit.timestamp;
  return html`<dt>Source string age</dt><dd data-source-age><time datetime=${sourceTime}>${ageOf(sourceTime)}</time> (${when(sourceTime)})</dd>
    <dt>Last changed</dt><dd data-last-change>${when(unit.timestamp)}${last ? ` by ${last.user ?? 'tms'}` : ''}</dd>`;
}

/** The string's screenshots as facts beside the source: each a thumbnail linking to the image, and its page. */
export function screenshotFacts(s: UnitSurroundings): Html {
  if (s.screenshots.length === 0) return null;
  return html`<dt>Screenshots</dt><dd><ul class="thumbs">
    ${s.screenshots.map(
      (shot) => html`<li data-screenshot=${shot.id}>
        <a href=${paths.screenshotImage(shot.id)}><img src=${paths.screenshotImage(shot.id)} alt=${shot.name} width=${shot.width} height=${shot.height} loading="lazy" /></a>
        <a href=${paths.screenshot(shot.id)}>${shot.name}</a>
      </li>`,
    )}
  </ul></dd>`;
}

/** The keyboard help: a disclosure that works without script; `?` opens it. */
export function keyboardHelp(): Html {
  const keys: [string, string][] = [
    ['Ctrl+Enter', 'save and open the next string'],
    ['Alt+Enter', 'suggest the text as typed'],
    ['Alt+PageDown / Alt+PageUp', 'next / previous string'],
    ['Alt+Home / Alt+End', 'first / last string of the list'],
    ['Alt+1 … Alt+9', 'copy a translation memory match'],
    ['Alt+Z', 'zen mode (the strings as one list, saved as you leave a field) and back'],
    ['?', 'this help (outside a text field)'],
    ['Tab / Shift+Tab', 'every button and link in order'],
  ];
  return html`<details class="keys" id="keys">
    <summary aria-keyshortcuts="?">Keyboard shortcuts</summary>
    <dl>${keys.map(([k, what]) => html`<dt><kbd>${k}</kbd></dt><dd>${what}</dd>`)}</dl>
  </details>`;
}
