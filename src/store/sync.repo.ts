// The store half of a sync: what a sync plan is read from, and applySyncPlan, which writes what the plan says (sync/plan.ts decides it).

import { Action } from '../domain/actions.js';
import type { LanguageDefinition } from '../languages/languages.js';
import { setAlert } from './alerts.repo.js';
import { type ChangeInput, recordChangeRow, recordChangeRows } from './changes.repo.js';
import { type ComponentCheckingFacts, checksOfUnits, componentCheckingFacts, storeChecksOfUnits, storeFreshChecks } from './checks.repo.js';
import type { Tx } from './db.js';
import { type LanguageRow, ensureLanguage, findLanguageByCode } from './languages.repo.js';
import { indexMemorySources, pruneMemorySources } from './memory.repo.js';
import { setSyncedCommit } from './projects.repo.js';
import {
  type TranslationRow,
  deleteTranslation,
  listTranslations,
  setTranslationPlural,
  setTranslationRevision,
  upsertTranslation,
} from './translations.repo.js';
import {
  type StoredUnit,
  type UnitValues,
  deleteUnitRow,
  insertParsedUnits,
  isFirstLoad,
  pendingAddedInTms,
  pendingTexts,
  removeUnusedSourceUnits,
  storedUnits,
  updateParsedUnit,
  withIndexesBuiltAfter,
} from './units.repo.js';

export type { StoredUnit, UnitValues } from './units.repo.js';

/** What a sync plan is made from, as the store keeps it (read at the start of the sync's write). */
export interface SyncState {
  /** The component's translations before the sync. */
  translations: readonly TranslationRow[];
  /** The stored languages of the codes asked for (a code missing here is inserted by the plan). */
  languages: ReadonlyMap<string, LanguageRow>;
  /** What the component's settings say about its checks. */
  checking: ComponentCheckingFacts | undefined;
}

/** The stored units of some translations (by translation id), with the pending ones added in tms (kept while not in the file). */
export interface StoredUnits {
  units: ReadonlyMap<number, ReadonlyMap<bigint, StoredUnit>>;
  addedInTms: ReadonlySet<number>;
  /** A monolingual template's strings edited in tms and not committed yet: their texts by id_hash. */
  sourceEdits?: ReadonlyMap<bigint, string>;
}

/** Reads the component's translations, the languages of these codes and its checking settings. */
export async function readSyncState(tx: Tx, componentId: number, languageCodes: Iterable<string>): Promise<SyncState> {
  // none of these reads needs another's answer: sent together (a round trip for all on PostgreSQL, not one a language)
  const codes = [...new Set(languageCodes)];
  const [rows, translations, checking] = await Promise.all([
    Promise.all(codes.map((code) => findLanguageByCode(tx, code))),
    listTranslations(tx, componentId),
    componentCheckingFacts(tx, componentId),
  ]);
  const languages = new Map<string, LanguageRow>();
  codes.forEach((code, i) => {
    const row = rows[i];
    if (row) languages.set(code, row);
  });
  return { translations, languages, checking };
}

/**
 * Reads the units of these translations, and which of their pending units were added in tms; with `template`, the texts
 * of its pending units (a monolingual template's strings edited in tms).
 */
export async function readStoredUnits(tx: Tx, translationIds: Iterable<number>, template?: number): Promise<StoredUnits> {
  // every translation's units (and the template's pending texts) read together, then the added units of those holding
  // pending ones together
  const ids = [...translationIds];
  const [stored, sourceEdits] = await Promise.all([
    Promise.all(ids.map((id) => storedUnits(tx, id))),
    template === undefined ? undefined : pendingTexts(tx, template),
  ]);
  const units = new Map(ids.map((id, i) => [id, stored[i]!]));
  const pending = ids.filter((_, i) => [...stored[i]!.values()].some((u) => u.pending));
  const addedInTms = new Set((await Promise.all(pending.map((id) => pendingAddedInTms(tx, id)))).flat());
  return sourceEdits === undefined ? { units, addedInTms } : { units, addedInTms, sourceEdits };
}

/** A unit to insert, with its failing checks (null: its checks are not written here). */
export interface PlannedInsert {
  values: UnitValues;
  checks: readonly string[] | null;
}

/** A stored unit to write again, with its failing checks (null: its checks are not written here). */
export interface PlannedUpdate {
  id: number;
  values: UnitValues;
  checks: readonly string[] | null;
}

/** What happens to the units of one translation. */
export interface PlannedUnits {
  insert: readonly PlannedInsert[];
  update: readonly PlannedUpdate[];
  /** Ids of units to delete. */
  remove: readonly number[];
  /** Record a NEW_SOURCE change for each inserted unit (the units of a source translation). */
  newSource: boolean;
}

/** A translation the sync keeps, created or updated as its file says. */
export interface PlannedTranslation {
  /** Its stored language, or one to insert first (a generated one for an unknown code). */
  language: { id: number } | { define: LanguageDefinition; generated: boolean };
  row: Pick<TranslationRow, 'language_code' | 'filename' | 'is_source' | 'is_template'>;
  /** The plural its file states (null: none of its own); left alone when undefined. */
  plural?: { number: number; formula: string } | null;
  units?: PlannedUnits;
  /** What was parsed: the file's revision and its parse error; left alone when undefined. */
  revision?: { revision: string; error: string | null };
  /** Record a PARSE_ERROR change with this error. */
  parseError?: string;
}

/** A translation of the plan (an index into `SyncPlan.translations`: its id is known once it is written). */
export type TranslationIndex = number;

/**
 * What a sync writes, decided before (sync/plan.ts): translations in order, then the deletions, then the source
 * translation's units, checks across languages, statistics, the memory's index, alerts and the commit read.
 */
export interface SyncPlan {
  projectId: number;
  componentId: number;
  timestamp: string;
  translations: readonly PlannedTranslation[];
  /** Translations whose file is gone (ids). */
  removeTranslations: readonly number[];
  /** A bilingual component's source translation: its units follow the files', after the deletions. */
  source?: {
    translation: TranslationIndex;
    units: PlannedUnits;
    /** Source strings to delete unless a translation of the component still holds them (by id_hash). */
    removeUnused: readonly bigint[];
  };
  /** After units were added, changed or removed: `inconsistent` and the source checks again (`swept`: after a removal). */
  checksAcross?: { translations: readonly TranslationIndex[]; swept: boolean };
  /** Translations whose statistics are counted again. */
  stats: readonly TranslationIndex[];
  /** The source translation whose texts the memory's index takes (`prune`: texts no unit uses leave it). */
  memory?: { translation: TranslationIndex; prune: boolean };
  /** Alerts by name: set with these details, or cleared (null). */
  alerts: readonly { name: string; details: Record<string, unknown> | null }[];
  /** The commit the plan was read from. */
  head: string | null;
}

/** The tables a first load fills (unit_search: PostgreSQL's search index, filled after the load's commit and settled then). */
export const FIRST_LOAD_TABLES = ['units', 'unit_search', 'checks', 'changes', 'translations', 'translation_stats', 'memory_sources'] as const;

/**
 * Writes a sync plan (call inside one transaction, with the state the plan was made from read in it); returns the
 * ids of the plan's translations (by index), and whether it was a first load (isFirstLoad: the caller settles the
 * tables once committed, Store.settleLoad). The checks across languages and the statistics follow (`checksAcross`,
 * `stats`: checks/refresh.ts decides those checks, in the same transaction).
 * @example await store.write(async (tx) => applySyncPlan(tx, planSync(scan, await readSyncState(tx, id, codes), …)))
 */
export async function applySyncPlan(tx: Tx, plan: SyncPlan): Promise<{ ids: number[]; firstLoad: boolean }> {
  const { projectId, componentId, timestamp } = plan;
  const ids: number[] = [];
  const languageIds: number[] = [];
  // a first load builds the units' secondary indexes after its rows
  let inserts = plan.source?.units.insert.length ?? 0;
  for (const t of plan.translations) inserts += t.units?.insert.length ?? 0;
  const firstLoad = await isFirstLoad(tx, inserts);
  await withIndexesBuiltAfter(tx, firstLoad, () => writeTranslations(tx, plan, ids, languageIds));
  // the rest needs no answer: sent together, in this order
  await Promise.all([
    ...(plan.memory ? [indexMemorySources(tx, ids[plan.memory.translation]!), ...(plan.memory.prune ? [pruneMemorySources(tx)] : [])] : []),
    ...plan.alerts.map((a) => setAlert(tx, componentId, a.name, a.details, timestamp)),
    setSyncedCommit(tx, componentId, plan.head),
  ]);
  return { ids, firstLoad };
}

/**
 * The plan's translations in order (their ids and language ids pushed onto `ids` and `languageIds`), then the
 * deletions, then the source translation's units. A statement whose answer nothing needs is sent without waiting
 * for it (`sent`, awaited at the end): on PostgreSQL the translations' rows go out in one round trip, and each
 * translation's writes wait only where an inserted unit's id is needed. The statements run in the same order as
 * when each was awaited, but for the translations' rows, written first.
 */
async function writeTranslations(tx: Tx, plan: SyncPlan, ids: number[], languageIds: number[]): Promise<void> {
  const { projectId, componentId, timestamp } = plan;
  // a language the store lacks is inserted first, in the plan's order
  for (const t of plan.translations) {
    languageIds.push('id' in t.language ? t.language.id : (await ensureLanguage(tx, t.language.define, t.language.generated)).id);
  }
  // the translations' rows, and the stored checks of every unit written again (the unit writes leave them as they
  // are), sent together
  const rechecked = [...plan.translations.flatMap((t) => t.units?.update ?? []), ...(plan.source?.units.update ?? [])].filter((u) => u.checks).map((u) => u.id);
  const [translationIds, storedChecks] = await Promise.all([
    Promise.all(plan.translations.map((t, i) => upsertTranslation(tx, { component_id: componentId, language_id: languageIds[i]!, ...t.row }))),
    rechecked.length > 0 ? checksOfUnits(tx, rechecked) : new Map<number, string[]>(),
  ]);
  ids.push(...translationIds);
  const sent: Promise<unknown>[] = [];
  const send = (p: Promise<unknown>) => {
    // awaited below; a failure must not go unhandled while a later statement is awaited
    p.catch(() => {});
    sent.push(p);
  };
  for (const [i, t] of plan.translations.entries()) {
    const id = ids[i]!;
    if (t.parseError !== undefined) {
      send(
        recordChangeRow(tx, {
          action: Action.PARSE_ERROR,
          timestamp,
          projectId,
          componentId,
          translationId: id,
          languageId: languageIds[i]!,
          target: t.parseError,
          details: { error: t.parseError, filename: t.row.filename },
        }),
      );
    }
    // before the checks, which read the translation's plural
    if (t.plural !== undefined) send(setTranslationPlural(tx, id, t.plural));
    if (t.units) await writeUnits(tx, plan, id, languageIds[i]!, t.units, storedChecks, send);
    if (t.revision) send(setTranslationRevision(tx, id, t.revision.revision, t.revision.error));
  }
  for (const id of plan.removeTranslations) send(deleteTranslation(tx, id));
  if (plan.source) {
    const index = plan.source.translation;
    await writeUnits(tx, plan, ids[index]!, languageIds[index]!, plan.source.units, storedChecks, send);
    send(removeUnusedSourceUnits(tx, componentId, ids[index]!, plan.source.removeUnused));
  }
  await Promise.all(sent);
}

/**
 * One translation's planned units: updates, inserts, their check rows, NEW_SOURCE changes, then deletions;
 * `storedChecks` holds the stored checks of the units written again, `send` takes the statements whose answers
 * nothing here needs.
 */
async function writeUnits(
  tx: Tx,
  plan: SyncPlan,
  translationId: number,
  languageId: number,
  units: PlannedUnits,
  storedChecks: ReadonlyMap<number, readonly string[]>,
  send: (p: Promise<unknown>) => void,
): Promise<void> {
  const checked = new Map<number, readonly string[]>();
  for (const u of units.update) {
    send(updateParsedUnit(tx, u.id, u.values, plan.timestamp));
    if (u.checks) checked.set(u.id, u.checks);
  }
  // the updated units' stored checks made equal to what fails now (a statement for all of them)
  if (checked.size > 0) send(storeChecksOfUnits(tx, checked, storedChecks));
  const added = await insertParsedUnits(
    tx,
    translationId,
    units.insert.map((u) => u.values),
    plan.timestamp,
  );
  const fresh: [number, string][] = [];
  units.insert.forEach((u, i) => {
    for (const name of u.checks ?? []) fresh.push([added[i]!, name]);
  });
  if (fresh.length > 0) send(storeFreshChecks(tx, fresh));
  for (const id of units.remove) send(deleteUnitRow(tx, id));
  if (units.newSource) {
    const { projectId, componentId, timestamp } = plan;
    send(
      recordChangeRows(
        tx,
        added.map((unitId): ChangeInput => ({ action: Action.NEW_SOURCE, timestamp, projectId, componentId, translationId, unitId, languageId })),
      ),
    );
  }
}
