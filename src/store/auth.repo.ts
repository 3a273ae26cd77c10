// Roles, teams (groups) and memberships: Weblate's defaults seeded, users joined to their teams.
import { ANONYMOUS_TEAMS, ANONYMOUS_USER_NAME, DEFAULT_ROLES, DEFAULT_TEAMS, NEW_USER_TEAMS, type Role, type TeamDefinition } from '../auth/defaults.js';
import { type Db, now } from './db.js';

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

/** Creates the missing default roles and site-wide teams, and the anonymous user; existing ones are left alone. */
export function seedAuth(db: Db, roles: readonly Role[] = DEFAULT_ROLES, teams: readonly TeamDefinition[] = DEFAULT_TEAMS): void {
  const insertRole = db.prepare('INSERT INTO roles (name, permissions) VALUES (?, ?) ON CONFLICT (name) DO NOTHING');
  const roleId = db.prepare('SELECT id FROM roles WHERE name = ?').pluck();
  const teamId = db.prepare('SELECT id FROM groups WHERE name = ? AND defining_project_id IS NULL').pluck();
  const insertTeam = db.prepare(
    'INSERT INTO groups (name, project_selection, language_selection, internal) VALUES (?, ?, ?, 1)',
  );
  const grant = db.prepare('INSERT OR IGNORE INTO group_roles (group_id, role_id) VALUES (?, ?)');
  db.transaction(() => {
    for (const role of roles) insertRole.run(role.name, JSON.stringify(role.permissions));
    for (const team of teams) {
      if (teamId.get(team.name) !== undefined) continue;
      const id = Number(insertTeam.run(team.name, team.projectSelection, team.languageSelection).lastInsertRowid);
      for (const role of team.roles) grant.run(id, roleId.get(role));
    }
    const anonymous = db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(ANONYMOUS_USER_NAME) as number | undefined;
    if (anonymous === undefined) {
      const id = Number(
        db.prepare(
          "INSERT INTO users (username, full_name, email, is_active, is_anonymous, date_joined) VALUES (?, 'Anonymous', 'noreply@localhost', 0, 1, ?)",
        ).run(ANONYMOUS_USER_NAME, now()).lastInsertRowid,
      );
      joinTeams(db, id, ANONYMOUS_TEAMS);
    }
  })();
}

/** Adds a user to these site-wide teams (missing teams are ignored). */
export function joinTeams(db: Db, userId: number, teams: readonly string[]): void {
  const teamId = db.prepare('SELECT id FROM groups WHERE name = ? AND defining_project_id IS NULL').pluck();
  const join = db.prepare('INSERT OR IGNORE INTO user_groups (user_id, group_id) VALUES (?, ?)');
  for (const name of teams) {
    const id = teamId.get(name) as number | undefined;
    if (id !== undefined) join.run(userId, id);
  }
}

/** The teams every new user joins. */
export function joinNewUserTeams(db: Db, userId: number): void {
  joinTeams(db, userId, NEW_USER_TEAMS);
}

export function listRoles(db: Db): RoleRow[] {
  return db.prepare('SELECT * FROM roles ORDER BY id').all() as RoleRow[];
}

export function listGroups(db: Db): GroupRow[] {
  return db.prepare('SELECT * FROM groups ORDER BY id').all() as GroupRow[];
}
