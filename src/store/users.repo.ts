// Users and their API tokens (stored as SHA-256 hashes; the token is shown once).
import { createHash, randomBytes } from 'node:crypto';
import { TmsError } from '../domain/errors.js';
import { joinNewUserTeams } from './auth.repo.js';
import { type Db, now } from './db.js';
import { preparedOnce } from './statements.js';

export interface UserRow {
  id: number;
  username: string;
  full_name: string;
  email: string;
  is_superuser: number;
  is_active: number;
  is_bot: number;
  is_anonymous: number;
  date_joined: string;
  last_login: string | null;
}

export class UserExistsError extends TmsError<{ username: string }> {}
export class UserNotFoundError extends TmsError<{ username: string }> {}

/** What a commit author is made of. */
export type Author = Pick<UserRow, 'id' | 'username' | 'full_name' | 'email'>;

const sql = preparedOnce((db: Db) => ({
  insert: db.prepare('INSERT INTO users (username, full_name, email, is_superuser, token_hash, date_joined) VALUES (?, ?, ?, ?, ?, ?)'),
  setToken: db.prepare('UPDATE users SET token_hash = ? WHERE username = ?'),
  byUsername: db.prepare('SELECT * FROM users WHERE username = ?'),
  byId: db.prepare('SELECT * FROM users WHERE id = ?'),
  byToken: db.prepare('SELECT * FROM users WHERE token_hash = ? AND is_active = 1'),
  list: db.prepare('SELECT * FROM users WHERE is_anonymous = 0 ORDER BY id'),
  author: db.prepare('SELECT id, username, full_name, email FROM users WHERE id = ?'),
  setActive: db.prepare('UPDATE users SET is_active = ? WHERE username = ? AND is_anonymous = 0'),
  pendingBy: db
    .prepare(
      `SELECT (SELECT count(*) FROM units WHERE pending_author_id = u.id) + (SELECT count(*) FROM pending_removals WHERE author_id = u.id)
       FROM users u WHERE u.username = ?`,
    )
    .pluck(),
  remove: db.prepare('DELETE FROM users WHERE username = ? AND is_anonymous = 0'),
}));

const USERNAME = /^[\w.@+-]{1,150}$/u;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new user API token: `wlu_` and 40 random alphanumerics, as Weblate's. */
export function newToken(prefix = 'wlu_'): string {
  const bytes = randomBytes(40);
  let out = prefix;
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function validUsername(username: string): boolean {
  return USERNAME.test(username);
}

/**
 * Creates a user and returns it with a fresh API token (call inside a transaction).
 * @example const { user, token } = createUser(db, { username: 'jane', fullName: 'Jane', admin: true });
 */
export function createUser(db: Db, input: { username: string; fullName?: string; email?: string; admin?: boolean }): { user: UserRow; token: string } {
  if (!validUsername(input.username)) {
    throw new TmsError(`invalid username "${input.username}": use letters, digits and @ . + - _ (at most 150)`);
  }
  if (findUserByUsername(db, input.username)) {
    throw new UserExistsError(`user "${input.username}" already exists`, { username: input.username });
  }
  const token = newToken();
  const info = sql(db).insert.run(input.username, input.fullName ?? input.username, input.email ?? '', input.admin ? 1 : 0, hashToken(token), now());
  const id = Number(info.lastInsertRowid);
  joinNewUserTeams(db, id);
  return { user: findUserById(db, id)!, token };
}

/** Replaces a user's API token; the old one stops working at once. */
export function rotateToken(db: Db, username: string): string {
  const token = newToken();
  const info = sql(db).setToken.run(hashToken(token), username);
  if (info.changes === 0) throw new UserNotFoundError(`user "${username}" not found`, { username });
  return token;
}

export function findUserByUsername(db: Db, username: string): UserRow | undefined {
  return sql(db).byUsername.get(username) as UserRow | undefined;
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return sql(db).byId.get(id) as UserRow | undefined;
}

/** The active user owning this token, or undefined. */
export function findUserByToken(db: Db, token: string): UserRow | undefined {
  return sql(db).byToken.get(hashToken(token)) as UserRow | undefined;
}

export function listUsers(db: Db): UserRow[] {
  return sql(db).list.all() as UserRow[];
}

/** The user a commit is attributed to, or undefined. */
export function findAuthor(db: Db, userId: number): Author | undefined {
  return sql(db).author.get(userId) as Author | undefined;
}

/** Lets a user's token authenticate again, or stops it (the user and their history stay). */
export function setUserActive(db: Db, username: string, active: boolean): void {
  if (sql(db).setActive.run(active ? 1 : 0, username).changes === 0) throw new UserNotFoundError(`user "${username}" not found`, { username });
}

/**
 * Deletes a user (call inside a transaction). Their changes stay in the history without a user, their pending
 * edits stay pending without an author (a commit attributes them to the committer); returns how many those are.
 */
export function deleteUser(db: Db, username: string): { pendingEdits: number } {
  const s = sql(db);
  const pendingEdits = s.pendingBy.get(username) as number | undefined;
  if (pendingEdits === undefined || s.remove.run(username).changes === 0) throw new UserNotFoundError(`user "${username}" not found`, { username });
  return { pendingEdits };
}
