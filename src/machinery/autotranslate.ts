// Automatic translation of a translation (Weblate's "Automatic translation"): the strings a filter selects, filled
// from other components or from engines, stored in chunks of short transactions as suggestions, translations or
// strings needing editing, authored by the automatic translation bot (Weblate's "Suggestion added" and "Automatically
// translated" changes).

import { enforceChecks } from '../checks/refresh.js';
import type { EngineId } from '../config/config.js';
import { Action } from '../domain/actions.js';
import { PLURAL_SEPARATOR, State } from '../domain/unit.js';
import {
  type AutoMode,
  type AutoResult,
  type OtherTranslation,
  autoUnitsNow,
  automaticTranslationUser,
  otherTranslations,
} from '../store/autotranslate.repo.js';
import { type ChangeInput, recordChangeRows, unitChange } from '../store/changes.repo.js';
import { checkingFacts, sourceTranslationOf } from '../store/checks.repo.js';
import { setPendingTargets } from '../store/edits.repo.js';
import type { Tx } from '../store/index.js';
import { now } from '../store/index.js';
import type { UnitFilter } from '../store/index.js';
import { isComponentLocked } from '../store/projects.repo.js';
import { refreshStats } from '../store/stats.repo.js';
import type { Store } from '../store/store.js';
import { type NewSuggestion, addSuggestions, hasSuggestion } from '../store/suggestions.repo.js';
import { translationUnitRecords } from '../store/unit-records.repo.js';
import { EngineError, type LanguagePair } from './engine.js';
import type { Machinery } from './machinery.js';
import { pluralSourceForms } from './plurals.js';
import type { TaskReporter } from './tasks.js';

export type { AutoMode } from '../store/autotranslate.repo.js';

/** What to translate, from where and how (the API's `autotranslate` body, resolved). */
export interface AutoTranslateJob {
  translationId: number;
  componentId: number;
  pair: LanguagePair;
  mode: AutoMode;
  /** The strings to fill (Weblate's filter_type and q, parsed); null: every string. */
  filter: UnitFilter | null;
  /** Translated strings may be replaced (`translate` with a filter that includes them). */
  overwrite: boolean;
  source: { kind: 'others'; components: readonly number[] } | { kind: 'mt'; engines: readonly EngineId[]; threshold: number };
  /** Who asked (recorded as the changes' user; null for the add-on). */
  userId: number | null;
  /** The projects the asker may see (the memory engines' visibility); null: all. */
  projects: readonly number[] | null;
}

export interface AutoTranslateOutcome {
  /** Strings changed (suggestions added, or translations stored). */
  updated: number;
  /** Strings the filter selected. */
  considered: number;
  /** The strings a source had an answer for. */
  found: number;
  /** Why it stopped early (the component was locked), else null. */
  stopped: string | null;
  message: string;
}

const CHUNK = 1000;

/**
 * Runs a job: reads the selected strings once, then per chunk finds results (no transaction open while engines are
 * asked) and stores them in one short write, which leaves alone any string changed meanwhile. Engine failures are
 * logged and the other engines still answer.
 * @example await autoTranslate(store, machinery, job, reporter)
 */
export async function autoTranslate(store: Store, machinery: Machinery, job: AutoTranslateJob, report: TaskReporter): Promise<AutoTranslateOutcome> {
  const units = (await store.read((tx) => translationUnitRecords(tx, job.translationId, null, job.filter, { limit: 1_000_000_000, offset: 0 }))).filter(
    (u) => u.state !== State.READONLY && (job.overwrite || job.mode === 'suggest' || u.state < State.TRANSLATED),
  );
  // the other components' translations of every string, read once
  const others = new Map<number, OtherTranslation[]>();
  if (job.source.kind === 'others') {
    const { components } = job.source;
    const rows = await store.read((tx) => otherTranslations(tx, job.translationId, job.componentId, components, job.pair.targetId, job.pair.sourceId));
    for (const r of rows) {
      const list = others.get(r.unit_id);
      if (list) list.push(r);
      else others.set(r.unit_id, [r]);
    }
  }
  // which source form an engine translates for each of the translation's plural forms
  const plurals = job.source.kind === 'mt' ? await store.read((tx) => pluralMapOf(tx, job.translationId, job.componentId)) : null;
  let updated = 0;
  let found = 0;
  let stopped: string | null = null;
  const failed = new Set<string>();
  report.progress(0, units.length);
  for (let start = 0; start < units.length; start += CHUNK) {
    const chunk = units.slice(start, start + CHUNK);
    const results = job.source.kind === 'others' ? fromOthers(job, chunk, others) : await fromEngines(machinery, job, chunk, plurals!, report, failed);
    found += results.length;
    if (await store.read((tx) => isComponentLocked(tx, job.componentId))) {
      stopped = 'The component is locked.';
      report.log(`stopped: ${stopped}`);
      break;
    }
    if (results.length > 0) updated += await store.write((tx) => applyAutomaticResults(tx, results, job.mode, job.userId, job.overwrite));
    report.progress(start + chunk.length, units.length);
  }
  const message =
    updated === 0
      ? 'Automatic translation completed, no strings were updated.'
      : `Automatic translation completed, ${updated} ${updated === 1 ? 'string was' : 'strings were'} updated.`;
  report.log(message);
  return { updated, considered: units.length, found, stopped, message };
}

type Candidate = { id: number; source: string; context: string; target: string; state: number };

/** The same source translated in the allowed components (same context first, then approved, then oldest). */
function fromOthers(job: AutoTranslateJob, chunk: readonly Candidate[], found: Map<number, OtherTranslation[]>): AutoResult[] {
  if (job.source.kind !== 'others') return [];
  const allowed = new Set(job.source.components);
  const out: AutoResult[] = [];
  for (const u of chunk) {
    const others = (found.get(u.id) ?? []).filter((o) => allowed.has(o.component_id));
    const best = others.find((o) => o.same_context === 1) ?? others[0];
    if (best && best.target !== u.target) out.push({ unitId: u.id, target: best.target, seenTarget: u.target, seenState: u.state });
  }
  return out;
}

/** For each plural form of a translation, the source form an engine translates for it (null: none fits). */
async function pluralMapOf(tx: Tx, translationId: number, componentId: number): Promise<(number | null)[]> {
  const sourceId = await sourceTranslationOf(tx, componentId);
  const target = await checkingFacts(tx, translationId);
  const source = sourceId === undefined ? undefined : await checkingFacts(tx, sourceId);
  if (!target || !source) return [0];
  return pluralSourceForms({ number: source.plural_number, formula: source.plural_formula }, { number: target.plural_number, formula: target.plural_formula });
}

/**
 * Each engine in turn for the strings still without a result of at least `threshold`; the best result wins. A plural
 * string is asked form by form (each of the translation's forms from the source form `plurals` names, as Weblate's
 * engines get the singular or the plural) and filled when every form has a result, its quality the lowest of theirs;
 * one with a form no source form fits is left to people.
 */
async function fromEngines(
  machinery: Machinery,
  job: AutoTranslateJob,
  chunk: readonly Candidate[],
  plurals: readonly (number | null)[],
  report: TaskReporter,
  failed: Set<string>,
): Promise<AutoResult[]> {
  if (job.source.kind !== 'mt') return [];
  const { engines, threshold } = job.source;
  // the texts to translate of each string: one, or one per plural form
  const texts = new Map<number, string[]>();
  for (const u of chunk) {
    if (!u.source.includes(PLURAL_SEPARATOR)) {
      texts.set(u.id, [u.source]);
      continue;
    }
    const forms = u.source.split(PLURAL_SEPARATOR);
    const mapped = plurals.map((i) => (i === null ? null : (forms[Math.min(i, forms.length - 1)] ?? null)));
    if (mapped.every((t): t is string => t !== null && t !== '')) texts.set(u.id, mapped);
  }
  const best = new Map<number, ({ text: string; quality: number } | undefined)[]>();
  const quality = (id: number): number => {
    const forms = best.get(id);
    if (!forms) return -1;
    return Math.min(...texts.get(id)!.map((_, i) => forms[i]?.quality ?? -1));
  };
  for (const engine of engines) {
    if (failed.has(engine)) continue;
    const open = chunk.filter((u) => texts.has(u.id) && quality(u.id) < 100);
    if (open.length === 0) break;
    try {
      if (!(await machinery.supports(engine, job.pair))) {
        report.log(`${machinery.nameOf(engine)}: not available for this language`);
        failed.add(engine);
        continue;
      }
      // each text once, however many strings or forms have it
      const asked = [...new Set(open.flatMap((u) => texts.get(u.id)!))];
      const answers = await machinery.translate(engine, asked, job.pair, {
        projects: job.projects,
        userId: job.userId,
        componentId: job.componentId,
        threshold,
      });
      const answerOf = new Map(asked.map((t, i) => [t, answers[i] ?? []]));
      for (const u of open) {
        let forms = best.get(u.id);
        if (!forms) best.set(u.id, (forms = []));
        for (const [i, text] of texts.get(u.id)!.entries()) {
          for (const s of answerOf.get(text) ?? []) {
            if (s.quality < threshold || s.text === '') continue;
            if ((forms[i]?.quality ?? -1) < s.quality) forms[i] = { text: s.text, quality: s.quality };
          }
        }
      }
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      report.log(`${e.data.engine}: ${e.data.reason}`);
      failed.add(engine);
    }
  }
  return chunk.flatMap((u) => {
    if (!texts.has(u.id) || quality(u.id) < 0) return [];
    const target = best
      .get(u.id)!
      .map((f) => f!.text)
      .join(PLURAL_SEPARATOR);
    return target !== u.target ? [{ unitId: u.id, target, seenTarget: u.target, seenState: u.state }] : [];
  });
}

/**
 * Stores a chunk of automatic results in one transaction (call inside one): `suggest` adds suggestions the unit does
 * not have yet, each change Weblate's "Suggestion added" (4); `translate` and `fuzzy` store pending translations (20
 * or 10) authored by the bot, their checks run as an upload's are (an enforced one makes a string "needs editing"),
 * each change Weblate's "Automatically translated" (6). Changes are by `userId` (who asked; null for the add-on). A unit whose target or state moved since the job
 * read it is skipped, and so is a translated unit unless `overwrite` is set (`translate` with a filter that includes
 * translated strings). Returns how many units were changed.
 */
export async function applyAutomaticResults(
  tx: Tx,
  results: readonly AutoResult[],
  mode: AutoMode,
  userId: number | null,
  overwrite: boolean,
): Promise<number> {
  const bot = await automaticTranslationUser(tx);
  const timestamp = now();
  const byTranslation = new Map<number, { edits: { id: number; target: string; state: number }[]; changes: ChangeInput[] }>();
  const suggestions: NewSuggestion[] = [];
  const suggested = new Set<number>();
  const current = await autoUnitsNow(
    tx,
    results.map((r) => r.unitId),
  );
  for (const r of results) {
    const u = current.get(r.unitId);
    if (!u || u.target !== r.seenTarget || u.state !== r.seenState || u.state === State.READONLY || u.target === r.target) continue;
    const change = unitChange(u, {
      action: Action.AUTO,
      timestamp,
      userId,
      authorId: bot,
      target: r.target,
      old: u.target,
      details: { source: u.source, mode, old_state: u.state },
    });
    if (mode === 'suggest') {
      if (await hasSuggestion(tx, u.id, r.target)) continue;
      suggested.add(u.translation_id);
      // Weblate adds automatic suggestions as any suggestion: "Suggestion added" (4), not "Automatically translated"
      suggestions.push({ unitId: u.id, target: r.target, userId: bot, timestamp, change: { ...change, action: Action.SUGGESTION, old: '' } });
      continue;
    }
    if (u.state >= State.TRANSLATED && !overwrite) continue;
    const state = mode === 'translate' ? State.TRANSLATED : State.FUZZY;
    let group = byTranslation.get(u.translation_id);
    if (!group) byTranslation.set(u.translation_id, (group = { edits: [], changes: [] }));
    group.edits.push({ id: u.id, target: r.target, state });
    group.changes.push({ ...change, details: { ...change.details, state } });
  }
  if (suggestions.length > 0) {
    await addSuggestions(tx, suggestions);
    // a batch: its translations counted once at the end rather than moved unit by unit
    await refreshStats(tx, suggested);
  }
  let changed = suggestions.length;
  for (const [translationId, group] of byTranslation) {
    await setPendingTargets(
      tx,
      group.edits.map((e) => ({ unitId: e.id, target: e.target, state: e.state, authorId: bot, timestamp, automatic: true })),
    );
    await recordChangeRows(tx, group.changes);
    const changeOf = new Map(group.changes.map((c) => [c.unitId as number, c]));
    await enforceChecks(
      tx,
      group.edits.map((e) => ({ id: e.id, state: e.state, change: changeOf.get(e.id) })),
      [translationId],
    );
    await refreshStats(tx, [translationId]);
    changed += group.edits.length;
  }
  return changed;
}
