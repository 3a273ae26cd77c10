// Users, their API tokens (stored as SHA-256 hashes; the token is shown once) and the languages they translate.
import { createHash, randomBytes } from 'node:crypto';
import { TmsError } from '../domain/errors.js';
import { joinNewUserTeams } from './auth.repo.js';
import { type Tx, now } from './db.js';
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

const sql = preparedOnce((tx: Tx) => ({
  insert: tx.prepare(tx.dialect.returningId('INSERT INTO users (username, full_name, email, is_superuser, token_hash, date_joined) VALUES (?, ?, ?, ?, ?, ?)')),
  setToken: tx.prepare('UPDATE users SET token_hash = ? WHERE username = ?'),
  byUsername: tx.prepare('SELECT * FROM users WHERE username = ?'),
  byId: tx.prepare('SELECT * FROM users WHERE id = ?'),
  byToken: tx.prepare('SELECT * FROM users WHERE token_hash = ? AND is_active = 1'),
  list: tx.prepare('SELECT * FROM users WHERE is_anonymous = 0 ORDER BY id'),
  author: tx.prepare('SELECT id, username, full_name, email FROM users WHERE id = ?'),
  setActive: tx.prepare('UPDATE users SET is_active = ? WHERE username = ? AND is_anonymous = 0'),
  languages: tx.prepare('SELECT language_id FROM user_languages WHERE user_id = ? ORDER BY language_id').pluck(),
  clearLanguages: tx.prepare('DELETE FROM user_languages WHERE user_id = ?'),
  addLanguage: tx.prepare('INSERT INTO user_languages (user_id, language_id) VALUES (?, ?) ON CONFLICT DO NOTHING'),
  pendingBy: tx
    .prepare(
      `SELECT (SELECT count(*) FROM units WHERE pending_author_id = u.id) + (SELECT count(*) FROM pending_removals WHERE author_id = u.id)
       FROM users u WHERE u.username = ?`,
    )
    .pluck(),
  remove: tx.prepare('DELETE FROM users WHERE username = ? AND is_anonymous = 0'),
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
 * @example const { user, token } = await createUser(tx, { username: 'jane', fullName: 'Jane', admin: true });
 */
export async function createUser(
  tx: Tx,
  input: { username: string; fullName?: string; email?: string; admin?: boolean },
): Promise<{ user: UserRow; token: string }> {
  if (!validUsername(input.username)) {
    throw new TmsError(`invalid username "${input.username}": use letters, digits and @ . + - _ (at most 150)`);
  }
  if (await findUserByUsername(tx, input.username)) {
    throw new UserExistsError(`user "${input.username}" already exists`, { username: input.username });
  }
  const token = newToken();
  const info = await sql(tx).insert.run(input.username, input.fullName ?? input.username, input.email ?? '', input.admin ? 1 : 0, hashToken(token), now());
  const id = Number(info.lastInsertRowid);
  await joinNewUserTeams(tx, id);
  return { user: (await findUserById(tx, id))!, token };
}

/** Replaces a user's API token; the old one stops working at once. */
export async function rotateToken(tx: Tx, username: string): Promise<string> {
  const token = newToken();
  const info = await sql(tx).setToken.run(hashToken(token), username);
  if (info.changes === 0) throw new UserNotFoundError(`user "${username}" not found`, { username });
  return token;
}

export async function findUserByUsername(tx: Tx, username: string): Promise<UserRow | undefined> {
  return (await sql(tx).byUsername.get(username)) as UserRow | undefined;
}

export async function findUserById(tx: Tx, id: number): Promise<UserRow | undefined> {
  return (await sql(tx).byId.get(id)) as UserRow | undefined;
}

/** The active user owning this token, or undefined. */
export async function findUserByToken(tx: Tx, token: string): Promise<UserRow | undefined> {
  return (await sql(tx).byToken.get(hashToken(token))) as UserRow | undefined;
}

export async function listUsers(tx: Tx): Promise<UserRow[]> {
  return (await sql(tx).list.all()) as UserRow[];
}

/** The user a commit is attributed to, or undefined. */
export async function findAuthor(tx: Tx, userId: number): Promise<Author | undefined> {
  return (await sql(tx).author.get(userId)) as Author | undefined;
}

/** Lets a user's token authenticate again, or stops it (the user and their history stay). */
export async function setUserActive(tx: Tx, username: string, active: boolean): Promise<void> {
  if ((await sql(tx).setActive.run(active ? 1 : 0, username)).changes === 0) throw new UserNotFoundError(`user "${username}" not found`, { username });
}

/**
 * Deletes a user (call inside a transaction). Their changes stay in the history without a user, their pending
 * edits stay pending without an author (a commit attributes them to the committer); returns how many those are.
 */
export async function deleteUser(tx: Tx, username: string): Promise<{ pendingEdits: number }> {
  const s = sql(tx);
  const pendingEdits = (await s.pendingBy.get(username)) as number | undefined;
  if (pendingEdits === undefined || (await s.remove.run(username)).changes === 0) throw new UserNotFoundError(`user "${username}" not found`, { username });
  return { pendingEdits };
}

/** The ids of the languages a user translates (Weblate's "Translated languages"), by id. */
export async function userLanguages(tx: Tx, userId: number): Promise<number[]> {
  return ((await sql(tx).languages.all(userId)) as unknown[]).map(Number);
}

/**
 * Sets the languages a user translates (replacing those before).
 * @example await setUserLanguages(tx, 7, [12, 40])
 */
export async function setUserLanguages(tx: Tx, userId: number, languageIds: readonly number[]): Promise<void> {
  const s = sql(tx);
  await s.clearLanguages.run(userId);
  for (const id of new Set(languageIds)) await s.addLanguage.run(userId, id);
}
