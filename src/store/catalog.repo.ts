// The domain's plain types of a language, project, component and translation (camelCase, settings parsed, flags as
// booleans), beside their stored rows (LanguageRow, ProjectRow, ComponentRow, TranslationRow), and the catalog that
// reads them with their statistics in one snapshot for the API and the web interface, and refreshes it by what changed.
import type { Statement, Tx } from './db.js';
import type { LanguageRow } from './languages.repo.js';
import { LayeredMap } from './layered-map.js';
import type { ComponentSettings, ProjectSettings } from './projects.repo.js';
import { preparedOnce } from './statements.js';
import { DELTA_NAMES, type TranslationStatsRow } from './stats.repo.js';
import type { TranslationRow } from './translations.repo.js';

/** A language as the domain sees it (its row: LanguageRow). */
export interface Language {
  id: number;
  code: string;
  name: string;
  direction: string;
  population: number;
  pluralNumber: number;
  pluralFormula: string;
  pluralType: number;
  pluralSource: number;
  aliases: string[];
}

/** A project as the domain sees it (its row: ProjectRow). */
export interface Project {
  id: number;
  slug: string;
  name: string;
  settings: Partial<ProjectSettings>;
}

/** A component as the domain sees it (its row: ComponentRow). */
export interface Component {
  id: number;
  projectId: number;
  slug: string;
  name: string;
  settings: Partial<ComponentSettings>;
  locked: boolean;
}

/** A translation as the domain sees it (its row: TranslationRow). */
export interface Translation {
  id: number;
  componentId: number;
  languageId: number;
  languageCode: string;
  filename: string;
  revision: string;
  isSource: boolean;
  isTemplate: boolean;
  /** The plural its file states where not its language's (PO's Plural-Forms); null follows the language. */
  plural: { number: number; formula: string } | null;
}

/** An add-on, with its configuration parsed. */
export interface CatalogAddon {
  id: number;
  componentId: number | null;
  projectId: number | null;
  name: string;
  configuration: Record<string, unknown>;
}

/** Statistics of one translation, with the newest content author's full name resolved. */
export interface CatalogStats extends Omit<TranslationStatsRow, 'translation_id' | 'last_author_id' | 'seq'> {
  last_author: string | null;
}

/** Everything the API needs to describe objects, read in one go; small next to the units. */
export interface Catalog {
  languages: Map<number, Language>;
  languagesByCode: Map<string, Language>;
  /** Projects in id order. */
  projects: Project[];
  projectsById: Map<number, Project>;
  projectsBySlug: Map<string, Project>;
  /** Components in id order. */
  components: Component[];
  componentsById: Map<number, Component>;
  /** Keyed `<project slug>/<component slug>`. */
  componentsByPath: Map<string, Component>;
  /** Translations in id order. */
  translations: Translation[];
  translationsById: Map<number, Translation>;
  /** Keyed `<component id>/<language code>` (the language's code, not the file's). */
  translationsByKey: Map<string, Translation>;
  translationsByComponent: Map<number, Translation[]>;
  /** Statistics by translation id: read-only (a refreshed snapshot's reads fall through to the last one's). */
  stats: StatsMap;
  /** Add-ons in id order. */
  addons: CatalogAddon[];
  addonsById: Map<number, CatalogAddon>;
  /** The store's catalog_version as read before the rest: what `refreshCatalog` compares. */
  version: CatalogVersion;
}

/**
 * Raised by triggers: `structure` by any change of what the catalog reads whole, `stats` by each statistics row written
 * (its seq), `translations` by each translation added or changed (its seq).
 */
export interface CatalogVersion {
  structure: number;
  stats: number;
  translations: number;
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Rows of a table with a row per translation read by one statement (loadCatalog): a page's arrays are dropped before the next is read. */
const PAGE = 10_000;

/** The statistics columns a snapshot keeps, in CatalogStats's order (the table's, less its keys; the author's name last). */
const STATS_COLUMNS = [...DELTA_NAMES, 'last_change', 'recent_changes'] as const;

/**
 * One copy of each string read again and again (language codes, revisions, authors, the templates of components'
 * settings): a row's strings are each their own copy as the driver reads them. Not file names: at 10 million strings
 * 201,748 of 206,747 translations' are distinct.
 */
function interner(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    const kept = seen.get(text);
    if (kept !== undefined) return kept;
    seen.set(text, text);
    return text;
  };
}

/** `value` with each string in it (at any depth of its objects and arrays) replaced by `intern`'s copy, in place. */
function internAll<T>(value: T, intern: (text: string) => string): T {
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const v = object[key];
    if (typeof v === 'string') object[key] = intern(v);
    else if (v !== null && typeof v === 'object') internAll(v, intern);
  }
  return value;
}

/** The rows of `statement` (raw, paged by its first column: it binds `> ?` and `LIMIT ?`) `page` at a time, in order. */
async function eachPage(statement: Statement, page: number, each: (row: unknown[]) => void): Promise<void> {
  for (let after = 0; ; ) {
    const rows = (await statement.all(after, page)) as unknown[][];
    for (const row of rows) each(row);
    if (rows.length < page) return;
    after = Number(rows[rows.length - 1]![0]);
  }
}

const TRANSLATION_COLUMNS = 'id, component_id, language_id, language_code, filename, revision, is_source, is_template, plural_number, plural_formula';
/** A translation's row as read (raw), in TRANSLATION_COLUMNS's order. */
type TranslationRead = [number, number, number, string, string, string, number, number, number | bigint | null, string | null];

const sql = preparedOnce((tx: Tx) => ({
  version: tx.prepare('SELECT structure, stats, translations FROM catalog_version WHERE id = 1'),
  languages: tx.prepare('SELECT * FROM languages ORDER BY id'),
  projects: tx.prepare('SELECT id, slug, name, settings FROM projects ORDER BY id'),
  components: tx.prepare('SELECT id, project_id, slug, name, settings, locked FROM components ORDER BY id').raw(),
  // the two tables with a row per translation are read a page at a time, as arrays (loadCatalog)
  translations: tx.prepare(`SELECT ${TRANSLATION_COLUMNS} FROM translations WHERE id > ? ORDER BY id LIMIT ?`).raw(),
  // the translations added or changed since a snapshot (refreshCatalog)
  translationsSince: tx.prepare(`SELECT ${TRANSLATION_COLUMNS} FROM translations WHERE seq > ? ORDER BY id`).raw(),
  stats: tx
    .prepare(
      `SELECT s.translation_id, ${STATS_COLUMNS.map((c) => `s.${c}`).join(', ')}, u.full_name
       FROM translation_stats s LEFT JOIN users u ON u.id = s.last_author_id WHERE s.translation_id > ? ORDER BY s.translation_id LIMIT ?`,
    )
    .raw(),
  statsSince: tx.prepare(`SELECT s.*, u.full_name AS last_author FROM translation_stats s LEFT JOIN users u ON u.id = s.last_author_id WHERE s.seq > ?`),
  addons: tx.prepare('SELECT id, component_id, project_id, name, configuration FROM addons ORDER BY id'),
}));

/**
 * Reads a fresh catalog: everything the API needs to describe objects. The tables with a row per translation are read
 * `page` rows to a statement (the same catalog whatever its size).
 * @example const catalog = await store.read(loadCatalog); catalog.projectsBySlug.get('hello')
 */
export async function loadCatalog(tx: Tx, page = PAGE): Promise<Catalog> {
  const s = sql(tx);
  // the version first: a change committed while the rest is read is read again by the next refresh
  const [version, languages, projects, components, addons] = await Promise.all([
    s.version.get(),
    s.languages.all(),
    s.projects.all(),
    s.components.all(),
    s.addons.all(),
  ]);
  const intern = interner();
  const catalog: Catalog = {
    languages: new Map(),
    languagesByCode: new Map(),
    projects: [],
    projectsById: new Map(),
    projectsBySlug: new Map(),
    components: [],
    componentsById: new Map(),
    componentsByPath: new Map(),
    translations: [],
    translationsById: new Map(),
    translationsByKey: new Map(),
    translationsByComponent: new Map(),
    stats: LayeredMap.of([]),
    addons: [],
    addonsById: new Map(),
    version: toVersion(version),
  };
  for (const r of languages as LanguageRow[]) {
    const language: Language = {
      id: r.id,
      code: r.code,
      name: r.name,
      direction: r.direction,
      population: r.population,
      pluralNumber: r.plural_number,
      pluralFormula: r.plural_formula,
      pluralType: r.plural_type,
      pluralSource: r.plural_source,
      aliases: parseJson<string[]>(r.aliases, []),
    };
    catalog.languages.set(language.id, language);
    catalog.languagesByCode.set(language.code, language);
  }
  for (const r of projects as { id: number; slug: string; name: string; settings: string }[]) {
    const project: Project = { id: r.id, slug: r.slug, name: r.name, settings: parseJson(r.settings, {}) };
    catalog.projects.push(project);
    catalog.projectsById.set(project.id, project);
    catalog.projectsBySlug.set(project.slug, project);
  }
  // components' settings repeat their templates (commit messages …) word for word: one copy of each string value
  for (const [id, projectId, slug, name, settings, locked] of components as [number, number, string, string, string, number][]) {
    const project = catalog.projectsById.get(projectId);
    if (!project) continue;
    const component: Component = { id, projectId, slug, name, settings: internAll(parseJson(settings, {}), intern), locked: locked !== 0 };
    catalog.components.push(component);
    catalog.componentsById.set(component.id, component);
    catalog.componentsByPath.set(`${project.slug}/${component.slug}`, component);
  }
  await eachPage(s.translations, page, (row) => {
    const r = row as TranslationRead;
    const language = catalog.languages.get(r[2]);
    if (!language || !catalog.componentsById.has(r[1])) return;
    const translation = toTranslation(r, intern);
    catalog.translations.push(translation);
    catalog.translationsById.set(translation.id, translation);
    catalog.translationsByKey.set(`${translation.componentId}/${language.code}`, translation);
    push(catalog.translationsByComponent, translation.componentId, translation);
  });
  const stats: (readonly [number, CatalogStats])[] = [];
  await eachPage(s.stats, page, (row) => {
    const r = row as number[];
    // one literal: every row the same fields in the same order (one shape), the driver's row dropped with its page
    const counts: CatalogStats = {
      total: r[1]!,
      total_words: r[2]!,
      total_chars: r[3]!,
      translated: r[4]!,
      translated_words: r[5]!,
      translated_chars: r[6]!,
      fuzzy: r[7]!,
      fuzzy_words: r[8]!,
      fuzzy_chars: r[9]!,
      approved: r[10]!,
      approved_words: r[11]!,
      approved_chars: r[12]!,
      readonly: r[13]!,
      readonly_words: r[14]!,
      readonly_chars: r[15]!,
      failing: r[16]!,
      failing_words: r[17]!,
      suggestions: r[18]!,
      comments: r[19]!,
      last_change: row[20] as string | null,
      recent_changes: r[21]!,
      last_author: row[22] === null ? null : intern(row[22] as string),
    };
    stats.push([r[0]!, counts]);
  });
  catalog.stats = LayeredMap.of(stats);
  type ARow = { id: number; component_id: number | null; project_id: number | null; name: string; configuration: string };
  for (const r of addons as ARow[]) {
    const configuration = parseJson<unknown>(r.configuration, {});
    const addon: CatalogAddon = {
      id: r.id,
      componentId: r.component_id,
      projectId: r.project_id,
      name: r.name,
      configuration: configuration && typeof configuration === 'object' && !Array.isArray(configuration) ? (configuration as Record<string, unknown>) : {},
    };
    catalog.addons.push(addon);
    catalog.addonsById.set(addon.id, addon);
  }
  return catalog;
}

/** A translation of its row as read, its repeated strings (language code, revision) `intern`'s copies. */
function toTranslation(row: TranslationRead, intern: (text: string) => string): Translation {
  const [id, componentId, languageId, languageCode, filename, revision, isSource, isTemplate, pluralNumber, pluralFormula] = row;
  return {
    id,
    componentId,
    languageId,
    languageCode: intern(languageCode),
    filename,
    revision: intern(revision),
    isSource: isSource !== 0,
    isTemplate: isTemplate !== 0,
    plural: pluralNumber !== null && pluralFormula !== null ? { number: Number(pluralNumber), formula: pluralFormula } : null,
  };
}

type StatsRead = TranslationStatsRow & { last_author: string | null };

function toStats(r: StatsRead): CatalogStats {
  const { translation_id: _id, last_author_id: _author, seq: _seq, ...rest } = r;
  return rest;
}

/**
 * Statistics by translation id, as a Map. A refresh makes the next snapshot's from the last one's without copying its
 * entries (`LayeredMap.over`), so that an edit costs the rows it wrote, not the site's. Never changed once made
 * (snapshots share it).
 */
export type StatsMap = LayeredMap<number, CatalogStats>;

function toVersion(row: unknown): CatalogVersion {
  const r = row as { structure: number | bigint | string; stats: number | bigint | string; translations: number | bigint | string };
  return { structure: Number(r.structure), stats: Number(r.stats), translations: Number(r.translations) };
}

/**
 * The catalog as it is now, from `previous` and what changed since: `previous` itself when nothing it holds did; a
 * new snapshot sharing its languages, projects, components and add-ons when only statistics or translations did, with
 * the statistics rows and the translations written since (indexed reads of their seq) in place of theirs (the
 * translations' lists copied, their maps and the statistics laid over the last ones: `LayeredMap`); else
 * `loadCatalog`, as after a translation moved to another component or language.
 * @example catalog = await store.read((tx) => refreshCatalog(tx, catalog))
 */
export async function refreshCatalog(tx: Tx, previous: Catalog): Promise<Catalog> {
  const s = sql(tx);
  const version = toVersion(await s.version.get());
  if (version.structure !== previous.version.structure) return await loadCatalog(tx);
  const statsMoved = version.stats !== previous.version.stats;
  const translationsMoved = version.translations !== previous.version.translations;
  if (!statsMoved && !translationsMoved) return previous;
  const [statsRows, translationRows] = (await Promise.all([
    statsMoved ? s.statsSince.all(previous.version.stats) : [],
    translationsMoved ? s.translationsSince.all(previous.version.translations) : [],
  ])) as [StatsRead[], TranslationRead[]];
  const changedTranslations = translationRows.map((r) => toTranslation(r, (text) => text));
  // none read: numbers taken by inserts that did not happen (PostgreSQL's upsert of a translation already stored)
  const translations = changedTranslations.length > 0 ? withTranslations(previous, changedTranslations) : {};
  if (!translations) return await loadCatalog(tx);
  const stats = statsMoved
    ? LayeredMap.over(
        previous.stats,
        statsRows.map((r) => [r.translation_id, toStats(r)] as const),
      )
    : previous.stats;
  const catalog: Catalog = { ...previous, ...translations, stats, version };
  const changed = new Set(statsRows.map((r) => r.translation_id));
  for (const t of changedTranslations) changed.add(t.id);
  const last = rowChanges.get(previous);
  const older = last && (last.depth < CHANGES_KEPT ? last : keepChanges(last, CHANGES_KEPT - 1));
  rowChanges.set(catalog, { before: previous.stats, translationsBefore: previous.translations, changed: [...changed], depth: 1 + (older?.depth ?? 0), older });
  return catalog;
}

type TranslationLists = Pick<Catalog, 'translations' | 'translationsById' | 'translationsByKey' | 'translationsByComponent'>;

/**
 * `previous`'s translations with `changed` (translations added or changed) in place, as `loadCatalog` would read them;
 * undefined when one moved to another component or language (what a refresh does not follow: it reads whole).
 */
function withTranslations(previous: Catalog, changed: readonly Translation[]): TranslationLists | undefined {
  const byId = new Map<number, Translation>();
  const byKey: [string, Translation][] = [];
  const list = previous.translations.slice();
  const added = new Map<number, Translation[]>();
  for (const translation of changed) {
    const before = previous.translationsById.get(translation.id);
    if (before && (before.componentId !== translation.componentId || before.languageId !== translation.languageId)) return undefined;
    const language = previous.languages.get(translation.languageId);
    if (!language || !previous.componentsById.has(translation.componentId)) continue;
    byId.set(translation.id, translation);
    byKey.push([`${translation.componentId}/${language.code}`, translation]);
    if (before) list[indexOfId(list, translation.id)] = translation;
    else push(added, translation.componentId, translation);
  }
  const byComponent = new Map(previous.translationsByComponent);
  const touched = new Set(changed.map((t) => t.componentId));
  for (const componentId of touched) {
    const kept = (previous.translationsByComponent.get(componentId) ?? []).map((t) => byId.get(t.id) ?? t);
    const more = added.get(componentId) ?? [];
    if (kept.length + more.length > 0) byComponent.set(componentId, [...kept, ...more].sort(byIdOrder));
  }
  if (added.size > 0) {
    for (const more of added.values()) list.push(...more);
    list.sort(byIdOrder);
  }
  return {
    translations: list,
    translationsById: LayeredMap.over(previous.translationsById, [...byId]),
    translationsByKey: LayeredMap.over(previous.translationsByKey, byKey),
    translationsByComponent: byComponent,
  };
}

function byIdOrder(a: { id: number }, b: { id: number }): number {
  return a.id - b.id;
}

/** Where the translation of id `id` is, or would go, in `list` (in id order). */
export function indexOfId(list: readonly { id: number }[], id: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * What a refresh that kept the structure changed: the statistics and the translations it started from, and the
 * translations whose statistics row or own row it replaced (or added).
 */
export interface StatsChange {
  before: ReadonlyMap<number, CatalogStats>;
  translationsBefore: readonly Translation[];
  changed: readonly number[];
}

/** A refresh's change with the ones before it (up to CHANGES_KEPT in all, newest first). */
interface KeptChange extends StatsChange {
  /** How many changes this chain holds, this one included. */
  depth: number;
  older: KeptChange | undefined;
}

/**
 * How many refreshes' changes a snapshot keeps: sums made on a snapshot a few refreshes back (requests that summed
 * nothing in between, as an edit's or a commit's own request) still move instead of being summed again. Each holds
 * the statistics map and the translations' list it started from.
 */
const CHANGES_KEPT = 4;

/** `change` and at most `n - 1` older ones (copies where the chain is cut). */
function keepChanges(change: KeptChange, n: number): KeptChange | undefined {
  if (n <= 0) return undefined;
  return { ...change, depth: Math.min(change.depth, n), older: change.older && keepChanges(change.older, n - 1) };
}

/**
 * Kept beside the snapshot (not in it: a refreshed catalog equals one read whole), holding the older statistics maps
 * and translations lists, not the older snapshots.
 */
const rowChanges = new WeakMap<Catalog, KeptChange>();

/**
 * How `catalog` differs from an earlier snapshot of the same structure whose statistics map and translations were
 * `stats` and `translations`, when it was refreshed from it within the last few refreshes (CHANGES_KEPT); else
 * undefined. The changes of the refreshes between are joined. What sums of statistics follow by difference instead of
 * summing every translation again.
 */
export function statsChangeSince(catalog: Catalog, stats: ReadonlyMap<number, CatalogStats>, translations: readonly Translation[]): StatsChange | undefined {
  const changed = new Set<number>();
  for (let change = rowChanges.get(catalog); change; change = change.older) {
    for (const id of change.changed) changed.add(id);
    if (change.before === stats && change.translationsBefore === translations) {
      return { before: stats, translationsBefore: translations, changed: [...changed] };
    }
  }
  return undefined;
}

/**
 * The translations whose rows changed (or were added) since an earlier snapshot of the same structure whose
 * translations' list was `translations`, within the last few refreshes (CHANGES_KEPT); else undefined.
 */
export function translationsChangeSince(catalog: Catalog, translations: readonly Translation[]): readonly number[] | undefined {
  const changed = new Set<number>();
  for (let change = rowChanges.get(catalog); change; change = change.older) {
    for (const id of change.changed) changed.add(id);
    if (change.translationsBefore === translations) return [...changed];
  }
  return undefined;
}
