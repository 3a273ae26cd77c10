// The checks table: failing quality checks per unit (dismissed ones kept apart), written wherever a unit changes.
import {
  type CheckingFacts,
  type TranslationChecking,
  checkApplies,
  computeChecks,
  inconsistentMembers,
  sourceChecks,
  translationCheckingOf,
  translationChecks,
} from '../checks/index.js';
import { State } from '../domain/unit.js';
import type { Tx } from './db.js';
import type { BulkColumn } from './db.js';
import { preparedOnce } from './statements.js';
import { applyUnitStats, refreshStats, unitStatsFacts } from './stats.repo.js';

const DAY_MS = 24 * 3600 * 1000;
const INCONSISTENT = 'inconsistent';

const sql = preparedOnce((tx: Tx) => ({
  context: tx.prepare(
    `SELECT t.is_source, t.component_id, l.code AS language, t.language_code,
       coalesce(t.plural_number, l.plural_number) AS plural_number, coalesce(t.plural_formula, l.plural_formula) AS plural_formula,
       coalesce(${tx.dialect.jsonText('c.settings', 'file_format')}, '') AS format,
       coalesce(${tx.dialect.jsonText('c.settings', 'source_language')}, 'en') AS source_language,
       coalesce(${tx.dialect.jsonText('c.settings', 'check_flags')}, '') AS component_flags,
       coalesce(${tx.dialect.jsonText('c.settings', 'enforced_checks')}, '[]') AS enforced,
       coalesce(${tx.dialect.jsonText('p.settings', 'check_flags')}, '') AS project_flags
     FROM translations t JOIN languages l ON l.id = t.language_id JOIN components c ON c.id = t.component_id
     JOIN projects p ON p.id = c.project_id WHERE t.id = ?`,
  ),
  componentContext: tx.prepare(
    `SELECT coalesce(${tx.dialect.jsonText('c.settings', 'file_format')}, '') AS format,
       coalesce(${tx.dialect.jsonText('c.settings', 'source_language')}, 'en') AS source_language,
       coalesce(${tx.dialect.jsonText('c.settings', 'check_flags')}, '') AS component_flags,
       coalesce(${tx.dialect.jsonText('c.settings', 'enforced_checks')}, '[]') AS enforced,
       coalesce(${tx.dialect.jsonText('p.settings', 'check_flags')}, '') AS project_flags
     FROM components c JOIN projects p ON p.id = c.project_id WHERE c.id = ?`,
  ),
  existing: tx.prepare('SELECT name, dismissed FROM checks WHERE unit_id = ?'),
  // PostgreSQL's bulk path: a translation's checks at once, and pairs (unit_id, name) deleted by two array parameters
  existingOfTranslation: tx.prepare('SELECT k.unit_id, k.name FROM checks k JOIN units u ON u.id = k.unit_id WHERE u.translation_id = ?'),
  insert: tx.prepare('INSERT INTO checks (unit_id, name, dismissed) VALUES (?, ?, 0) ON CONFLICT DO NOTHING'),
  remove: tx.prepare('DELETE FROM checks WHERE unit_id = ? AND name = ?'),
  removeAll: tx.prepare(`DELETE FROM checks WHERE unit_id = ? AND name <> '${INCONSISTENT}'`),
  unit: tx.prepare('SELECT id, translation_id, source, target, state, flags, extra_flags, id_hash, timestamp FROM units WHERE id = ?').safeIntegers(false),
  unitsOf: tx.prepare('SELECT id FROM units WHERE translation_id = ?').pluck(),
  translationsOf: tx.prepare('SELECT id FROM translations WHERE component_id = ? ORDER BY is_source').pluck(),
  dismiss: tx.prepare('UPDATE checks SET dismissed = ? WHERE unit_id = ? AND name = ?'),
  all: tx.prepare('SELECT name, dismissed FROM checks WHERE unit_id = ? ORDER BY name'),
  names: tx.prepare('SELECT name FROM checks WHERE unit_id = ? AND dismissed = 0 ORDER BY name').pluck(),
  counts: tx.prepare(
    `SELECT c.name, count(*) FILTER (WHERE c.dismissed = 0) AS active, count(*) FILTER (WHERE c.dismissed = 1) AS dismissed FROM checks c JOIN units u ON u.id = c.unit_id
     WHERE u.translation_id = ? GROUP BY c.name ORDER BY active DESC, c.name`,
  ),
  // the string's checks in the component's other translations (dismissed ones too, as Weblate counts them)
  related: tx
    .prepare(
      `SELECT count(*) FROM translations t JOIN units o ON o.translation_id = t.id AND o.id_hash = ?
       JOIN checks k ON k.unit_id = o.id WHERE t.component_id = ? AND t.id <> ?`,
    )
    .pluck(),
  relatedAll: tx
    .prepare(
      `SELECT o.id_hash, count(*) AS n FROM translations t JOIN units o ON o.translation_id = t.id JOIN checks k ON k.unit_id = o.id
       WHERE t.component_id = ? AND t.id <> ? GROUP BY o.id_hash`,
    )
    .safeIntegers(true),
  states: tx.prepare(
    `SELECT count(*) AS total, count(*) FILTER (WHERE o.state >= ${State.TRANSLATED}) AS translated
     FROM translations t JOIN units o ON o.translation_id = t.id AND o.id_hash = ? WHERE t.component_id = ?`,
  ),
  componentTranslated: tx.prepare(
    `SELECT coalesce(sum(s.translated), 0) AS translated, coalesce(sum(s.total), 0) AS total
     FROM translation_stats s JOIN translations t ON t.id = s.translation_id WHERE t.component_id = ?`,
  ),
  sourceUnits: tx.prepare('SELECT id, source, target, state, flags, extra_flags, id_hash, timestamp FROM units WHERE translation_id = ?').safeIntegers(true),
  sourceUnit: tx
    .prepare('SELECT id, source, target, state, flags, extra_flags, id_hash, timestamp FROM units WHERE translation_id = ? AND id_hash = ?')
    .safeIntegers(true),
  sourceTranslation: tx.prepare('SELECT id FROM translations WHERE component_id = ? AND is_source = 1').pluck(),
  // inconsistent: a string's translations in one language across the project's components that propagate
  // a component's settings are JSON: read once per refresh (components), not once per unit row of a group
  componentTraits: tx.prepare(
    `SELECT c.id, c.project_id, coalesce(${tx.dialect.jsonFlag('c.settings', 'allow_translation_propagation')}, 1) AS propagates,
       coalesce(${tx.dialect.jsonText('c.settings', 'source_language')}, 'en') AS source_language FROM components c`,
  ),
  stringKey: tx.prepare(
    `SELECT u.translation_id, u.source, u.context, t.language_id, t.is_source, t.component_id
     FROM units u JOIN translations t ON t.id = u.translation_id WHERE u.id = ?`,
  ),
  // every language of one string at once: the (source, context) index finds them all, one language at a time
  // would read them all once per language; the components that take part are picked from componentTraits
  group: tx.prepare(
    `SELECT u.id, u.translation_id, u.source, u.target, u.state, u.flags, u.extra_flags, t.language_id, t.component_id,
       EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.name = '${INCONSISTENT}') AS flagged
     FROM units u JOIN translations t ON t.id = u.translation_id
     WHERE u.source = ? AND u.context = ? AND t.is_source = 0`,
  ),
  addInconsistent: tx.prepare(`INSERT INTO checks (unit_id, name, dismissed) VALUES (?, '${INCONSISTENT}', 0) ON CONFLICT DO NOTHING`),
  removeInconsistent: tx.prepare(`DELETE FROM checks WHERE unit_id = ? AND name = '${INCONSISTENT}'`),
  flaggedInProject: tx
    .prepare(
      `SELECT k.unit_id FROM checks k JOIN units u ON u.id = k.unit_id JOIN translations t ON t.id = u.translation_id
       JOIN components c ON c.id = t.component_id WHERE k.name = '${INCONSISTENT}' AND c.project_id = ?`,
    )
    .pluck(),
  flaggedInComponent: tx
    .prepare(
      `SELECT k.unit_id FROM checks k JOIN units u ON u.id = k.unit_id JOIN translations t ON t.id = u.translation_id
       WHERE k.name = '${INCONSISTENT}' AND t.component_id = ?`,
    )
    .pluck(),
  stringOf: tx.prepare('SELECT t.component_id, u.id_hash FROM units u JOIN translations t ON t.id = u.translation_id WHERE u.id = ?').safeIntegers(true),
  componentOf: tx.prepare(
    'SELECT project_id, (SELECT count(*) FROM components o WHERE o.project_id = c.project_id) AS components FROM components c WHERE c.id = ?',
  ),
  languageOf: tx.prepare('SELECT language_id FROM translations WHERE id = ? AND is_source = 0').pluck(),
  // the units of a translation whose string another component of the project also has in that language
  // the strings other components of the project have in a language (matched against a translation's in memory:
  // a probe per unit read every language's copies of the string)
  othersStrings: tx.prepare(
    `SELECT DISTINCT o.source, o.context FROM units o JOIN translations ot ON ot.id = o.translation_id JOIN components oc ON oc.id = ot.component_id
     WHERE ot.language_id = ? AND ot.component_id <> ? AND ot.is_source = 0 AND oc.project_id = ?`,
  ),
  unitStrings: tx.prepare('SELECT id, source, context FROM units WHERE translation_id = ?'),
}));

/** What the store keeps that decides a translation's checks (undefined for an unknown translation). */
export async function checkingFacts(tx: Tx, translationId: number): Promise<CheckingFacts | undefined> {
  return (await sql(tx).context.get(translationId)) as CheckingFacts | undefined;
}

/** What a component's settings say about its checks (the translation's part of CheckingFacts left out). */
export type ComponentCheckingFacts = Omit<CheckingFacts, 'is_source' | 'language' | 'language_code' | 'plural_number' | 'plural_formula'>;

/** The checking facts of a component (undefined for an unknown one). */
export async function componentCheckingFacts(tx: Tx, componentId: number): Promise<ComponentCheckingFacts | undefined> {
  return (await sql(tx).componentContext.get(componentId)) as ComponentCheckingFacts | undefined;
}

/** The checking context of a translation (undefined for an unknown one). */
export async function translationChecking(tx: Tx, translationId: number): Promise<TranslationChecking | undefined> {
  const r = await checkingFacts(tx, translationId);
  return r && translationCheckingOf(r);
}

/**
 * Makes the unit's stored checks equal to `failing`: gone ones deleted, new ones added, dismissals kept.
 * `inconsistent` looks across components and is kept as it is (refreshInconsistent owns it).
 */
export async function storeChecks(tx: Tx, unitId: number, failing: readonly string[], fresh = false): Promise<boolean> {
  const s = sql(tx);
  let changes = 0;
  if (fresh) {
    for (const name of failing) changes += (await s.insert.run(unitId, name)).changes;
    return changes > 0;
  }
  if (failing.length === 0) return (await s.removeAll.run(unitId)).changes > 0;
  const existing = (await s.existing.all(unitId)) as { name: string }[];
  for (const e of existing) if (e.name !== INCONSISTENT && !failing.includes(e.name)) changes += (await s.remove.run(unitId, e.name)).changes;
  for (const name of failing) if (!existing.some((e) => e.name === name)) changes += (await s.insert.run(unitId, name)).changes;
  return changes > 0;
}

/** A check row's key for bulk writes. */
const CHECK_KEY: readonly BulkColumn[] = [
  ['unit_id', 'bigint'],
  ['name', 'text'],
];

/** The checks of units that have none stored yet (just inserted): a statement a row, or a few in bulk where that is cheaper. */
export async function storeFreshChecks(tx: Tx, rows: readonly (readonly [unitId: number, name: string])[]): Promise<void> {
  const { bulk } = tx.dialect;
  if (!bulk) {
    const { insert } = sql(tx);
    for (const [unitId, name] of rows) await insert.run(unitId, name);
    return;
  }
  await bulk.insert(tx, 'checks', CHECK_KEY, rows, 'ON CONFLICT DO NOTHING');
}

/**
 * storeChecks for many units of one translation at once, in bulk (one read, one delete and one insert instead of
 * statements per unit); `failing` holds every unit to make equal, `inconsistent` is kept as storeChecks keeps it.
 */
async function storeChecksOfTranslation(
  tx: Tx,
  bulk: NonNullable<Tx['dialect']['bulk']>,
  translationId: number,
  failing: ReadonlyMap<number, readonly string[]>,
): Promise<void> {
  const s = sql(tx);
  const stored = new Map<number, string[]>();
  for (const r of (await s.existingOfTranslation.all(translationId)) as { unit_id: number; name: string }[]) {
    let names = stored.get(r.unit_id);
    if (!names) stored.set(r.unit_id, (names = []));
    names.push(r.name);
  }
  const gone: [number, string][] = [];
  const added: [number, string][] = [];
  for (const [id, names] of failing) {
    const existing = stored.get(id) ?? [];
    for (const e of existing) if (e !== INCONSISTENT && !names.includes(e)) gone.push([id, e]);
    for (const name of names) if (!existing.includes(name)) added.push([id, name]);
  }
  await bulk.delete(tx, 'checks', CHECK_KEY, gone);
  await storeFreshChecks(tx, added);
}

/**
 * Runs the checks of units by id and stores them (call inside a transaction). Returns, per unit, the failing
 * checks the component enforces (empty for most).
 */
export async function recheckUnits(tx: Tx, unitIds: Iterable<number>): Promise<Map<number, string[]>> {
  const s = sql(tx);
  const traits = await componentTraits(tx);
  const contexts = new Map<number, TranslationChecking | undefined>();
  const enforced = new Map<number, string[]>();
  for (const id of unitIds) {
    const u = (await s.unit.get(id)) as
      | {
          id: number;
          translation_id: number;
          source: string;
          target: string;
          state: number;
          flags: string;
          extra_flags: string;
          id_hash: number;
          timestamp: string;
        }
      | undefined;
    if (!u) continue;
    if (!contexts.has(u.translation_id)) contexts.set(u.translation_id, await translationChecking(tx, u.translation_id));
    const checking = contexts.get(u.translation_id);
    if (!checking) continue;
    const failing = computeChecks(checking, { ...u, extraFlags: u.extra_flags });
    await storeChecks(tx, u.id, failing);
    if (checking.enforced.size > 0)
      enforced.set(
        u.id,
        failing.filter((f) => checking.enforced.has(f)),
      );
  }
  return enforced;
}

/** Runs every unit's checks of a component again (its flags changed), then its source checks. */
export async function recheckComponent(tx: Tx, componentId: number): Promise<void> {
  const s = sql(tx);
  const translations = (await s.translationsOf.all(componentId)) as number[];
  for (const t of translations) await recheckUnits(tx, (await s.unitsOf.all(t)) as number[]);
  const changed = await refreshInconsistentOfComponent(tx, componentId, translations, false, new Set(translations));
  await refreshSourceChecks(tx, componentId);
  await refreshStats(tx, translations);
  await settleInconsistent(tx, changed);
}

/**
 * Recomputes the source checks of a component's source strings, including the ones that look across languages
 * (`multiple_failures`, `long_untranslated`); call after translation checks changed (inside a transaction).
 */
export async function refreshSourceChecks(tx: Tx, componentId: number, only?: ReadonlySet<bigint>): Promise<number | undefined> {
  const s = sql(tx);
  const sourceId = (await s.sourceTranslation.get(componentId)) as number | undefined;
  if (sourceId === undefined) return undefined;
  const checking = await translationChecking(tx, sourceId);
  if (!checking) return undefined;
  const stats = (await s.componentTranslated.get(componentId)) as { translated: number; total: number };
  const componentPercent = stats.total === 0 ? 100 : (100 * stats.translated) / stats.total;
  const old = Date.now() - 90 * DAY_MS;
  type Row = { id: bigint; source: string; target: string; state: bigint; flags: string; extra_flags: string; id_hash: bigint; timestamp: string };
  let unitRows: Row[];
  if (only) {
    unitRows = [];
    for (const h of only) {
      const row = (await s.sourceUnit.get(sourceId, h)) as Row | undefined;
      if (row) unitRows.push(row);
    }
  } else {
    unitRows = (await s.sourceUnits.all(sourceId)) as Row[];
  }
  // a whole component on PostgreSQL: stored together at the end
  const { bulk } = tx.dialect;
  const together = !only && bulk ? new Map<number, readonly string[]>() : undefined;
  // a few strings (an edit): the source translation's statistics move by each changed string's share
  const store = async (id: number, failing: readonly string[]) => {
    if (together) {
      together.set(id, failing);
      return;
    }
    const before = only ? await unitStatsFacts(tx, id) : undefined;
    if (!(await storeChecks(tx, id, failing))) return;
    const after = before ? await unitStatsFacts(tx, id) : undefined;
    if (before && after) await applyUnitStats(tx, sourceId, before, after);
  };
  // a whole component at once: the related counts of every string in one pass over its checks
  let relatedAll: Map<bigint, number> | null = null;
  if (!only) {
    relatedAll = new Map();
    for (const r of (await s.relatedAll.all(componentId, sourceId)) as { id_hash: bigint; n: bigint }[]) relatedAll.set(r.id_hash, Number(r.n));
  }
  for (const u of unitRows) {
    const unit = { source: u.source, target: u.target, state: Number(u.state), flags: u.flags, extraFlags: u.extra_flags };
    // the cross-language facts cost two queries: only when a check that needs them is on for this string
    const wanted = sourceChecks(checking.ctx, unit, { relatedChecks: 2, longUntranslated: true });
    if (!wanted.includes('multiple_failures') && !wanted.includes('long_untranslated')) {
      await store(Number(u.id), sourceChecks(checking.ctx, unit, { relatedChecks: 0, longUntranslated: false }));
      continue;
    }
    const relatedChecks = relatedAll ? (relatedAll.get(u.id_hash) ?? 0) : Number(await s.related.get(u.id_hash, componentId, sourceId));
    let longUntranslated = false;
    if (Date.parse(u.timestamp) < old) {
      const st = (await s.states.get(u.id_hash, componentId)) as { total: number; translated: number };
      longUntranslated = st.total > 0 && 2 * ((100 * st.translated) / st.total) < componentPercent;
    }
    const failing = sourceChecks(
      checking.ctx,
      { source: u.source, target: u.target, state: Number(u.state), flags: u.flags, extraFlags: u.extra_flags },
      {
        relatedChecks,
        longUntranslated,
      },
    );
    await store(Number(u.id), failing);
  }
  if (together) await storeChecksOfTranslation(tx, bulk!, sourceId, together);
  return sourceId;
}

/**
 * Dismisses (or restores) one failing check of a unit (call inside a transaction), refreshing the statistics;
 * false when the unit has no such check. A dismissal lasts while the check keeps failing.
 */
export async function setCheckDismissed(tx: Tx, unitId: number, name: string, dismissed: boolean): Promise<boolean> {
  const s = sql(tx);
  if ((await s.dismiss.run(dismissed ? 1 : 0, unitId, name)).changes === 0) return false;
  const u = (await s.unit.get(unitId)) as { translation_id: number };
  await refreshStats(tx, [u.translation_id]);
  return true;
}

/** The failing checks of a unit, dismissed or not, by name. */
export async function unitChecks(tx: Tx, unitId: number): Promise<{ name: string; dismissed: boolean }[]> {
  return ((await sql(tx).all.all(unitId)) as { name: string; dismissed: number }[]).map((r) => ({ name: r.name, dismissed: r.dismissed === 1 }));
}

/** The unit's active (not dismissed) failing checks. */
export async function activeChecks(tx: Tx, unitId: number): Promise<string[]> {
  return (await sql(tx).names.all(unitId)) as string[];
}

/**
 * The checks a unit would fail with `target` (plural forms joined) in place of its text, as an editor shows them
 * while typing; `inconsistent` is left out (it compares other components' strings, not this text).
 */
export async function previewChecks(tx: Tx, unitId: number, target: string): Promise<string[]> {
  const s = sql(tx);
  const u = (await s.unit.get(unitId)) as { translation_id: number; source: string; state: number; flags: string; extra_flags: string } | undefined;
  if (!u) return [];
  const checking = await translationChecking(tx, u.translation_id);
  if (!checking || checking.isSource) return [];
  // text typed into an empty string makes it translated (checks skip empty strings)
  const state = target === '' ? State.EMPTY : u.state === State.EMPTY ? State.TRANSLATED : u.state;
  return translationChecks(checking.ctx, { source: u.source, target, state, flags: u.flags, extraFlags: u.extra_flags });
}

/** Per check, how many strings of a translation fail it (active) and how many dismissed it. */
export async function checkCounts(tx: Tx, translationId: number): Promise<{ name: string; active: number; dismissed: number }[]> {
  return (await sql(tx).counts.all(translationId)) as { name: string; active: number; dismissed: number }[];
}

/** One string of a project in one language: the group `inconsistent` compares. */
export interface StringGroup {
  projectId: number;
  languageId: number;
  sourceLanguage: string;
  source: string;
  context: string;
}

type GroupRow = {
  id: number;
  translation_id: number;
  source: string;
  target: string;
  state: number;
  flags: string;
  extra_flags: string;
  language_id: number;
  component_id: number;
  /** 1 when the unit has `inconsistent` stored now. */
  flagged: number;
};

/**
 * Adds or removes a unit's `inconsistent`; true when that changed anything. Its translation's statistics move by the
 * unit's share, unless the caller counts that translation itself (`accounted`: recounted, or moved by the caller's
 * own before/after of the unit) — counting a whole translation again for one check cost milliseconds an edit.
 */
async function setInconsistent(tx: Tx, unitId: number, translationId: number, failing: boolean, accounted: ReadonlySet<number>): Promise<boolean> {
  const s = sql(tx);
  const before = accounted.has(translationId) ? undefined : await unitStatsFacts(tx, unitId);
  const info = failing ? await s.addInconsistent.run(unitId) : await s.removeInconsistent.run(unitId);
  if (info.changes === 0) return false;
  if (!accounted.has(translationId)) {
    const after = await unitStatsFacts(tx, unitId);
    if (before && after) await applyUnitStats(tx, translationId, before, after, { lastChange: false });
    else await refreshStats(tx, [translationId]);
  }
  return true;
}

/** What `inconsistent` needs of a component: its project, whether it propagates translations, its source language. */
interface ComponentTraits {
  project_id: number;
  propagates: number;
  source_language: string;
}

async function componentTraits(tx: Tx): Promise<Map<number, ComponentTraits>> {
  return new Map(((await sql(tx).componentTraits.all()) as (ComponentTraits & { id: number })[]).map((c) => [c.id, c]));
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
): Promise<StringGroup[]> {
  const s = sql(tx);
  const traits = await componentTraits(tx);
  const out = new Map<string, StringGroup>();
  for (const id of unitIds) {
    const k = (await s.stringKey.get(id)) as
      | { translation_id: number; source: string; context: string; language_id: number; is_source: number; component_id: number }
      | undefined;
    const c = k && traits.get(k.component_id);
    if (!k || !c || k.is_source === 1) continue;
    if (!c.propagates && (await setInconsistent(tx, id, k.translation_id, false, accounted))) changed?.set(id, k.translation_id);
    const key = `${c.project_id}\0${k.language_id}\0${c.source_language}\0${k.context}\0${k.source}`;
    if (!out.has(key)) {
      out.set(key, { projectId: c.project_id, languageId: k.language_id, sourceLanguage: c.source_language, source: k.source, context: k.context });
    }
  }
  return [...out.values()];
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
): Promise<Map<number, number>> {
  const s = sql(tx);
  const traits = await componentTraits(tx);
  const contexts = new Map<number, TranslationChecking | undefined>();
  // the groups of one string (all its languages) are read together
  const strings = new Map<string, { group: StringGroup; languages: Set<number> }>();
  for (const g of groups) {
    const key = `${g.projectId}\0${g.sourceLanguage}\0${g.context}\0${g.source}`;
    let entry = strings.get(key);
    if (!entry) strings.set(key, (entry = { group: g, languages: new Set() }));
    entry.languages.add(g.languageId);
  }
  for (const { group: g, languages } of strings.values()) {
    const byLanguage = new Map<number, GroupRow[]>();
    for (const row of (await s.group.all(g.source, g.context)) as GroupRow[]) {
      if (!languages.has(row.language_id)) continue;
      const c = traits.get(row.component_id);
      if (!c || c.project_id !== g.projectId || !c.propagates || c.source_language !== g.sourceLanguage) continue;
      let list = byLanguage.get(row.language_id);
      if (!list) byLanguage.set(row.language_id, (list = []));
      list.push(row);
    }
    for (const members of byLanguage.values()) {
      const fails = members.length < 2 ? null : inconsistentMembers(members);
      for (let i = 0; i < members.length; i++) {
        const m = members[i]!;
        let failing = fails?.[i] === true;
        if (failing) {
          if (!contexts.has(m.translation_id)) contexts.set(m.translation_id, await translationChecking(tx, m.translation_id));
          const checking = contexts.get(m.translation_id);
          failing = checking !== undefined && checkApplies(checking.ctx, { ...m, extraFlags: m.extra_flags }, INCONSISTENT);
        }
        // written only where it changes: a string shared by many components is mostly consistent, and deleting a
        // check that is not there cost a statement per member of every group (most of a sync of the tenth copy)
        if (failing === (m.flagged === 1)) continue;
        if (await setInconsistent(tx, m.id, m.translation_id, failing, accounted)) changed.set(m.id, m.translation_id);
      }
    }
  }
  return changed;
}

/** `inconsistent` again for the strings of these units (edited, uploaded or added); returns the units changed (id → translation id). */
export async function refreshInconsistent(tx: Tx, unitIds: Iterable<number>, accounted: ReadonlySet<number> = new Set()): Promise<Map<number, number>> {
  const changed = new Map<number, number>();
  return await refreshInconsistentGroups(tx, await stringGroups(tx, unitIds, changed, accounted), changed, accounted);
}

/**
 * `inconsistent` after a sync or a settings change of a component (call inside a transaction): the strings of these
 * translations that another component of the project also has, and, when `swept`, every string of the project
 * flagged now (strings deleted may have ended an inconsistency). Returns the units changed (id → translation id).
 */
export async function refreshInconsistentOfComponent(
  tx: Tx,
  componentId: number,
  translationIds: Iterable<number>,
  swept: boolean,
  accounted: ReadonlySet<number> = new Set(),
): Promise<Map<number, number>> {
  const s = sql(tx);
  const c = (await s.componentOf.get(componentId)) as { project_id: number; components: number } | undefined;
  if (!c) return new Map();
  const units = new Set<number>(
    swept ? ((await s.flaggedInProject.all(c.project_id)) as number[]) : ((await s.flaggedInComponent.all(componentId)) as number[]),
  );
  if (c.components > 1) {
    for (const t of translationIds) {
      const language = (await s.languageOf.get(t)) as number | undefined;
      if (language === undefined) continue;
      const others = new Set(
        ((await s.othersStrings.all(language, componentId, c.project_id)) as { source: string; context: string }[]).map((o) => `${o.context}\0${o.source}`),
      );
      if (others.size === 0) continue;
      for (const u of (await s.unitStrings.all(t)) as { id: number; source: string; context: string }[])
        if (others.has(`${u.context}\0${u.source}`)) units.add(u.id);
    }
  }
  return await refreshInconsistent(tx, units, accounted);
}

/** `inconsistent` again across a project after components were deleted from it; returns the units changed (id → translation id). */
export async function refreshInconsistentOfProject(tx: Tx, projectId: number): Promise<Map<number, number>> {
  return await refreshInconsistent(tx, (await sql(tx).flaggedInProject.all(projectId)) as number[]);
}

/**
 * After `inconsistent` changed on units (call inside a transaction): the source checks of their strings follow
 * (multiple_failures counts them), and with them the source translations' statistics (the units' own translations
 * moved when their check was written).
 */
export async function settleInconsistent(tx: Tx, changed: ReadonlyMap<number, number>): Promise<void> {
  if (changed.size === 0) return;
  const s = sql(tx);
  const byComponent = new Map<number, Set<bigint>>();
  for (const id of changed.keys()) {
    const r = (await s.stringOf.get(id)) as { component_id: bigint; id_hash: bigint } | undefined;
    if (!r) continue;
    const c = Number(r.component_id);
    let set = byComponent.get(c);
    if (!set) byComponent.set(c, (set = new Set()));
    set.add(r.id_hash);
  }
  for (const [componentId, hashes] of byComponent) {
    // the source translation's statistics follow each string refreshSourceChecks changes
    await refreshSourceChecks(tx, componentId, hashes);
  }
}
