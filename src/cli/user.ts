// `tms user …`: create users and rotate their API tokens.
import type { Store } from '../store/index.js';
import type { CliIo } from './io.js';

/** Creates a user; the new API token is printed alone on the last line. */
export async function runUserAdd(store: Store, io: CliIo, username: string, opts: { fullName?: string; email?: string; admin?: boolean }): Promise<number> {
  const { user, token } = await store.createUser({ username, fullName: opts.fullName, email: opts.email, admin: opts.admin });
  if (!user.email) io.err('tms: note: a user without --email cannot edit strings or upload (as in Weblate); reading works');
  io.out(`created user ${user.username}${user.is_superuser ? ' (administrator)' : ''}; API token:`);
  io.out(token);
  return 0;
}

/** Replaces a user's API token and prints the new one alone on the last line. */
export async function runUserToken(store: Store, io: CliIo, username: string): Promise<number> {
  const token = await store.rotateToken(username);
  io.out(`new API token for ${username} (the old one no longer works):`);
  io.out(token);
  return 0;
}

export async function runUserList(store: Store, io: CliIo): Promise<number> {
  for (const u of await store.listUsers()) {
    io.out(`${u.username}\t${u.full_name}\t${u.email}${u.is_superuser ? '\tadmin' : ''}${u.is_active ? '' : '\tinactive'}`);
  }
  return 0;
}
