// Roles, teams (groups) and memberships: Weblate's defaults seeded, users joined to their teams.
import { ANONYMOUS_TEAMS, ANONYMOUS_USER_NAME, DEFAULT_ROLES, DEFAULT_TEAMS, NEW_USER_TEAMS, type Role, type TeamDefinition } from '../auth/defaults.js';
import { type Tx, now } from './db.js';
import { preparedOnce } from './statements.js';

export interface RoleRow {
  id: number;
  name: string;
  permissions: string;
}

export interface GroupRow {
  id: number;
  name: string;
  defining_project_id: number | null;
  project_selection: number;
  language_selection: number;
  internal: number;
  enforced_2fa: number;
}

const sql = preparedOnce((tx: Tx) => ({
  insertRole: tx.prepare('INSERT INTO roles (name, permissions) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
  roleId: tx.prepare('SELECT id FROM roles WHERE name = ?').pluck(),
  teamId: tx.prepare('SELECT id FROM groups WHERE name = ? AND defining_project_id IS NULL').pluck(),
  insertTeam: tx.prepare('INSERT INTO groups (name, project_selection, language_selection, internal) VALUES (?, ?, ?, 1)'),
  grant: tx.prepare('INSERT OR IGNORE INTO group_roles (group_id, role_id) VALUES (?, ?)'),
  userId: tx.prepare('SELECT id FROM users WHERE username = ?').pluck(),
  insertAnonymous: tx.prepare(
    "INSERT INTO users (username, full_name, email, is_active, is_anonymous, date_joined) VALUES (?, 'Anonymous', 'noreply@localhost', 0, 1, ?)",
  ),
  join: tx.prepare('INSERT OR IGNORE INTO user_groups (user_id, group_id) VALUES (?, ?)'),
  roles: tx.prepare('SELECT * FROM roles ORDER BY id'),
  groups: tx.prepare('SELECT * FROM groups ORDER BY id'),
}));

/**
 * Creates the missing default roles and site-wide teams, and the anonymous user; existing ones are left alone
 * (call inside a transaction).
 */
export async function seedAuth(tx: Tx, roles: readonly Role[] = DEFAULT_ROLES, teams: readonly TeamDefinition[] = DEFAULT_TEAMS): Promise<void> {
  const s = sql(tx);
  for (const role of roles) await s.insertRole.run(role.name, JSON.stringify(role.permissions));
  for (const team of teams) {
    if ((await s.teamId.get(team.name)) !== undefined) continue;
    const id = Number((await s.insertTeam.run(team.name, team.projectSelection, team.languageSelection)).lastInsertRowid);
    for (const role of team.roles) await s.grant.run(id, await s.roleId.get(role));
  }
  if ((await s.userId.get(ANONYMOUS_USER_NAME)) === undefined) {
    const id = Number((await s.insertAnonymous.run(ANONYMOUS_USER_NAME, now())).lastInsertRowid);
    await joinTeams(tx, id, ANONYMOUS_TEAMS);
  }
}

/** Adds a user to these site-wide teams (missing teams are ignored). */
export async function joinTeams(tx: Tx, userId: number, teams: readonly string[]): Promise<void> {
  const s = sql(tx);
  for (const name of teams) {
    const id = (await s.teamId.get(name)) as number | undefined;
    if (id !== undefined) await s.join.run(userId, id);
  }
}

/** The teams every new user joins. */
export async function joinNewUserTeams(tx: Tx, userId: number): Promise<void> {
  await joinTeams(tx, userId, NEW_USER_TEAMS);
}

export async function listRoles(tx: Tx): Promise<RoleRow[]> {
  return (await sql(tx).roles.all()) as RoleRow[];
}

export async function listGroups(tx: Tx): Promise<GroupRow[]> {
  return (await sql(tx).groups.all()) as GroupRow[];
}
