// Read queries for who is asking and for the account records the API shows: users, teams (groups), roles.
import type { Tx } from './db.js';
import { type Slice, counted, preparedOnce, statementCache } from './statements.js';
import { type UserRow, hashToken } from './users.repo.js';

/** A user as the API needs it: the users row without its dates. */
export type AccountRow = Omit<UserRow, 'date_joined' | 'last_login'>;

/** One team membership with what the permission resolver needs. */
export interface MembershipRow {
  groupId: number;
  name: string;
  projectSelection: number;
  languageSelection: number;
  enforced2fa: boolean;
  roles: { name: string; permissions: string[] }[];
  projects: number[];
  languages: string[];
  components: { id: number; project: number }[];
}

/** A team as the API shows it, with its relations resolved to the keys URLs use. */
export interface GroupRecordRow {
  id: number;
  name: string;
  defining_project: string | null;
  project_selection: number;
  language_selection: number;
  roles: number[];
  languages: string[];
  projects: string[];
  components: { project: string; component: string }[];
}

export interface RoleRecordRow {
  id: number;
  name: string;
  permissions: string[];
}

export interface UserFilter {
  /** Username prefix. */
  username?: string;
  id?: number;
}

function parseList(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

function groupBy<T>(rows: (T & { group_id: number })[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.group_id);
    if (list) list.push(row);
    else map.set(row.group_id, [row]);
  }
  return map;
}

export const USER_COLUMNS = 'id, username, full_name, email, is_superuser, is_active, is_bot, is_anonymous';

const groupIds = 'SELECT value FROM json_each(?)';
const groupColumns = `g.id, g.name, p.slug AS defining_project, g.project_selection, g.language_selection
   FROM groups g LEFT JOIN projects p ON p.id = g.defining_project_id`;

const sql = preparedOnce((tx: Tx) => ({
  byTokenHash: tx.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE token_hash = ?`),
  byId: tx.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`),
  byUsername: tx.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE username = ? AND is_anonymous = 0`),
  anonymous: tx.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE is_anonymous = 1 ORDER BY id LIMIT 1`),
  groupsOfUser: tx.prepare(
    `SELECT g.id, g.name, g.project_selection, g.language_selection, g.enforced_2fa
     FROM user_groups ug JOIN groups g ON g.id = ug.group_id WHERE ug.user_id = ? ORDER BY g.id`,
  ),
  rolesOf: tx.prepare(
    `SELECT gr.group_id, r.id, r.name, r.permissions FROM group_roles gr JOIN roles r ON r.id = gr.role_id
     WHERE gr.group_id IN (${groupIds}) ORDER BY r.id`,
  ),
  projectsOf: tx.prepare(
    `SELECT gp.group_id, p.id, p.slug FROM group_projects gp JOIN projects p ON p.id = gp.project_id
     WHERE gp.group_id IN (${groupIds}) ORDER BY p.id`,
  ),
  languagesOf: tx.prepare(
    `SELECT gl.group_id, l.code FROM group_languages gl JOIN languages l ON l.id = gl.language_id
     WHERE gl.group_id IN (${groupIds}) ORDER BY l.id`,
  ),
  componentsOf: tx.prepare(
    `SELECT gc.group_id, c.id, c.project_id, c.slug, p.slug AS project_slug FROM group_components gc
     JOIN components c ON c.id = gc.component_id JOIN projects p ON p.id = c.project_id
     WHERE gc.group_id IN (${groupIds}) ORDER BY c.id`,
  ),
  allGroups: tx.prepare(`SELECT ${groupColumns} ORDER BY g.id`),
  userGroups: tx.prepare(`SELECT ${groupColumns} WHERE g.id IN (SELECT group_id FROM user_groups WHERE user_id = ?) ORDER BY g.id`),
  allRoles: tx.prepare('SELECT id, name, permissions FROM roles ORDER BY id'),
  userRoles: tx.prepare(
    `SELECT id, name, permissions FROM roles WHERE id IN (
       SELECT gr.role_id FROM group_roles gr JOIN user_groups ug ON ug.group_id = gr.group_id WHERE ug.user_id = ?)
     ORDER BY id`,
  ),
  statement: statementCache(tx, 20),
}));

type GroupRow = Omit<GroupRecordRow, 'roles' | 'languages' | 'projects' | 'components'>;

async function withRelations(tx: Tx, rows: GroupRow[]): Promise<GroupRecordRow[]> {
  const s = sql(tx);
  const ids = JSON.stringify(rows.map((g) => g.id));
  const [roleRows, projectRows, languageRows, componentRows] = await Promise.all([
    s.rolesOf.all(ids),
    s.projectsOf.all(ids),
    s.languagesOf.all(ids),
    s.componentsOf.all(ids),
  ]);
  const roles = groupBy(roleRows as { group_id: number; id: number }[]);
  const projects = groupBy(projectRows as { group_id: number; slug: string }[]);
  const languages = groupBy(languageRows as { group_id: number; code: string }[]);
  const components = groupBy(componentRows as { group_id: number; slug: string; project_slug: string }[]);
  return rows.map((g) => ({
    ...g,
    roles: (roles.get(g.id) ?? []).map((r) => r.id),
    languages: (languages.get(g.id) ?? []).map((l) => l.code),
    projects: (projects.get(g.id) ?? []).map((p) => p.slug),
    components: (components.get(g.id) ?? []).map((c) => ({ project: c.project_slug, component: c.slug })),
  }));
}

function userWhere(filter: UserFilter): { sql: string; params: unknown[] } {
  const clauses = ['is_anonymous = 0'];
  const params: unknown[] = [];
  if (filter.username !== undefined) {
    clauses.push("username LIKE ? ESCAPE '\\'");
    params.push(`${filter.username.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (filter.id !== undefined) {
    clauses.push('id = ?');
    params.push(filter.id);
  }
  return { sql: `WHERE ${clauses.join(' AND ')}`, params };
}

/** The user owning this API token (active or not), or undefined. */
export async function accountByToken(tx: Tx, token: string): Promise<AccountRow | undefined> {
  return (await sql(tx).byTokenHash.get(hashToken(token))) as AccountRow | undefined;
}

export async function accountById(tx: Tx, id: number): Promise<AccountRow | undefined> {
  return (await sql(tx).byId.get(id)) as AccountRow | undefined;
}

/** A real (non-anonymous) user by username. */
export async function accountByUsername(tx: Tx, username: string): Promise<AccountRow | undefined> {
  return (await sql(tx).byUsername.get(username)) as AccountRow | undefined;
}

/** The user that stands for unauthenticated requests. */
export async function anonymousAccount(tx: Tx): Promise<AccountRow | undefined> {
  return (await sql(tx).anonymous.get()) as AccountRow | undefined;
}

/** The user's team memberships with roles, projects, languages and components. */
export async function memberships(tx: Tx, userId: number): Promise<MembershipRow[]> {
  const s = sql(tx);
  const groups = (await s.groupsOfUser.all(userId)) as {
    id: number;
    name: string;
    project_selection: number;
    language_selection: number;
    enforced_2fa: number;
  }[];
  if (groups.length === 0) return [];
  const ids = JSON.stringify(groups.map((g) => g.id));
  const [roleRows, projectRows, languageRows, componentRows] = await Promise.all([
    s.rolesOf.all(ids),
    s.projectsOf.all(ids),
    s.languagesOf.all(ids),
    s.componentsOf.all(ids),
  ]);
  const roles = groupBy(roleRows as { group_id: number; name: string; permissions: string }[]);
  const projects = groupBy(projectRows as { group_id: number; id: number }[]);
  const languages = groupBy(languageRows as { group_id: number; code: string }[]);
  const components = groupBy(componentRows as { group_id: number; id: number; project_id: number }[]);
  return groups.map((g) => ({
    groupId: g.id,
    name: g.name,
    projectSelection: g.project_selection,
    languageSelection: g.language_selection,
    enforced2fa: g.enforced_2fa !== 0,
    roles: (roles.get(g.id) ?? []).map((r) => ({ name: r.name, permissions: parseList(r.permissions) })),
    projects: (projects.get(g.id) ?? []).map((p) => p.id),
    languages: (languages.get(g.id) ?? []).map((l) => l.code),
    components: (components.get(g.id) ?? []).map((c) => ({ id: c.id, project: c.project_id })),
  }));
}

/** Real users by id. */
export async function accounts(tx: Tx, filter: UserFilter, slice: Slice): Promise<AccountRow[]> {
  const w = userWhere(filter);
  return (await sql(tx)
    .statement(`SELECT ${USER_COLUMNS} FROM users ${w.sql} ORDER BY id LIMIT ? OFFSET ?`)
    .all(...w.params, slice.limit, slice.offset)) as AccountRow[];
}

/** How many users `accounts` lists (remembered until the data changes). */
export function countAccounts(tx: Tx, filter: UserFilter): Promise<number> {
  const w = userWhere(filter);
  const text = `SELECT count(*) FROM users ${w.sql}`;
  return counted(tx, text + JSON.stringify(w.params), () =>
    sql(tx)
      .statement(text)
      .pluck()
      .get(...w.params),
  );
}

/** Every team, or only the teams of this user. */
export async function groupRecords(tx: Tx, memberOf?: number): Promise<GroupRecordRow[]> {
  const s = sql(tx);
  const rows = (await (memberOf === undefined ? s.allGroups.all() : s.userGroups.all(memberOf))) as GroupRow[];
  return withRelations(tx, rows);
}

/** Every role, or only the roles this user's teams grant. */
export async function roleRecords(tx: Tx, grantedTo?: number): Promise<RoleRecordRow[]> {
  const s = sql(tx);
  const rows = (await (grantedTo === undefined ? s.allRoles.all() : s.userRoles.all(grantedTo))) as { id: number; name: string; permissions: string }[];
  return rows.map((r) => ({ id: r.id, name: r.name, permissions: parseList(r.permissions) }));
}
