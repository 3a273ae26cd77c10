// Web sign-in: users' password hashes and browser sessions (the cookie's token is kept as its SHA-256, never itself).
import { USER_COLUMNS } from './accounts.query.js';
import type { AccountRow } from './accounts.query.js';
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';
import { UserNotFoundError, hashToken, setUserActive } from './users.repo.js';

/** A session as a request resolves it: its user (active or not) and the CSRF token its forms carry. */
export interface SessionRow {
  user: AccountRow;
  csrf: string;
  expires: string;
}

const sql = preparedOnce((tx: Tx) => ({
  setPassword: tx.prepare('UPDATE users SET password_hash = ? WHERE username = ? AND is_anonymous = 0'),
  credentials: tx.prepare(`SELECT ${USER_COLUMNS}, password_hash FROM users WHERE username = ? AND is_anonymous = 0`),
  insert: tx.prepare('INSERT INTO sessions (token_hash, user_id, csrf, created, expires) VALUES (?, ?, ?, ?, ?)'),
  byToken: tx.prepare(`SELECT ${USER_COLUMNS.replace(/(\w+)/g, 'u.$1')}, s.csrf, s.expires FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = ? AND s.expires > ?`),
  remove: tx.prepare('DELETE FROM sessions WHERE token_hash = ?'),
  removeOfUser: tx.prepare('DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE username = ?)'),
  expire: tx.prepare('DELETE FROM sessions WHERE expires <= ?'),
  lastLogin: tx.prepare('UPDATE users SET last_login = ? WHERE id = ?'),
}));

/** Stores a user's password hash (replacing any earlier one) and ends every session of the user; unknown users are an error. */
export async function setPasswordHash(tx: Tx, username: string, hash: string): Promise<void> {
  if ((await sql(tx).setPassword.run(hash, username)).changes === 0) throw new UserNotFoundError(`user "${username}" not found`, { username });
  await endUserSessions(tx, username);
}

/** Ends every session of a user (a changed password, a disabled account): their browsers must sign in again. */
export async function endUserSessions(tx: Tx, username: string): Promise<number> {
  return (await sql(tx).removeOfUser.run(username)).changes;
}

/**
 * Stops (or restores) a user's token and sign-in (call inside a transaction): stopping ends their browser sessions for
 * good (enabling the account again does not bring them back); the user and their history stay.
 */
export async function setAccountActive(tx: Tx, username: string, active: boolean): Promise<void> {
  await setUserActive(tx, username, active);
  if (!active) await endUserSessions(tx, username);
}

/** A real user with their password hash (null when they have none), for signing in. */
export async function findCredentials(tx: Tx, username: string): Promise<{ user: AccountRow; passwordHash: string | null } | undefined> {
  const row = (await sql(tx).credentials.get(username)) as (AccountRow & { password_hash: string | null }) | undefined;
  if (!row) return undefined;
  const { password_hash, ...user } = row;
  return { user, passwordHash: password_hash };
}

/** Opens a session for a user (call inside a transaction): drops expired ones and records the sign-in time. */
export async function createSession(tx: Tx, input: { token: string; userId: number; csrf: string; created: string; expires: string }): Promise<void> {
  const s = sql(tx);
  await s.expire.run(input.created);
  await s.insert.run(hashToken(input.token), input.userId, input.csrf, input.created, input.expires);
  await s.lastLogin.run(input.created, input.userId);
}

/** The unexpired session of a cookie token, or undefined. */
export async function findSession(tx: Tx, token: string, at: string): Promise<SessionRow | undefined> {
  const row = (await sql(tx).byToken.get(hashToken(token), at)) as (AccountRow & { csrf: string; expires: string }) | undefined;
  if (!row) return undefined;
  const { csrf, expires, ...user } = row;
  return { user, csrf, expires };
}

export async function deleteSession(tx: Tx, token: string): Promise<void> {
  await sql(tx).remove.run(hashToken(token));
}
