// The store half of a sync: everything the scan found, applied to one component in one transaction.
import type { ComponentConfig } from '../config/config.js';
import { Action } from '../domain/actions.js';
import { joinPlural, type ParsedUnit, State } from '../domain/unit.js';
import { codePoints } from '../domain/words.js';
import { setAlert } from '../store/alerts.repo.js';
import { changeRecorder } from '../store/changes.repo.js';
import { type Db, now } from '../store/db.js';
import { ensureLanguage } from '../store/languages.repo.js';
import { refreshStats } from '../store/stats.repo.js';
import { deleteTranslation, listTranslations, setTranslationRevision, upsertTranslation } from '../store/translations.repo.js';
import { readonlySource, storedUnits, unitWriter } from '../store/units.repo.js';
import type { ParseOutcome, ScanPlan } from './scan.js';

/** What happened to one file. */
export interface FileResult {
  path: string;
  language: string;
  status: 'unchanged' | 'parsed' | 'failed' | 'removed';
  added: number;
  changed: number;
  removed: number;
  error?: string;
}

export interface ApplyResult {
  files: FileResult[];
  added: number;
  changed: number;
  removed: number;
  /** Pending edits kept although the file's text for the same unit changed upstream. */
  pendingKept: { translation: string; context: string; fileTarget: string }[];
  /** Pending edits whose unit disappeared from the file. */
  pendingDropped: { translation: string; context: string; target: string }[];
}

export interface ApplyInput {
  projectId: number;
  componentId: number;
  component: ComponentConfig;
  plan: ScanPlan;
  outcomes: ReadonlyMap<string, ParseOutcome>;
  head: string | null;
}

/** Applies a scan to the store in one transaction: translations, units, source strings, changes, statistics. */
export function applyScan(db: Db, input: ApplyInput): ApplyResult {
  return db.transaction(() => applyInTransaction(db, input))();
}

function applyInTransaction(db: Db, input: ApplyInput): ApplyResult {
  const { component, plan, outcomes, componentId, projectId } = input;
  const timestamp = now();
  const record = changeRecorder(db);
  const units = unitWriter(db);
  const result: ApplyResult = { files: [], added: 0, changed: 0, removed: 0, pendingKept: [], pendingDropped: [] };
  const touched = new Set<number>();
  const bilingual = !component.template;
  const existing = listTranslations(db, componentId);
  const kept = new Set<number>();

  const sourceLanguage = ensureLanguage(db, plan.sourceLanguage);
  let sourceTranslationId: number | undefined;
  if (bilingual) {
    sourceTranslationId = upsertTranslation(db, {
      component_id: componentId, language_id: sourceLanguage.id, language_code: component.source_language,
      filename: '', is_source: 1, is_template: 0,
    });
    kept.add(sourceTranslationId);
  }

  const parsedInOrder: ParsedUnit[][] = [];
  const removedHashes: bigint[] = [];
  for (const file of plan.files) {
    const language = ensureLanguage(db, file.language, file.generated);
    const translationId = upsertTranslation(db, {
      component_id: componentId, language_id: language.id, language_code: file.code, filename: file.path,
      is_source: file.isTemplate ? 1 : 0, is_template: file.isTemplate ? 1 : 0,
    });
    if (file.isTemplate) sourceTranslationId = translationId;
    kept.add(translationId);
    const outcome = outcomes.get(file.path) ?? { status: 'unchanged' };
    const fileResult: FileResult = { path: file.path, language: language.code, status: outcome.status, added: 0, changed: 0, removed: 0 };
    result.files.push(fileResult);
    if (outcome.status === 'unchanged') continue;
    touched.add(translationId);
    if (outcome.status === 'failed') {
      fileResult.error = outcome.error;
      const before = existing.find((t) => t.id === translationId);
      if (before?.revision !== file.revision || before?.parse_error !== outcome.error) {
        record({ action: Action.PARSE_ERROR, timestamp, projectId, componentId, translationId, languageId: language.id, target: outcome.error, details: { error: outcome.error, filename: file.path } });
      }
      setTranslationRevision(db, translationId, file.revision, outcome.error);
      continue;
    }
    const readonlyTemplate = file.isTemplate && !component.edit_template;
    const diff = units.apply(translationId, outcome.store.units, timestamp, readonlyTemplate ? (u) => ({ target: u.target, state: State.READONLY }) : undefined);
    setTranslationRevision(db, translationId, file.revision, null);
    Object.assign(fileResult, { added: diff.added, changed: diff.changed, removed: diff.removed });
    result.added += diff.added;
    result.changed += diff.changed;
    result.removed += diff.removed;
    for (const p of diff.pendingKept) result.pendingKept.push({ translation: file.path, context: p.context, fileTarget: p.fileTarget });
    for (const p of diff.pendingDropped) result.pendingDropped.push({ translation: file.path, context: p.context, target: p.target });
    if (file.isTemplate) {
      for (const id of diff.addedIds) {
        record({ action: Action.NEW_SOURCE, timestamp, projectId, componentId, translationId, unitId: id, languageId: language.id });
      }
    } else {
      parsedInOrder.push(outcome.store.units);
      removedHashes.push(...diff.removedHashes);
    }
  }

  // Files gone from the mask: their translations go, except the source translation of a bilingual component.
  for (const t of existing) {
    if (kept.has(t.id)) continue;
    const pending = db.prepare('SELECT context, target FROM units WHERE translation_id = ? AND pending = 1').all(t.id) as { context: string; target: string }[];
    for (const p of pending) result.pendingDropped.push({ translation: t.filename, context: p.context, target: p.target });
    const removed = db.prepare('SELECT count(*) FROM units WHERE translation_id = ?').pluck().get(t.id) as number;
    result.removed += removed;
    result.files.push({ path: t.filename, language: t.language_code, status: 'removed', added: 0, changed: 0, removed });
    for (const u of storedUnits(db, t.id).keys()) removedHashes.push(u);
    deleteTranslation(db, t.id);
  }

  if (bilingual && sourceTranslationId !== undefined) {
    const added = updateBilingualSource(db, sourceTranslationId, componentId, parsedInOrder, removedHashes, timestamp, plan.files.length === parsedInOrder.length);
    for (const id of added) {
      record({ action: Action.NEW_SOURCE, timestamp, projectId, componentId, translationId: sourceTranslationId, unitId: id, languageId: sourceLanguage.id });
    }
    if (added.length > 0 || removedHashes.length > 0 || parsedInOrder.length > 0) touched.add(sourceTranslationId);
  }

  refreshStats(db, touched);
  setAlert(db, componentId, 'DuplicateLanguage', plan.duplicates.length > 0 ? { files: plan.duplicates } : null, timestamp);
  db.prepare('UPDATE components SET synced_commit = ? WHERE id = ?').run(input.head, componentId);
  return result;
}

/**
 * The source translation of a bilingual component holds each string once, from the first file that has it,
 * read-only. With every file parsed it is rebuilt in file order; otherwise new strings are appended and
 * strings no file has any more are removed. Returns the ids of added source units.
 */
function updateBilingualSource(
  db: Db,
  sourceTranslationId: number,
  componentId: number,
  parsedInOrder: readonly ParsedUnit[][],
  removedHashes: readonly bigint[],
  timestamp: string,
  complete: boolean,
): number[] {
  const units = unitWriter(db);
  if (complete) {
    const union: ParsedUnit[] = [];
    const seen = new Set<bigint>();
    for (const list of parsedInOrder) {
      for (const u of list) {
        if (seen.has(u.idHash)) continue;
        seen.add(u.idHash);
        union.push(u);
      }
    }
    return units.apply(sourceTranslationId, union, timestamp, readonlySource).addedIds;
  }
  const stored = storedUnits(db, sourceTranslationId);
  let position = Math.max(0, ...[...stored.values()].map((s) => s.position));
  const insert = db.prepare(
    `INSERT INTO units (translation_id, id_hash, content_hash, context, source, target, previous_source, location, note, flags,
       explanation, source_explanation, state, original_state, position, num_words, num_chars, timestamp)
     VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ${State.READONLY}, ${State.READONLY}, ?, ?, ?, ?)`,
  );
  const added: number[] = [];
  for (const list of parsedInOrder) {
    for (const u of list) {
      if (stored.has(u.idHash)) continue;
      const source = joinPlural(u.source);
      position++;
      const info = insert.run(sourceTranslationId, u.idHash, u.contentHash, u.context, source, source, u.location, u.note, u.flags,
        u.explanation, u.sourceExplanation, position, u.numWords, codePoints(source), timestamp);
      added.push(Number(info.lastInsertRowid));
      stored.set(u.idHash, { id: Number(info.lastInsertRowid) } as never);
    }
  }
  const stillUsed = db.prepare(
    `SELECT 1 FROM units u JOIN translations t ON t.id = u.translation_id
     WHERE t.component_id = ? AND t.is_source = 0 AND u.id_hash = ? LIMIT 1`,
  ).pluck();
  const remove = db.prepare('DELETE FROM units WHERE translation_id = ? AND id_hash = ?');
  for (const hash of new Set(removedHashes)) {
    if (stillUsed.get(componentId, hash) === undefined) remove.run(sourceTranslationId, hash);
  }
  return added;
}
