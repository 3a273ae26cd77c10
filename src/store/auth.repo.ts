// Roles, teams (groups) and memberships: Weblate's defaults seeded, users joined to their teams.
import { ANONYMOUS_TEAMS, ANONYMOUS_USER_NAME, DEFAULT_ROLES, DEFAULT_TEAMS, NEW_USER_TEAMS, type Role, type TeamDefinition } from '../auth/defaults.js';
import { type Db, now } from './db.js';
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

const sql = preparedOnce((db: Db) => ({
  insertRole: db.prepare('INSERT INTO roles (name, permissions) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
  roleId: db.prepare('SELECT id FROM roles WHERE name = ?').pluck(),
  teamId: db.prepare('SELECT id FROM groups WHERE name = ? AND defining_project_id IS NULL').pluck(),
  insertTeam: db.prepare('INSERT INTO groups (name, project_selection, language_selection, internal) VALUES (?, ?, ?, 1)'),
  grant: db.prepare('INSERT OR IGNORE INTO group_roles (group_id, role_id) VALUES (?, ?)'),
  userId: db.prepare('SELECT id FROM users WHERE username = ?').pluck(),
  insertAnonymous: db.prepare(
    "INSERT INTO users (username, full_name, email, is_active, is_anonymous, date_joined) VALUES (?, 'Anonymous', 'noreply@localhost', 0, 1, ?)",
  ),
  join: db.prepare('INSERT OR IGNORE INTO user_groups (user_id, group_id) VALUES (?, ?)'),
  roles: db.prepare('SELECT * FROM roles ORDER BY id'),
  groups: db.prepare('SELECT * FROM groups ORDER BY id'),
}));

/**
 * Creates the missing default roles and site-wide teams, and the anonymous user; existing ones are left alone
 * (call inside a transaction).
 */
export function seedAuth(db: Db, roles: readonly Role[] = DEFAULT_ROLES, teams: readonly TeamDefinition[] = DEFAULT_TEAMS): void {
  const s = sql(db);
  for (const role of roles) s.insertRole.run(role.name, JSON.stringify(role.permissions));
  for (const team of teams) {
    if (s.teamId.get(team.name) !== undefined) continue;
    const id = Number(s.insertTeam.run(team.name, team.projectSelection, team.languageSelection).lastInsertRowid);
    for (const role of team.roles) s.grant.run(id, s.roleId.get(role));
  }
  if (s.userId.get(ANONYMOUS_USER_NAME) === undefined) {
    const id = Number(s.insertAnonymous.run(ANONYMOUS_USER_NAME, now()).lastInsertRowid);
    joinTeams(db, id, ANONYMOUS_TEAMS);
  }
}

/** Adds a user to these site-wide teams (missing teams are ignored). */
export function joinTeams(db: Db, userId: number, teams: readonly string[]): void {
  const s = sql(db);
  for (const name of teams) {
    const id = s.teamId.get(name) as number | undefined;
    if (id !== undefined) s.join.run(userId, id);
  }
}

/** The teams every new user joins. */
export function joinNewUserTeams(db: Db, userId: number): void {
  joinTeams(db, userId, NEW_USER_TEAMS);
}

export function listRoles(db: Db): RoleRow[] {
  return sql(db).roles.all() as RoleRow[];
}

export function listGroups(db: Db): GroupRow[] {
  return sql(db).groups.all() as GroupRow[];
}
