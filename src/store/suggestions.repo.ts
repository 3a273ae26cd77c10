// Suggestions per string (Weblate's Suggestion) with their votes (their translations' counts are kept by statistics/).
import type { ChangeInput } from './changes.repo.js';
import { recordChangeRow } from './changes.repo.js';
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

/** A suggestion with its author and the sum of its votes. */
export interface SuggestionRow {
  id: number;
  unit_id: number;
  translation_id: number;
  target: string;
  user_id: number | null;
  username: string | null;
  full_name: string | null;
  timestamp: string;
  votes: number;
}

/** One suggestion to store, with the change (4) it records. */
export interface NewSuggestion {
  unitId: number;
  target: string;
  userId: number | null;
  timestamp: string;
  change: ChangeInput;
}

const COLUMNS = `g.id, g.unit_id, u.translation_id, g.target, g.user_id, us.username, us.full_name, g.timestamp,
  coalesce((SELECT sum(v.value) FROM suggestion_votes v WHERE v.suggestion_id = g.id), 0) AS votes`;

const sql = preparedOnce((tx: Tx) => ({
  insert: tx.prepare(tx.dialect.returningId('INSERT INTO suggestions (unit_id, target, user_id, timestamp) VALUES (?, ?, ?, ?)')),
  exists: tx.prepare('SELECT 1 FROM suggestions WHERE unit_id = ? AND target = ?').pluck(),
  ofUnit: tx.prepare(
    `SELECT ${COLUMNS} FROM suggestions g JOIN units u ON u.id = g.unit_id LEFT JOIN users us ON us.id = g.user_id
     WHERE g.unit_id = ? ORDER BY g.timestamp, g.id`,
  ),
  byId: tx.prepare(`SELECT ${COLUMNS} FROM suggestions g JOIN units u ON u.id = g.unit_id LEFT JOIN users us ON us.id = g.user_id WHERE g.id = ?`),
  remove: tx.prepare('DELETE FROM suggestions WHERE id = ?'),
  vote: tx.prepare(
    'INSERT INTO suggestion_votes (suggestion_id, user_id, value) VALUES (?, ?, ?) ON CONFLICT (suggestion_id, user_id) DO UPDATE SET value = excluded.value',
  ),
  unvote: tx.prepare('DELETE FROM suggestion_votes WHERE suggestion_id = ? AND user_id = ?'),
  userVote: tx.prepare('SELECT value FROM suggestion_votes WHERE suggestion_id = ? AND user_id = ?').pluck(),
  count: tx.prepare('SELECT count(*) FROM suggestions').pluck(),
}));

/** Whether the unit has a suggestion with exactly this text. */
export async function hasSuggestion(tx: Tx, unitId: number, target: string): Promise<boolean> {
  return (await sql(tx).exists.get(unitId, target)) !== undefined;
}

/**
 * Stores suggestions with their changes (call inside a transaction; the statistics are the caller's:
 * statistics/follow.ts); returns their ids.
 */
export async function addSuggestions(tx: Tx, items: readonly NewSuggestion[]): Promise<number[]> {
  const s = sql(tx);
  const ids: number[] = [];
  for (const item of items) {
    ids.push(Number((await s.insert.run(item.unitId, item.target, item.userId, item.timestamp)).lastInsertRowid));
    await recordChangeRow(tx, item.change);
  }
  return ids;
}

/** The suggestions of a unit, oldest first. */
export async function unitSuggestions(tx: Tx, unitId: number): Promise<SuggestionRow[]> {
  return (await sql(tx).ofUnit.all(unitId)) as SuggestionRow[];
}

export async function findSuggestion(tx: Tx, id: number): Promise<SuggestionRow | undefined> {
  return (await sql(tx).byId.get(id)) as SuggestionRow | undefined;
}

/** Deletes a suggestion, recording `change` when given (26: deleted; none when its unit took it); false when there was none. */
export async function deleteSuggestion(tx: Tx, id: number, change: ChangeInput | null): Promise<boolean> {
  if ((await sql(tx).remove.run(id)).changes === 0) return false;
  if (change) await recordChangeRow(tx, change);
  return true;
}

/** Sets (value ±1) or withdraws (0) the user's vote; returns the suggestion's vote total, undefined when it is gone. */
export async function voteSuggestion(tx: Tx, id: number, userId: number, value: number): Promise<number | undefined> {
  const s = sql(tx);
  if (!(await findSuggestion(tx, id))) return undefined;
  if (value === 0) await s.unvote.run(id, userId);
  else await s.vote.run(id, userId, value);
  return (await findSuggestion(tx, id))!.votes;
}

/** The user's vote on a suggestion (1, -1) or 0. */
export async function userVote(tx: Tx, id: number, userId: number): Promise<number> {
  return ((await sql(tx).userVote.get(id, userId)) as number | undefined) ?? 0;
}

/** Every suggestion of the instance (the metrics). */
export async function countSuggestions(tx: Tx): Promise<number> {
  return (await sql(tx).count.get()) as number;
}
