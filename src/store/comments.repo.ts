// Comments per string (Weblate's Comment): added, resolved, deleted; a source string's comments show in every translation.
import type { ChangeInput } from './changes.repo.js';
import { recordChangeRow } from './changes.repo.js';
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

export interface CommentRow {
  id: number;
  unit_id: number;
  component_id: number;
  id_hash: bigint;
  /** 1: written on the source string (shown in every translation). */
  source: number;
  comment: string;
  user_id: number | null;
  username: string | null;
  full_name: string | null;
  timestamp: string;
  resolved: number;
}

export interface NewComment {
  unitId: number;
  comment: string;
  userId: number | null;
  timestamp: string;
  change: ChangeInput;
}

const COLUMNS = 'm.id, m.unit_id, m.component_id, m.id_hash, m.source, m.comment, m.user_id, us.username, us.full_name, m.timestamp, m.resolved';

const sql = preparedOnce((tx: Tx) => ({
  unitKey: tx
    .prepare('SELECT t.component_id, u.id_hash, t.is_source FROM units u JOIN translations t ON t.id = u.translation_id WHERE u.id = ?')
    .safeIntegers(true),
  insert: tx.prepare(
    tx.dialect.returningId('INSERT INTO comments (unit_id, component_id, id_hash, source, comment, user_id, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)'),
  ),
  // the unit's own comments and those on its source string, oldest first
  ofUnit: tx
    .prepare(
      `SELECT ${COLUMNS} FROM comments m LEFT JOIN users us ON us.id = m.user_id
       WHERE m.unit_id = @unit OR (m.source = 1 AND m.component_id = @component AND m.id_hash = @hash)
       ORDER BY m.timestamp, m.id`,
    )
    .safeIntegers(true),
  byId: tx.prepare(`SELECT ${COLUMNS} FROM comments m LEFT JOIN users us ON us.id = m.user_id WHERE m.id = ?`).safeIntegers(true),
  // the units a comment shows on: its own, or every unit of the string in the component for a source comment
  shownOn: tx
    .prepare(
      'SELECT u.id, u.translation_id AS "translationId" FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.component_id = ? AND u.id_hash = ?',
    )
    .safeIntegers(false),
  ownUnit: tx.prepare('SELECT id, translation_id AS "translationId" FROM units WHERE id = ?').safeIntegers(false),
  resolve: tx.prepare('UPDATE comments SET resolved = 1 WHERE id = ? AND resolved = 0'),
  remove: tx.prepare('DELETE FROM comments WHERE id = ?'),
}));

function toComment(r: Record<string, unknown>): CommentRow {
  const n = (v: unknown) => (v === null ? null : Number(v));
  return {
    id: Number(r.id),
    unit_id: Number(r.unit_id),
    component_id: Number(r.component_id),
    id_hash: r.id_hash as bigint,
    source: Number(r.source),
    comment: r.comment as string,
    user_id: n(r.user_id),
    username: r.username as string | null,
    full_name: r.full_name as string | null,
    timestamp: r.timestamp as string,
    resolved: Number(r.resolved),
  };
}

/** Where a comment is written: its unit's component and string, and whether on the source string. */
export interface CommentKey {
  unit_id: number;
  component_id: number;
  id_hash: bigint;
  /** 1: on the source string (shown in every translation). */
  source: number;
}

/** Where a comment on this unit is written; undefined for an unknown unit. */
export async function commentKeyOf(tx: Tx, unitId: number): Promise<CommentKey | undefined> {
  const key = (await sql(tx).unitKey.get(unitId)) as { component_id: bigint; id_hash: bigint; is_source: bigint } | undefined;
  return key && { unit_id: unitId, source: Number(key.is_source), component_id: Number(key.component_id), id_hash: key.id_hash };
}

/** The units a comment shows on, with their translations: its own, or every unit of a source comment's string. */
export async function unitsShowing(tx: Tx, c: CommentKey): Promise<{ id: number; translationId: number }[]> {
  const s = sql(tx);
  const rows = c.source === 1 ? await s.shownOn.all(c.component_id, c.id_hash) : [await s.ownUnit.get(c.unit_id)].filter(Boolean);
  return rows as { id: number; translationId: number }[];
}

/** Adds a comment where `key` says, with its change (3) (call inside a transaction); returns its id. */
export async function addComment(tx: Tx, key: CommentKey, input: NewComment): Promise<number> {
  const id = Number(
    (await sql(tx).insert.run(input.unitId, key.component_id, key.id_hash, key.source, input.comment, input.userId, input.timestamp)).lastInsertRowid,
  );
  await recordChangeRow(tx, input.change);
  return id;
}

/** The comments shown on a unit: its own and its source string's, oldest first. */
export async function unitComments(tx: Tx, unitId: number): Promise<CommentRow[]> {
  const s = sql(tx);
  const key = (await s.unitKey.get(unitId)) as { component_id: bigint; id_hash: bigint } | undefined;
  if (!key) return [];
  return ((await s.ofUnit.all({ unit: unitId, component: key.component_id, hash: key.id_hash })) as Record<string, unknown>[]).map(toComment);
}

export async function findComment(tx: Tx, id: number): Promise<CommentRow | undefined> {
  const r = (await sql(tx).byId.get(id)) as Record<string, unknown> | undefined;
  return r && toComment(r);
}

/** Resolves a comment, recording its change (65); false when it is unknown or resolved already. */
export async function resolveComment(tx: Tx, id: number, change: ChangeInput): Promise<boolean> {
  if ((await sql(tx).resolve.run(id)).changes === 0) return false;
  await recordChangeRow(tx, change);
  return true;
}

/** Deletes a comment, recording its change (64); false when it is unknown. */
export async function deleteComment(tx: Tx, id: number, change: ChangeInput): Promise<boolean> {
  if ((await sql(tx).remove.run(id)).changes === 0) return false;
  await recordChangeRow(tx, change);
  return true;
}
