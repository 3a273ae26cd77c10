// Pending edits: units edited in tms and not yet committed, saved, listed, written by a commit and taken back.
import { ACTIONS_CONTENT, Action } from '../domain/actions.js';
import { State } from '../domain/unit.js';
import type { ChangeInput } from './changes.repo.js';
import { deleteChanges, recordChangeRow, recordChanges } from './changes.repo.js';
import type { BulkColumn, Tx } from './db.js';
import { setSyncedCommit, syncedCommitOf } from './projects.repo.js';
import type { UnitRow } from './rows.js';
import { preparedOnce } from './statements.js';
import { setCommittedRevision } from './translations.repo.js';

/** A unit with everything an edit needs to validate it and to record it. */
export interface EditableUnit extends Pick<UnitRow, 'id' | 'translation_id' | 'source' | 'target' | 'state' | 'pending' | 'pending_author_id'> {
  component_id: number;
  project_id: number;
  language_id: number;
  is_source: number;
  is_template: number;
  filename: string;
  /** The translation's language code as its file names it, and the component's file format. */
  language_code: string;
  file_format: string;
  /** The translation's number of plural forms: its file's own where it states one (PO), else its language's. */
  plural_number: number;
  /** The component has a template (monolingual). */
  monolingual: number;
  /** The project's translation_review (non-source translations) or source_review (source/template), 0/1. */
  review: number;
}

/** A pending unit as the commit writes it, with its translation and language. */
export interface PendingUnit
  extends Pick<UnitRow, 'id' | 'translation_id' | 'id_hash' | 'context' | 'source' | 'target' | 'state' | 'pending_author_id' | 'timestamp'> {
  filename: string;
  language_code: string;
  language_id: number;
  language_name: string;
  plural_number: number;
  revision: string;
  is_template: number;
}

/** A unit written by a commit: cleared only when the store still holds what was written. */
export type WrittenUnit = Pick<UnitRow, 'id' | 'target' | 'state' | 'pending_author_id'>;

/** A unit the store should hold as pending again (after an undone commit or a rebase conflict). */
export interface RependUnit {
  id: number;
  target: string;
  state: number;
  authorId: number | null;
}

/** A unit's new target and state as an upload sets them (pending, by `authorId`). */
export interface UnitTargetEdit {
  id: number;
  target: string;
  state: number;
  authorId: number | null;
  timestamp: string;
}

/** A translation a commit wrote: its new revision (null: leave it, the file must be parsed again) and its changes. */
export interface CommittedTranslation {
  translationId: number;
  revision: string | null;
  changes: ChangeInput[];
}

const unitForEdit = (tx: Tx) => `
  SELECT u.id, u.translation_id, t.component_id, c.project_id, t.language_id, u.source, u.target, u.state, u.pending,
    u.pending_author_id, t.is_source, t.is_template, t.filename, t.language_code, coalesce(t.plural_number, l.plural_number) AS plural_number,
    coalesce(${tx.dialect.jsonText('c.settings', 'file_format')}, '') AS file_format,
    coalesce(${tx.dialect.jsonText('c.settings', 'template')}, '') <> '' AS monolingual,
    coalesce(CASE WHEN t.is_source = 1 THEN ${tx.dialect.jsonFlag('p.settings', 'source_review')}
                  ELSE ${tx.dialect.jsonFlag('p.settings', 'translation_review')} END, 0) AS review
  FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
  JOIN projects p ON p.id = c.project_id JOIN languages l ON l.id = t.language_id
  WHERE u.id = ?`;

const PENDING_COLUMNS = `u.id, u.translation_id, CAST(u.id_hash AS TEXT) AS id_hash, u.context, u.source, u.target, u.state,
  u.pending_author_id, u.timestamp, t.filename, t.language_code, t.language_id, l.name AS language_name, l.plural_number,
  t.revision, t.is_template`;

/** A unit an edit propagates to: the same string in the same language in another component of the project. */
export interface PropagationTarget extends Pick<UnitRow, 'id' | 'translation_id' | 'source' | 'target' | 'state'> {
  component_id: number;
  project_id: number;
  language_id: number;
  plural_number: number;
  /** 1 when the unit's component is locked (nothing propagates to it). */
  locked: number;
}

const sameString = (tx: Tx) => {
  const propagates = (c: string) => `coalesce(${tx.dialect.jsonFlag(`${c}.settings`, 'allow_translation_propagation')}, 1) = 1`;
  const sourceLanguage = (c: string) => `coalesce(${tx.dialect.jsonText(`${c}.settings`, 'source_language')}, 'en')`;
  // Read from the edited unit outwards: the unit, then the copies of its string (from the index alone, whose entries
  // hold their translation: SQLite's units_string, PostgreSQL's units_string_copies), the rows of those in its
  // language, then their translations and components. Left to plan the joins as one, PostgreSQL misjudges the JSON conditions as matching
  // almost nothing and walks every unit of every translation of the language instead (seconds to minutes a PATCH at
  // 200k units, each holding the store's write lock); the materialized steps fix the order on both engines, and
  // CROSS JOIN the order within each on SQLite (whose planner, knowing nothing of a step's rows, scanned every
  // translation, or every unit, to probe a step's few). A string the index of copies by translation does not hold
  // (too long for PostgreSQL's btree entry) is read by its source alone, in the second part of the union.
  const indexed = tx.dialect.stringCopies.indexed;
  const copy = `SELECT s.id FROM edited e CROSS JOIN units s
    WHERE s.source = e.source AND s.context = e.context AND s.id <> e.id
      AND (SELECT st.language_id FROM translations st WHERE st.id = s.translation_id) = e.language_id`;
  return `
  WITH edited AS MATERIALIZED (
    SELECT u.id, u.source, u.context, t.language_id, c.id AS component_id, c.project_id, ${sourceLanguage('c')} AS source_language
    FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
    WHERE u.id = ? AND t.is_source = 0 AND ${propagates('c')}
  ), strings AS MATERIALIZED (
    ${copy} AND ${indexed('s')}
    UNION ALL ${copy} AND NOT (${indexed('e')})
  ), copies AS MATERIALIZED (
    SELECT o.id, o.translation_id, o.source, o.target, o.state, e.language_id, e.component_id, e.project_id, e.source_language
    FROM edited e CROSS JOIN strings s CROSS JOIN units o WHERE o.id = s.id
  )
  SELECT o.id, o.translation_id, o.source, o.target, o.state, ot.component_id, oc.project_id, ot.language_id,
    coalesce(ot.plural_number, l.plural_number) AS plural_number, oc.locked
  FROM copies o CROSS JOIN translations ot CROSS JOIN components oc CROSS JOIN languages l
  WHERE ot.id = o.translation_id AND ot.language_id = o.language_id AND ot.is_source = 0
    AND oc.id = ot.component_id AND oc.project_id = o.project_id AND oc.id <> o.component_id AND l.id = ot.language_id
    AND ${propagates('oc')} AND ${sourceLanguage('oc')} = o.source_language
  ORDER BY o.id`;
};

const PENDING_EDIT: readonly BulkColumn[] = [
  ['id', 'bigint'],
  ['target', 'text'],
  ['state', 'bigint'],
  ['author_id', 'bigint'],
  ['timestamp', 'text'],
  ['automatic', 'bigint'],
];

const sql = preparedOnce((tx: Tx) => ({
  unitForEdit: tx.prepare(unitForEdit(tx)),
  sameString: tx.prepare(sameString(tx)),
  setStates: tx.prepare(`UPDATE units SET state = ?, original_state = ? WHERE id IN (${tx.dialect.idsOfJson})`),
  // one edit through `?` (SQLite reads a JSON parameter's rows at a cost a single edit notices)
  setPending: tx.prepare(
    'UPDATE units SET target = ?, state = ?, original_state = ?, pending = 1, pending_author_id = ?, timestamp = ?, automatically_translated = ? WHERE id = ?',
  ),
  setPendingOf: tx.prepare(
    `UPDATE units SET target = r.target, state = r.state, original_state = r.state, pending = 1, pending_author_id = r.author_id,
       timestamp = r.timestamp, automatically_translated = r.automatic
     FROM (${tx.dialect.rowsOfJson(PENDING_EDIT)}) AS r WHERE units.id = r.id`,
  ),
  pending: tx.prepare(
    `SELECT ${PENDING_COLUMNS} FROM translations t JOIN units u ON u.translation_id = t.id AND u.pending = 1
     JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? ORDER BY t.id, u.position`,
  ),
  hasPending: tx
    .prepare(`SELECT EXISTS (SELECT 1 FROM translations t JOIN units u ON u.translation_id = t.id AND u.pending = 1 WHERE t.component_id = ?)`)
    .pluck(),
  clear: tx.prepare(
    `UPDATE units SET pending = 0, pending_author_id = NULL
     WHERE id = ? AND pending = 1 AND target = ? AND state = ? AND pending_author_id IS NOT DISTINCT FROM ?`,
  ),
  repend: tx.prepare('UPDATE units SET target = ?, state = ?, original_state = ?, pending = 1, pending_author_id = ? WHERE id = ?'),
  unitByHash: tx.prepare('SELECT id, target, state, pending FROM units WHERE translation_id = ? AND id_hash = ?'),
  lastContentAuthor: tx
    .prepare(
      `SELECT author_id FROM changes WHERE unit_id = ? AND action IN (${[...ACTIONS_CONTENT].join(',')})
       ORDER BY timestamp DESC, id DESC LIMIT 1`,
    )
    .pluck(),
  markAll: tx.prepare(
    `UPDATE units SET pending = 1 WHERE pending = 0 AND state <> ${State.READONLY}
     AND translation_id IN (SELECT id FROM translations WHERE component_id = ? AND is_source = 0 AND filename <> '')`,
  ),
}));

/**
 * The units an edit of this unit propagates to (Weblate's translation propagation): the same source and context in
 * the same language in the project's other components, when both components allow propagation and share the source
 * language.
 */
export async function propagationTargets(tx: Tx, unitId: number): Promise<PropagationTarget[]> {
  return (await sql(tx).sameString.all(unitId)) as PropagationTarget[];
}

/** The unit with its translation, language and review setting, or undefined. */
export async function findEditableUnit(tx: Tx, unitId: number): Promise<EditableUnit | undefined> {
  return (await sql(tx).unitForEdit.get(unitId)) as EditableUnit | undefined;
}

/**
 * Stores edits' targets and states as pending (their original states follow), each by its author at its `timestamp`, in
 * one statement; a unit is marked automatically translated when automatic translation stored it (`automatic`), else no
 * longer.
 */
export async function setPendingTargets(
  tx: Tx,
  edits: readonly { unitId: number; target: string; state: number; authorId: number | null; timestamp: string; automatic?: boolean }[],
): Promise<void> {
  if (edits.length === 0) return;
  const [one] = edits;
  if (edits.length === 1 && one) {
    await sql(tx).setPending.run(one.target, one.state, one.state, one.authorId, one.timestamp, one.automatic ? 1 : 0, one.unitId);
    return;
  }
  const rows = edits.map((e) => [e.unitId, e.target, e.state, e.authorId, e.timestamp, e.automatic ? 1 : 0]);
  await sql(tx).setPendingOf.run(JSON.stringify(rows));
}

/** Sets several units' state (and their original state) in one statement. */
export async function setUnitStates(tx: Tx, unitIds: readonly number[], state: number): Promise<void> {
  if (unitIds.length > 0) await sql(tx).setStates.run(state, state, JSON.stringify(unitIds));
}

/** Every pending unit of a component, by translation then position. */
export async function pendingUnits(tx: Tx, componentId: number): Promise<PendingUnit[]> {
  const rows = (await sql(tx).pending.all(componentId)) as (Omit<PendingUnit, 'id_hash'> & { id_hash: string })[];
  return rows.map((r) => ({ ...r, id_hash: BigInt(r.id_hash) }));
}

/** Whether the component has edits not yet committed. */
export async function hasPendingUnits(tx: Tx, componentId: number): Promise<boolean> {
  return (await sql(tx).hasPending.get(componentId)) === 1;
}

/** The stored unit of a translation with this id_hash, or undefined. */
export async function findUnitByHash(tx: Tx, translationId: number, idHash: bigint): Promise<Pick<UnitRow, 'id' | 'target' | 'state' | 'pending'> | undefined> {
  return (await sql(tx).unitByHash.get(translationId, idHash)) as Pick<UnitRow, 'id' | 'target' | 'state' | 'pending'> | undefined;
}

/** The author of the newest content change of a unit (null when none or anonymous). */
export async function lastContentAuthor(tx: Tx, unitId: number): Promise<number | null> {
  return ((await sql(tx).lastContentAuthor.get(unitId)) as number | null | undefined) ?? null;
}

/** Makes units pending again with the given target, state and author. */
export async function repend(tx: Tx, units: readonly RependUnit[]): Promise<void> {
  const { repend } = sql(tx);
  for (const u of units) await repend.run(u.target, u.state, u.state, u.authorId, u.id);
}

/** file-sync: marks every unit of the component's non-source translations pending (read-only units aside). */
export async function markAllPending(tx: Tx, componentId: number): Promise<number> {
  return (await sql(tx).markAll.run(componentId)).changes;
}

/**
 * After a commit (call inside a transaction): clears `pending` on the written units that were not edited meanwhile,
 * stores the translations' new revisions, records the changes, and moves `synced_commit` from `parent` to `head`
 * when the store was in step with the parent. Returns the ids of the recorded changes.
 */
export async function recordCommit(
  tx: Tx,
  componentId: number,
  written: readonly WrittenUnit[],
  translations: readonly CommittedTranslation[],
  heads: { parent: string | null; head: string | null },
): Promise<{ changeIds: number[]; cleared: number }> {
  const { clear } = sql(tx);
  // every statement sent before any answer is awaited, in this order (one round trip on PostgreSQL, not one per unit
  // written: a commit of a few hundred edits held the write lock, every writer's, for seconds under load)
  const clears = written.map((u) => clear.run(u.id, u.target, u.state, u.pending_author_id));
  const revisions: Promise<void>[] = [];
  const changes: Promise<number>[] = [];
  for (const t of translations) {
    if (t.revision !== null) revisions.push(setCommittedRevision(tx, t.translationId, t.revision));
    for (const c of t.changes) changes.push(recordChangeRow(tx, c));
  }
  const [results, , changeIds] = await Promise.all([Promise.all(clears), Promise.all(revisions), Promise.all(changes)]);
  const cleared = results.reduce((n, r) => n + r.changes, 0);
  if (heads.head !== null && (await syncedCommitOf(tx, componentId)) === heads.parent) await setSyncedCommit(tx, componentId, heads.head);
  return { changeIds, cleared };
}

/**
 * Undoes `recordCommit` after the commit itself was taken back (call inside a transaction): the units are pending
 * again with their authors, revisions and `synced_commit` are restored, the commit's change records removed.
 */
export async function undoCommit(
  tx: Tx,
  componentId: number,
  units: readonly RependUnit[],
  revisions: ReadonlyMap<number, string>,
  syncedCommit: string | null,
  changeIds: readonly number[],
): Promise<void> {
  await repend(tx, units);
  for (const [id, revision] of revisions) await setCommittedRevision(tx, id, revision);
  await setSyncedCommit(tx, componentId, syncedCommit);
  await deleteChanges(tx, changeIds);
}

const anyPending = preparedOnce((tx) =>
  tx
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE t.component_id IN (${tx.dialect.idsOfJson}) AND u.pending = 1)`,
    )
    .pluck(),
);

/** Whether any unit of these components has an edit not yet written and committed. */
export async function hasPendingInComponents(tx: Tx, componentIds: readonly number[]): Promise<boolean> {
  return componentIds.length > 0 && (await anyPending(tx).get(JSON.stringify(componentIds))) === 1;
}

/** A component holding edits not yet committed, and when the oldest of them was made. */
export interface PendingAge {
  componentId: number;
  project: string;
  component: string;
  /** The oldest pending edit's (or string removal's) timestamp. */
  oldest: string;
}

const pendingAges = preparedOnce((tx: Tx) =>
  tx.prepare(
    `SELECT c.id AS "componentId", p.slug AS project, c.slug AS component, MIN(x.ts) AS oldest FROM (
       SELECT t.component_id AS cid, MIN(u.timestamp) AS ts FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE u.pending = 1 GROUP BY t.component_id
       UNION ALL
       SELECT t.component_id, MIN(r.timestamp) FROM pending_removals r JOIN translations t ON t.id = r.translation_id
       GROUP BY t.component_id
     ) x JOIN components c ON c.id = x.cid JOIN projects p ON p.id = c.project_id
     GROUP BY c.id, p.slug, c.slug ORDER BY c.id`,
  ),
);

/** Every component with pending edits or removals, with the time of its oldest one. */
export async function pendingAgesOf(tx: Tx): Promise<PendingAge[]> {
  return (await pendingAges(tx).all()) as PendingAge[];
}
