// Read queries for the change history as the API lists it: newest first, scoped and filtered.
import type { ChangeRow } from './changes.repo.js';
import type { Tx } from './db.js';
import { type Slice, counted, preparedOnce, statementCache } from './statements.js';

/** A change with the usernames of its user and author resolved. */
export interface ChangeRecordRow
  extends Pick<ChangeRow, 'id' | 'timestamp' | 'action' | 'project_id' | 'component_id' | 'translation_id' | 'unit_id' | 'target'> {
  user: string | null;
  author: string | null;
}

export interface ChangeFilter {
  /** Only changes of this project, component or translation. */
  projectId?: number;
  componentId?: number;
  translationId?: number;
  /** Only changes of this unit (its history). */
  unitId?: number;
  /** Only changes in this language. */
  languageId?: number;
  /** Username of the acting user. */
  user?: string;
  /** Its id, resolved by the list functions (an unknown username matches nothing). */
  userId?: number | null;
  /** Any of these action codes. */
  actions?: readonly number[];
  /** Inclusive bounds, ISO 8601 (as stored: UTC with `Z`). */
  after?: string;
  before?: string;
  /** Projects the caller may see; `null` for all. Changes outside any project are always listed. */
  visibleProjects: readonly number[] | null;
  /** Restricted components the caller may not see. */
  hiddenComponents?: readonly number[];
}

const SELECT = `SELECT c.id, c.timestamp, c.action, c.project_id, c.component_id, c.translation_id, c.unit_id,
  uu.username AS user, au.username AS author, c.target
  FROM changes c LEFT JOIN users uu ON uu.id = c.user_id LEFT JOIN users au ON au.id = c.author_id`;

function where(tx: Tx, filter: ChangeFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.translationId !== undefined) {
    clauses.push('c.translation_id = ?');
    params.push(filter.translationId);
  } else if (filter.componentId !== undefined) {
    clauses.push('c.component_id = ?');
    params.push(filter.componentId);
  } else if (filter.projectId !== undefined) {
    clauses.push('c.project_id = ?');
    params.push(filter.projectId);
  }
  if (filter.unitId !== undefined) {
    clauses.push('c.unit_id = ?');
    params.push(filter.unitId);
  }
  if (filter.languageId !== undefined) {
    clauses.push('c.language_id = ?');
    params.push(filter.languageId);
  }
  if (filter.visibleProjects !== null) {
    clauses.push(`(c.project_id IS NULL OR c.project_id IN (${tx.dialect.idsOfJson}))`);
    params.push(JSON.stringify(filter.visibleProjects));
  }
  if (filter.hiddenComponents && filter.hiddenComponents.length > 0) {
    clauses.push(`(c.component_id IS NULL OR c.component_id NOT IN (${tx.dialect.idsOfJson}))`);
    params.push(JSON.stringify(filter.hiddenComponents));
  }
  if (filter.user !== undefined || filter.userId !== undefined) {
    // the user's id as a value (resolveUser): compared with a subquery, the planner reads every change
    clauses.push('c.user_id = ?');
    params.push(filter.userId ?? null);
  }
  if (filter.actions && filter.actions.length > 0) {
    clauses.push(`c.action IN (${filter.actions.map(() => '?').join(', ')})`);
    params.push(...filter.actions);
  }
  if (filter.after !== undefined) {
    clauses.push('c.timestamp >= ?');
    params.push(filter.after);
  }
  if (filter.before !== undefined) {
    clauses.push('c.timestamp <= ?');
    params.push(filter.before);
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const sql = preparedOnce((tx: Tx) => ({
  byId: tx.prepare(`${SELECT} WHERE c.id = ?`),
  userId: tx.prepare('SELECT id FROM users WHERE username = ?').pluck(),
  statement: statementCache(tx),
}));

export async function changeRecord(tx: Tx, id: number): Promise<ChangeRecordRow | undefined> {
  return (await sql(tx).byId.get(id)) as ChangeRecordRow | undefined;
}

/** The filter with its username resolved to the user's id (so that the user's index serves the list). */
async function resolveUser(tx: Tx, filter: ChangeFilter): Promise<ChangeFilter> {
  if (filter.user === undefined || filter.userId !== undefined) return filter;
  const id = (await sql(tx).userId.get(filter.user)) as number | undefined;
  return { ...filter, userId: id === undefined ? null : Number(id) };
}

/** Changes newest first: descending timestamp, then id. */
export async function changeRecords(tx: Tx, filter: ChangeFilter, slice: Slice): Promise<ChangeRecordRow[]> {
  const w = where(tx, await resolveUser(tx, filter));
  return (await sql(tx)
    .statement(`${SELECT} ${w.sql} ORDER BY c.timestamp DESC, c.id DESC LIMIT ? OFFSET ?`)
    .all(...w.params, slice.limit, slice.offset)) as ChangeRecordRow[];
}

/** How many changes `changeRecords` lists (remembered until the data changes). */
export async function countChangeRecords(tx: Tx, filter: ChangeFilter): Promise<number> {
  const w = where(tx, await resolveUser(tx, filter));
  const text = `SELECT count(*) FROM changes c ${w.sql}`;
  return counted(tx, text + JSON.stringify(w.params), () =>
    sql(tx)
      .statement(text)
      .pluck()
      .get(...w.params),
  );
}
