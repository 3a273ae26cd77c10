// Users and their API tokens (stored as SHA-256 hashes; the token is shown once).
import { createHash, randomBytes } from 'node:crypto';
import { TmsError } from '../domain/errors.js';
import { joinNewUserTeams } from './auth.repo.js';
import { type Db, now } from './db.js';

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
 * Creates a user and returns it with a fresh API token.
 * @example const { user, token } = createUser(db, { username: 'jane', fullName: 'Jane', admin: true });
 */
export function createUser(
  db: Db,
  input: { username: string; fullName?: string; email?: string; admin?: boolean },
): { user: UserRow; token: string } {
  if (!validUsername(input.username)) {
    throw new TmsError(`invalid username "${input.username}": use letters, digits and @ . + - _ (at most 150)`);
  }
  if (findUserByUsername(db, input.username)) {
    throw new UserExistsError(`user "${input.username}" already exists`, { username: input.username });
  }
  const token = newToken();
  const id = db.transaction(() => {
    const info = db
      .prepare(
        'INSERT INTO users (username, full_name, email, is_superuser, token_hash, date_joined) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(input.username, input.fullName ?? input.username, input.email ?? '', input.admin ? 1 : 0, hashToken(token), now());
    const userId = Number(info.lastInsertRowid);
    joinNewUserTeams(db, userId);
    return userId;
  })();
  return { user: findUserById(db, id)!, token };
}

/** Replaces a user's API token; the old one stops working at once. */
export function rotateToken(db: Db, username: string): string {
  const token = newToken();
  const info = db.prepare('UPDATE users SET token_hash = ? WHERE username = ?').run(hashToken(token), username);
  if (info.changes === 0) throw new UserNotFoundError(`user "${username}" not found`, { username });
  return token;
}

export function findUserByUsername(db: Db, username: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE username = ?').get(username) as UserRow | undefined;
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/** The active user owning this token, or undefined. */
export function findUserByToken(db: Db, token: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE token_hash = ? AND is_active = 1').get(hashToken(token)) as UserRow | undefined;
}

export function listUsers(db: Db): UserRow[] {
  return db.prepare('SELECT * FROM users WHERE is_anonymous = 0 ORDER BY id').all() as UserRow[];
}
