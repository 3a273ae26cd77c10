// The translation memory: the units' own translations read where they are (translated units of non-source
// translations, joined to their component's source language), imported entries (TMX, Weblate JSON) per scope, and
// the distinct source texts under an FTS5 trigram index as the pre-filter of fuzzy lookups ranked by similarity.
//
// Records (`/api/memory/`): a unit's translation is the record with the unit's id; an imported entry is the record
// `MEMORY_ID_BASE + its row id`. Listing by id gives the units' records, then the imported ones. Deleting a unit's
// record hides that translation (memory_hidden) until the unit's target changes, as a new translation in Weblate is
// a new memory entry.
import { MEMORY_THRESHOLD, similarity } from '../domain/similarity.js';
import type { Tx } from './db.js';
import { type Slice, preparedOnce } from './statements.js';

/** A memory entry as the API lists it (languages by id, as Weblate's MemorySerializer). */
export interface MemoryRow {
  id: number;
  source: string;
  target: string;
  source_language_id: number;
  target_language_id: number;
  source_language: string;
  target_language: string;
  origin: string;
  project_id: number | null;
  user_id: number | null;
  from_file: number;
  shared: number;
  /** The unit whose translation this record is; null for an imported entry. */
  unit_id: number | null;
}

/** Record ids of imported entries start here; lower ids are units' (2^40: well past any unit id, 13 digits). */
export const MEMORY_ID_BASE = 2 ** 40;

/** Whose imported entries: a user's personal memory, a project's, or the shared one. */
export type MemoryScope = { kind: 'user'; userId: number } | { kind: 'project'; projectId: number } | { kind: 'shared' };

/** What an export holds: one scope's records, or every record of the instance. */
export type MemoryExportScope = MemoryScope | { kind: 'all' };

/** An entry to import, languages by code. */
export interface MemoryImportEntry {
  source: string;
  target: string;
  sourceLanguage: string;
  targetLanguage: string;
  origin?: string;
}

/** Why an entry was not imported. */
export type MemorySkipReason = 'duplicate' | 'unknown-language' | 'same-language' | 'empty';

/** What an import did: entries imported, and those skipped by reason (with the language codes nothing matched). */
export interface MemoryImportResult {
  imported: number;
  skipped: number;
  /** How many entries each reason skipped (reasons that skipped none are absent). */
  reasons: Partial<Record<MemorySkipReason, number>>;
  /** The file's language codes that no language of the instance matches, as written, first seen first. */
  unknownLanguages: string[];
}

/** A lookup hit: the entry and how alike its source is to the looked-up text (percent). */
export interface MemoryMatch {
  id: number;
  source: string;
  target: string;
  origin: string;
  similarity: number;
  project_id: number | null;
}

/** Which entries a lookup may return: visible projects (null: all), the caller's personal memory, and shared entries. */
export interface MemoryVisibility {
  projects: readonly number[] | null;
  userId: number | null;
}

/** How candidates are found before the exact similarity: the FTS5 trigram index (ranked), or every source of a fitting length. */
export type MemoryStrategy = 'trigram' | 'scan';

export interface LookupOptions {
  limit?: number;
  threshold?: number;
  /** How many trigram candidates (best bm25 rank first) get the exact similarity. Default 200. */
  candidates?: number;
  strategy?: MemoryStrategy;
  /** A unit whose own translation is not a match (the string being translated: it would match itself at 100 %). */
  excludeUnit?: number;
}

// The units' records: translated (20–99), non-empty, in a non-source translation, not deleted from the memory. In
// list order, the units' primary key leads (the dialect's ordered join) and the per-record columns come from scalar
// subqueries, so that an OFFSET skips rows without joining them.
const UNIT_WHERE = `t.is_source = 0 AND u.state >= 20 AND u.state < 100 AND u.target <> ''
  AND NOT EXISTS (SELECT 1 FROM memory_hidden h WHERE h.unit_id = u.id AND h.target = u.target)`;
const UNIT_RECORD = `u.id AS id, u.source, u.target,
  (SELECT st.language_id FROM translations st WHERE st.component_id = t.component_id AND st.is_source = 1) AS source_language_id,
  t.language_id AS target_language_id,
  (SELECT l.code FROM translations st JOIN languages l ON l.id = st.language_id WHERE st.component_id = t.component_id AND st.is_source = 1) AS source_language,
  (SELECT l.code FROM languages l WHERE l.id = t.language_id) AS target_language,
  (SELECT p.slug || '/' || c.slug FROM components c JOIN projects p ON p.id = c.project_id WHERE c.id = t.component_id) AS origin,
  (SELECT c.project_id FROM components c WHERE c.id = t.component_id) AS project_id,
  NULL AS user_id, 0 AS from_file, 0 AS shared, u.id AS unit_id`;
const unitsJoined = (tx: Tx) => `units u ${tx.dialect.orderedJoin} translations t ON t.id = u.translation_id`;

const IMPORTED = `${MEMORY_ID_BASE} + m.id AS id, ms.text AS source, m.target, m.source_language_id, m.target_language_id,
  sl.code AS source_language, tl.code AS target_language, m.origin, m.project_id, m.user_id, m.from_file, m.shared, NULL AS unit_id`;
const FROM = `memory m JOIN memory_sources ms ON ms.id = m.source_id JOIN languages sl ON sl.id = m.source_language_id
  JOIN languages tl ON tl.id = m.target_language_id`;

const sql = preparedOnce((tx: Tx, UNITS = unitsJoined(tx)) => ({
  // an engine that computes a row's select list before OFFSET skips it (PostgreSQL: a deep page evaluated every
  // skipped row's subqueries, ~1 s at 64k records) reads the page's ids first, then their records
  unitList: tx.dialect.idsFirstPages
    ? tx.prepare(
        `SELECT ${UNIT_RECORD} FROM (SELECT u.id FROM ${UNITS} WHERE ${UNIT_WHERE} ORDER BY u.id LIMIT ? OFFSET ?) page
         JOIN units u ON u.id = page.id JOIN translations t ON t.id = u.translation_id ORDER BY u.id`,
      )
    : tx.prepare(`SELECT ${UNIT_RECORD} FROM ${UNITS} WHERE ${UNIT_WHERE} ORDER BY u.id LIMIT ? OFFSET ?`),
  unitCount: tx.prepare(`SELECT count(*) FROM ${UNITS} WHERE ${UNIT_WHERE}`).pluck(),
  unitById: tx.prepare(`SELECT ${UNIT_RECORD} FROM ${UNITS} WHERE u.id = ? AND ${UNIT_WHERE}`),
  unitsOfProject: tx.prepare(
    `SELECT ${UNIT_RECORD} FROM components c JOIN translations t ON t.component_id = c.id JOIN units u ON u.translation_id = t.id
     WHERE c.project_id = ? AND ${UNIT_WHERE} ORDER BY u.id`,
  ),
  unitsAll: tx.prepare(`SELECT ${UNIT_RECORD} FROM ${UNITS} WHERE ${UNIT_WHERE} ORDER BY u.id`),
  importedAll: tx.prepare(`SELECT ${IMPORTED} FROM ${FROM} ORDER BY m.id`),
  hide: tx.prepare(
    'INSERT INTO memory_hidden (unit_id, target) SELECT id, target FROM units WHERE id = ? ON CONFLICT (unit_id) DO UPDATE SET target = excluded.target',
  ),
  list: tx.prepare(`SELECT ${IMPORTED} FROM ${FROM} ORDER BY m.id LIMIT ? OFFSET ?`),
  count: tx.prepare('SELECT count(*) FROM memory').pluck(),
  byId: tx.prepare(`SELECT ${IMPORTED} FROM ${FROM} WHERE m.id = ?`),
  remove: tx.prepare('DELETE FROM memory WHERE id = ?'),
  // ASCII case only, as SQLite's NOCASE
  language: tx.prepare('SELECT id FROM languages WHERE lower(code) = lower(?)').pluck(),
  addSource: tx.prepare('INSERT INTO memory_sources (text, length) VALUES (?, ?) ON CONFLICT DO NOTHING'),
  addSourcesOf: tx.prepare(
    "INSERT INTO memory_sources (text, length) SELECT DISTINCT source, length(source) FROM units WHERE translation_id = ? AND source <> '' ON CONFLICT DO NOTHING",
  ),
  sourceId: tx.prepare('SELECT id FROM memory_sources WHERE text = ?').pluck(),
  duplicate: tx
    .prepare(
      `SELECT 1 FROM memory WHERE source_id = ? AND source_language_id = ? AND target_language_id = ? AND target = ?
       AND project_id IS NOT DISTINCT FROM ? AND user_id IS NOT DISTINCT FROM ? AND shared = ?`,
    )
    .pluck(),
  insert: tx.prepare(
    `INSERT INTO memory (source_id, source_language_id, target_language_id, target, origin, project_id, user_id, from_file, shared)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)`,
  ),
  ofScope: tx.prepare(
    `SELECT ${IMPORTED} FROM ${FROM} WHERE project_id IS NOT DISTINCT FROM @project AND user_id IS NOT DISTINCT FROM @user AND shared = @shared ORDER BY m.id`,
  ),
  importedOfProject: tx.prepare(`SELECT ${IMPORTED} FROM ${FROM} WHERE m.project_id = ? AND m.user_id IS NULL ORDER BY m.id`),
  // one source text's entries in a language pair: the units' translations, then imported ones. The text's copies in
  // the target language are picked first (units_string; on SQLite from the index alone, whose entries hold their
  // translation), then only their unit rows read: a text is held by every language of every component that has it
  // (thousands of units at 10 million), and reading each copy's row to learn its language cost a page read a copy
  unitEntriesOf: tx.prepare(
    `WITH strings AS MATERIALIZED (
       SELECT s.id FROM units s WHERE s.source = ? AND (SELECT st.language_id FROM translations st WHERE st.id = s.translation_id) = ?
     )
     SELECT u.id, u.target, c.project_id, c.id AS component_id, p.slug || '/' || c.slug AS origin
     FROM strings x CROSS JOIN units u CROSS JOIN translations t CROSS JOIN components c CROSS JOIN projects p
     WHERE u.id = x.id AND t.id = u.translation_id AND c.id = t.component_id AND p.id = c.project_id AND ${UNIT_WHERE}
       AND EXISTS (SELECT 1 FROM translations st WHERE st.component_id = t.component_id AND st.language_id = ? AND st.is_source = 1)
     ORDER BY u.id`,
  ),
  importedEntriesOf: tx.prepare(
    `SELECT m.id, m.target, m.origin, m.project_id, m.user_id, m.shared FROM memory m
     WHERE m.source_id = ? AND m.source_language_id = ? AND m.target_language_id = ? ORDER BY m.id`,
  ),
  // the candidates sharing trigrams with the text (the engine's trigram index)
  trigram: tx.prepare(tx.dialect.trigram.sql),
  scan: tx.prepare('SELECT id, text FROM memory_sources WHERE length BETWEEN ? AND ?'),
  prune: tx.prepare(
    `DELETE FROM memory_sources WHERE NOT EXISTS (SELECT 1 FROM memory m WHERE m.source_id = memory_sources.id)
     AND NOT EXISTS (SELECT 1 FROM units u WHERE u.source = memory_sources.text)`,
  ),
  clearScope: tx.prepare('DELETE FROM memory WHERE project_id IS NOT DISTINCT FROM @project AND user_id IS NOT DISTINCT FROM @user AND shared = @shared'),
}));

function scopeParams(scope: MemoryScope): { project: number | null; user: number | null; shared: number } {
  if (scope.kind === 'user') return { project: null, user: scope.userId, shared: 0 };
  if (scope.kind === 'project') return { project: scope.projectId, user: null, shared: 0 };
  return { project: null, user: null, shared: 1 };
}

/** Every record by id: the units' translations first (ids below MEMORY_ID_BASE), then the imported entries. */
export async function listMemory(tx: Tx, slice: Slice): Promise<MemoryRow[]> {
  const s = sql(tx);
  const units = (await s.unitList.all(slice.limit, slice.offset)) as MemoryRow[];
  if (units.length === slice.limit) return units;
  const skipped = units.length > 0 ? 0 : slice.offset - ((await s.unitCount.get()) as number);
  return [...units, ...((await s.list.all(slice.limit - units.length, Math.max(0, skipped))) as MemoryRow[])];
}

export async function countMemory(tx: Tx): Promise<number> {
  const s = sql(tx);
  return ((await s.unitCount.get()) as number) + ((await s.count.get()) as number);
}

export async function findMemory(tx: Tx, id: number): Promise<MemoryRow | undefined> {
  const s = sql(tx);
  if (id >= MEMORY_ID_BASE) return (await s.byId.get(id - MEMORY_ID_BASE)) as MemoryRow | undefined;
  return (await s.unitById.get(id)) as MemoryRow | undefined;
}

/** Deletes one record (an imported entry, or hides a unit's current translation); false when there was none. */
export async function deleteMemory(tx: Tx, id: number): Promise<boolean> {
  const s = sql(tx);
  if (id >= MEMORY_ID_BASE) return (await s.remove.run(id - MEMORY_ID_BASE)).changes > 0;
  if ((await s.unitById.get(id)) === undefined) return false;
  await s.hide.run(id);
  return true;
}

/** Adds a translation's source texts to the pre-filter index (the source translation after a sync; a few thousand rows). */
export async function indexMemorySources(tx: Tx, translationId: number): Promise<number> {
  return (await sql(tx).addSourcesOf.run(translationId)).changes;
}

/** Adds one source text to the pre-filter index (a string added through the API). */
export async function indexMemorySource(tx: Tx, text: string): Promise<void> {
  if (text !== '') await sql(tx).addSource.run(text, text.length);
}

/**
 * Imports entries into a scope (call inside a transaction); entries in unknown languages, empty ones, those from a
 * language to itself and those the scope holds already are skipped, and counted by reason.
 */
export async function importMemory(tx: Tx, entries: readonly MemoryImportEntry[], scope: MemoryScope): Promise<MemoryImportResult> {
  const s = sql(tx);
  const p = scopeParams(scope);
  const languages = new Map<string, number | undefined>();
  // a regional code the instance does not know (de-DE) falls back to its base language (de)
  const language = async (code: string) => {
    const key = code.replace(/-/g, '_');
    if (!languages.has(key)) {
      const base = key.split('_')[0]!;
      languages.set(key, ((await s.language.get(key)) ?? (base !== key ? await s.language.get(base) : undefined)) as number | undefined);
    }
    return languages.get(key);
  };
  const result: MemoryImportResult = { imported: 0, skipped: 0, reasons: {}, unknownLanguages: [] };
  const skip = (reason: MemorySkipReason) => {
    result.skipped++;
    result.reasons[reason] = (result.reasons[reason] ?? 0) + 1;
  };
  const unknown = (code: string) => {
    if (!result.unknownLanguages.includes(code)) result.unknownLanguages.push(code);
  };
  for (const e of entries) {
    const from = await language(e.sourceLanguage);
    const to = await language(e.targetLanguage);
    if (from === undefined || to === undefined) {
      if (from === undefined) unknown(e.sourceLanguage);
      if (to === undefined) unknown(e.targetLanguage);
      skip('unknown-language');
      continue;
    }
    if (e.source === '' || e.target === '') {
      skip('empty');
      continue;
    }
    if (from === to) {
      skip('same-language');
      continue;
    }
    await s.addSource.run(e.source, e.source.length);
    const sourceId = (await s.sourceId.get(e.source)) as number;
    if ((await s.duplicate.get(sourceId, from, to, e.target, p.project, p.user, p.shared)) !== undefined) {
      skip('duplicate');
      continue;
    }
    await s.insert.run(sourceId, from, to, e.target, e.origin ?? '', p.project, p.user, p.shared);
    result.imported++;
  }
  return result;
}

/**
 * The records of a scope for export: a user's or the shared imported ones; a project's: its strings' translations,
 * then its imported ones; all: every record, as `/api/memory/` lists them.
 */
export async function exportMemory(tx: Tx, scope: MemoryExportScope): Promise<MemoryRow[]> {
  const s = sql(tx);
  if (scope.kind === 'all') return [...((await s.unitsAll.all()) as MemoryRow[]), ...((await s.importedAll.all()) as MemoryRow[])];
  if (scope.kind === 'project') {
    return [...((await s.unitsOfProject.all(scope.projectId)) as MemoryRow[]), ...((await s.importedOfProject.all(scope.projectId)) as MemoryRow[])];
  }
  return (await s.ofScope.all(scopeParams(scope))) as MemoryRow[];
}

/** Deletes the imported entries of a scope; returns how many. */
export async function clearMemoryScope(tx: Tx, scope: MemoryScope): Promise<number> {
  return (await sql(tx).clearScope.run(scopeParams(scope))).changes;
}

/** Removes source texts that neither an imported entry nor any unit uses any more (their index rows go with them). */
export async function pruneMemorySources(tx: Tx): Promise<number> {
  return (await sql(tx).prune.run()).changes;
}

function visible(entry: { project_id: number | null; user_id: number | null; shared: number }, v: MemoryVisibility, projects: Set<number> | null): boolean {
  if (entry.shared === 1) return true;
  if (entry.user_id !== null) return entry.user_id === v.userId;
  if (entry.project_id === null) return false;
  return projects === null || projects.has(entry.project_id);
}

/**
 * Exact and fuzzy matches for a text in one language pair, best first: candidate sources from the trigram index
 * (or a scan of every source of a length that could reach the threshold), then the exact similarity, then the
 * visible entries of the sources that reach `threshold`. One result per distinct target, with its best origin.
 */
export async function lookupMemory(
  tx: Tx,
  text: string,
  sourceLanguageId: number,
  targetLanguageId: number,
  v: MemoryVisibility,
  opts: LookupOptions = {},
): Promise<MemoryMatch[]> {
  const s = sql(tx);
  const threshold = opts.threshold ?? MEMORY_THRESHOLD;
  const limit = opts.limit ?? 10;
  const minLength = Math.ceil((text.length * threshold) / 100);
  const maxLength = Math.floor((text.length * 100) / threshold);
  const scored: { id: number | null; text: string; similarity: number }[] = [];
  const seen = new Set<string>();
  const consider = (id: number | null, source: string) => {
    if (seen.has(source)) return;
    seen.add(source);
    if (source.length < minLength || source.length > maxLength) return;
    const score = similarity(text, source);
    if (score >= threshold) scored.push({ id, text: source, similarity: score });
  };
  // the exact text first, indexed or not (a unit's source missing from the source strings is still found)
  consider(((await s.sourceId.get(text)) as number | undefined) ?? null, text);
  // only the exact text can reach 100 %: no candidates to look for
  if (threshold < 100 && (opts.strategy ?? 'trigram') === 'scan') {
    for (const r of (await s.scan.all(minLength, maxLength)) as { id: number; text: string }[]) consider(r.id, r.text);
  } else if (threshold < 100) {
    const candidates = opts.candidates ?? 200;
    const params = tx.dialect.trigram.params(text, candidates);
    const rows = params === null ? [] : await s.trigram.all(...params);
    for (const r of rows as { id: number; text: string }[]) consider(r.id, r.text);
  }
  scored.sort((a, b) => b.similarity - a.similarity || a.text.length - b.text.length);
  const projects = v.projects === null ? null : new Set(v.projects);
  const out: MemoryMatch[] = [];
  const targets = new Set<string>();
  for (const c of scored) {
    type UnitEntry = { id: number; target: string; origin: string; project_id: number };
    for (const e of (await s.unitEntriesOf.all(c.text, targetLanguageId, sourceLanguageId)) as UnitEntry[]) {
      if (e.id === opts.excludeUnit || (projects !== null && !projects.has(e.project_id)) || targets.has(e.target)) continue;
      targets.add(e.target);
      out.push({ id: e.id, source: c.text, target: e.target, origin: e.origin, similarity: c.similarity, project_id: e.project_id });
      if (out.length >= limit) return out;
    }
    if (c.id === null) continue;
    type Entry = { id: number; target: string; origin: string; project_id: number | null; user_id: number | null; shared: number };
    for (const e of (await s.importedEntriesOf.all(c.id, sourceLanguageId, targetLanguageId)) as Entry[]) {
      if (!visible(e, v, projects) || targets.has(e.target)) continue;
      targets.add(e.target);
      out.push({ id: MEMORY_ID_BASE + e.id, source: c.text, target: e.target, origin: e.origin, similarity: c.similarity, project_id: e.project_id });
      if (out.length >= limit) return out;
    }
  }
  return out;
}

/** A translation of the same source text in another component (the `weblate` engine): unit, target and origin. */
export interface SameSourceMatch {
  id: number;
  target: string;
  origin: string;
  project_id: number;
  component_id: number;
}

/**
 * The translated strings with exactly this source text in a language pair, in components other than `componentId`,
 * in visible projects, one per distinct target (oldest unit first).
 */
export async function sameSourceMatches(
  tx: Tx,
  text: string,
  sourceLanguageId: number,
  targetLanguageId: number,
  v: MemoryVisibility,
  componentId: number | null,
  limit = 10,
): Promise<SameSourceMatch[]> {
  const projects = v.projects === null ? null : new Set(v.projects);
  const out: SameSourceMatch[] = [];
  const targets = new Set<string>();
  type UnitEntry = { id: number; target: string; origin: string; project_id: number; component_id: number };
  for (const e of (await sql(tx).unitEntriesOf.all(text, targetLanguageId, sourceLanguageId)) as UnitEntry[]) {
    if (e.component_id === componentId || (projects !== null && !projects.has(e.project_id)) || targets.has(e.target)) continue;
    targets.add(e.target);
    out.push(e);
    if (out.length >= limit) break;
  }
  return out;
}
