// The units table: its row, what a sync's plan inserts, updates and removes (untouched rows and their ids stay), and unit writes.

import { Action } from '../domain/actions.js';
import type { ChangeInput } from './changes.repo.js';
import { recordChangeRow, recordChanges } from './changes.repo.js';
import type { Tx } from './db.js';
import type { BulkColumn } from './db.js';
import { leavingLoadToFill } from './pg/search-fill.js';
import { type PendingRemoval, addPendingRemoval, deletePendingRemoval, deletePendingRemovalById } from './removals.repo.js';
import type { UnitRow } from './rows.js';
import { leaveUnitsToFill } from './search-fill.repo.js';
import { preparedOnce, statementCache } from './statements.js';
import { refreshStats } from './stats.repo.js';

export type { UnitRow } from './rows.js';

/** The stored fields sync compares against a parsed unit. */
export type StoredUnit = Pick<
  UnitRow,
  | 'id'
  | 'id_hash'
  | 'content_hash'
  | 'context'
  | 'source'
  | 'target'
  | 'previous_source'
  | 'location'
  | 'note'
  | 'flags'
  | 'extra_flags'
  | 'explanation'
  | 'source_explanation'
  | 'state'
  | 'position'
  | 'num_words'
  | 'pending'
>;

/** A unit as uploads, deletions and merges look at it. */
export type UnitBrief = Pick<UnitRow, 'id' | 'translation_id' | 'id_hash' | 'context' | 'source' | 'target' | 'state' | 'pending'>;

const COLUMNS =
  'id, id_hash, content_hash, context, source, target, previous_source, location, note, flags, extra_flags, explanation, source_explanation, state, position, num_words, pending';
const BRIEF_COLUMNS = 'u.id, u.translation_id, CAST(u.id_hash AS TEXT) AS id_hash, u.context, u.source, u.target, u.state, u.pending';

/** A unit's part in its string's new source (setStringSources): the source, its state and previous source (null: as they are), pending or not. */
const STRING_SOURCE: readonly BulkColumn[] = [
  ['id', 'bigint'],
  ['source', 'text'],
  ['content_hash', 'bigint'],
  ['num_words', 'bigint'],
  ['num_chars', 'bigint'],
  ['state', 'bigint'],
  ['previous_source', 'text'],
  ['mark', 'bigint'],
];

const sql = preparedOnce((tx: Tx) => ({
  stored: tx.prepare(`SELECT ${COLUMNS} FROM units WHERE translation_id = ?`).safeIntegers(true),
  // positional parameters: binding by name costs a property lookup per column on the hottest path
  insertParsed: tx.prepare(
    tx.dialect.returningId(
      `INSERT INTO units (translation_id, id_hash, content_hash, context, source, target, previous_source, location, note, flags,
       explanation, source_explanation, state, original_state, position, num_words, num_chars, timestamp)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  ),
  updateParsed: tx.prepare(
    `UPDATE units SET content_hash = @content_hash, context = @context, source = @source, target = @target,
       previous_source = @previous_source, location = @location, note = @note, flags = @flags, explanation = @explanation,
       source_explanation = @source_explanation, state = @state, original_state = @state, position = @position,
       num_words = @num_words, num_chars = @num_chars, timestamp = @timestamp,
       automatically_translated = CASE WHEN target = @target THEN automatically_translated ELSE 0 END
     WHERE id = @id`,
  ),
  remove: tx.prepare('DELETE FROM units WHERE id = ?'),
  anyUnit: tx.prepare('SELECT 1 FROM units LIMIT 1').pluck(),
  removeByHash: tx.prepare('DELETE FROM units WHERE translation_id = ? AND id_hash = ?'),
  pendingAdded: tx
    .prepare(
      `SELECT u.id FROM units u WHERE u.translation_id = ? AND u.pending = 1
       AND EXISTS (SELECT 1 FROM changes c WHERE c.unit_id = u.id AND c.action = ${Action.NEW_UNIT})`,
    )
    .pluck(),
  unitsOf: tx.prepare(`SELECT ${BRIEF_COLUMNS} FROM units u WHERE u.translation_id = ? ORDER BY u.position`),
  unitsByHash: tx.prepare(
    `SELECT ${BRIEF_COLUMNS} FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.component_id = ? AND u.id_hash = ? ORDER BY t.id`,
  ),
  unitComponent: tx.prepare(`SELECT ${BRIEF_COLUMNS}, t.component_id FROM units u JOIN translations t ON t.id = u.translation_id WHERE u.id = ?`),
  hasHash: tx.prepare('SELECT 1 FROM units WHERE translation_id = ? AND id_hash = ?').pluck(),
  before: tx.prepare(
    `SELECT ${BRIEF_COLUMNS}, u.position FROM units u WHERE u.translation_id = ? AND u.position < ? ORDER BY u.position DESC, u.id DESC LIMIT ?`,
  ),
  after: tx.prepare(`SELECT ${BRIEF_COLUMNS}, u.position FROM units u WHERE u.translation_id = ? AND u.position > ? ORDER BY u.position, u.id LIMIT ?`),
  statement: statementCache(tx),
  setExtraFlags: tx.prepare('UPDATE units SET extra_flags = ? WHERE id = ?'),
  sourceStrings: tx.prepare(
    `SELECT u.id AS of_id, s.id, s.translation_id, st.component_id, c.project_id, st.language_id, CAST(s.id_hash AS TEXT) AS id_hash,
       s.source, s.extra_flags
     FROM units u JOIN translations t ON t.id = u.translation_id
     JOIN translations st ON st.component_id = t.component_id AND st.is_source = 1
     JOIN units s ON s.translation_id = st.id AND s.id_hash = u.id_hash
     JOIN components c ON c.id = st.component_id
     WHERE u.id IN (${tx.dialect.idsOfJson})`,
  ),
  maxPosition: tx.prepare('SELECT coalesce(max(position), 0) FROM units WHERE translation_id = ?').pluck(),
  pendingTexts: tx.prepare('SELECT CAST(id_hash AS TEXT) AS id_hash, target FROM units WHERE translation_id = ? AND pending = 1'),
  // strings' units in every translation of their component, read from one unit of each (its id_hash, its component)
  stringUnits: tx.prepare(
    `SELECT e.id AS of_id, u.id, u.translation_id, t.language_id, CAST(u.id_hash AS TEXT) AS id_hash, u.context, u.target, u.state,
       u.previous_source, u.pending
     FROM units e JOIN translations et ON et.id = e.translation_id
     JOIN translations t ON t.component_id = et.component_id JOIN units u ON u.translation_id = t.id AND u.id_hash = e.id_hash
     WHERE e.id IN (${tx.dialect.idsOfJson}) ORDER BY e.id, t.id`,
  ),
  templateTranslation: tx.prepare(
    `SELECT t.component_id, c.project_id, coalesce(${tx.dialect.jsonText('c.settings', 'file_format')}, '') AS file_format
     FROM translations t JOIN components c ON c.id = t.component_id
     WHERE t.id = ? AND t.is_source = 1 AND coalesce(${tx.dialect.jsonText('c.settings', 'template')}, '') <> ''`,
  ),
  targetsOf: tx.prepare(`SELECT id, target FROM units WHERE id IN (${tx.dialect.idsOfJson})`),
  setStringSources: tx.prepare(
    `UPDATE units SET source = r.source, content_hash = r.content_hash, num_words = r.num_words, num_chars = r.num_chars,
       state = coalesce(r.state, units.state),
       original_state = coalesce(r.state, units.original_state), previous_source = coalesce(r.previous_source, units.previous_source),
       pending = CASE WHEN r.mark = 1 THEN 1 ELSE units.pending END,
       pending_author_id = CASE WHEN r.mark = 1 AND units.pending = 0 THEN ? ELSE units.pending_author_id END
     FROM (${tx.dialect.rowsOfJson(STRING_SOURCE)}) AS r WHERE units.id = r.id`,
  ),
  insertNew: tx.prepare(
    tx.dialect.returningId(
      `INSERT INTO units (translation_id, id_hash, content_hash, context, source, target, state, original_state, position,
       num_words, num_chars, pending, pending_author_id, timestamp)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  ),
  sourceStillUsed: tx
    .prepare(
      `SELECT 1 FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE t.component_id = ? AND t.is_source = 0 AND u.id_hash = ? LIMIT 1`,
    )
    .pluck(),
  // the fileless source unit of a bilingual component, once no translation of it holds the string
  orphanSource: tx.prepare(
    `SELECT u.id, u.translation_id FROM units u JOIN translations s ON s.id = u.translation_id
     JOIN translations t ON t.component_id = s.component_id AND t.id = ?
     WHERE s.is_source = 1 AND s.filename = '' AND u.id_hash = ?
       AND NOT EXISTS (SELECT 1 FROM units o JOIN translations ot ON ot.id = o.translation_id
                       WHERE ot.component_id = s.component_id AND ot.is_source = 0 AND o.id_hash = u.id_hash)`,
  ),
}));

type RawBrief = Omit<UnitBrief, 'id_hash'> & { id_hash: string };
const brief = (r: RawBrief): UnitBrief => ({ ...r, id_hash: BigInt(r.id_hash) });

/** The stored units of a translation keyed by id_hash. */
export async function storedUnits(tx: Tx, translationId: number): Promise<Map<bigint, StoredUnit>> {
  const rows = (await sql(tx).stored.all(translationId)) as Record<string, unknown>[];
  const out = new Map<bigint, StoredUnit>();
  for (const r of rows) {
    out.set(r.id_hash as bigint, {
      ...(r as unknown as StoredUnit),
      id: Number(r.id),
      state: Number(r.state),
      position: Number(r.position),
      num_words: Number(r.num_words),
      pending: Number(r.pending),
    });
  }
  return out;
}

/** What a unit row holds for a parsed unit (targets already decided): what a sync inserts or updates. */
export interface UnitValues {
  id_hash: bigint;
  content_hash: bigint;
  context: string;
  source: string;
  target: string;
  previous_source: string;
  location: string;
  note: string;
  flags: string;
  explanation: string;
  source_explanation: string;
  state: number;
  position: number;
  num_words: number;
  num_chars: number;
}

/** The columns insertParsed writes, for PostgreSQL's bulk insert (the same values in the same order). */
const PARSED_COLUMNS: readonly BulkColumn[] = [
  ['translation_id', 'bigint'],
  ['id_hash', 'bigint'],
  ['content_hash', 'bigint'],
  ['context', 'text'],
  ['source', 'text'],
  ['target', 'text'],
  ['previous_source', 'text'],
  ['location', 'text'],
  ['note', 'text'],
  ['flags', 'text'],
  ['explanation', 'text'],
  ['source_explanation', 'text'],
  ['state', 'bigint'],
  ['original_state', 'bigint'],
  ['position', 'bigint'],
  ['num_words', 'bigint'],
  ['num_chars', 'bigint'],
  ['timestamp', 'text'],
];

const parsedRow = (translationId: number, v: UnitValues, timestamp: string): unknown[] => [
  translationId,
  v.id_hash,
  v.content_hash,
  v.context,
  v.source,
  v.target,
  v.previous_source,
  v.location,
  v.note,
  v.flags,
  v.explanation,
  v.source_explanation,
  v.state,
  v.state,
  v.position,
  v.num_words,
  v.num_chars,
  timestamp,
];

/**
 * Inserts units in a few statements (PostgreSQL: a round trip per row is what a sync of thousands of units would wait
 * on); returns their ids in the order of `values` (matched by id_hash, unique in a translation).
 */
async function insertParsedMany(tx: Tx, translationId: number, values: readonly UnitValues[], timestamp: string): Promise<number[]> {
  const rows = values.map((v) => parsedRow(translationId, v, timestamp));
  const ids = new Map<bigint, number>();
  for (const r of await tx.dialect.bulk!.insert(tx, 'units', PARSED_COLUMNS, rows, 'RETURNING id, id_hash')) ids.set(r.id_hash as bigint, Number(r.id));
  return values.map((v) => {
    const id = ids.get(v.id_hash);
    if (id === undefined) throw new Error(`the insert of unit ${v.id_hash} returned no id`);
    return id;
  });
}

/**
 * Inserts a sync's new units of a translation (SQLite: a statement each; PostgreSQL: a few bulk statements, a round
 * trip per row being what a sync of thousands of units would wait on); returns their ids in the order of `values`.
 */
export async function insertParsedUnits(tx: Tx, translationId: number, values: readonly UnitValues[], timestamp: string): Promise<number[]> {
  if (values.length === 0) return [];
  if (tx.dialect.bulk) return await insertParsedMany(tx, translationId, values, timestamp);
  const { insertParsed } = sql(tx);
  const ids: number[] = [];
  // the same columns, in the same order, as the bulk insert's (parsedRow)
  for (const v of values) ids.push(Number((await insertParsed.run(...parsedRow(translationId, v, timestamp))).lastInsertRowid));
  return ids;
}

/**
 * Units a first load inserts from which building the units' indexes after the rows pays for dropping them: inserting
 * KeePassXC's 70k units takes 15–20 % less CPU that way (BENCHMARKS.md, "The store stage of a cold sync"); a few
 * hundred units gain nothing worth a schema change.
 */
const DEFERRED_INDEX_UNITS = 5000;

/**
 * Whether a sync's unit writes (inserting `inserts` units) are a first load: many units into a store that holds none
 * yet. Such a load builds the units' indexes after its rows (withIndexesBuiltAfter) and, once committed, leaves the
 * tables it filled to the engine's upkeep (Store.settleLoad: PostgreSQL's statistics and visibility map).
 * @example const first = await isFirstLoad(tx, 70_000)
 */
export async function isFirstLoad(tx: Tx, inserts: number): Promise<boolean> {
  return inserts >= DEFERRED_INDEX_UNITS && (await sql(tx).anyUnit.get()) === undefined;
}

/**
 * Runs a sync's unit writes. When they are a first load (`firstLoad`, isFirstLoad) the units' secondary indexes, and
 * the triggers that feed the search's index, are dropped first and built after the rows: one sorted build instead of
 * an insertion per row into each. The search's index itself is not filled there: its units are left to the fill that
 * runs once the load is committed (search-fill.repo.ts; the search meanwhile reads those units). All in the caller's transaction: a load cut short (an error, a killed process)
 * rolls back to the indexes and rows as they were, and the next sync loads again from the start. Where the dialect
 * defers none (PostgreSQL), `write` runs with the indexes and triggers as they are, its units left to the search
 * table's fill by their id range (pg/search-fill.ts); where the writes are no first load, as they are.
 * @example await withIndexesBuiltAfter(tx, await isFirstLoad(tx, 70_000), () => insertEverything(tx))
 */
export async function withIndexesBuiltAfter<T>(tx: Tx, firstLoad: boolean, write: () => Promise<T>): Promise<T> {
  if (!firstLoad) return await write();
  const listing = tx.dialect.deferrableIndexes;
  // PostgreSQL: its indexes and triggers stay; the units are left to the search table's fill by their id range
  if (listing === undefined) return await leavingLoadToFill(tx, write);
  const built = (await tx.prepare(listing).all('units')) as { name: string; type: 'index' | 'trigger'; sql: string }[];
  for (const b of built) await tx.prepare(`DROP ${b.type.toUpperCase()} "${b.name.replace(/"/g, '""')}"`).run();
  const result = await write();
  for (const b of built) if (b.type === 'index') await tx.prepare(b.sql).run();
  // what the search index's triggers would have written a row at a time is left to the fill once committed (the
  // store's fillSearchIndex, in short transactions): the strings are visible without waiting for it
  if (built.some((b) => b.type === 'trigger')) await leaveUnitsToFill(tx);
  for (const b of built) if (b.type === 'trigger') await tx.prepare(b.sql).run();
  return result;
}

/** Writes a sync's new values of a unit (its original state follows). */
export async function updateParsedUnit(tx: Tx, unitId: number, values: UnitValues, timestamp: string): Promise<void> {
  await sql(tx).updateParsed.run({ ...values, id: unitId, timestamp });
}

/** The ids of a translation's pending units that were added in tms (a NEW_UNIT change): not in the file until their commit. */
export async function pendingAddedInTms(tx: Tx, translationId: number): Promise<number[]> {
  return (await sql(tx).pendingAdded.all(translationId)) as number[];
}

/** Every unit of a translation, in position order. */
export async function translationUnits(tx: Tx, translationId: number): Promise<UnitBrief[]> {
  return ((await sql(tx).unitsOf.all(translationId)) as RawBrief[]).map(brief);
}

/** A unit with its component id, or undefined. */
export async function findUnitBrief(tx: Tx, unitId: number): Promise<(UnitBrief & { component_id: number }) | undefined> {
  const row = (await sql(tx).unitComponent.get(unitId)) as (RawBrief & { component_id: number }) | undefined;
  return row ? { ...brief(row), component_id: row.component_id } : undefined;
}

/** The units of a string in every translation of a component (the same id_hash), by translation. */
export async function componentUnitsByHash(tx: Tx, componentId: number, idHash: bigint): Promise<UnitBrief[]> {
  return ((await sql(tx).unitsByHash.all(componentId, idHash)) as RawBrief[]).map(brief);
}

/** A unit of the file with its position (the nearby strings). */
export type PositionedUnit = UnitBrief & { position: number };

/**
 * The `around` units before and after a position in a translation, in file order (Weblate's "Nearby strings").
 * @example await nearbyUnits(tx, 7, 120, 5) // up to 5 units before position 120 and 5 after it
 */
export async function nearbyUnits(
  tx: Tx,
  translationId: number,
  position: number,
  around: number,
): Promise<{ before: PositionedUnit[]; after: PositionedUnit[] }> {
  const s = sql(tx);
  const read = async (statement: typeof s.before) =>
    ((await statement.all(translationId, position, around)) as (RawBrief & { position: number })[]).map((r) => ({ ...brief(r), position: r.position }));
  return { before: (await read(s.before)).reverse(), after: await read(s.after) };
}

/**
 * The units of one string (its id_hash: source and context, or key) in these translations, in their order: the other
 * occurrences of a string across a project's components (Weblate's `Unit.objects.same`). One point lookup per
 * translation on the (translation_id, id_hash) key, whatever the number of strings with that text.
 * @example await unitsByHashIn(tx, [12, 40], unit.id_hash)
 */
export async function unitsByHashIn(tx: Tx, translationIds: readonly number[], idHash: bigint): Promise<UnitBrief[]> {
  const out: UnitBrief[] = [];
  for (let i = 0; i < translationIds.length; i += 500) {
    const ids = translationIds.slice(i, i + 500);
    const text = `SELECT ${BRIEF_COLUMNS} FROM units u WHERE u.id_hash = ? AND u.translation_id IN (${ids.map(() => '?').join(', ')})`;
    const rows = (await sql(tx)
      .statement(text)
      .all(idHash, ...ids)) as RawBrief[];
    const order = new Map(ids.map((id, n) => [id, n]));
    out.push(...rows.map(brief).sort((a, b) => order.get(a.translation_id)! - order.get(b.translation_id)!));
  }
  return out;
}

/** A source string (its unit in the component's source translation) with where it is and its flags kept in tms. */
export interface SourceString {
  id: number;
  translation_id: number;
  component_id: number;
  project_id: number;
  language_id: number;
  id_hash: bigint;
  source: string;
  extra_flags: string;
}

/** The source strings of units, by unit id (a source unit is its own); one read for any number of units. */
export async function sourceStringsOf(tx: Tx, unitIds: readonly number[]): Promise<Map<number, SourceString>> {
  const out = new Map<number, SourceString>();
  if (unitIds.length === 0) return out;
  const rows = (await sql(tx).sourceStrings.all(JSON.stringify(unitIds))) as (Omit<SourceString, 'id_hash'> & { of_id: number; id_hash: string })[];
  for (const { of_id, ...r } of rows) out.set(Number(of_id), { ...r, id_hash: BigInt(r.id_hash) });
  return out;
}

/** Sets the flags kept in tms (`extra_flags`) of units by id (their checks are the caller's to run again). */
export async function setExtraFlags(tx: Tx, updates: readonly { id: number; extraFlags: string }[]): Promise<void> {
  const { setExtraFlags } = sql(tx);
  for (const u of updates) await setExtraFlags.run(u.extraFlags, u.id);
}

/** The texts of a translation's pending units (edited in tms, not committed yet) by id_hash. */
export async function pendingTexts(tx: Tx, translationId: number): Promise<Map<bigint, string>> {
  const rows = (await sql(tx).pendingTexts.all(translationId)) as { id_hash: string; target: string }[];
  return new Map(rows.map((r) => [BigInt(r.id_hash), r.target]));
}

/** A string's unit in one translation of its component, as a change of the string's source reads it (`of_id`: the unit it was read from). */
export type StringUnit = Pick<UnitRow, 'id' | 'translation_id' | 'id_hash' | 'context' | 'target' | 'state' | 'previous_source' | 'pending'> & {
  of_id: number;
  language_id: number;
};

/** The units of these units' strings (their id_hash) in every translation of their component, each unit's own among them, by unit then translation. */
export async function stringUnitsOf(tx: Tx, unitIds: readonly number[]): Promise<StringUnit[]> {
  if (unitIds.length === 0) return [];
  const rows = (await sql(tx).stringUnits.all(JSON.stringify(unitIds))) as (Omit<StringUnit, 'id_hash'> & { id_hash: string })[];
  return rows.map((r) => ({ ...r, of_id: Number(r.of_id), id_hash: BigInt(r.id_hash) }));
}

/** The component (its project, file format) whose monolingual template translation `translationId` is, or undefined. */
export async function templateTranslationOf(
  tx: Tx,
  translationId: number,
): Promise<{ component_id: number; project_id: number; file_format: string } | undefined> {
  return (await sql(tx).templateTranslation.get(translationId)) as { component_id: number; project_id: number; file_format: string } | undefined;
}

/** The targets of units by id. */
export async function unitTargetsOf(tx: Tx, unitIds: readonly number[]): Promise<Pick<UnitRow, 'id' | 'target'>[]> {
  if (unitIds.length === 0) return [];
  return ((await sql(tx).targetsOf.all(JSON.stringify(unitIds))) as Pick<UnitRow, 'id' | 'target'>[]).map((r) => ({ ...r, id: Number(r.id) }));
}

/** What a string's unit becomes with its new source: its state and previous source (null: as they are), `mark`ed pending or not. */
export interface StringSourceUpdate {
  id: number;
  source: { text: string; contentHash: bigint; numWords: number; numChars: number };
  state: number | null;
  previousSource: string | null;
  mark: boolean;
}

/**
 * Gives strings' units their new source (its content hash, words and characters with it) and each its own state and
 * previous source, in one statement; a unit `mark`ed becomes pending, by `authorId` unless it was already.
 */
export async function setStringSources(tx: Tx, units: readonly StringSourceUpdate[], authorId: number | null): Promise<void> {
  if (units.length === 0) return;
  // written out by hand: a 64-bit content hash is exact as a JSON number only so
  const rows = units.map(
    (u) =>
      `[${u.id},${JSON.stringify(u.source.text)},${u.source.contentHash},${u.source.numWords},${u.source.numChars},${u.state ?? 'null'},${
        u.previousSource === null ? 'null' : JSON.stringify(u.previousSource)
      },${u.mark ? 1 : 0}]`,
  );
  await sql(tx).setStringSources.run(authorId, `[${rows.join(',')}]`);
}

/** Whether a translation has a unit with this id_hash. */
export async function hasUnitHash(tx: Tx, translationId: number, idHash: bigint): Promise<boolean> {
  return (await sql(tx).hasHash.get(translationId, idHash)) !== undefined;
}

/** The highest position in a translation (0 when it has no units). */
export async function maxUnitPosition(tx: Tx, translationId: number): Promise<number> {
  return (await sql(tx).maxPosition.get(translationId)) as number;
}

/** A unit to create (add string, add upload). */
export interface NewUnit {
  translationId: number;
  idHash: bigint;
  contentHash: bigint;
  context: string;
  source: string;
  target: string;
  state: number;
  position: number;
  numWords: number;
  numChars: number;
  pending: boolean;
  authorId: number | null;
  timestamp: string;
}

/**
 * Creates units (call inside a transaction): a pending removal of the same string is dropped (the string is back),
 * each unit's change comes from `changeOf`. Returns the ids (the memory's index, their checks and statistics follow:
 * operations/units.ts storeNewUnits).
 */
export async function insertUnits(tx: Tx, units: readonly NewUnit[], changeOf: (unit: NewUnit, id: number) => ChangeInput | null): Promise<number[]> {
  const s = sql(tx);
  const ids: number[] = [];
  for (const u of units) {
    await deletePendingRemoval(tx, u.translationId, u.idHash);
    const info = await s.insertNew.run(
      u.translationId,
      u.idHash,
      u.contentHash,
      u.context,
      u.source,
      u.target,
      u.state,
      u.state,
      u.position,
      u.numWords,
      u.numChars,
      u.pending ? 1 : 0,
      u.pending ? u.authorId : null,
      u.timestamp,
    );
    const id = Number(info.lastInsertRowid);
    ids.push(id);
    const change = changeOf(u, id);
    if (change) await recordChangeRow(tx, change);
  }
  return ids;
}

/** Removes source units of strings no translation of the component holds any more. */
export async function removeUnusedSourceUnits(tx: Tx, componentId: number, sourceTranslationId: number, hashes: Iterable<bigint>): Promise<void> {
  const s = sql(tx);
  for (const hash of hashes) {
    if ((await s.sourceStillUsed.get(componentId, hash)) === undefined) await s.removeByHash.run(sourceTranslationId, hash);
  }
}

/** Deletes a unit by id. */
export async function deleteUnitRow(tx: Tx, unitId: number): Promise<void> {
  await sql(tx).remove.run(unitId);
}

/**
 * Deletes the unit of a string a commit removed from the file, with the bilingual source unit no translation
 * holds any more; returns the translations touched (none when the unit was already gone).
 */
export async function deleteRemovedString(tx: Tx, translationId: number, idHash: bigint): Promise<number[]> {
  const s = sql(tx);
  if ((await s.removeByHash.run(translationId, idHash)).changes === 0) return [];
  const orphan = (await s.orphanSource.get(translationId, idHash)) as { id: number; translation_id: number } | undefined;
  if (!orphan) return [translationId];
  await s.remove.run(orphan.id);
  return [translationId, orphan.translation_id];
}

/**
 * Deletes units (call inside a transaction): their changes are recorded first, a pending removal is stored for each
 * translation that has a file (`withFile`). Returns the change ids (checks and statistics: checks/refresh.ts removingUnits).
 */
export async function removeUnits(
  tx: Tx,
  units: readonly UnitBrief[],
  withFile: ReadonlySet<number>,
  author: { id: number | null; timestamp: string },
  changes: readonly ChangeInput[],
): Promise<number[]> {
  const ids = await recordChanges(tx, changes);
  for (const u of units) {
    await deleteUnitRow(tx, u.id);
    if (withFile.has(u.translation_id)) {
      await addPendingRemoval(tx, { ...u, author_id: author.id, timestamp: author.timestamp });
    }
  }
  return ids;
}

/**
 * After a commit wrote them (call inside a transaction): forgets the removals, and deletes any unit of the same
 * string a sync brought back from the file meanwhile (with a bilingual source unit no translation holds any
 * more), refreshing those statistics.
 */
export async function clearRemovals(tx: Tx, removals: readonly PendingRemoval[]): Promise<void> {
  const touched = new Set<number>();
  for (const r of removals) {
    await deletePendingRemovalById(tx, r.id);
    for (const id of await deleteRemovedString(tx, r.translation_id, r.id_hash)) touched.add(id);
  }
  if (touched.size > 0) await refreshStats(tx, touched);
}

/** Stores removals again after their commit was taken back (a failed pull). */
export async function restoreRemovals(tx: Tx, removals: readonly PendingRemoval[]): Promise<void> {
  for (const r of removals) await addPendingRemoval(tx, { ...r, author_id: r.pending_author_id });
}
