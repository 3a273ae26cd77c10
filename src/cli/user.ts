// `tms user …`: create users and rotate their API tokens.
import type { Db } from '../store/db.js';
import { createUser, listUsers, rotateToken } from '../store/users.repo.js';
import type { CliIo } from './io.js';

/** Creates a user; the new API token is printed alone on the last line. */
export function runUserAdd(db: Db, io: CliIo, username: string, opts: { fullName?: string; email?: string; admin?: boolean }): number {
  const { user, token } = createUser(db, { username, fullName: opts.fullName, email: opts.email, admin: opts.admin });
  if (!user.email) io.err('tms: note: a user without --email cannot edit strings or upload (as in Weblate); reading works');
  io.out(`created user ${user.username}${user.is_superuser ? ' (administrator)' : ''}; API token:`);
  io.out(token);
  return 0;
}

/** Replaces a user's API token and prints the new one alone on the last line. */
export function runUserToken(db: Db, io: CliIo, username: string): number {
  const token = rotateToken(db, username);
  io.out(`new API token for ${username} (the old one no longer works):`);
  io.out(token);
  return 0;
}

export function runUserList(db: Db, io: CliIo): number {
  for (const u of listUsers(db)) {
    io.out(`${u.username}\t${u.full_name}\t${u.email}${u.is_superuser ? '\tadmin' : ''}${u.is_active ? '' : '\tinactive'}`);
  }
  return 0;
}
