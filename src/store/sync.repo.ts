// The store half of a sync: everything the scan found, applied to one component (call inside one transaction).

import { Action } from '../domain/actions.js';
import { type ParsedUnit, State } from '../domain/unit.js';
import type { LanguageDefinition } from '../languages/languages.js';
import { setAlert } from './alerts.repo.js';
import { recordChangeRow, recordChangeRows } from './changes.repo.js';
import {
  type TranslationChecking,
  computeChecks,
  refreshInconsistentOfComponent,
  refreshSourceChecks,
  settleInconsistent,
  storeChecks,
  storeFreshChecks,
  translationChecking,
} from './checks.repo.js';
import { type Tx, now } from './db.js';
import { ensureLanguage } from './languages.repo.js';
import { indexMemorySources, pruneMemorySources } from './memory.repo.js';
import { setSyncedCommit } from './projects.repo.js';
import { refreshStats } from './stats.repo.js';
import { deleteTranslation, listTranslations, setTranslationPlural, setTranslationRevision, upsertTranslation } from './translations.repo.js';
import {
  type WrittenUnitValues,
  appendSourceUnits,
  countUnits,
  pendingOfTranslation,
  readonlySource,
  removeUnusedSourceUnits,
  storedUnits,
  unitWriter,
} from './units.repo.js';

/**
 * Runs the checks of each unit a sync writes, in the context of its translation. On PostgreSQL the checks of inserted
 * units wait for `flush` (one bulk insert instead of a round trip each).
 */
function checksWriter(tx: Tx, translationId: number): { write: (u: WrittenUnitValues) => Promise<void>; flush: () => Promise<void> } {
  let checking: TranslationChecking | undefined | null = null;
  const fresh: [number, string][] | undefined = tx.dialect.bulk ? [] : undefined;
  return {
    write: async (u) => {
      if (checking === null) checking = await translationChecking(tx, translationId);
      if (!checking) return;
      const failing = computeChecks(checking, { source: u.source, target: u.target, state: u.state, flags: u.flags, extraFlags: u.extraFlags });
      if (fresh && u.inserted) for (const name of failing) fresh.push([u.id, name]);
      else if (failing.length > 0 || !u.inserted) await storeChecks(tx, u.id, failing, u.inserted);
    },
    flush: async () => {
      if (fresh && fresh.length > 0) await storeFreshChecks(tx, fresh.splice(0));
    },
  };
}

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

/** What reading one file gave: nothing new (same blob), its units, or the parse error. */
export type FileOutcome =
  | { status: 'unchanged' }
  /** `plural`: the file's own plural where it states one other than its language's (PO's Plural-Forms). */
  | { status: 'parsed'; store: { units: readonly ParsedUnit[] }; plural?: { number: number; formula: string } | null }
  | { status: 'failed'; error: string };

/** One translation file found in the working copy. */
export interface ScannedFile {
  path: string;
  /** Code as written in the file name. */
  code: string;
  language: LanguageDefinition;
  /** The language had to be generated (unknown code). */
  generated: boolean;
  /** Blob id(s) of the file (and template): what was parsed last time is compared against this. */
  revision: string;
  isTemplate: boolean;
}

/** What a scan of a component's working copy found, as the store applies it. */
export interface ScanInput {
  projectId: number;
  componentId: number;
  /** The component's settings that decide how files become translations. */
  component: { template: string; edit_template: boolean; source_language: string };
  plan: {
    files: readonly ScannedFile[];
    duplicates: readonly { path: string; language: string; other: string }[];
    sourceLanguage: LanguageDefinition;
  };
  outcomes: ReadonlyMap<string, FileOutcome>;
  head: string | null;
  /** How many files the file mask matched (none: Weblate's NoMaskMatches alert). */
  maskMatches: number;
  filemask: string;
}

/** Applies a scan to the store (call inside one transaction): translations, units, source strings, changes, statistics. */
export async function applyScan(tx: Tx, input: ScanInput): Promise<ApplyResult> {
  const { component, plan, outcomes, componentId, projectId } = input;
  const timestamp = now();
  const record = (change: Parameters<typeof recordChangeRow>[1]) => recordChangeRow(tx, change);
  const units = unitWriter(tx);
  const result: ApplyResult = { files: [], added: 0, changed: 0, removed: 0, pendingKept: [], pendingDropped: [] };
  const touched = new Set<number>();
  const bilingual = !component.template;
  const existing = await listTranslations(tx, componentId);
  const kept = new Set<number>();

  const sourceLanguage = await ensureLanguage(tx, plan.sourceLanguage);
  let sourceTranslationId: number | undefined;
  if (bilingual) {
    sourceTranslationId = await upsertTranslation(tx, {
      component_id: componentId,
      language_id: sourceLanguage.id,
      language_code: component.source_language,
      filename: '',
      is_source: 1,
      is_template: 0,
    });
    kept.add(sourceTranslationId);
  }

  const parsedInOrder: (readonly ParsedUnit[])[] = [];
  const removedHashes: bigint[] = [];
  for (const file of plan.files) {
    const language = await ensureLanguage(tx, file.language, file.generated);
    const translationId = await upsertTranslation(tx, {
      component_id: componentId,
      language_id: language.id,
      language_code: file.code,
      filename: file.path,
      is_source: file.isTemplate ? 1 : 0,
      is_template: file.isTemplate ? 1 : 0,
    });
    if (file.isTemplate) sourceTranslationId = translationId;
    kept.add(translationId);
    const outcome: FileOutcome = outcomes.get(file.path) ?? { status: 'unchanged' };
    const fileResult: FileResult = { path: file.path, language: language.code, status: outcome.status, added: 0, changed: 0, removed: 0 };
    result.files.push(fileResult);
    if (outcome.status === 'unchanged') {
      // The same blob as last time: a file that did not parse then still does not.
      const error = existing.find((t) => t.id === translationId)?.parse_error;
      if (error) Object.assign(fileResult, { status: 'failed', error });
      continue;
    }
    touched.add(translationId);
    if (outcome.status === 'failed') {
      fileResult.error = outcome.error;
      const before = existing.find((t) => t.id === translationId);
      if (before?.revision !== file.revision || before?.parse_error !== outcome.error) {
        await record({
          action: Action.PARSE_ERROR,
          timestamp,
          projectId,
          componentId,
          translationId,
          languageId: language.id,
          target: outcome.error,
          details: { error: outcome.error, filename: file.path },
        });
      }
      await setTranslationRevision(tx, translationId, file.revision, outcome.error);
      continue;
    }
    const readonlyTemplate = file.isTemplate && !component.edit_template;
    // before the checks, which read the translation's plural
    await setTranslationPlural(tx, translationId, outcome.plural ?? null);
    const checks = checksWriter(tx, translationId);
    const diff = await units.apply(
      translationId,
      outcome.store.units,
      timestamp,
      readonlyTemplate ? (u) => ({ target: u.target, state: State.READONLY }) : undefined,
      checks.write,
    );
    await checks.flush();
    await setTranslationRevision(tx, translationId, file.revision, null);
    Object.assign(fileResult, { added: diff.added, changed: diff.changed, removed: diff.removed });
    result.added += diff.added;
    result.changed += diff.changed;
    result.removed += diff.removed;
    for (const p of diff.pendingKept) result.pendingKept.push({ translation: file.path, context: p.context, fileTarget: p.fileTarget });
    for (const p of diff.pendingDropped) result.pendingDropped.push({ translation: file.path, context: p.context, target: p.target });
    if (file.isTemplate) {
      await recordChangeRows(
        tx,
        diff.addedIds.map((id) => ({ action: Action.NEW_SOURCE, timestamp, projectId, componentId, translationId, unitId: id, languageId: language.id })),
      );
    } else {
      parsedInOrder.push(outcome.store.units);
      removedHashes.push(...diff.removedHashes);
    }
  }

  // Files gone from the mask: their translations go, except the source translation of a bilingual component.
  for (const t of existing) {
    if (kept.has(t.id)) continue;
    for (const p of await pendingOfTranslation(tx, t.id)) result.pendingDropped.push({ translation: t.filename, context: p.context, target: p.target });
    const removed = await countUnits(tx, t.id);
    result.removed += removed;
    result.files.push({ path: t.filename, language: t.language_code, status: 'removed', added: 0, changed: 0, removed });
    for (const u of (await storedUnits(tx, t.id)).keys()) removedHashes.push(u);
    await deleteTranslation(tx, t.id);
  }

  if (bilingual && sourceTranslationId !== undefined) {
    const added = await updateBilingualSource(
      tx,
      sourceTranslationId,
      componentId,
      parsedInOrder,
      removedHashes,
      timestamp,
      plan.files.length === parsedInOrder.length,
    );
    await recordChangeRows(
      tx,
      added.map((id) => ({
        action: Action.NEW_SOURCE,
        timestamp,
        projectId,
        componentId,
        translationId: sourceTranslationId,
        unitId: id,
        languageId: sourceLanguage.id,
      })),
    );
    if (added.length > 0 || removedHashes.length > 0 || parsedInOrder.length > 0) touched.add(sourceTranslationId);
  }

  // Source checks look across languages (multiple_failures, long_untranslated): again after anything changed.
  // inconsistent looks across the project's components: the strings this sync touched, and after a removal every
  // string flagged now; then other components' statistics and source checks follow.
  let inconsistent: Map<number, number> | undefined;
  if (result.added > 0 || result.changed > 0 || result.removed > 0) {
    inconsistent = await refreshInconsistentOfComponent(tx, componentId, touched, result.removed > 0, touched);
    const sourceId = await refreshSourceChecks(tx, componentId);
    if (sourceId !== undefined) touched.add(sourceId);
  }
  await refreshStats(tx, touched);
  if (inconsistent) await settleInconsistent(tx, inconsistent);
  // the memory's pre-filter index follows the source strings (a few thousand rows, not every translation's units);
  // source texts no unit or imported entry uses any more leave it
  if (sourceTranslationId !== undefined && touched.has(sourceTranslationId)) {
    await indexMemorySources(tx, sourceTranslationId);
    if (result.removed > 0 || result.changed > 0) await pruneMemorySources(tx);
  }
  await setAlert(tx, componentId, 'DuplicateLanguage', plan.duplicates.length > 0 ? { files: plan.duplicates } : null, timestamp);
  const broken = result.files.filter((f) => f.status === 'failed').map((f) => ({ filename: f.path, error: f.error }));
  await setAlert(tx, componentId, 'ParseError', broken.length > 0 ? { files: broken } : null, timestamp);
  await setAlert(tx, componentId, 'NoMaskMatches', input.maskMatches === 0 ? { filemask: input.filemask } : null, timestamp);
  await setSyncedCommit(tx, componentId, input.head);
  return result;
}

/**
 * The source translation of a bilingual component holds each string once, from the first file that has it,
 * read-only. With every file parsed it is rebuilt in file order; otherwise new strings are appended and
 * strings no file has any more are removed. Returns the ids of added source units.
 */
async function updateBilingualSource(
  tx: Tx,
  sourceTranslationId: number,
  componentId: number,
  parsedInOrder: readonly (readonly ParsedUnit[])[],
  removedHashes: readonly bigint[],
  timestamp: string,
  complete: boolean,
): Promise<number[]> {
  if (complete) return (await unitWriter(tx).apply(sourceTranslationId, distinctUnits(parsedInOrder), timestamp, readonlySource)).addedIds;
  // appended source units get their checks from refreshSourceChecks at the end of the sync
  const stored = await storedUnits(tx, sourceTranslationId);
  const position = Math.max(0, ...[...stored.values()].map((s) => s.position));
  const added = await appendSourceUnits(tx, sourceTranslationId, distinctUnits(parsedInOrder, new Set(stored.keys())), position, timestamp);
  await removeUnusedSourceUnits(tx, componentId, sourceTranslationId, new Set(removedHashes));
  return added;
}

/** Each string once (by id_hash), from the first list that has it, leaving out those `seen` already. */
function distinctUnits(lists: readonly (readonly ParsedUnit[])[], seen = new Set<bigint>()): ParsedUnit[] {
  const out: ParsedUnit[] = [];
  for (const list of lists) {
    for (const u of list) {
      if (seen.has(u.idHash)) continue;
      seen.add(u.idHash);
      out.push(u);
    }
  }
  return out;
}
