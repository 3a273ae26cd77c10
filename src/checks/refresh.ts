// Keeping the stored checks true: which units' checks run again after a change, with what facts, and the results written (store/checks.repo.ts reads and writes).

import { Action } from '../domain/actions.js';
import { State } from '../domain/unit.js';
import { followUnitStats } from '../statistics/follow.js';
import { type ChangeInput, recordChanges } from '../store/changes.repo.js';
import {
  type ComponentTraits,
  type StringUnitRow,
  checkedUnit,
  checkedUnits,
  checkingFacts,
  checkingFactsOf,
  checksOfUnits,
  componentProject,
  componentString,
  componentTraits,
  componentTranslated,
  componentsTranslated,
  inconsistentOfComponent,
  inconsistentOfProject,
  relatedChecksOf,
  relatedChecksOfComponent,
  relatedChecksOfStrings,
  setCheckDismissed,
  sourceTranslationOf,
  sourceTranslationsOf,
  sourceUnitRows,
  sourceUnitRowsOf,
  storeChecks,
  storeChecksOfTranslation,
  storeChecksOfUnits,
  storeInconsistent,
  storeInconsistentOf,
  stringKeysOf,
  stringStates,
  stringStatesOf,
  stringUnits,
  stringUnitsOfLanguage,
  stringsOfUnits,
  translationIdsOf,
  translationLanguage,
  unitIdsOf,
  unitStrings,
} from '../store/checks.repo.js';
import type { Tx } from '../store/db.js';
import { setUnitStates } from '../store/edits.repo.js';
import { refreshStats } from '../store/stats.repo.js';
import { type TranslationChecking, computeChecks, translationCheckingOf } from './checking.js';
import { KnownStrings, heldElsewhere, record, stringHash } from './known-strings.js';
import { checkApplies, inconsistentMembers, sourceChecks, translationChecks } from './run.js';

const DAY_MS = 24 * 3600 * 1000;
const INCONSISTENT = 'inconsistent';
/**
 * From this many strings of one translation on (an upload, a chunk of automatic translation), what the checks read is
 * read for the whole translation or language at once rather than string by string.
 */
const BULK = 100;

/** The checking context of a translation (undefined for an unknown one). */
export async function translationChecking(tx: Tx, translationId: number): Promise<TranslationChecking | undefined> {
  const r = await checkingFacts(tx, translationId);
  return r && translationCheckingOf(r);
}

/** Adds to `known` the checking contexts of the translations of `ids` it lacks, in one read; returns `known`. */
async function translationCheckings(
  tx: Tx,
  ids: Iterable<number>,
  known: Map<number, TranslationChecking | undefined> = new Map(),
): Promise<Map<number, TranslationChecking | undefined>> {
  const missing = [...new Set(ids)].filter((id) => !known.has(id));
  if (missing.length === 0) return known;
  const facts = await checkingFactsOf(tx, missing);
  for (const id of missing) {
    const r = facts.get(id);
    known.set(id, r && translationCheckingOf(r));
  }
  return known;
}

/**
 * Runs the checks of units by id and stores them (call inside a transaction). Returns, per unit, the failing
 * checks the component enforces (empty for most).
 */
export async function recheckUnits(tx: Tx, unitIds: Iterable<number>, translationIds?: readonly number[]): Promise<Map<number, string[]>> {
  const enforced = new Map<number, string[]>();
  const ids = [...unitIds];
  // the units, their stored checks and their translations' contexts read at once (sent together; the contexts after
  // the units' answer unless the caller knows their translations); a unit whose checks stay as they are is not
  // written, the others are written together
  const [stored, units, known] = await Promise.all([
    checksOfUnits(tx, ids),
    checkedUnits(tx, ids),
    translationIds ? translationCheckings(tx, translationIds) : undefined,
  ]);
  const contexts = await translationCheckings(
    tx,
    units.map((u) => u.translation_id),
    known,
  );
  const changed = new Map<number, string[]>();
  for (const u of units) {
    const checking = contexts.get(u.translation_id);
    if (!checking) continue;
    const failing = computeChecks(checking, { ...u, extraFlags: u.extra_flags });
    if (!sameChecks(stored.get(u.id) ?? [], failing)) changed.set(u.id, failing);
    if (checking.enforced.size > 0)
      enforced.set(
        u.id,
        failing.filter((f) => checking.enforced.has(f)),
      );
  }
  await storeChecksOfUnits(tx, changed, stored);
  return enforced;
}

/** Runs every unit's checks of a component again (its flags changed), then its source checks. */
export async function recheckComponent(tx: Tx, componentId: number): Promise<void> {
  const translations = await translationIdsOf(tx, componentId);
  for (const t of translations) await recheckUnits(tx, await unitIdsOf(tx, t));
  const changed = await refreshInconsistentOfComponent(tx, componentId, translations, false, new Set(translations));
  await refreshSourceChecks(tx, componentId);
  await refreshStats(tx, translations);
  await settleInconsistent(tx, changed);
}

/**
 * Recomputes the source checks of a component's source strings, including the ones that look across languages
 * (`multiple_failures`, `long_untranslated`); call after translation checks changed (inside a transaction).
 * Returns the source translation's id (undefined when the component has none).
 */
export async function refreshSourceChecks(tx: Tx, componentId: number, only?: ReadonlySet<bigint>): Promise<number | undefined> {
  const sourceId = await sourceTranslationOf(tx, componentId);
  if (sourceId === undefined) return undefined;
  const checking = await translationChecking(tx, sourceId);
  if (!checking) return undefined;
  const stats = await componentTranslated(tx, componentId);
  const componentPercent = stats.total === 0 ? 100 : (100 * stats.translated) / stats.total;
  const old = Date.now() - 90 * DAY_MS;
  const unitRows = await sourceUnitRows(tx, sourceId, only);
  // some strings: their stored checks read at once, and a string whose checks stay as they are is left alone
  const stored = only
    ? await checksOfUnits(
        tx,
        unitRows.map((u) => Number(u.id)),
      )
    : undefined;
  // a whole component: stored together at the end (in bulk where that is cheaper)
  const together = !only ? new Map<number, readonly string[]>() : undefined;
  // some strings: the source translation's statistics move by each changed string's share
  const store = async (id: number, failing: readonly string[]) => {
    if (together) {
      together.set(id, failing);
      return;
    }
    if (stored && sameChecks(stored.get(id) ?? [], failing)) return;
    // a check that changed is no change of the translation: its last change stays (reading it again for each
    // string cost a count over the source translation's changes, most of an automatic translation's time)
    await followUnitStats(tx, [{ id, translationId: sourceId }], () => storeChecks(tx, id, failing), {
      lastChange: false,
      unchanged: (changed) => !changed,
    });
  };
  // a whole component at once: the related counts of every string in one pass over its checks
  const relatedAll = only ? await relatedChecksOf(tx, only, componentId, sourceId) : await relatedChecksOfComponent(tx, componentId, sourceId);
  for (const u of unitRows) {
    const unit = { source: u.source, target: u.target, state: Number(u.state), flags: u.flags, extraFlags: u.extra_flags };
    // the cross-language facts cost two queries: only when a check that needs them is on for this string
    const wanted = sourceChecks(checking.ctx, unit, { relatedChecks: 2, longUntranslated: true });
    if (!wanted.includes('multiple_failures') && !wanted.includes('long_untranslated')) {
      await store(Number(u.id), sourceChecks(checking.ctx, unit, { relatedChecks: 0, longUntranslated: false }));
      continue;
    }
    const related = relatedAll.get(u.id_hash) ?? 0;
    let longUntranslated = false;
    if (Date.parse(u.timestamp) < old) {
      const st = await stringStates(tx, u.id_hash, componentId);
      longUntranslated = st.total > 0 && 2 * ((100 * st.translated) / st.total) < componentPercent;
    }
    await store(Number(u.id), sourceChecks(checking.ctx, unit, { relatedChecks: related, longUntranslated }));
  }
  if (together) await storeChecksOfTranslation(tx, sourceId, together);
  return sourceId;
}

/**
 * refreshSourceChecks of a few strings (id_hash) of several components at once (an edit and the units it filled): each
 * read and write a statement for all of them, however many components; a component with many strings goes through
 * refreshSourceChecks.
 */
export async function refreshSourceChecksOf(tx: Tx, strings: ReadonlyMap<number, ReadonlySet<bigint>>): Promise<void> {
  const few = new Map<number, ReadonlySet<bigint>>();
  for (const [componentId, hashes] of strings) {
    if (hashes.size >= BULK) await refreshSourceChecks(tx, componentId, hashes);
    else if (hashes.size > 0) few.set(componentId, hashes);
  }
  if (few.size === 0) return;
  const sources = await sourceTranslationsOf(tx, [...few.keys()]);
  if (sources.size === 0) return;
  const componentOf = new Map([...sources].map(([c, t]) => [t, c]));
  const pairs = [...few].flatMap(([componentId, hashes]) => {
    const sourceId = sources.get(componentId);
    return sourceId === undefined ? [] : [...hashes].map((h) => [sourceId, h] as const);
  });
  // the source translations' contexts and the strings' rows sent together (each read a round trip on PostgreSQL)
  const [checkings, sourceRows] = await Promise.all([translationCheckings(tx, sources.values()), sourceUnitRowsOf(tx, pairs)]);
  const rows = sourceRows.flatMap((u) => {
    const componentId = componentOf.get(Number(u.translation_id));
    const checking = componentId === undefined ? undefined : checkings.get(Number(u.translation_id));
    if (componentId === undefined || !checking) return [];
    const unit = { source: u.source, target: u.target, state: Number(u.state), flags: u.flags, extraFlags: u.extra_flags };
    // the cross-language facts cost two reads: only for strings where a check that needs them is on
    const wanted = sourceChecks(checking.ctx, unit, { relatedChecks: 2, longUntranslated: true });
    const cross = wanted.includes('multiple_failures') || wanted.includes('long_untranslated');
    return [{ id: Number(u.id), sourceId: Number(u.translation_id), componentId, hash: u.id_hash, timestamp: u.timestamp, unit, checking, cross }];
  });
  const cross = rows.filter((r) => r.cross);
  const old = Date.now() - 90 * DAY_MS;
  const aged = cross.filter((r) => Date.parse(r.timestamp) < old);
  const ofStrings = (list: typeof rows) => list.map((r) => [r.componentId, r.hash] as const);
  // the cross-language facts and the stored checks, none needing another's answer, sent together
  const [related, states, translated, stored] = await Promise.all([
    cross.length > 0
      ? relatedChecksOfStrings(
          tx,
          cross.map((r) => [r.sourceId, r.hash] as const),
        )
      : new Map<string, number>(),
    aged.length > 0 ? stringStatesOf(tx, ofStrings(aged)) : new Map<string, { total: number; translated: number }>(),
    aged.length > 0 ? componentsTranslated(tx, [...new Set(aged.map((r) => r.componentId))]) : new Map<number, { translated: number; total: number }>(),
    checksOfUnits(
      tx,
      rows.map((r) => r.id),
    ),
  ]);
  const failing = new Map<number, string[]>();
  for (const r of rows) {
    let names: string[];
    if (!r.cross) names = sourceChecks(r.checking.ctx, r.unit, { relatedChecks: 0, longUntranslated: false });
    else {
      const key = componentString(r.componentId, r.hash);
      let longUntranslated = false;
      if (Date.parse(r.timestamp) < old) {
        const c = translated.get(r.componentId) ?? { translated: 0, total: 0 };
        const componentPercent = c.total === 0 ? 100 : (100 * c.translated) / c.total;
        const st = states.get(key) ?? { total: 0, translated: 0 };
        longUntranslated = st.total > 0 && 2 * ((100 * st.translated) / st.total) < componentPercent;
      }
      names = sourceChecks(r.checking.ctx, r.unit, { relatedChecks: related.get(key) ?? 0, longUntranslated });
    }
    if (!sameChecks(stored.get(r.id) ?? [], names)) failing.set(r.id, names);
  }
  if (failing.size === 0) return;
  // a check that changed is no change of the translation: its last change stays
  await followUnitStats(
    tx,
    rows.filter((r) => failing.has(r.id)).map((r) => ({ id: r.id, translationId: r.sourceId })),
    () => storeChecksOfUnits(tx, failing, stored),
    { lastChange: false, unchanged: (changed) => changed.size === 0 },
  );
}

/** Whether storing `failing` would leave a unit's stored checks (`stored`, dismissed ones and `inconsistent` among them) as they are. */
function sameChecks(stored: readonly string[], failing: readonly string[]): boolean {
  return stored.every((name) => name === INCONSISTENT || failing.includes(name)) && failing.every((name) => stored.includes(name));
}

/**
 * The checks a unit would fail with `target` (plural forms joined) in place of its text, as an editor shows them
 * while typing; `inconsistent` is left out (it compares other components' strings, not this text).
 */
export async function previewChecks(tx: Tx, unitId: number, target: string): Promise<string[]> {
  const u = await checkedUnit(tx, unitId);
  if (!u) return [];
  const checking = await translationChecking(tx, u.translation_id);
  if (!checking || checking.isSource) return [];
  // text typed into an empty string makes it translated (checks skip empty strings)
  const state = target === '' ? State.EMPTY : u.state === State.EMPTY ? State.TRANSLATED : u.state;
  return translationChecks(checking.ctx, { source: u.source, target, state, flags: u.flags, extraFlags: u.extra_flags });
}

/** One string of a project in one language: the group `inconsistent` compares. */
export interface StringGroup {
  projectId: number;
  languageId: number;
  sourceLanguage: string;
  source: string;
  context: string;
}

/**
 * Adds or removes a unit's `inconsistent`; true when that changed anything. Its translation's statistics move by the
 * unit's share, unless the caller counts that translation itself (`accounted`: recounted, or moved by the caller's
 * own before/after of the unit) — counting a whole translation again for one check cost milliseconds an edit.
 */
async function setInconsistent(tx: Tx, unitId: number, translationId: number, failing: boolean, accounted: ReadonlySet<number>): Promise<boolean> {
  const store = () => storeInconsistent(tx, unitId, failing);
  if (accounted.has(translationId)) return store();
  return followUnitStats(tx, [{ id: unitId, translationId }], store, { lastChange: false, unchanged: (changed) => !changed });
}

/**
 * Dismisses (or restores) one failing check of a unit (call inside a transaction), its translation's statistics
 * following; false when the unit has no such check. A dismissal lasts while the check keeps failing.
 */
export async function dismissFailingCheck(tx: Tx, unit: { id: number; translationId: number }, name: string, dismissed: boolean): Promise<boolean> {
  return followUnitStats(tx, [unit], () => setCheckDismissed(tx, unit.id, name, dismissed), { unchanged: (changed) => !changed });
}

/**
 * The string groups of units (read them before the units are deleted); units of a source translation have none.
 * A unit of a component that does not propagate translations loses its `inconsistent` here (the translations
 * touched are added to `changed`).
 */
export async function stringGroups(
  tx: Tx,
  unitIds: Iterable<number>,
  changed?: Map<number, number>,
  accounted: ReadonlySet<number> = new Set(),
  traits: Map<number, ComponentTraits> = new Map(),
): Promise<StringGroup[]> {
  const keys = await stringKeysOf(tx, [...unitIds]);
  await traitsOf(
    tx,
    traits,
    keys.map((k) => k.component_id),
  );
  const out = new Map<string, StringGroup>();
  for (const k of keys) {
    const c: ComponentTraits | undefined = traits.get(k.component_id);
    if (!c || k.is_source === 1) continue;
    if (!c.propagates && (await setInconsistent(tx, k.id, k.translation_id, false, accounted))) changed?.set(k.id, k.translation_id);
    const key = `${c.project_id}\0${k.language_id}\0${c.source_language}\0${k.context}\0${k.source}`;
    if (!out.has(key)) {
      out.set(key, { projectId: c.project_id, languageId: k.language_id, sourceLanguage: c.source_language, source: k.source, context: k.context });
    }
  }
  return [...out.values()];
}

/**
 * Adds to `known` the traits of the components of `ids` it lacks, in one read: only the components a refresh meets
 * (every component's traits, read for each component synced, grew with the site: a quarter of the writing thread's
 * time in a sync of 200 components).
 */
async function traitsOf(tx: Tx, known: Map<number, ComponentTraits>, ids: readonly number[]): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => !known.has(id));
  if (missing.length > 0) for (const [id, t] of await componentTraits(tx, missing)) known.set(id, t);
}

/**
 * Recomputes `inconsistent` for each unit of these string groups (call inside a transaction): Weblate's rule
 * (inconsistentMembers) among the translations in components that propagate translations, for units the check
 * applies to (`ignore-inconsistent` and read-only strings never fail). Returns the units whose stored checks changed
 * (unit id → translation id), so their statistics and source checks can be refreshed.
 */
export async function refreshInconsistentGroups(
  tx: Tx,
  groups: Iterable<StringGroup>,
  changed = new Map<number, number>(),
  accounted: ReadonlySet<number> = new Set(),
  traits: Map<number, ComponentTraits> = new Map(),
): Promise<Map<number, number>> {
  const contexts = new Map<number, TranslationChecking | undefined>();
  // the units whose `inconsistent` comes or goes, written once all groups are decided
  const flips: { id: number; translationId: number; failing: boolean }[] = [];
  // the groups of one string (all its languages) are read together
  const strings = new Map<string, { group: StringGroup; languages: Set<number> }>();
  for (const g of groups) {
    const key = `${g.projectId}\0${g.sourceLanguage}\0${g.context}\0${g.source}`;
    let entry = strings.get(key);
    if (!entry) strings.set(key, (entry = { group: g, languages: new Set() }));
    entry.languages.add(g.languageId);
  }
  // many strings of one language of a project: that language's rows of the project, read once
  const perLanguage = new Map<string, number>();
  for (const { group: g, languages } of strings.values()) {
    if (languages.size !== 1) continue;
    const key = `${g.projectId}\0${g.languageId}`;
    perLanguage.set(key, (perLanguage.get(key) ?? 0) + 1);
  }
  const languageRows = new Map<string, Map<string, StringUnitRow[]>>();
  for (const [key, n] of perLanguage) {
    if (n < BULK) continue;
    const [project, language] = key.split('\0').map(Number) as [number, number];
    languageRows.set(key, await stringUnitsOfLanguage(tx, project, language));
  }
  for (const { group: g, languages } of strings.values()) {
    const byLanguage = new Map<number, StringUnitRow[]>();
    const ofLanguage = languages.size === 1 ? languageRows.get(`${g.projectId}\0${g.languageId}`) : undefined;
    // one language edited (a translation's strings): only its rows are read
    const rows = ofLanguage
      ? (ofLanguage.get(`${g.context}\0${g.source}`) ?? [])
      : await stringUnits(tx, g.source, g.context, languages.size === 1 ? [...languages][0] : undefined);
    await traitsOf(
      tx,
      traits,
      rows.map((r) => r.component_id),
    );
    for (const row of rows) {
      if (!languages.has(row.language_id)) continue;
      const c = traits.get(row.component_id);
      if (!c || c.project_id !== g.projectId || !c.propagates || c.source_language !== g.sourceLanguage) continue;
      let list = byLanguage.get(row.language_id);
      if (!list) byLanguage.set(row.language_id, (list = []));
      list.push(row);
    }
    const decided = [...byLanguage.values()].map((members) => ({ members, fails: members.length < 2 ? null : inconsistentMembers(members) }));
    // the contexts of the translations whose units fail, read at once
    await translationCheckings(
      tx,
      decided.flatMap(({ members, fails }) => members.filter((_, i) => fails?.[i] === true).map((m) => m.translation_id)),
      contexts,
    );
    for (const { members, fails } of decided) {
      for (let i = 0; i < members.length; i++) {
        const m = members[i]!;
        let failing = fails?.[i] === true;
        if (failing) {
          const checking = contexts.get(m.translation_id);
          failing = checking !== undefined && checkApplies(checking.ctx, { ...m, extraFlags: m.extra_flags }, INCONSISTENT);
        }
        // written only where it changes: a string shared by many components is mostly consistent, and deleting a
        // check that is not there cost a statement per member of every group (most of a sync of the tenth copy)
        if (failing !== (m.flagged === 1)) flips.push({ id: m.id, translationId: m.translation_id, failing });
      }
    }
  }
  // a translation with many units flipped is counted again once, not moved unit by unit
  const perTranslation = new Map<number, number>();
  for (const f of flips) perTranslation.set(f.translationId, (perTranslation.get(f.translationId) ?? 0) + 1);
  const recount = new Set([...perTranslation].filter(([t, n]) => n >= BULK && !accounted.has(t)).map(([t]) => t));
  // written together; the statistics of the translations neither recounted nor the caller's move by the units' shares
  const followed = flips.filter((f) => !recount.has(f.translationId) && !accounted.has(f.translationId));
  const stored = await followUnitStats(
    tx,
    followed.map((f) => ({ id: f.id, translationId: f.translationId })),
    () =>
      storeInconsistentOf(
        tx,
        flips.filter((f) => f.failing).map((f) => f.id),
        flips.filter((f) => !f.failing).map((f) => f.id),
      ),
    { lastChange: false, unchanged: (changed) => changed.size === 0 },
  );
  for (const f of flips) if (stored.has(f.id)) changed.set(f.id, f.translationId);
  await refreshStats(tx, recount);
  return changed;
}

/** `inconsistent` again for the strings of these units (edited, uploaded or added); returns the units changed (id → translation id). */
export async function refreshInconsistent(tx: Tx, unitIds: Iterable<number>, accounted: ReadonlySet<number> = new Set()): Promise<Map<number, number>> {
  const changed = new Map<number, number>();
  // the traits of the components met, read once for both
  const traits = new Map<number, ComponentTraits>();
  return await refreshInconsistentGroups(tx, await stringGroups(tx, unitIds, changed, accounted, traits), changed, accounted, traits);
}

/**
 * `inconsistent` after a sync or a settings change of a component (call inside a transaction): the strings of these
 * translations that another component of the project also has, and, when `swept`, every string of the project
 * flagged now (strings deleted may have ended an inconsistency). Returns the units changed (id → translation id).
 * The other components' strings come from `known`, what a run of syncs keeps of the project's strings (this
 * transaction one of its `write`s; these translations' strings are recorded in it, so `translationIds` must then hold
 * every translation whose units the transaction added or changed), or, outside a run, from one read per language.
 */
export async function refreshInconsistentOfComponent(
  tx: Tx,
  componentId: number,
  translationIds: Iterable<number>,
  swept: boolean,
  accounted: ReadonlySet<number> = new Set(),
  known?: KnownStrings,
): Promise<Map<number, number>> {
  const c = await componentProject(tx, componentId);
  if (!c) return new Map();
  const units = new Set<number>(swept ? await inconsistentOfProject(tx, c.project_id) : await inconsistentOfComponent(tx, componentId));
  if (c.components > 1) {
    const run = known ?? new KnownStrings();
    for (const t of translationIds) {
      const language = await translationLanguage(tx, t);
      if (language === undefined) continue;
      // the language's strings, read once in a run of syncs (or once here, outside one); this translation's as they
      // are now recorded in them
      const strings = await run.ofLanguage(tx, c.project_id, language);
      for (const u of await unitStrings(tx, t)) {
        const key = stringHash(u);
        if (heldElsewhere(strings, key, componentId)) units.add(u.id);
        record(strings, key, componentId);
      }
    }
  }
  return await refreshInconsistent(tx, units, accounted);
}

/** `inconsistent` again across a project after components were deleted from it; returns the units changed (id → translation id). */
export async function refreshInconsistentOfProject(tx: Tx, projectId: number): Promise<Map<number, number>> {
  return await refreshInconsistent(tx, await inconsistentOfProject(tx, projectId));
}

/**
 * After `inconsistent` changed on units (call inside a transaction): the source checks of their strings follow
 * (multiple_failures counts them), and with them the source translations' statistics (the units' own translations
 * moved when their check was written).
 */
export async function settleInconsistent(tx: Tx, changed: ReadonlyMap<number, number>): Promise<void> {
  if (changed.size === 0) return;
  // the source translations' statistics follow each string refreshSourceChecksOf changes
  await refreshSourceChecksOf(tx, await stringsOf(tx, changed.keys()));
}

/** The strings (id_hash) of units, by component. */
async function stringsOf(tx: Tx, unitIds: Iterable<number>): Promise<Map<number, Set<bigint>>> {
  const out = new Map<number, Set<bigint>>();
  for (const r of await stringsOfUnits(tx, [...unitIds])) {
    const c = Number(r.component_id);
    let set = out.get(c);
    if (!set) out.set(c, (set = new Set()));
    set.add(r.id_hash);
  }
  return out;
}

/**
 * Runs the checks of edited units; those translated but failing an enforced check become "needs editing" with
 * change 76 (Applied enforced check), as Weblate does. The same strings elsewhere in the project follow (their
 * `inconsistent`, source checks and statistics; the edited units' own translations are the caller's to count).
 * With `changeIds`, each unit's own change is recorded too, just before its 76 (as an edit alone records them), and
 * its id set there. Returns the states changed. Each step a statement or a few for all the units.
 */
export async function enforceChecks(
  tx: Tx,
  units: readonly { id: number; translationId?: number; state: number; change: ChangeInput | undefined }[],
  translations: readonly number[],
  opts: { changeIds?: Map<number, number> } = {},
): Promise<Map<number, number>> {
  const known = units.every((u) => u.translationId !== undefined) ? [...new Set(units.map((u) => u.translationId!))] : undefined;
  const enforced = await recheckUnits(
    tx,
    units.map((u) => u.id),
    known,
  );
  const states = new Map<number, number>();
  // the changes to record in order, each with the unit whose own change it is (null for a 76)
  const changes: { change: ChangeInput; own: number | null }[] = [];
  for (const u of units) {
    if (opts.changeIds && u.change) changes.push({ change: u.change, own: u.id });
    const failing = enforced.get(u.id);
    if (!failing || failing.length === 0 || u.state < State.TRANSLATED) continue;
    states.set(u.id, State.FUZZY);
    if (u.change) {
      changes.push({
        change: { ...u.change, action: Action.ENFORCED_CHECK, details: { checks: failing, state: State.FUZZY, old_state: u.state } },
        own: null,
      });
    }
  }
  // the states, the changes and the strings' first read sent together, in this order (each a statement sent at the
  // call; the strings' reads see the states written, and none needs the others' answers)
  const [, ids, inconsistent] = await Promise.all([
    setUnitStates(tx, [...states.keys()], State.FUZZY),
    recordChanges(
      tx,
      changes.map((c) => c.change),
    ),
    refreshInconsistent(
      tx,
      units.map((u) => u.id),
      new Set(translations),
    ),
  ]);
  for (const [i, c] of changes.entries()) if (c.own !== null) opts.changeIds?.set(c.own, ids[i]!);
  // the source checks of the edited strings and of those whose `inconsistent` changed (settleInconsistent's), read
  // and stored once for all of them: a string's source checks come out the same whichever call reaches it
  await refreshSourceChecksOf(tx, await stringsOf(tx, [...units.map((u) => u.id), ...inconsistent.keys()]));
  return states;
}

/** After units were added (call inside the same transaction): their checks, their strings' `inconsistent`, the statistics. */
export async function checkAddedUnits(tx: Tx, unitIds: readonly number[], translations: ReadonlySet<number>): Promise<void> {
  await recheckUnits(tx, unitIds);
  const inconsistent = await refreshInconsistent(tx, unitIds, translations);
  await refreshStats(tx, translations);
  await settleInconsistent(tx, inconsistent);
}

/**
 * Removes units by `remove` (call inside a transaction) with their checks kept true: the same strings elsewhere in
 * the project may have been inconsistent only with these (their groups are read before the units go), and the
 * statistics of `translations` are counted again.
 */
export async function removingUnits<T>(tx: Tx, unitIds: readonly number[], translations: ReadonlySet<number>, remove: () => Promise<T>): Promise<T> {
  const groups = await stringGroups(tx, unitIds, undefined, translations);
  const out = await remove();
  await refreshStats(tx, translations);
  await settleInconsistent(tx, await refreshInconsistentGroups(tx, groups, undefined, translations));
  return out;
}
