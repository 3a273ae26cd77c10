// Suggestions per string (Weblate's Suggestion) with their votes; the translation's `suggestions` count follows each change.
import type { ChangeInput } from './changes.repo.js';
import { recordChangeRow } from './changes.repo.js';
import type { Db } from './db.js';
import type { EditableUnit } from './edits.repo.js';
import { saveUnitEdit } from './edits.repo.js';
import { preparedOnce } from './statements.js';
import { applyUnitStats, refreshStats, unitStatsFacts } from './stats.repo.js';

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

const sql = preparedOnce((db: Db) => ({
  insert: db.prepare('INSERT INTO suggestions (unit_id, target, user_id, timestamp) VALUES (?, ?, ?, ?)'),
  translationOf: db.prepare('SELECT translation_id FROM units WHERE id = ?').pluck(),
  exists: db.prepare('SELECT 1 FROM suggestions WHERE unit_id = ? AND target = ?').pluck(),
  ofUnit: db.prepare(
    `SELECT ${COLUMNS} FROM suggestions g JOIN units u ON u.id = g.unit_id LEFT JOIN users us ON us.id = g.user_id
     WHERE g.unit_id = ? ORDER BY g.timestamp, g.id`,
  ),
  byId: db.prepare(`SELECT ${COLUMNS} FROM suggestions g JOIN units u ON u.id = g.unit_id LEFT JOIN users us ON us.id = g.user_id WHERE g.id = ?`),
  remove: db.prepare('DELETE FROM suggestions WHERE id = ?'),
  vote: db.prepare(
    'INSERT INTO suggestion_votes (suggestion_id, user_id, value) VALUES (?, ?, ?) ON CONFLICT (suggestion_id, user_id) DO UPDATE SET value = excluded.value',
  ),
  unvote: db.prepare('DELETE FROM suggestion_votes WHERE suggestion_id = ? AND user_id = ?'),
  userVote: db.prepare('SELECT value FROM suggestion_votes WHERE suggestion_id = ? AND user_id = ?').pluck(),
  count: db.prepare('SELECT count(*) FROM suggestions').pluck(),
}));

/** Runs `work` on a unit and moves its translation's statistics by the unit's change of share. */
export function withUnitStats<T>(db: Db, unitIds: readonly number[], work: () => T): T {
  const before = unitIds.map((id) => ({ id, facts: unitStatsFacts(db, id), translation: sql(db).translationOf.get(id) as number | undefined }));
  const result = work();
  for (const b of before) {
    if (b.translation === undefined) continue;
    const after = unitStatsFacts(db, b.id);
    if (b.facts && after) applyUnitStats(db, b.translation, b.facts, after);
    else refreshStats(db, [b.translation]);
  }
  return result;
}

/** Whether the unit has a suggestion with exactly this text. */
export function hasSuggestion(db: Db, unitId: number, target: string): boolean {
  return sql(db).exists.get(unitId, target) !== undefined;
}

/** Stores suggestions with their changes (call inside a transaction); returns their ids. */
export function addSuggestions(db: Db, items: readonly NewSuggestion[]): number[] {
  const s = sql(db);
  return items.map((item) =>
    withUnitStats(db, [item.unitId], () => {
      const id = Number(s.insert.run(item.unitId, item.target, item.userId, item.timestamp).lastInsertRowid);
      recordChangeRow(db, item.change);
      return id;
    }),
  );
}

/** The suggestions of a unit, oldest first. */
export function unitSuggestions(db: Db, unitId: number): SuggestionRow[] {
  return sql(db).ofUnit.all(unitId) as SuggestionRow[];
}

export function findSuggestion(db: Db, id: number): SuggestionRow | undefined {
  return sql(db).byId.get(id) as SuggestionRow | undefined;
}

/** Deletes a suggestion, recording `change` when given (26); false when there was none. */
export function deleteSuggestion(db: Db, id: number, change: ChangeInput | null): boolean {
  const found = findSuggestion(db, id);
  if (!found) return false;
  withUnitStats(db, [found.unit_id], () => sql(db).remove.run(id));
  if (change) recordChangeRow(db, change);
  return true;
}

/** Sets (value ±1) or withdraws (0) the user's vote; returns the suggestion's vote total, undefined when it is gone. */
export function voteSuggestion(db: Db, id: number, userId: number, value: number): number | undefined {
  const s = sql(db);
  if (!findSuggestion(db, id)) return undefined;
  if (value === 0) s.unvote.run(id, userId);
  else s.vote.run(id, userId, value);
  return findSuggestion(db, id)!.votes;
}

/** The user's vote on a suggestion (1, -1) or 0. */
export function userVote(db: Db, id: number, userId: number): number {
  return (sql(db).userVote.get(id, userId) as number | undefined) ?? 0;
}

/**
 * Accepts a suggestion (call inside a transaction): the unit takes its text as a pending edit whose author is the
 * suggestion's (change 7 through `edit.change`), and the suggestion is removed. Returns the edit's change id and state.
 */
export function acceptSuggestion(
  db: Db,
  id: number,
  unit: Pick<EditableUnit, 'id' | 'translation_id'>,
  edit: Parameters<typeof saveUnitEdit>[2],
): { changeId: number; state: number } {
  const result = saveUnitEdit(db, unit, edit);
  withUnitStats(db, [unit.id], () => sql(db).remove.run(id));
  return result;
}

/** Every suggestion of the instance (the metrics). */
export function countSuggestions(db: Db): number {
  return sql(db).count.get() as number;
}
