// Statistics of translations and their sums (component, project, language), as Weblate's stats compute them.
import type { StatsChange } from '../store/catalog.repo.js';
import type { Catalog, CatalogStats, Translation } from '../store/index.js';
import type { TranslationStatsRow } from '../store/index.js';
import { DELTA_NAMES } from '../store/stats.repo.js';
import type { Access } from './access.js';

/**
 * Counts of a translation or of a set of translations: the stored statistics, with the author of the newest
 * content change as a full name (`last_author`) instead of a user id.
 */
export type Counts = Omit<TranslationStatsRow, 'translation_id' | 'last_author_id' | 'seq'> & { last_author: string | null };

const SUMMED = [...DELTA_NAMES, 'recent_changes'] as const;

/** Empty counts (a translation never counted yet). */
export function emptyCounts(): Counts {
  const counts = { last_change: null, last_author: null } as Counts;
  for (const key of SUMMED) counts[key] = 0;
  return counts;
}

/**
 * Sums translations' statistics: counts and recent changes add up, the newest last change wins
 * (with its author). `sumStats([a, b]).total === a.total + b.total`.
 */
export function sumStats(rows: Iterable<CatalogStats | undefined>): Counts {
  const counts = emptyCounts();
  for (const row of rows) {
    if (!row) continue;
    for (const key of SUMMED) counts[key] += row[key];
    if (row.last_change !== null && (counts.last_change === null || row.last_change > counts.last_change)) {
      counts.last_change = row.last_change;
      counts.last_author = row.last_author;
    }
  }
  return counts;
}

/** A translation's statistics row replaced by a refresh: its translation, its row before and after (undefined: none). */
export type StatsMove = readonly [translationId: number, before: CatalogStats | undefined, after: CatalogStats | undefined];

/**
 * `sum` (the sums of some rows, in translation id order as `sumStats` takes them) with some of its rows replaced, or
 * null where a difference cannot give what `sumStats` of the new rows would: when the newest last change may have gone
 * (a row that held it changed without a newer one) or ties a row left unchanged (whose author `sumStats` may take).
 * Changed rows that tie as the newest of all follow `sumStats`'s order: the smallest translation id's author; a row
 * whose last change and author stayed moves its counts only.
 */
export function moveStats(sum: Counts, changes: readonly StatsMove[]): Counts | null {
  const counts = { ...sum };
  let newest: CatalogStats | undefined;
  let newestId = 0;
  let held = false;
  for (const [id, before, after] of changes) {
    if (before && after && before.last_change === after.last_change && before.last_author === after.last_author) {
      // only counts moved (a check's or suggestion's): the row stays where it was among the newest
      for (const key of SUMMED) counts[key] += after[key] - before[key];
      continue;
    }
    if (before) {
      for (const key of SUMMED) counts[key] -= before[key];
      if (before.last_change !== null && before.last_change === sum.last_change) held = true;
    }
    if (after) {
      for (const key of SUMMED) counts[key] += after[key];
      if (after.last_change !== null) {
        const last = newest?.last_change;
        if (last === undefined || after.last_change > last! || (after.last_change === last && id < newestId)) {
          newest = after;
          newestId = id;
        }
      }
    }
  }
  if (newest && (sum.last_change === null || newest.last_change! > sum.last_change)) {
    // newer than every row left unchanged: the newest of all
    counts.last_change = newest.last_change;
    counts.last_author = newest.last_author;
    return counts;
  }
  if (held || (newest && newest.last_change === sum.last_change)) return null;
  return counts;
}

/**
 * The statistics the overview pages show, summed over what the caller sees once per catalog snapshot and caller, so
 * that no page sums the site: per project, per project and language, and per language.
 */
export interface SiteStats {
  projects: Map<number, Counts>;
  languages: Map<number, Counts>;
  projectLanguages: Map<number, Map<number, Counts>>;
}

/**
 * The caller's `SiteStats` over `catalog`: summed whole once, then moved by each statistics row a refresh changed
 * (its row before out, its row now in), summing again only the sums a difference cannot follow (`moveStats`).
 * @example siteStats(ctx.access, ctx.catalog).projects.get(project.id)!.translated
 */
export function siteStats(access: Access, catalog: Catalog): SiteStats {
  return access.rememberSums(
    'siteStats',
    () => sumSite(access, catalog),
    (previous, change) => moveSite(access, catalog, previous, change),
  );
}

function projectOfTranslation(catalog: Catalog, translation: Translation): number {
  return catalog.componentsById.get(translation.componentId)!.projectId;
}

/** `SiteStats` summed from every visible translation's statistics, each sum over its rows in translation id order. */
export function sumSite(access: Access, catalog: Catalog): SiteStats {
  const byProject = new Map<number, { all: (CatalogStats | undefined)[]; languages: Map<number, (CatalogStats | undefined)[]> }>();
  const byLanguage = new Map<number, (CatalogStats | undefined)[]>();
  for (const t of access.translationList()) {
    const row = catalog.stats.get(t.id);
    const projectId = projectOfTranslation(catalog, t);
    let group = byProject.get(projectId);
    if (!group) byProject.set(projectId, (group = { all: [], languages: new Map() }));
    group.all.push(row);
    push(group.languages, t.languageId, row);
    push(byLanguage, t.languageId, row);
  }
  const projects = new Map<number, Counts>();
  const projectLanguages = new Map<number, Map<number, Counts>>();
  for (const p of access.projectList()) {
    const group = byProject.get(p.id);
    projects.set(p.id, sumStats(group?.all ?? []));
    const sums = new Map<number, Counts>();
    for (const [languageId, rows] of group?.languages ?? []) sums.set(languageId, sumStats(rows));
    projectLanguages.set(p.id, sums);
  }
  const languages = new Map<number, Counts>();
  for (const [languageId, rows] of byLanguage) languages.set(languageId, sumStats(rows));
  return { projects, projectLanguages, languages };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function moveSite(access: Access, catalog: Catalog, previous: SiteStats, change: StatsChange): SiteStats {
  type Changes = StatsMove[];
  const byProject = new Map<number, { all: Changes; languages: Map<number, Changes> }>();
  const byLanguage = new Map<number, Changes>();
  for (const id of change.changed) {
    const t = catalog.translationsById.get(id);
    if (!t || !access.translation(t)) continue;
    const projectId = projectOfTranslation(catalog, t);
    let group = byProject.get(projectId);
    if (!group) byProject.set(projectId, (group = { all: [], languages: new Map() }));
    const move: StatsMove = [id, change.before.get(id), catalog.stats.get(id)];
    group.all.push(move);
    push(group.languages, t.languageId, move);
    push(byLanguage, t.languageId, move);
  }
  if (byProject.size === 0) return previous;
  const projects = new Map(previous.projects);
  const projectLanguages = new Map(previous.projectLanguages);
  const rowsOf = (projectId: number | undefined, languageId?: number) =>
    access
      .translationList()
      .filter((t) => (languageId === undefined || t.languageId === languageId) && (projectId === undefined || projectOfTranslation(catalog, t) === projectId))
      .map((t) => catalog.stats.get(t.id));
  for (const [projectId, group] of byProject) {
    const sum = previous.projects.get(projectId);
    const languages = new Map(previous.projectLanguages.get(projectId));
    projects.set(projectId, (sum && moveStats(sum, group.all)) ?? sumStats(rowsOf(projectId)));
    for (const [languageId, changes] of group.languages) {
      const languageSum = languages.get(languageId);
      languages.set(languageId, (languageSum && moveStats(languageSum, changes)) ?? sumStats(rowsOf(projectId, languageId)));
    }
    projectLanguages.set(projectId, languages);
  }
  const languages = new Map(previous.languages);
  for (const [languageId, changes] of byLanguage) {
    const sum = languages.get(languageId);
    languages.set(languageId, (sum && moveStats(sum, changes)) ?? sumStats(rowsOf(undefined, languageId)));
  }
  return { projects, projectLanguages, languages };
}
