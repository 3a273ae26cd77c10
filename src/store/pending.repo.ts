// Pending edits in the store: units edited in tms and not yet committed, their authors, and the repository change log.
import { Action, ACTIONS_CONTENT, ACTIONS_MERGE_FAILURE, ACTIONS_REPOSITORY } from '../domain/actions.js';
import { State } from '../domain/unit.js';
import type { ChangeInput } from './changes.repo.js';
import { changeRecorder } from './changes.repo.js';
import type { Db } from './db.js';
import { refreshStats } from './stats.repo.js';

/** A unit with everything an edit needs to validate it and to record it. */
export interface EditableUnitRow {
  id: number;
  translation_id: number;
  component_id: number;
  project_id: number;
  language_id: number;
  source: string;
  target: string;
  state: number;
  pending: number;
  pending_author_id: number | null;
  is_source: number;
  is_template: number;
  filename: string;
  plural_number: number;
  /** The component has a template (monolingual). */
  monolingual: number;
  /** The project's translation_review (non-source translations) or source_review (source/template), 0/1. */
  review: number;
}

/** A pending unit as the commit writes it; `id_hash` is exact. */
export interface PendingUnitRow {
  id: number;
  translation_id: number;
  id_hash: bigint;
  context: string;
  source: string;
  target: string;
  state: number;
  pending_author_id: number | null;
  timestamp: string;
  filename: string;
  language_code: string;
  language_id: number;
  language_name: string;
  plural_number: number;
  revision: string;
  is_template: number;
}

/** What a commit author is made of. */
export interface AuthorRow {
  id: number;
  username: string;
  full_name: string;
  email: string;
}

/** A unit written by a commit: cleared only when the store still holds what was written. */
export interface WrittenUnit {
  id: number;
  target: string;
  state: number;
  pending_author_id: number | null;
}

/** A unit the store should hold as pending again (after an undone commit or a rebase conflict). */
export interface RependUnit {
  id: number;
  target: string;
  state: number;
  authorId: number | null;
}

/** The fields of a translation the commit message and the revision bookkeeping need. */
export interface TranslationInfoRow {
  id: number;
  filename: string;
  revision: string;
  language_id: number;
  language_code: string;
  language_name: string;
  plural_number: number;
  is_source: number;
  is_template: number;
}

const UNIT_FOR_EDIT = `
  SELECT u.id, u.translation_id, t.component_id, c.project_id, t.language_id, u.source, u.target, u.state, u.pending,
    u.pending_author_id, t.is_source, t.is_template, t.filename, l.plural_number,
    coalesce(json_extract(c.settings, '$.template'), '') <> '' AS monolingual,
    coalesce(CASE WHEN t.is_source = 1 THEN json_extract(p.settings, '$.source_review')
                  ELSE json_extract(p.settings, '$.translation_review') END, 0) AS review
  FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
  JOIN projects p ON p.id = c.project_id JOIN languages l ON l.id = t.language_id
  WHERE u.id = ?`;

const PENDING_COLUMNS = `u.id, u.translation_id, CAST(u.id_hash AS TEXT) AS id_hash, u.context, u.source, u.target, u.state,
  u.pending_author_id, u.timestamp, t.filename, t.language_code, t.language_id, l.name AS language_name, l.plural_number,
  t.revision, t.is_template`;

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<Db, Statements>();

function prepare(db: Db) {
  return {
    unitForEdit: db.prepare(UNIT_FOR_EDIT),
    saveEdit: db.prepare(
      `UPDATE units SET target = ?, state = ?, original_state = ?, pending = 1, pending_author_id = ?, timestamp = ? WHERE id = ?`,
    ),
    record: changeRecorder(db),
    pending: db.prepare(
      `SELECT ${PENDING_COLUMNS} FROM translations t JOIN units u ON u.translation_id = t.id AND u.pending = 1
       JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? ORDER BY t.id, u.position`,
    ),
    hasPending: db
      .prepare(`SELECT EXISTS (SELECT 1 FROM translations t JOIN units u ON u.translation_id = t.id AND u.pending = 1 WHERE t.component_id = ?)`)
      .pluck(),
    clear: db.prepare(
      `UPDATE units SET pending = 0, pending_author_id = NULL
       WHERE id = ? AND pending = 1 AND target = ? AND state = ? AND pending_author_id IS ?`,
    ),
    repend: db.prepare(`UPDATE units SET target = ?, state = ?, original_state = ?, pending = 1, pending_author_id = ? WHERE id = ?`),
    author: db.prepare('SELECT id, username, full_name, email FROM users WHERE id = ?'),
    translations: db.prepare(
      `SELECT t.id, t.filename, t.revision, t.language_id, t.language_code, l.name AS language_name, l.plural_number,
         t.is_source, t.is_template
       FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? ORDER BY t.id`,
    ),
    setRevision: db.prepare('UPDATE translations SET revision = ? WHERE id = ?'),
    syncedCommit: db.prepare('SELECT synced_commit FROM components WHERE id = ?').pluck(),
    setSyncedCommit: db.prepare('UPDATE components SET synced_commit = ? WHERE id = ?'),
    unitByHash: db.prepare('SELECT id, target, state, pending FROM units WHERE translation_id = ? AND id_hash = ?'),
    lastContentAuthor: db
      .prepare(
        `SELECT author_id FROM changes WHERE unit_id = ? AND action IN (${[...ACTIONS_CONTENT].join(',')})
         ORDER BY timestamp DESC, id DESC LIMIT 1`,
      )
      .pluck(),
    markAll: db.prepare(
      `UPDATE units SET pending = 1 WHERE pending = 0 AND state <> ${State.READONLY}
       AND translation_id IN (SELECT id FROM translations WHERE component_id = ? AND is_source = 0 AND filename <> '')`,
    ),
    lastRepository: db.prepare(
      `SELECT action, target FROM changes WHERE component_id = ? AND action IN (${[...ACTIONS_REPOSITORY].join(',')})
       ORDER BY timestamp DESC, id DESC LIMIT 1`,
    ),
    deleteChange: db.prepare('DELETE FROM changes WHERE id = ?'),
  };
}

function statements(db: Db): Statements {
  let s = cache.get(db);
  if (!s) {
    s = prepare(db);
    cache.set(db, s);
  }
  return s;
}

/** The commit of the working copy the store was last synced from (or moved to by a commit). */
export function syncedCommitOf(db: Db, componentId: number): string | null {
  return (statements(db).syncedCommit.get(componentId) as string | null | undefined) ?? null;
}

/** The unit with its translation, language and review setting, or undefined. */
export function findEditableUnit(db: Db, unitId: number): EditableUnitRow | undefined {
  return statements(db).unitForEdit.get(unitId) as EditableUnitRow | undefined;
}

/**
 * Stores an edit as pending in one transaction: the unit's target and state, its change record, the statistics.
 * Returns the change id.
 * @example saveUnitEdit(db, unit, { target: 'Hallo', state: 20, authorId: 3, change: { action: 5, … } })
 */
export function saveUnitEdit(
  db: Db,
  unit: EditableUnitRow,
  edit: { target: string; state: number; authorId: number; timestamp: string; change: ChangeInput },
): number {
  const s = statements(db);
  return db.transaction(() => {
    s.saveEdit.run(edit.target, edit.state, edit.state, edit.authorId, edit.timestamp, unit.id);
    const id = s.record(edit.change);
    refreshStats(db, [unit.translation_id]);
    return id;
  })();
}

/** Every pending unit of a component, by translation then position. */
export function pendingUnits(db: Db, componentId: number): PendingUnitRow[] {
  const rows = statements(db).pending.all(componentId) as (Omit<PendingUnitRow, 'id_hash'> & { id_hash: string })[];
  return rows.map((r) => ({ ...r, id_hash: BigInt(r.id_hash) }));
}

/** Whether the component has edits not yet committed. */
export function hasPendingUnits(db: Db, componentId: number): boolean {
  return statements(db).hasPending.get(componentId) === 1;
}

/** The user a commit is attributed to, or undefined. */
export function findAuthor(db: Db, userId: number): AuthorRow | undefined {
  return statements(db).author.get(userId) as AuthorRow | undefined;
}

/** The component's translations with their languages. */
export function componentTranslations(db: Db, componentId: number): TranslationInfoRow[] {
  return statements(db).translations.all(componentId) as TranslationInfoRow[];
}

export interface CommittedTranslation {
  translationId: number;
  /** The revision to store (null: leave it, the file must be parsed again). */
  revision: string | null;
  changes: ChangeInput[];
}

/**
 * After a commit, in one transaction: clears `pending` on the written units that were not edited meanwhile,
 * stores the translations' new revisions, records the changes, and moves `synced_commit` from `parent` to
 * `head` when the store was in step with the parent. Returns the ids of the recorded changes.
 */
export function recordCommit(
  db: Db,
  componentId: number,
  written: readonly WrittenUnit[],
  translations: readonly CommittedTranslation[],
  heads: { parent: string | null; head: string | null },
): { changeIds: number[]; cleared: number } {
  const s = statements(db);
  return db.transaction(() => {
    let cleared = 0;
    for (const u of written) cleared += s.clear.run(u.id, u.target, u.state, u.pending_author_id).changes;
    const changeIds: number[] = [];
    for (const t of translations) {
      if (t.revision !== null) s.setRevision.run(t.revision, t.translationId);
      for (const c of t.changes) changeIds.push(s.record(c));
    }
    if (heads.head !== null && s.syncedCommit.get(componentId) === heads.parent) s.setSyncedCommit.run(heads.head, componentId);
    return { changeIds, cleared };
  })();
}

/**
 * Undoes `recordCommit` after the commit itself was taken back: the units are pending again with their authors,
 * revisions and `synced_commit` are restored, and the commit's change records are removed.
 */
export function undoCommit(
  db: Db,
  componentId: number,
  units: readonly RependUnit[],
  revisions: ReadonlyMap<number, string>,
  syncedCommit: string | null,
  changeIds: readonly number[],
): void {
  const s = statements(db);
  db.transaction(() => {
    for (const u of units) s.repend.run(u.target, u.state, u.state, u.authorId, u.id);
    for (const [id, revision] of revisions) s.setRevision.run(revision, id);
    s.setSyncedCommit.run(syncedCommit, componentId);
    for (const id of changeIds) s.deleteChange.run(id);
  })();
}

/** The stored unit of a translation with this id_hash, or undefined. */
export function findUnitByHash(db: Db, translationId: number, idHash: bigint): { id: number; target: string; state: number; pending: number } | undefined {
  return statements(db).unitByHash.get(translationId, idHash) as { id: number; target: string; state: number; pending: number } | undefined;
}

/** The author of the newest content change of a unit (null when none or anonymous). */
export function lastContentAuthor(db: Db, unitId: number): number | null {
  return (statements(db).lastContentAuthor.get(unitId) as number | null | undefined) ?? null;
}

/** Makes units pending again with the given target, state and author, in one transaction. */
export function repend(db: Db, units: readonly RependUnit[]): void {
  const s = statements(db);
  db.transaction(() => {
    for (const u of units) s.repend.run(u.target, u.state, u.state, u.authorId, u.id);
  })();
}

/** file-sync: marks every unit of the component's non-source translations pending (read-only units aside). */
export function markAllPending(db: Db, componentId: number): number {
  return statements(db).markAll.run(componentId).changes;
}

/** Records repository changes (push, merge, reset …) in one transaction; returns their ids. */
export function recordChanges(db: Db, changes: readonly ChangeInput[]): number[] {
  const s = statements(db);
  return db.transaction(() => changes.map((c) => s.record(c)))();
}

/** The text of the newest repository change when it is a failure (22, 23, 28), else null. */
export function mergeFailure(db: Db, componentId: number): string | null {
  const row = statements(db).lastRepository.get(componentId) as { action: number; target: string } | undefined;
  return row && ACTIONS_MERGE_FAILURE.has(row.action) ? row.target : null;
}

// ---- Strings added and removed in tms, component locks, uploads (the rest of the write path) ----

/** A string deleted in tms whose removal from the file waits for the next commit; shaped as a pending unit. */
export interface PendingRemovalRow extends PendingUnitRow {
  /** Always 1: tells a removal from a pending edit. `id` is the removal's own id. */
  removal: 1;
}

/** A translation of a component found by its language's code, with what writes need. */
export interface TranslationRefRow extends TranslationInfoRow {
  /** The language's code (`Language.code`); `language_code` is the code as written in the file name. */
  code: string;
}

/** A unit of a translation as uploads and deletions look at it. */
export interface UnitBriefRow {
  id: number;
  translation_id: number;
  id_hash: bigint;
  context: string;
  source: string;
  target: string;
  state: number;
  pending: number;
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

/** A unit's new target and state as an upload sets them (pending, by `authorId`). */
export interface UnitTargetEdit {
  id: number;
  target: string;
  state: number;
  authorId: number | null;
  timestamp: string;
}

const REMOVAL_COLUMNS = `r.id, r.translation_id, CAST(r.id_hash AS TEXT) AS id_hash, r.context, r.source, '' AS target, 0 AS state,
  r.author_id AS pending_author_id, r.timestamp, t.filename, t.language_code, t.language_id, l.name AS language_name, l.plural_number,
  t.revision, t.is_template, 1 AS removal`;

type WriteStatements = ReturnType<typeof prepareWrites>;
const writeCache = new WeakMap<Db, WriteStatements>();

function prepareWrites(db: Db) {
  return {
    locked: db.prepare('SELECT locked FROM components WHERE id = ?').pluck(),
    component: db.prepare('SELECT id, project_id, locked FROM components WHERE id = ?'),
    setLocked: db.prepare('UPDATE components SET locked = ? WHERE id = ?'),
    translation: db.prepare(
      `SELECT t.id, t.filename, t.revision, t.language_id, t.language_code, l.name AS language_name, l.plural_number,
         t.is_source, t.is_template, l.code
       FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? AND l.code = ?`,
    ),
    unitsOf: db.prepare(
      'SELECT id, translation_id, CAST(id_hash AS TEXT) AS id_hash, context, source, target, state, pending FROM units WHERE translation_id = ? ORDER BY position',
    ),
    unitsByHash: db.prepare(
      `SELECT u.id, u.translation_id, CAST(u.id_hash AS TEXT) AS id_hash, u.context, u.source, u.target, u.state, u.pending
       FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.component_id = ? AND u.id_hash = ? ORDER BY t.id`,
    ),
    unitComponent: db.prepare(
      `SELECT u.id, u.translation_id, CAST(u.id_hash AS TEXT) AS id_hash, u.context, u.source, u.target, u.state, u.pending, t.component_id
       FROM units u JOIN translations t ON t.id = u.translation_id WHERE u.id = ?`,
    ),
    hasHash: db.prepare('SELECT 1 FROM units WHERE translation_id = ? AND id_hash = ?').pluck(),
    maxPosition: db.prepare('SELECT coalesce(max(position), 0) FROM units WHERE translation_id = ?').pluck(),
    insertUnit: db.prepare(
      `INSERT INTO units (translation_id, id_hash, content_hash, context, source, target, state, original_state, position,
         num_words, num_chars, pending, pending_author_id, timestamp)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteUnit: db.prepare('DELETE FROM units WHERE id = ?'),
    deleteUnitByHash: db.prepare('DELETE FROM units WHERE translation_id = ? AND id_hash = ?'),
    // the fileless source unit of a bilingual component, once no translation of it holds the string
    orphanSource: db.prepare(
      `SELECT u.id, u.translation_id FROM units u JOIN translations s ON s.id = u.translation_id
       JOIN translations t ON t.component_id = s.component_id AND t.id = ?
       WHERE s.is_source = 1 AND s.filename = '' AND u.id_hash = ?
         AND NOT EXISTS (SELECT 1 FROM units o JOIN translations ot ON ot.id = o.translation_id
                         WHERE ot.component_id = s.component_id AND ot.is_source = 0 AND o.id_hash = u.id_hash)`,
    ),
    setTarget: db.prepare(
      'UPDATE units SET target = ?, state = ?, original_state = ?, pending = 1, pending_author_id = ?, timestamp = ? WHERE id = ?',
    ),
    addRemoval: db.prepare(
      `INSERT INTO pending_removals (translation_id, id_hash, context, source, author_id, timestamp) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (translation_id, id_hash) DO UPDATE SET context = excluded.context, source = excluded.source,
         author_id = excluded.author_id, timestamp = excluded.timestamp`,
    ),
    dropRemoval: db.prepare('DELETE FROM pending_removals WHERE translation_id = ? AND id_hash = ?'),
    dropRemovalById: db.prepare('DELETE FROM pending_removals WHERE id = ?'),
    removals: db.prepare(
      `SELECT ${REMOVAL_COLUMNS} FROM pending_removals r JOIN translations t ON t.id = r.translation_id
       JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? ORDER BY t.id, r.id`,
    ),
    hasRemovals: db
      .prepare('SELECT EXISTS (SELECT 1 FROM pending_removals r JOIN translations t ON t.id = r.translation_id WHERE t.component_id = ?)')
      .pluck(),
    record: changeRecorder(db),
  };
}

function writes(db: Db): WriteStatements {
  let s = writeCache.get(db);
  if (!s) {
    s = prepareWrites(db);
    writeCache.set(db, s);
  }
  return s;
}

type RawBrief = Omit<UnitBriefRow, 'id_hash'> & { id_hash: string };
const brief = (r: RawBrief): UnitBriefRow => ({ ...r, id_hash: BigInt(r.id_hash) });

/** Whether the component is locked (no edits, added strings or uploads). */
export function isComponentLocked(db: Db, componentId: number): boolean {
  return writes(db).locked.get(componentId) === 1;
}

/**
 * Locks or unlocks a component and records 14/15 (`details.auto` false) in one transaction. Nothing is
 * recorded when the component already was so. Returns whether anything changed; undefined for an unknown component.
 */
export function setComponentLocked(db: Db, componentId: number, locked: boolean, userId: number | null, timestamp: string): boolean | undefined {
  const s = writes(db);
  return db.transaction(() => {
    const row = s.component.get(componentId) as { id: number; project_id: number; locked: number } | undefined;
    if (!row) return undefined;
    if ((row.locked === 1) === locked) return false;
    s.setLocked.run(locked ? 1 : 0, componentId);
    s.record({ action: locked ? Action.LOCK : Action.UNLOCK, timestamp, projectId: row.project_id, componentId, userId, details: { auto: false } });
    return true;
  })();
}

/** The component's translation in the language with this exact `Language.code`, or undefined. */
export function findTranslationByCode(db: Db, componentId: number, code: string): TranslationRefRow | undefined {
  return writes(db).translation.get(componentId, code) as TranslationRefRow | undefined;
}

/** Every unit of a translation, in position order. */
export function translationUnits(db: Db, translationId: number): UnitBriefRow[] {
  return (writes(db).unitsOf.all(translationId) as RawBrief[]).map(brief);
}

/** A unit with its component id, or undefined. */
export function findUnitBrief(db: Db, unitId: number): (UnitBriefRow & { component_id: number }) | undefined {
  const row = writes(db).unitComponent.get(unitId) as (RawBrief & { component_id: number }) | undefined;
  return row ? { ...brief(row), component_id: row.component_id } : undefined;
}

/** The units of a string in every translation of a component (the same id_hash), by translation. */
export function componentUnitsByHash(db: Db, componentId: number, idHash: bigint): UnitBriefRow[] {
  return (writes(db).unitsByHash.all(componentId, idHash) as RawBrief[]).map(brief);
}

/** Whether a translation has a unit with this id_hash. */
export function hasUnitHash(db: Db, translationId: number, idHash: bigint): boolean {
  return writes(db).hasHash.get(translationId, idHash) !== undefined;
}

/** The highest position in a translation (0 when it has no units). */
export function maxUnitPosition(db: Db, translationId: number): number {
  return writes(db).maxPosition.get(translationId) as number;
}

/**
 * Creates units in one transaction: a pending removal of the same string is dropped (the string is back), each
 * unit's change comes from `changeOf`, statistics of the touched translations are refreshed. Returns the unit ids.
 */
export function insertUnits(db: Db, units: readonly NewUnit[], changeOf: (unit: NewUnit, id: number) => ChangeInput | null): number[] {
  const s = writes(db);
  return db.transaction(() => {
    const ids: number[] = [];
    for (const u of units) {
      s.dropRemoval.run(u.translationId, u.idHash);
      const info = s.insertUnit.run(u.translationId, u.idHash, u.contentHash, u.context, u.source, u.target, u.state, u.state, u.position,
        u.numWords, u.numChars, u.pending ? 1 : 0, u.pending ? u.authorId : null, u.timestamp);
      const id = Number(info.lastInsertRowid);
      ids.push(id);
      const change = changeOf(u, id);
      if (change) s.record(change);
    }
    refreshStats(db, new Set(units.map((u) => u.translationId)));
    return ids;
  })();
}

/**
 * Deletes units in one transaction: their changes are recorded first, a pending removal is stored for each
 * translation that has a file (`withFile`), statistics are refreshed. Returns the change ids.
 */
export function removeUnits(
  db: Db,
  units: readonly UnitBriefRow[],
  withFile: ReadonlySet<number>,
  author: { id: number | null; timestamp: string },
  changes: readonly ChangeInput[],
): number[] {
  const s = writes(db);
  return db.transaction(() => {
    const ids = changes.map((c) => s.record(c));
    for (const u of units) {
      s.deleteUnit.run(u.id);
      if (withFile.has(u.translation_id)) s.addRemoval.run(u.translation_id, u.id_hash, u.context, u.source, author.id, author.timestamp);
    }
    refreshStats(db, new Set(units.map((u) => u.translation_id)));
    return ids;
  })();
}

/** Sets uploaded targets as pending edits, records `changes` (9 per string, then 78), refreshes statistics: one transaction. */
export function saveUploadedTargets(db: Db, translationId: number, edits: readonly UnitTargetEdit[], changes: readonly ChangeInput[]): number[] {
  const s = writes(db);
  return db.transaction(() => {
    for (const e of edits) s.setTarget.run(e.target, e.state, e.state, e.authorId, e.timestamp, e.id);
    const ids = changes.map((c) => s.record(c));
    refreshStats(db, [translationId]);
    return ids;
  })();
}

/** Every pending removal of a component, by translation. */
export function pendingRemovals(db: Db, componentId: number): PendingRemovalRow[] {
  const rows = writes(db).removals.all(componentId) as (Omit<PendingRemovalRow, 'id_hash'> & { id_hash: string })[];
  return rows.map((r) => ({ ...r, id_hash: BigInt(r.id_hash) }));
}

/** Whether the component has removals not yet committed. */
export function hasPendingRemovals(db: Db, componentId: number): boolean {
  return writes(db).hasRemovals.get(componentId) === 1;
}

/**
 * After a commit wrote them: forgets the removals, and deletes any unit of the same string a sync brought back
 * from the file meanwhile (with a bilingual source unit no translation holds any more), refreshing those
 * statistics. One transaction.
 */
export function clearRemovals(db: Db, removals: readonly PendingRemovalRow[]): void {
  if (removals.length === 0) return;
  const s = writes(db);
  db.transaction(() => {
    const touched = new Set<number>();
    for (const r of removals) {
      s.dropRemovalById.run(r.id);
      if (s.deleteUnitByHash.run(r.translation_id, r.id_hash).changes === 0) continue;
      touched.add(r.translation_id);
      const orphan = s.orphanSource.get(r.translation_id, r.id_hash) as { id: number; translation_id: number } | undefined;
      if (orphan) {
        s.deleteUnit.run(orphan.id);
        touched.add(orphan.translation_id);
      }
    }
    if (touched.size > 0) refreshStats(db, touched);
  })();
}

/** Stores removals again after their commit was taken back (a failed pull). */
export function restoreRemovals(db: Db, removals: readonly PendingRemovalRow[]): void {
  if (removals.length === 0) return;
  const s = writes(db);
  db.transaction(() => {
    for (const r of removals) s.addRemoval.run(r.translation_id, r.id_hash, r.context, r.source, r.pending_author_id, r.timestamp);
  })();
}
