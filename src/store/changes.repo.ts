// The change log: one row per event (action codes as Weblate's), newest first when read.
import { ACTIONS_MERGE_FAILURE, ACTIONS_REPOSITORY } from '../domain/actions.js';
import type { Tx } from './db.js';
import type { BulkColumn } from './db.js';
import { preparedOnce } from './statements.js';

export interface ChangeInput {
  action: number;
  timestamp: string;
  projectId?: number | null;
  componentId?: number | null;
  translationId?: number | null;
  unitId?: number | null;
  languageId?: number | null;
  userId?: number | null;
  authorId?: number | null;
  target?: string;
  old?: string;
  details?: Record<string, unknown>;
}

/** Where a unit is, as a change of it records it: its id and those of its translation, component, project, language. */
export interface UnitPlace {
  id: number;
  translation_id: number;
  component_id: number;
  project_id: number;
  language_id: number;
}

/**
 * A change of one unit: where it happened from the unit, the rest from `fields`.
 * @example unitChange(unit, { action: Action.CHANGE, timestamp: now(), userId: 7, authorId: 7, target: 'Hallo' })
 */
export function unitChange(u: UnitPlace, fields: Omit<ChangeInput, 'projectId' | 'componentId' | 'translationId' | 'unitId' | 'languageId'>): ChangeInput {
  return { projectId: u.project_id, componentId: u.component_id, translationId: u.translation_id, unitId: u.id, languageId: u.language_id, ...fields };
}

export interface ChangeRow {
  id: number;
  timestamp: string;
  action: number;
  project_id: number | null;
  component_id: number | null;
  translation_id: number | null;
  unit_id: number | null;
  language_id: number | null;
  user_id: number | null;
  author_id: number | null;
  target: string;
  old: string;
  details: string;
}

const CHANGE_COLUMNS: readonly BulkColumn[] = [
  ['timestamp', 'text'],
  ['action', 'bigint'],
  ['project_id', 'bigint'],
  ['component_id', 'bigint'],
  ['translation_id', 'bigint'],
  ['unit_id', 'bigint'],
  ['language_id', 'bigint'],
  ['user_id', 'bigint'],
  ['author_id', 'bigint'],
  ['target', 'text'],
  ['old', 'text'],
  ['details', 'text'],
];

const sql = preparedOnce((tx: Tx) => ({
  insert: tx.prepare(
    tx.dialect.returningId(
      `INSERT INTO changes (timestamp, action, project_id, component_id, translation_id, unit_id, language_id, user_id, author_id, target, old, details)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  ),
  ofComponent: tx.prepare('SELECT * FROM changes WHERE component_id = ? ORDER BY timestamp DESC, id DESC LIMIT ?'),
  lastRepository: tx.prepare(
    `SELECT action, target FROM changes WHERE component_id = ? AND action IN (${[...ACTIONS_REPOSITORY].join(',')})
     ORDER BY timestamp DESC, id DESC LIMIT 1`,
  ),
  remove: tx.prepare('DELETE FROM changes WHERE id = ?'),
  // many changes in one statement, inserted in their order (the ids ascend with it)
  insertOf: tx.prepare(
    `INSERT INTO changes (${CHANGE_COLUMNS.map(([name]) => name).join(', ')})
     SELECT ${CHANGE_COLUMNS.map(([name]) => `r.${name}`).join(', ')} FROM (${tx.dialect.rowsOfJson([...CHANGE_COLUMNS, ['ord', 'bigint']])}) AS r
     ORDER BY r.ord RETURNING id`,
  ),
}));

const changeValues = (c: ChangeInput): unknown[] => [
  c.timestamp,
  c.action,
  c.projectId ?? null,
  c.componentId ?? null,
  c.translationId ?? null,
  c.unitId ?? null,
  c.languageId ?? null,
  c.userId ?? null,
  c.authorId ?? null,
  c.target ?? '',
  c.old ?? '',
  JSON.stringify(c.details ?? {}),
];

/** Records one change; returns its id. */
export async function recordChangeRow(tx: Tx, c: ChangeInput): Promise<number> {
  return Number((await sql(tx).insert.run(...changeValues(c))).lastInsertRowid);
}

/** Records changes in their order, in one statement; returns their ids in order. */
export async function recordChanges(tx: Tx, changes: readonly ChangeInput[]): Promise<number[]> {
  if (changes.length === 0) return [];
  if (changes.length === 1) return [await recordChangeRow(tx, changes[0]!)];
  const rows = changes.map((c, i) => [...changeValues(c), i]);
  const ids = ((await sql(tx).insertOf.all(JSON.stringify(rows))) as { id: number }[]).map((r) => Number(r.id));
  return ids.sort((a, b) => a - b);
}

/** Records many changes (in a few statements where a statement costs a round trip; ids in a bulk insert's order are not kept). */
export async function recordChangeRows(tx: Tx, changes: readonly ChangeInput[]): Promise<void> {
  const { bulk } = tx.dialect;
  if (!bulk) {
    for (const c of changes) await recordChangeRow(tx, c);
    return;
  }
  await bulk.insert(tx, 'changes', CHANGE_COLUMNS, changes.map(changeValues));
}

/** Deletes change records (a commit taken back). */
export async function deleteChanges(tx: Tx, ids: readonly number[]): Promise<void> {
  const { remove } = sql(tx);
  for (const id of ids) await remove.run(id);
}

/** Changes of a component, newest first. */
export async function componentChanges(tx: Tx, componentId: number, limit = 100): Promise<ChangeRow[]> {
  return (await sql(tx).ofComponent.all(componentId, limit)) as ChangeRow[];
}

/** The text of the newest repository change when it is a failure (22, 23, 28), else null. */
export async function mergeFailure(tx: Tx, componentId: number): Promise<string | null> {
  const row = (await sql(tx).lastRepository.get(componentId)) as { action: number; target: string } | undefined;
  return row && ACTIONS_MERGE_FAILURE.has(row.action) ? row.target : null;
}
