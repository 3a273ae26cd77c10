// Web sign-in: users' password hashes and browser sessions (the cookie's token is kept as its SHA-256, never itself).
import { USER_COLUMNS } from './accounts.query.js';
import type { AccountRow } from './accounts.query.js';
import type { Db } from './db.js';
import { preparedOnce } from './statements.js';
import { UserNotFoundError, hashToken } from './users.repo.js';

/** A session as a request resolves it: its user (active or not) and the CSRF token its forms carry. */
export interface SessionRow {
  user: AccountRow;
  csrf: string;
  expires: string;
}

const sql = preparedOnce((db: Db) => ({
  setPassword: db.prepare('UPDATE users SET password_hash = ? WHERE username = ? AND is_anonymous = 0'),
  credentials: db.prepare(`SELECT ${USER_COLUMNS}, password_hash FROM users WHERE username = ? AND is_anonymous = 0`),
  insert: db.prepare('INSERT INTO sessions (token_hash, user_id, csrf, created, expires) VALUES (?, ?, ?, ?, ?)'),
  byToken: db.prepare(`SELECT ${USER_COLUMNS.replace(/(\w+)/g, 'u.$1')}, s.csrf, s.expires FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = ? AND s.expires > ?`),
  remove: db.prepare('DELETE FROM sessions WHERE token_hash = ?'),
  removeOfUser: db.prepare('DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE username = ?)'),
  expire: db.prepare('DELETE FROM sessions WHERE expires <= ?'),
  lastLogin: db.prepare('UPDATE users SET last_login = ? WHERE id = ?'),
}));

/** Stores a user's password hash (replacing any earlier one) and ends every session of the user; unknown users are an error. */
export function setPasswordHash(db: Db, username: string, hash: string): void {
  if (sql(db).setPassword.run(hash, username).changes === 0) throw new UserNotFoundError(`user "${username}" not found`, { username });
  endUserSessions(db, username);
}

/** Ends every session of a user (a changed password, a disabled account): their browsers must sign in again. */
export function endUserSessions(db: Db, username: string): number {
  return sql(db).removeOfUser.run(username).changes;
}

/** A real user with their password hash (null when they have none), for signing in. */
export function findCredentials(db: Db, username: string): { user: AccountRow; passwordHash: string | null } | undefined {
  const row = sql(db).credentials.get(username) as (AccountRow & { password_hash: string | null }) | undefined;
  if (!row) return undefined;
  const { password_hash, ...user } = row;
  return { user, passwordHash: password_hash };
}

/** Opens a session for a user (call inside a transaction): drops expired ones and records the sign-in time. */
export function createSession(db: Db, input: { token: string; userId: number; csrf: string; created: string; expires: string }): void {
  const s = sql(db);
  s.expire.run(input.created);
  s.insert.run(hashToken(input.token), input.userId, input.csrf, input.created, input.expires);
  s.lastLogin.run(input.created, input.userId);
}

/** The unexpired session of a cookie token, or undefined. */
export function findSession(db: Db, token: string, at: string): SessionRow | undefined {
  const row = sql(db).byToken.get(hashToken(token), at) as (AccountRow & { csrf: string; expires: string }) | undefined;
  if (!row) return undefined;
  const { csrf, expires, ...user } = row;
  return { user, csrf, expires };
}

export function deleteSession(db: Db, token: string): void {
  sql(db).remove.run(hashToken(token));
}
