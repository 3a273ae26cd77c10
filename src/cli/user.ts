// `tms user …`: create, list, disable, enable and delete users, and rotate their API tokens.
import type { Store } from '../store/index.js';
import { setAccountActive, setPasswordHash } from '../store/sessions.repo.js';
import { createUser, deleteUser, findUserByUsername, listUsers, rotateToken } from '../store/users.repo.js';
import { CliFailure, type CliIo } from './io.js';

// An address with one @, no spaces, and a dotted domain (what Django's EmailValidator takes, in spirit).
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/u;

/** Creates a user; the new API token is printed alone on the last line. */
export async function runUserAdd(
  store: Store,
  io: CliIo,
  username: string,
  opts: { fullName?: string; email?: string; admin?: boolean; password?: () => Promise<string> },
): Promise<number> {
  if (opts.email !== undefined && !EMAIL.test(opts.email)) throw new CliFailure(`invalid e-mail address "${opts.email}"`, 2);
  // Read (and check) the password before creating anything, so a refused one leaves no user behind.
  const hash = opts.password ? await hashPassword(await opts.password()) : undefined;
  const { user, token } = await store.write((tx) => createUser(tx, { username, fullName: opts.fullName, email: opts.email, admin: opts.admin }));
  if (hash) await store.write((tx) => setPasswordHash(tx, username, hash));
  if (!user.email) io.err('tms: note: a user without --email cannot edit strings or upload (as in Weblate); reading works');
  // on stderr: a script that keeps the last line of stdout (the token) still shows it
  if (!hash) io.err(`tms: note: ${user.username} has no web sign-in password yet: set one with "tms user password ${user.username}"`);
  io.out(`created user ${user.username}${user.is_superuser ? ' (administrator)' : ''}; API token:`);
  io.out(token);
  return 0;
}

/** Sets a user's web sign-in password (read by `password`: standard input or a prompt; never an argument). */
export async function runUserPassword(store: Store, io: CliIo, username: string, password: () => Promise<string>): Promise<number> {
  if (!(await store.read((tx) => findUserByUsername(tx, username)))) throw new CliFailure(`user "${username}" not found`);
  const hash = await hashPassword(await password());
  await store.write((tx) => setPasswordHash(tx, username, hash));
  io.out(`password set for ${username}`);
  return 0;
}

/** Replaces a user's API token and prints the new one alone on the last line. */
export async function runUserToken(store: Store, io: CliIo, username: string): Promise<number> {
  const token = await store.write((tx) => rotateToken(tx, username));
  io.out(`new API token for ${username} (the old one no longer works):`);
  io.out(token);
  return 0;
}

/** The password hashing, loaded by the commands that set a password (not by `tms user list`). */
async function hashPassword(password: string): Promise<string> {
  return (await import('../auth/password.js')).hashPassword(password);
}

export async function runUserList(store: Store, io: CliIo): Promise<number> {
  for (const u of await store.read((tx) => listUsers(tx))) {
    io.out(`${u.username}\t${u.full_name}\t${u.email}${u.is_superuser ? '\tadmin' : ''}${u.is_active ? '' : '\tinactive'}`);
  }
  return 0;
}

/** Stops a user's API token and web sign-in (the user, their history and pending edits stay). */
export async function runUserDisable(store: Store, io: CliIo, username: string): Promise<number> {
  await store.write((tx) => setAccountActive(tx, username, false));
  io.out(`disabled user ${username}: its API token no longer authenticates and it cannot sign in (enable it again with "tms user enable")`);
  return 0;
}

/** Lets a disabled user's API token authenticate, and the user sign in, again. */
export async function runUserEnable(store: Store, io: CliIo, username: string): Promise<number> {
  await store.write((tx) => setAccountActive(tx, username, true));
  io.out(`enabled user ${username}`);
  return 0;
}

/** Deletes a user; their changes stay in the history, their pending edits stay pending (committed as the committer). */
export async function runUserDelete(store: Store, io: CliIo, username: string): Promise<number> {
  const { pendingEdits } = await store.write((tx) => deleteUser(tx, username));
  io.out(`deleted user ${username}`);
  if (pendingEdits > 0) io.out(`${pendingEdits} pending edit(s) by ${username} stay pending; the next commit attributes them to the committer`);
  return 0;
}
