// The translation memory: distinct source texts under an FTS5 trigram index, entries per language pair (the units' own
// translations kept by triggers, imported files by scope), exact and fuzzy lookups ranked by similarity.
import { MEMORY_THRESHOLD, similarity } from '../domain/similarity.js';
import type { Db } from './db.js';
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
  unit_id: number | null;
}

/** Whose imported entries: a user's personal memory, a project's, or the shared one. */
export type MemoryScope = { kind: 'user'; userId: number } | { kind: 'project'; projectId: number } | { kind: 'shared' };

/** An entry to import, languages by code. */
export interface MemoryImportEntry {
  source: string;
  target: string;
  sourceLanguage: string;
  targetLanguage: string;
  origin?: string;
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
}

const ENTRY = `m.id, ms.text AS source, m.target, m.source_language_id, m.target_language_id, sl.code AS source_language,
  tl.code AS target_language, m.origin, m.project_id, m.user_id, m.from_file, m.shared, m.unit_id`;
const FROM = `memory m JOIN memory_sources ms ON ms.id = m.source_id JOIN languages sl ON sl.id = m.source_language_id
  JOIN languages tl ON tl.id = m.target_language_id`;

const sql = preparedOnce((db: Db) => ({
  list: db.prepare(`SELECT ${ENTRY} FROM ${FROM} ORDER BY m.id LIMIT ? OFFSET ?`),
  count: db.prepare('SELECT count(*) FROM memory').pluck(),
  byId: db.prepare(`SELECT ${ENTRY} FROM ${FROM} WHERE m.id = ?`),
  remove: db.prepare('DELETE FROM memory WHERE id = ?'),
  language: db.prepare('SELECT id FROM languages WHERE code = ? COLLATE NOCASE').pluck(),
  addSource: db.prepare('INSERT OR IGNORE INTO memory_sources (text, length) VALUES (?, ?)'),
  sourceId: db.prepare('SELECT id FROM memory_sources WHERE text = ?').pluck(),
  duplicate: db
    .prepare(
      `SELECT 1 FROM memory WHERE source_id = ? AND source_language_id = ? AND target_language_id = ? AND target = ? AND unit_id IS NULL
       AND project_id IS ? AND user_id IS ? AND shared = ?`,
    )
    .pluck(),
  insert: db.prepare(
    `INSERT INTO memory (source_id, source_language_id, target_language_id, target, origin, project_id, user_id, from_file, shared)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)`,
  ),
  ofScope: db.prepare(`SELECT ${ENTRY} FROM ${FROM} WHERE unit_id IS NULL AND project_id IS @project AND user_id IS @user AND shared = @shared ORDER BY m.id`),
  // a project's memory for export: its imported entries and its strings' translations
  ofProject: db.prepare(`SELECT ${ENTRY} FROM ${FROM} WHERE m.project_id = ? AND m.user_id IS NULL ORDER BY m.id`),
  entriesOf: db.prepare(
    `SELECT m.id, m.target, m.origin, m.project_id, m.user_id, m.shared FROM memory m
     WHERE m.source_id = ? AND m.source_language_id = ? AND m.target_language_id = ? ORDER BY m.id`,
  ),
  trigram: db.prepare(
    `SELECT f.rowid AS id, ms.text FROM memory_fts f JOIN memory_sources ms ON ms.id = f.rowid
     WHERE memory_fts MATCH ? ORDER BY f.rank LIMIT ?`,
  ),
  scan: db.prepare('SELECT id, text FROM memory_sources WHERE length BETWEEN ? AND ?'),
  prune: db.prepare('DELETE FROM memory_sources WHERE NOT EXISTS (SELECT 1 FROM memory m WHERE m.source_id = memory_sources.id)'),
  clearScope: db.prepare('DELETE FROM memory WHERE unit_id IS NULL AND project_id IS @project AND user_id IS @user AND shared = @shared'),
}));

function scopeParams(scope: MemoryScope): { project: number | null; user: number | null; shared: number } {
  if (scope.kind === 'user') return { project: null, user: scope.userId, shared: 0 };
  if (scope.kind === 'project') return { project: scope.projectId, user: null, shared: 0 };
  return { project: null, user: null, shared: 1 };
}

export function listMemory(db: Db, slice: Slice): MemoryRow[] {
  return sql(db).list.all(slice.limit, slice.offset) as MemoryRow[];
}

export function countMemory(db: Db): number {
  return sql(db).count.get() as number;
}

export function findMemory(db: Db, id: number): MemoryRow | undefined {
  return sql(db).byId.get(id) as MemoryRow | undefined;
}

/** Deletes one entry; false when there was none. */
export function deleteMemory(db: Db, id: number): boolean {
  return sql(db).remove.run(id).changes > 0;
}

/**
 * Imports entries into a scope (call inside a transaction); entries in unknown languages, empty ones and those the
 * scope holds already are skipped.
 */
export function importMemory(db: Db, entries: readonly MemoryImportEntry[], scope: MemoryScope): { imported: number; skipped: number } {
  const s = sql(db);
  const p = scopeParams(scope);
  const languages = new Map<string, number | undefined>();
  const language = (code: string) => {
    const key = code.replace(/-/g, '_');
    if (!languages.has(key)) languages.set(key, s.language.get(key) as number | undefined);
    return languages.get(key);
  };
  let imported = 0;
  let skipped = 0;
  for (const e of entries) {
    const from = language(e.sourceLanguage);
    const to = language(e.targetLanguage);
    if (from === undefined || to === undefined || e.source === '' || e.target === '' || from === to) {
      skipped++;
      continue;
    }
    s.addSource.run(e.source, e.source.length);
    const sourceId = s.sourceId.get(e.source) as number;
    if (s.duplicate.get(sourceId, from, to, e.target, p.project, p.user, p.shared) !== undefined) {
      skipped++;
      continue;
    }
    s.insert.run(sourceId, from, to, e.target, e.origin ?? '', p.project, p.user, p.shared);
    imported++;
  }
  return { imported, skipped };
}

/** The entries of a scope for export: a user's or the shared imported ones; a project's imported ones and its strings'. */
export function exportMemory(db: Db, scope: MemoryScope): MemoryRow[] {
  const s = sql(db);
  if (scope.kind === 'project') return s.ofProject.all(scope.projectId) as MemoryRow[];
  return s.ofScope.all(scopeParams(scope)) as MemoryRow[];
}

/** Deletes the imported entries of a scope; returns how many. */
export function clearMemoryScope(db: Db, scope: MemoryScope): number {
  return sql(db).clearScope.run(scopeParams(scope)).changes;
}

/** Removes source texts no entry uses any more (their index rows go with them). */
export function pruneMemorySources(db: Db): number {
  return sql(db).prune.run().changes;
}

/** The FTS5 query for the trigrams of a text: any of them, each quoted (a `"` doubled). */
export function trigramQuery(text: string): string | null {
  const grams = new Set<string>();
  const chars = [...text.toLowerCase()];
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  if (grams.size === 0) return null;
  return [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(' OR ');
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
export function lookupMemory(
  db: Db,
  text: string,
  sourceLanguageId: number,
  targetLanguageId: number,
  v: MemoryVisibility,
  opts: LookupOptions = {},
): MemoryMatch[] {
  const s = sql(db);
  const threshold = opts.threshold ?? MEMORY_THRESHOLD;
  const limit = opts.limit ?? 10;
  const minLength = Math.ceil((text.length * threshold) / 100);
  const maxLength = Math.floor((text.length * 100) / threshold);
  const scored: { id: number; text: string; similarity: number }[] = [];
  const seen = new Set<number>();
  const consider = (id: number, source: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    if (source.length < minLength || source.length > maxLength) return;
    const score = similarity(text, source);
    if (score >= threshold) scored.push({ id, text: source, similarity: score });
  };
  const exact = s.sourceId.get(text) as number | undefined;
  if (exact !== undefined) consider(exact, text);
  if ((opts.strategy ?? 'trigram') === 'scan') {
    for (const r of s.scan.iterate(minLength, maxLength) as Iterable<{ id: number; text: string }>) consider(r.id, r.text);
  } else {
    const query = trigramQuery(text);
    if (query) for (const r of s.trigram.all(query, opts.candidates ?? 200) as { id: number; text: string }[]) consider(r.id, r.text);
  }
  scored.sort((a, b) => b.similarity - a.similarity || a.text.length - b.text.length);
  const projects = v.projects === null ? null : new Set(v.projects);
  const out: MemoryMatch[] = [];
  const targets = new Set<string>();
  for (const c of scored) {
    type Entry = { id: number; target: string; origin: string; project_id: number | null; user_id: number | null; shared: number };
    for (const e of s.entriesOf.all(c.id, sourceLanguageId, targetLanguageId) as Entry[]) {
      if (!visible(e, v, projects) || targets.has(e.target)) continue;
      targets.add(e.target);
      out.push({ id: e.id, source: c.text, target: e.target, origin: e.origin, similarity: c.similarity, project_id: e.project_id });
      if (out.length >= limit) return out;
    }
  }
  return out;
}
