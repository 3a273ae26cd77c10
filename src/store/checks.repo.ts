// The checks table: failing quality checks per unit (dismissed ones kept apart), and what deciding them reads (checks/refresh.ts decides). SQL only.
import { State } from '../domain/unit.js';
import type { Tx } from './db.js';
import type { BulkColumn } from './db.js';
import { preparedOnce } from './statements.js';

const INCONSISTENT = 'inconsistent';

/** What the store keeps that decides a translation's checks (settings as stored: flags and enforced checks as text). */
export interface CheckingRow {
  is_source: number;
  language: string;
  language_code: string;
  plural_number: number;
  plural_formula: string;
  format: string;
  source_language: string;
  component_flags: string;
  enforced: string;
  project_flags: string;
}

/** A check row's key for bulk writes. */
const CHECK_KEY: readonly BulkColumn[] = [
  ['unit_id', 'bigint'],
  ['name', 'text'],
];

/** A string of a translation or component: its id and the string's id_hash. */
const STRING_OF: readonly BulkColumn[] = [
  ['owner', 'bigint'],
  ['id_hash', 'bigint'],
];

/** (translation or component id, id_hash) pairs as one JSON parameter (64-bit hashes written out exactly). */
function stringPairs(pairs: Iterable<readonly [number, bigint]>): string {
  return `[${[...pairs].map(([owner, hash]) => `[${owner},${hash}]`).join(',')}]`;
}

/** A translation's checking facts (CheckingRow and its id), each translation's row; the caller adds the WHERE. */
const checkingSelect = (tx: Tx) =>
  `SELECT t.id, t.is_source, t.component_id, l.code AS language, t.language_code,
     coalesce(t.plural_number, l.plural_number) AS plural_number, coalesce(t.plural_formula, l.plural_formula) AS plural_formula,
     coalesce(${tx.dialect.jsonText('c.settings', 'file_format')}, '') AS format,
     coalesce(${tx.dialect.jsonText('c.settings', 'source_language')}, 'en') AS source_language,
     coalesce(${tx.dialect.jsonText('c.settings', 'check_flags')}, '') AS component_flags,
     coalesce(${tx.dialect.jsonText('c.settings', 'enforced_checks')}, '[]') AS enforced,
     coalesce(${tx.dialect.jsonText('p.settings', 'check_flags')}, '') AS project_flags
   FROM translations t JOIN languages l ON l.id = t.language_id JOIN components c ON c.id = t.component_id
   JOIN projects p ON p.id = c.project_id`;

/** A string's copies in one language, its source, context and language the parameters (checks' `inconsistent`). */
const groupOfLanguage = `SELECT u.id, u.translation_id, u.source, u.target, u.state, u.flags, u.extra_flags, t.language_id, t.component_id,
    EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.name = '${INCONSISTENT}') AS flagged
  FROM units s JOIN translations t ON t.id = s.translation_id JOIN units u ON u.id = s.id
  WHERE s.source = ? AND s.context = ? AND t.is_source = 0 AND t.language_id = ?`;

const sql = preparedOnce((tx: Tx) => ({
  // one translation through `?` (SQLite reads a JSON parameter's rows at a cost a single edit notices)
  context: tx.prepare(`${checkingSelect(tx)} WHERE t.id = ?`),
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
  // units by id in one statement (a JSON array of ids): a batch of edits read at once
  unitsById: tx
    .prepare(`SELECT id, translation_id, source, target, state, flags, extra_flags, id_hash, timestamp FROM units WHERE id IN (${tx.dialect.idsOfJson})`)
    .safeIntegers(false),
  checksById: tx.prepare(`SELECT unit_id, name FROM checks WHERE unit_id IN (${tx.dialect.idsOfJson})`),
  stringKeysById: tx.prepare(
    `SELECT u.id, u.translation_id, u.source, u.context, t.language_id, t.is_source, t.component_id
     FROM units u JOIN translations t ON t.id = u.translation_id WHERE u.id IN (${tx.dialect.idsOfJson})`,
  ),
  stringsById: tx
    .prepare(`SELECT u.id, t.component_id, u.id_hash FROM units u JOIN translations t ON t.id = u.translation_id WHERE u.id IN (${tx.dialect.idsOfJson})`)
    .safeIntegers(true),
  translationsOf: tx.prepare('SELECT id FROM translations WHERE component_id = ? ORDER BY is_source').pluck(),
  dismiss: tx.prepare('UPDATE checks SET dismissed = ? WHERE unit_id = ? AND name = ?'),
  all: tx.prepare('SELECT name, dismissed FROM checks WHERE unit_id = ? ORDER BY name'),
  names: tx.prepare('SELECT name FROM checks WHERE unit_id = ? AND dismissed = 0 ORDER BY name').pluck(),
  counts: tx.prepare(
    `SELECT c.name, count(*) FILTER (WHERE c.dismissed = 0) AS active, count(*) FILTER (WHERE c.dismissed = 1) AS dismissed FROM checks c JOIN units u ON u.id = c.unit_id
     WHERE u.translation_id = ? GROUP BY c.name ORDER BY active DESC, c.name`,
  ),
  // each string's checks in the component's other translations (dismissed ones too, as Weblate counts them)
  relatedAll: tx
    .prepare(
      `SELECT o.id_hash, count(*) AS n FROM translations t JOIN units o ON o.translation_id = t.id JOIN checks k ON k.unit_id = o.id
       WHERE t.component_id = ? AND t.id <> ? GROUP BY o.id_hash`,
    )
    .safeIntegers(true),
  // the same for many strings at once (a JSON array of id_hash)
  relatedOf: tx
    .prepare(
      `SELECT o.id_hash, count(*) AS n FROM translations t JOIN units o ON o.translation_id = t.id AND o.id_hash IN (${tx.dialect.idsOfJson})
       JOIN checks k ON k.unit_id = o.id WHERE t.component_id = ? AND t.id <> ? GROUP BY o.id_hash`,
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
  sourceUnitsOf: tx
    .prepare(
      `SELECT id, source, target, state, flags, extra_flags, id_hash, timestamp FROM units WHERE translation_id = ? AND id_hash IN (${tx.dialect.idsOfJson})`,
    )
    .safeIntegers(true),
  sourceTranslation: tx.prepare('SELECT id FROM translations WHERE component_id = ? AND is_source = 1').pluck(),
  // inconsistent: a string's translations in one language across the project's components that propagate
  // a component's settings are JSON: read once per refresh (components), not once per unit row of a group
  // the traits of the components a refresh meets (every component's, once per component synced, grew with the site)
  componentTraits: tx.prepare(
    `SELECT c.id, c.project_id, coalesce(${tx.dialect.jsonFlag('c.settings', 'allow_translation_propagation')}, 1) AS propagates,
       coalesce(${tx.dialect.jsonText('c.settings', 'source_language')}, 'en') AS source_language FROM components c WHERE c.id IN (${tx.dialect.idsOfJson})`,
  ),
  // every language of one string at once: the (source, context) index finds them all, one language at a time
  // would read them all once per language; the components that take part are picked from componentTraits
  group: tx.prepare(
    `SELECT u.id, u.translation_id, u.source, u.target, u.state, u.flags, u.extra_flags, t.language_id, t.component_id,
       EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.name = '${INCONSISTENT}') AS flagged
     FROM units u JOIN translations t ON t.id = u.translation_id
     WHERE u.source = ? AND u.context = ? AND t.is_source = 0`,
  ),
  // one language of one string (the edits of one translation): the copies are picked by language in the index (s,
  // whose entries hold their translation: SQLite's units_string, PostgreSQL's units_string_copies), and only theirs
  // of the units' rows (u) are read; a string that index does not hold, by its source alone (groupOfLanguageLong)
  groupOfLanguage: tx.prepare(`${groupOfLanguage} AND ${tx.dialect.stringCopies.indexed('s')}`),
  groupOfLanguageLong: tx.prepare(groupOfLanguage),
  // one language of a project at once (the strings of a whole upload or automatic translation): the project's rows
  // of that language once, instead of every language's copies of each string through the (source, context) index
  groupsOfLanguage: tx.prepare(
    `SELECT u.id, u.translation_id, u.source, u.context, u.target, u.state, u.flags, u.extra_flags, t.language_id, t.component_id,
       EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.name = '${INCONSISTENT}') AS flagged
     FROM components c JOIN translations t ON t.component_id = c.id JOIN units u ON u.translation_id = t.id
     WHERE c.project_id = ? AND t.language_id = ? AND t.is_source = 0`,
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
  componentOf: tx.prepare(
    'SELECT project_id, (SELECT count(*) FROM components o WHERE o.project_id = c.project_id) AS components FROM components c WHERE c.id = ?',
  ),
  languageOf: tx.prepare('SELECT language_id FROM translations WHERE id = ? AND is_source = 0').pluck(),
  // the strings the components of a project have in a language, each once with its component, or -1 where several
  // have it (matched against a translation's in memory, checks/known-strings.ts: a probe per unit read every
  // language's copies of the string)
  languageStrings: tx.prepare(
    `SELECT o.source, o.context, CASE WHEN min(ot.component_id) = max(ot.component_id) THEN min(ot.component_id) ELSE -1 END AS component_id
     FROM units o JOIN translations ot ON ot.id = o.translation_id JOIN components oc ON oc.id = ot.component_id
     WHERE ot.language_id = ? AND ot.is_source = 0 AND oc.project_id = ? GROUP BY o.source, o.context`,
  ),
  unitStrings: tx.prepare('SELECT id, source, context FROM units WHERE translation_id = ?'),
  writeMark: tx.prepare(tx.dialect.writeMark.sql).pluck(),
  // several translations, components or strings at once (the units an edit fills): a statement for all of them
  contextsOf: tx.prepare(`${checkingSelect(tx)} WHERE t.id IN (${tx.dialect.idsOfJson})`),
  removeOf: tx.prepare(`DELETE FROM checks WHERE (unit_id, name) IN (${tx.dialect.rowsOfJson(CHECK_KEY)}) RETURNING unit_id`),
  insertOf: tx.prepare(`INSERT INTO checks (unit_id, name, dismissed) SELECT unit_id, name, 0 FROM (${tx.dialect.rowsOfJson(CHECK_KEY)}) AS r WHERE true
     ON CONFLICT DO NOTHING RETURNING unit_id`),
  sourceTranslationsOf: tx.prepare(`SELECT component_id, id FROM translations WHERE component_id IN (${tx.dialect.idsOfJson}) AND is_source = 1`),
  componentsTranslated: tx.prepare(
    `SELECT t.component_id, coalesce(sum(s.translated), 0) AS translated, coalesce(sum(s.total), 0) AS total
     FROM translation_stats s JOIN translations t ON t.id = s.translation_id WHERE t.component_id IN (${tx.dialect.idsOfJson}) GROUP BY t.component_id`,
  ),
  // read from the (translation or component, string) pairs outwards: two lists of ids left the planner to guess at
  // their product, and PostgreSQL walked every unit instead (half a second at 216k units)
  sourceUnitsOfMany: tx
    .prepare(
      `SELECT u.id, u.translation_id, u.source, u.target, u.state, u.flags, u.extra_flags, u.id_hash, u.timestamp
       FROM (${tx.dialect.rowsOfJson(STRING_OF)}) AS p JOIN units u ON u.translation_id = p.owner AND u.id_hash = p.id_hash`,
    )
    .safeIntegers(true),
  // the string's units are found by its source unit's source and context, one probe a translation of the component
  // in the index of copies by translation (SQLite's units_string, PostgreSQL's units_string_copies), which holds the
  // unit's id: by (translation, id_hash) PostgreSQL read each translation's unit row to learn its id (a page each at
  // 10 million units, 9 components × 41 translations: 103 ms an edit). id_hash is the hash of that source and context
  // (of the context alone in a monolingual component, whose units take the template's source); a string the index of
  // copies does not hold (too long for PostgreSQL's btree entry) is read by id_hash, in the second part of the union.
  // The strings come by their source translation (its row and the source unit by key: by component, PostgreSQL
  // hashed every translation to meet a list it guessed at 100), and the translations are listed before the copies
  // are probed (given the string alone, PostgreSQL read every copy of it in the index and looked up the translation of
  // each); CROSS JOIN keeps SQLite from building a temporary index on the copies to probe the checks
  relatedOfMany: tx
    .prepare(
      `WITH strings AS MATERIALIZED (
         SELECT st.component_id AS owner, p.id_hash, su.source, su.context, t.id AS translation_id FROM (${tx.dialect.rowsOfJson(STRING_OF)}) AS p
         JOIN translations st ON st.id = p.owner JOIN units su ON su.translation_id = p.owner AND su.id_hash = p.id_hash
         JOIN translations t ON t.component_id = st.component_id AND t.is_source = 0
       ), copies AS MATERIALIZED (
         SELECT s.owner, s.id_hash, o.id FROM strings s CROSS JOIN units o
         WHERE o.source = s.source AND o.context = s.context AND o.translation_id = s.translation_id AND ${tx.dialect.stringCopies.indexed('o')}
         UNION ALL
         SELECT s.owner, s.id_hash, o.id FROM strings s CROSS JOIN units o
         WHERE NOT (${tx.dialect.stringCopies.indexed('s')}) AND o.translation_id = s.translation_id AND o.id_hash = s.id_hash
       )
       SELECT c.owner AS component_id, c.id_hash, count(*) AS n FROM copies c CROSS JOIN checks k WHERE k.unit_id = c.id GROUP BY c.owner, c.id_hash`,
    )
    .safeIntegers(true),
  statesOfMany: tx
    .prepare(
      `SELECT p.owner AS component_id, p.id_hash, count(*) AS total, count(*) FILTER (WHERE o.state >= ${State.TRANSLATED}) AS translated
       FROM (${tx.dialect.rowsOfJson(STRING_OF)}) AS p JOIN translations t ON t.component_id = p.owner
       JOIN units o ON o.translation_id = t.id AND o.id_hash = p.id_hash GROUP BY p.owner, p.id_hash`,
    )
    .safeIntegers(true),
  addInconsistentOf: tx.prepare(
    `INSERT INTO checks (unit_id, name, dismissed) SELECT v.id, '${INCONSISTENT}', 0 FROM units v WHERE v.id IN (${tx.dialect.idsOfJson})
     ON CONFLICT DO NOTHING RETURNING unit_id`,
  ),
  removeInconsistentOf: tx.prepare(`DELETE FROM checks WHERE unit_id IN (${tx.dialect.idsOfJson}) AND name = '${INCONSISTENT}' RETURNING unit_id`),
}));

/** The checking facts of several translations by id (unknown ones left out). */
export async function checkingFactsOf(tx: Tx, translationIds: readonly number[]): Promise<Map<number, CheckingRow>> {
  if (translationIds.length === 0) return new Map();
  const { context, contextsOf } = sql(tx);
  const rows = (await (translationIds.length === 1 ? context.all(translationIds[0]) : contextsOf.all(JSON.stringify(translationIds)))) as (CheckingRow & {
    id: number;
  })[];
  return new Map(rows.map(({ id, ...r }) => [Number(id), r]));
}

/** The source translations of components (component id → translation id; components without one left out). */
export async function sourceTranslationsOf(tx: Tx, componentIds: readonly number[]): Promise<Map<number, number>> {
  const rows = (await sql(tx).sourceTranslationsOf.all(JSON.stringify(componentIds))) as { component_id: number; id: number }[];
  return new Map(rows.map((r) => [Number(r.component_id), Number(r.id)]));
}

/** componentTranslated of several components (a component without statistics counts 0 of 0). */
export async function componentsTranslated(tx: Tx, componentIds: readonly number[]): Promise<Map<number, { translated: number; total: number }>> {
  const rows = (await sql(tx).componentsTranslated.all(JSON.stringify(componentIds))) as { component_id: number; translated: number; total: number }[];
  return new Map(rows.map((r) => [Number(r.component_id), { translated: Number(r.translated), total: Number(r.total) }]));
}

/** The units of these strings (source translation id, id_hash), with their translation (64-bit integers as bigint). */
export async function sourceUnitRowsOf(
  tx: Tx,
  strings: Iterable<readonly [sourceId: number, idHash: bigint]>,
): Promise<(SourceUnitRow & { translation_id: bigint })[]> {
  return (await sql(tx).sourceUnitsOfMany.all(stringPairs(strings))) as (SourceUnitRow & { translation_id: bigint })[];
}

/** A string of a component as the keys of relatedChecksOfStrings and stringStatesOf. */
export const componentString = (componentId: number | bigint, idHash: bigint): string => `${componentId}:${idHash}`;

/**
 * relatedChecks of several strings (their source translation's id, id_hash) at once, by componentString of their
 * component (the strings' checks in their components' translations other than the source, dismissed ones too; none,
 * or no unit of the string in the source translation: absent).
 */
export async function relatedChecksOfStrings(tx: Tx, strings: Iterable<readonly [sourceId: number, idHash: bigint]>): Promise<Map<string, number>> {
  const rows = (await sql(tx).relatedOfMany.all(stringPairs(strings))) as { component_id: bigint; id_hash: bigint; n: bigint }[];
  return new Map(rows.map((r) => [componentString(r.component_id, r.id_hash), Number(r.n)]));
}

/** stringStates of several strings (component id, id_hash) at once, by componentString (none: absent). */
export async function stringStatesOf(
  tx: Tx,
  strings: Iterable<readonly [componentId: number, idHash: bigint]>,
): Promise<Map<string, { total: number; translated: number }>> {
  const rows = (await sql(tx).statesOfMany.all(stringPairs(strings))) as { component_id: bigint; id_hash: bigint; total: bigint; translated: bigint }[];
  return new Map(rows.map((r) => [componentString(r.component_id, r.id_hash), { total: Number(r.total), translated: Number(r.translated) }]));
}

/**
 * The check rows to delete and to insert so that each unit of `failing` has those checks (`stored`: what it has now);
 * `inconsistent` is left to its own refresh.
 */
function checkRowsToChange(
  failing: ReadonlyMap<number, readonly string[]>,
  stored: ReadonlyMap<number, readonly string[]>,
): { gone: [number, string][]; added: [number, string][] } {
  const gone: [number, string][] = [];
  const added: [number, string][] = [];
  for (const [id, names] of failing) {
    const existing = stored.get(id) ?? [];
    for (const e of existing) if (e !== INCONSISTENT && !names.includes(e)) gone.push([id, e]);
    for (const name of names) if (!existing.includes(name)) added.push([id, name]);
  }
  return { gone, added };
}

/**
 * storeChecks for several units at once (one delete and one insert): each unit's stored checks (`stored`, as
 * checksOfUnits reads them) made equal to its `failing`, dismissals and `inconsistent` kept. Returns the units whose
 * rows changed.
 */
export async function storeChecksOfUnits(
  tx: Tx,
  failing: ReadonlyMap<number, readonly string[]>,
  stored: ReadonlyMap<number, readonly string[]>,
): Promise<Set<number>> {
  const { gone, added } = checkRowsToChange(failing, stored);
  const s = sql(tx);
  const changed = new Set<number>();
  if (gone.length > 0) for (const r of (await s.removeOf.all(JSON.stringify(gone))) as { unit_id: number }[]) changed.add(Number(r.unit_id));
  if (added.length > 0) for (const r of (await s.insertOf.all(JSON.stringify(added))) as { unit_id: number }[]) changed.add(Number(r.unit_id));
  return changed;
}

/** Adds `inconsistent` to some units and removes it from others (a statement each); returns the units whose rows changed. */
export async function storeInconsistentOf(tx: Tx, add: readonly number[], remove: readonly number[]): Promise<Set<number>> {
  const s = sql(tx);
  const changed = new Set<number>();
  if (add.length > 0) for (const r of (await s.addInconsistentOf.all(JSON.stringify(add))) as { unit_id: number }[]) changed.add(Number(r.unit_id));
  if (remove.length > 0) for (const r of (await s.removeInconsistentOf.all(JSON.stringify(remove))) as { unit_id: number }[]) changed.add(Number(r.unit_id));
  return changed;
}

/** What the store keeps that decides a translation's checks (undefined for an unknown translation). */
export async function checkingFacts(tx: Tx, translationId: number): Promise<CheckingRow | undefined> {
  const row = (await sql(tx).context.get(translationId)) as (CheckingRow & { id: number }) | undefined;
  if (!row) return undefined;
  const { id: _id, ...facts } = row;
  return facts;
}

/** What a component's settings say about its checks (the translation's part of CheckingRow left out). */
export type ComponentCheckingFacts = Omit<CheckingRow, 'is_source' | 'language' | 'language_code' | 'plural_number' | 'plural_formula'>;

/** The checking facts of a component (undefined for an unknown one). */
export async function componentCheckingFacts(tx: Tx, componentId: number): Promise<ComponentCheckingFacts | undefined> {
  return (await sql(tx).componentContext.get(componentId)) as ComponentCheckingFacts | undefined;
}

/** A unit as its checks read it. */
export interface CheckedUnitRow {
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

export async function checkedUnit(tx: Tx, unitId: number): Promise<CheckedUnitRow | undefined> {
  return (await sql(tx).unit.get(unitId)) as CheckedUnitRow | undefined;
}

/** Units by id as their checks read them (unknown ids left out; in no particular order). */
export async function checkedUnits(tx: Tx, unitIds: readonly number[]): Promise<CheckedUnitRow[]> {
  return (await sql(tx).unitsById.all(JSON.stringify(unitIds))) as CheckedUnitRow[];
}

/** The stored check names of units by id (dismissed ones and `inconsistent` too). */
export async function checksOfUnits(tx: Tx, unitIds: readonly number[]): Promise<Map<number, string[]>> {
  return namesByUnit((await sql(tx).checksById.all(JSON.stringify(unitIds))) as { unit_id: number; name: string }[]);
}

function namesByUnit(rows: readonly { unit_id: number | bigint; name: string }[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const names = out.get(Number(r.unit_id));
    if (names) names.push(r.name);
    else out.set(Number(r.unit_id), [r.name]);
  }
  return out;
}

/** The ids of a translation's units. */
export async function unitIdsOf(tx: Tx, translationId: number): Promise<number[]> {
  return (await sql(tx).unitsOf.all(translationId)) as number[];
}

/** The ids of a component's translations, the source last. */
export async function translationIdsOf(tx: Tx, componentId: number): Promise<number[]> {
  return (await sql(tx).translationsOf.all(componentId)) as number[];
}

/** The id of a component's source translation, or undefined. */
export async function sourceTranslationOf(tx: Tx, componentId: number): Promise<number | undefined> {
  return (await sql(tx).sourceTranslation.get(componentId)) as number | undefined;
}

/** Translated and total strings of a component, from its statistics. */
export async function componentTranslated(tx: Tx, componentId: number): Promise<{ translated: number; total: number }> {
  return (await sql(tx).componentTranslated.get(componentId)) as { translated: number; total: number };
}

/** A unit of a source translation as the source checks read it (64-bit integers as bigint). */
export interface SourceUnitRow {
  id: bigint;
  source: string;
  target: string;
  state: bigint;
  flags: string;
  extra_flags: string;
  id_hash: bigint;
  timestamp: string;
}

/** The units of a source translation; with `hashes`, those strings only. */
export async function sourceUnitRows(tx: Tx, sourceId: number, hashes?: Iterable<bigint>): Promise<SourceUnitRow[]> {
  const s = sql(tx);
  if (!hashes) return (await s.sourceUnits.all(sourceId)) as SourceUnitRow[];
  return (await s.sourceUnitsOf.all(sourceId, hashList(hashes))) as SourceUnitRow[];
}

/** 64-bit hashes as a JSON array for idsOfJson (bigints written out exactly). */
function hashList(hashes: Iterable<bigint>): string {
  return `[${[...hashes].join(',')}]`;
}

/** Per string (id_hash), the checks of its units in the component's translations other than `sourceId` (dismissed ones too). */
export async function relatedChecksOfComponent(tx: Tx, componentId: number, sourceId: number): Promise<Map<bigint, number>> {
  const out = new Map<bigint, number>();
  for (const r of (await sql(tx).relatedAll.all(componentId, sourceId)) as { id_hash: bigint; n: bigint }[]) out.set(r.id_hash, Number(r.n));
  return out;
}

/** Per string (id_hash) of `hashes`, the checks of its units in the component's translations other than `sourceId` (dismissed ones too). */
export async function relatedChecksOf(tx: Tx, hashes: Iterable<bigint>, componentId: number, sourceId: number): Promise<Map<bigint, number>> {
  const out = new Map<bigint, number>();
  for (const r of (await sql(tx).relatedOf.all(hashList(hashes), componentId, sourceId)) as { id_hash: bigint; n: bigint }[]) out.set(r.id_hash, Number(r.n));
  return out;
}

/** How many units of a string the component has, and how many are translated. */
export async function stringStates(tx: Tx, idHash: bigint, componentId: number): Promise<{ total: number; translated: number }> {
  return (await sql(tx).states.get(idHash, componentId)) as { total: number; translated: number };
}

/** What `inconsistent` needs of a component: its project, whether it propagates translations, its source language. */
export interface ComponentTraits {
  project_id: number;
  propagates: number;
  source_language: string;
}

/** The traits of components by id (unknown ids left out). */
export async function componentTraits(tx: Tx, ids: readonly number[]): Promise<Map<number, ComponentTraits>> {
  return new Map(((await sql(tx).componentTraits.all(JSON.stringify(ids))) as (ComponentTraits & { id: number })[]).map((c) => [c.id, c]));
}

/** A unit's string: its source and context, its translation's language and component. */
export interface StringKeyRow {
  id: number;
  translation_id: number;
  source: string;
  context: string;
  language_id: number;
  is_source: number;
  component_id: number;
}

/** The strings of units by id (unknown ids left out; in no particular order). */
export async function stringKeysOf(tx: Tx, unitIds: readonly number[]): Promise<StringKeyRow[]> {
  return (await sql(tx).stringKeysById.all(JSON.stringify(unitIds))) as StringKeyRow[];
}

/** A unit of a string in any component, as `inconsistent` compares it. */
export interface StringUnitRow {
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
}

/** Every translated (non-source) unit of a string, in every language and component (or in `languageId` only). */
export async function stringUnits(tx: Tx, source: string, context: string, languageId?: number): Promise<StringUnitRow[]> {
  const s = sql(tx);
  if (languageId === undefined) return (await s.group.all(source, context)) as StringUnitRow[];
  const ofLanguage = tx.dialect.stringCopies.holds(source, context) ? s.groupOfLanguage : s.groupOfLanguageLong;
  return (await ofLanguage.all(source, context, languageId)) as StringUnitRow[];
}

/** Every translated (non-source) unit of a project in one language, by string (`context\0source`). */
export async function stringUnitsOfLanguage(tx: Tx, projectId: number, languageId: number): Promise<Map<string, StringUnitRow[]>> {
  const out = new Map<string, StringUnitRow[]>();
  for (const r of (await sql(tx).groupsOfLanguage.all(projectId, languageId)) as (StringUnitRow & { context: string })[]) {
    const key = `${r.context}\0${r.source}`;
    const list = out.get(key);
    if (list) list.push(r);
    else out.set(key, [r]);
  }
  return out;
}

/** The stored check names of every unit of a translation (dismissed ones too), by unit. */
export async function checksOfTranslation(tx: Tx, translationId: number): Promise<Map<number, string[]>> {
  return namesByUnit((await sql(tx).existingOfTranslation.all(translationId)) as { unit_id: number; name: string }[]);
}

/** Adds or removes a unit's `inconsistent`; true when that changed a row. */
export async function storeInconsistent(tx: Tx, unitId: number, failing: boolean): Promise<boolean> {
  const s = sql(tx);
  return (failing ? await s.addInconsistent.run(unitId) : await s.removeInconsistent.run(unitId)).changes > 0;
}

/** The units flagged `inconsistent` in a project. */
export async function inconsistentOfProject(tx: Tx, projectId: number): Promise<number[]> {
  return (await sql(tx).flaggedInProject.all(projectId)) as number[];
}

/** The units flagged `inconsistent` in a component. */
export async function inconsistentOfComponent(tx: Tx, componentId: number): Promise<number[]> {
  return (await sql(tx).flaggedInComponent.all(componentId)) as number[];
}

/** Units' components and id_hash by id (64-bit integers as bigint; unknown ids left out). */
export async function stringsOfUnits(tx: Tx, unitIds: readonly number[]): Promise<{ id: bigint; component_id: bigint; id_hash: bigint }[]> {
  return (await sql(tx).stringsById.all(JSON.stringify(unitIds))) as { id: bigint; component_id: bigint; id_hash: bigint }[];
}

/** A component's project and how many components that project has. */
export async function componentProject(tx: Tx, componentId: number): Promise<{ project_id: number; components: number } | undefined> {
  return (await sql(tx).componentOf.get(componentId)) as { project_id: number; components: number } | undefined;
}

/** The language of a translation that is not a source translation. */
export async function translationLanguage(tx: Tx, translationId: number): Promise<number | undefined> {
  return (await sql(tx).languageOf.get(translationId)) as number | undefined;
}

/** The strings the components of a project have in a language: each once, with its component, or -1 where several have it. */
export async function languageStrings(tx: Tx, languageId: number, projectId: number): Promise<{ component_id: number; source: string; context: string }[]> {
  return (await sql(tx).languageStrings.all(languageId, projectId)) as { component_id: number; source: string; context: string }[];
}

/**
 * The store's committed writes as this writing transaction sees them (Dialect.writeMark), and the mark the next
 * writing transaction reads first unless another wrote in between.
 */
export async function writeMark(tx: Tx): Promise<{ now: string; next: string }> {
  const now = String(await sql(tx).writeMark.get());
  return { now, next: tx.dialect.writeMark.next(now) };
}

/** Every unit's string (source, context) of a translation. */
export async function unitStrings(tx: Tx, translationId: number): Promise<{ id: number; source: string; context: string }[]> {
  return (await sql(tx).unitStrings.all(translationId)) as { id: number; source: string; context: string }[];
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
 * storeChecks for many units of one translation at once, in bulk where a statement costs a round trip (one read, one
 * delete and one insert instead of statements per unit); `failing` holds every unit to make equal, `inconsistent` is kept as storeChecks keeps it.
 */
export async function storeChecksOfTranslation(tx: Tx, translationId: number, failing: ReadonlyMap<number, readonly string[]>): Promise<void> {
  const { bulk } = tx.dialect;
  if (!bulk) {
    for (const [id, names] of failing) await storeChecks(tx, id, names);
    return;
  }
  const stored = await checksOfTranslation(tx, translationId);
  const { gone, added } = checkRowsToChange(failing, stored);
  await bulk.delete(tx, 'checks', CHECK_KEY, gone);
  await storeFreshChecks(tx, added);
}

/** Marks one failing check of a unit dismissed (or not); false when the unit has no such check. */
export async function setCheckDismissed(tx: Tx, unitId: number, name: string, dismissed: boolean): Promise<boolean> {
  return (await sql(tx).dismiss.run(dismissed ? 1 : 0, unitId, name)).changes > 0;
}

/** The failing checks of a unit, dismissed or not, by name. */
export async function unitChecks(tx: Tx, unitId: number): Promise<{ name: string; dismissed: boolean }[]> {
  return ((await sql(tx).all.all(unitId)) as { name: string; dismissed: number }[]).map((r) => ({ name: r.name, dismissed: r.dismissed === 1 }));
}

/** The unit's active (not dismissed) failing checks. */
export async function activeChecks(tx: Tx, unitId: number): Promise<string[]> {
  return (await sql(tx).names.all(unitId)) as string[];
}

/** Per check, how many strings of a translation fail it (active) and how many dismissed it. */
export async function checkCounts(tx: Tx, translationId: number): Promise<{ name: string; active: number; dismissed: number }[]> {
  return (await sql(tx).counts.all(translationId)) as { name: string; active: number; dismissed: number }[];
}
