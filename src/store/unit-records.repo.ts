// Read queries for units as the API lists them: one unit, a translation's units in position order, all units by id.
import type { Unit, UnitState } from '../domain/unit.js';
import type { Tx } from './db.js';
import { type Label, labelsOfUnits } from './labels.repo.js';
import { type Slice, counted, preparedOnce, statementCache } from './statements.js';
import { type SqlFragment, type UnitFilter, compileUnitFilter, indexedUnitIds } from './unit-search.js';

/** A unit with what its API record and the editor show beside it. */
export interface UnitRecord extends Unit {
  /** The unit with the same id hash in the component's source translation, or null. */
  sourceUnitId: number | null;
  /** A failing check that is not dismissed. */
  hasFailingCheck: boolean;
  hasSuggestion: boolean;
  /** An unresolved comment on the unit or its source string. */
  hasComment: boolean;
  /** Automatic translation stored its text (and nobody changed it since). */
  automaticallyTranslated: boolean;
  /** The labels of its source string, by name. */
  labels: Label[];
}

/**
 * A unit's flags (`u` the unit), in the order toRecord reads them. `LIMIT 1 OFFSET 0` keeps each a probe of the unit's
 * own rows by index: without it PostgreSQL may answer an EXISTS by reading and hashing the whole table (every check
 * of the site, for a page of 50 units) in the plan it keeps for the statement; SQLite probes either way.
 */
export const UNIT_FLAGS = `EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.dismissed = 0 LIMIT 1 OFFSET 0) AS has_failing_check,
  EXISTS (SELECT 1 FROM suggestions g WHERE g.unit_id = u.id LIMIT 1 OFFSET 0) AS has_suggestion,
  EXISTS (SELECT 1 FROM comments m WHERE m.resolved = 0 AND (m.unit_id = u.id OR (m.source = 1 AND m.id_hash = u.id_hash
    AND m.component_id = (SELECT component_id FROM translations WHERE id = u.translation_id)))) AS has_comment`;

// Read in this order by toRecord.
const COLUMNS = `u.id, u.translation_id, CAST(u.id_hash AS TEXT) AS id_hash, CAST(u.content_hash AS TEXT) AS content_hash,
  u.context, u.source, u.target, u.previous_source, u.location, u.note, u.flags, u.extra_flags, u.explanation,
  u.state, u.position, u.num_words, u.priority, u.pending, u.timestamp, u.source_explanation, u.original_state, u.num_chars,
  u.pending_author_id, ${UNIT_FLAGS},
  u.automatically_translated`;

// The source unit found through the unit's own translation (for lists that mix translations).
const SOURCE_UNIT = `(SELECT s.id FROM translations t
  JOIN translations st ON st.component_id = t.component_id AND st.is_source = 1
  JOIN units s ON s.translation_id = st.id AND s.id_hash = u.id_hash
  WHERE t.id = u.translation_id) AS source_unit_id`;

// Rows are read as arrays (raw mode) and shaped here: cheaper than better-sqlite3 building objects.
function toRecord(a: unknown[]): UnitRecord {
  return {
    id: a[0] as number,
    translationId: a[1] as number,
    idHash: BigInt(a[2] as string),
    contentHash: BigInt(a[3] as string),
    context: a[4] as string,
    source: a[5] as string,
    target: a[6] as string,
    previousSource: a[7] as string,
    location: a[8] as string,
    note: a[9] as string,
    flags: a[10] as string,
    extraFlags: a[11] as string,
    explanation: a[12] as string,
    state: a[13] as UnitState,
    position: a[14] as number,
    numWords: a[15] as number,
    priority: a[16] as number,
    pending: Boolean(a[17]),
    timestamp: a[18] as string,
    sourceExplanation: a[19] as string,
    originalState: a[20] as UnitState,
    numChars: a[21] as number,
    pendingAuthorId: a[22] as number | null,
    hasFailingCheck: Boolean(a[23]),
    hasSuggestion: Boolean(a[24]),
    hasComment: Boolean(a[25]),
    automaticallyTranslated: Boolean(a[26]),
    sourceUnitId: a[27] as number | null,
    labels: [],
  };
}

/** Records with the labels of their source strings (one indexed read for the lot). */
async function withLabels(tx: Tx, records: UnitRecord[]): Promise<UnitRecord[]> {
  const labels = await labelsOfUnits(
    tx,
    records.map((r) => r.sourceUnitId ?? r.id),
  );
  for (const r of records) r.labels = labels.get(r.sourceUnitId ?? r.id) ?? [];
  return records;
}

/** Which units a caller may see: `null` for all, else these translation ids. */
export type VisibleTranslations = readonly number[] | null;

const sql = preparedOnce((tx: Tx) => ({
  byId: tx.prepare(`SELECT ${COLUMNS}, ${SOURCE_UNIT} FROM units u WHERE u.id = ?`).raw(true),
  statement: statementCache(tx),
}));

function where(tx: Tx, base: string[], baseParams: unknown[], filter: UnitFilter | null) {
  const clauses = [...base];
  const params = [...baseParams];
  if (filter) {
    const compiled = compileUnitFilter(filter, tx.dialect);
    clauses.push(compiled.sql);
    params.push(...compiled.params);
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function visibility(tx: Tx, visible: VisibleTranslations, byId = false): { clauses: string[]; params: unknown[] } {
  if (visible === null) return { clauses: [], params: [] };
  // `+` keeps the translation index out of the plan: the units are read in id order and the page ends the read
  return { clauses: [`${byId ? '+' : ''}u.translation_id IN (${tx.dialect.idsOfJson})`], params: [JSON.stringify(visible)] };
}

/**
 * The ids of the visible units a filter selects, as a query of one column: read from the search's index alone where it
 * answers the filter (one text search: it holds every unit's texts, and only theirs; PostgreSQL's also their
 * translations, for a caller who does not see every one), so that a page reads its ids in the index's order and a count
 * reads no unit.
 */
function selected(tx: Tx, visible: VisibleTranslations, filter: UnitFilter | null, byId = false, complete = false): SqlFragment {
  const v = visibility(tx, visible, byId);
  const within = v.clauses.length > 0 ? { sql: v.clauses.join(' AND '), params: v.params, byId } : null;
  const ids = filter ? indexedUnitIds(filter, tx.dialect, within, complete) : null;
  if (ids) return ids;
  const w = where(tx, v.clauses, v.params, filter);
  return { sql: `SELECT u.id FROM units u ${w.sql}`, params: w.params };
}

/**
 * Whether the search's index holds every unit (no first load's units left to its fill), where the engine asks
 * (Dialect.searchFillPending), remembered until the data changes. Read before the search, in a statement of its own:
 * a first load committed between the two is not seen by that search, which then answers as just before the load (a
 * first load comes into a store without units); a fill chunk or its end meanwhile changes nothing it finds.
 */
async function indexComplete(tx: Tx, filter: UnitFilter | null): Promise<boolean> {
  const pending = tx.dialect.searchFillPending;
  if (!pending || filter?.kind !== 'text') return false;
  return (await counted(tx, pending, () => sql(tx).statement(pending).pluck().get())) === 0;
}

/** One unit as the API shows it, or undefined. */
export async function unitRecord(tx: Tx, id: number): Promise<UnitRecord | undefined> {
  const row = (await sql(tx).byId.get(id)) as unknown[] | undefined;
  return row && (await withLabels(tx, [toRecord(row)]))[0];
}

/** Units of one translation in position order; `sourceTranslationId` resolves `sourceUnitId`. */
export async function translationUnitRecords(
  tx: Tx,
  translationId: number,
  sourceTranslationId: number | null,
  filter: UnitFilter | null,
  slice: Slice,
): Promise<UnitRecord[]> {
  const page = translationPage(tx, translationId, sourceTranslationId, filter, slice);
  const rows = (await sql(tx)
    .statement(page.sql)
    .raw(true)
    .all(...page.params)) as unknown[][];
  return withLabels(tx, rows.map(toRecord));
}

/** The largest page of a translation whose size translationPage writes into its statement: the API's default page. */
const STATED_PAGE_SIZE = 100;

/**
 * The statement of a page of a translation's units, with its parameters. The page's ids first, with their positions,
 * from the `(translation_id, position, id)` index alone when unfiltered: rows skipped by OFFSET are never read, joined
 * or sorted; then the page's rows by id in that order (the dialect's ordered join: SQLite's planner may otherwise scan
 * every unit to probe the page), which the answer keeps (ordered by the ids' own columns: not sorted again either). An unfiltered page states its size in the text: PostgreSQL then prices a plan for
 * any translation and offset as one for a page and keeps one generic plan for the statement instead of planning each
 * page anew (with `LIMIT ?` it prices the generic plan at a tenth of a translation, and never takes it). Only sizes up
 * to STATED_PAGE_SIZE are stated: each stated size is a statement of its own, kept prepared by every session. A
 * filtered page keeps a plan of its own, the filter's values may call for different ones.
 */
export function translationPage(tx: Tx, translationId: number, sourceTranslationId: number | null, filter: UnitFilter | null, slice: Slice): SqlFragment {
  const w = where(tx, ['u.translation_id = ?'], [translationId], filter);
  const stated = filter === null && Number.isInteger(slice.limit) && slice.limit >= 0 && slice.limit <= STATED_PAGE_SIZE;
  return {
    sql: `SELECT ${COLUMNS}, s.id AS source_unit_id
       FROM (SELECT u.id, u.position FROM units u ${w.sql} ORDER BY u.position, u.id LIMIT ${stated ? slice.limit : '?'} OFFSET ?) page
       ${tx.dialect.orderedJoin} units u ON u.id = page.id
       LEFT JOIN units s ON s.translation_id = ? AND s.id_hash = u.id_hash
       ORDER BY page.position, page.id`,
    params: [...w.params, ...(stated ? [] : [slice.limit]), slice.offset, sourceTranslationId ?? -1],
  };
}

/** A unit's text and state, as a change to many strings reads them. */
export interface UnitTextRow {
  id: number;
  id_hash: bigint;
  source: string;
  target: string;
  state: number;
  position: number;
  extra_flags: string;
}

/**
 * Every unit of a translation a search selects, in position order, with its text and state only (bulk edit, search
 * and replace: thousands of rows, none of the record's joins).
 */
export async function translationUnitTexts(tx: Tx, translationId: number, filter: UnitFilter | null): Promise<UnitTextRow[]> {
  const w = where(tx, ['u.translation_id = ?'], [translationId], filter);
  const rows = (await sql(tx)
    .statement(
      `SELECT u.id, CAST(u.id_hash AS TEXT) AS id_hash, u.source, u.target, u.state, u.position, u.extra_flags FROM units u ${w.sql} ORDER BY u.position, u.id`,
    )
    .all(...w.params)) as (Omit<UnitTextRow, 'id_hash'> & { id_hash: string })[];
  return rows.map((r) => ({ ...r, id_hash: BigInt(r.id_hash) }));
}

/** How many units `translationUnitRecords` lists (remembered until the data changes). */
export function countTranslationUnitRecords(tx: Tx, translationId: number, filter: UnitFilter | null): Promise<number> {
  const w = where(tx, ['u.translation_id = ?'], [translationId], filter);
  const text = `SELECT count(*) FROM units u ${w.sql}`;
  return counted(tx, text + JSON.stringify(w.params), () =>
    sql(tx)
      .statement(text)
      .pluck()
      .get(...w.params),
  );
}

/**
 * Units of the visible translations, by id. `byId` reads them in id order whatever the visible translations (for a
 * caller who sees most of them: a page of a common search then ends the read early, where the translation index would
 * gather and sort every match first).
 */
export async function unitRecords(
  tx: Tx,
  visible: VisibleTranslations,
  filter: UnitFilter | null,
  slice: Slice,
  opts: { byId?: boolean } = {},
): Promise<UnitRecord[]> {
  const s = selected(tx, visible, filter, opts.byId, await indexComplete(tx, filter));
  // the page's ids first, then its rows by id in that order (as translationUnitRecords)
  const rows = (await sql(tx)
    .statement(
      `SELECT ${COLUMNS}, ${SOURCE_UNIT}
       FROM (${s.sql} ORDER BY 1 LIMIT ? OFFSET ?) page
       ${tx.dialect.orderedJoin} units u ON u.id = page.id ORDER BY u.id`,
    )
    .raw(true)
    .all(...s.params, slice.limit, slice.offset)) as unknown[][];
  return withLabels(tx, rows.map(toRecord));
}

/** How many units `unitRecords` lists (remembered until the data changes). */
export function countUnitRecords(tx: Tx, visible: VisibleTranslations, filter: UnitFilter | null): Promise<number> {
  // with the fill's pending units in the same statement whether or not there are any: a count has no early stop to lose
  const s = selected(tx, visible, filter);
  const text = `SELECT count(*) FROM (${s.sql}) s`;
  return counted(tx, text + JSON.stringify(s.params), () =>
    sql(tx)
      .statement(text)
      .pluck()
      .get(...s.params),
  );
}
