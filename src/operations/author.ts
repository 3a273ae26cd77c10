// Commits tms makes for one user's request (a replaced file, a new language): the user as author, the configured committer.
import type { Actor, ComponentHandle } from '../component/handle.js';
import { findAuthor } from '../store/users.repo.js';
import * as vcs from '../vcs/index.js';
import { commitValues, renderTemplate } from './message.js';

/** The commit author for `user`: name and e-mail (a no-reply address without one), else the committer. */
export async function authorSignature(h: ComponentHandle, user: Actor | undefined): Promise<vcs.Signature> {
  const row = user ? await h.store.read((tx) => findAuthor(tx, user.id)) : undefined;
  if (!row) return { ...h.config.committer };
  const domain = h.config.committer.email.split('@')[1] || 'localhost';
  return { name: row.full_name || row.username, email: row.email || `noreply+${row.id}@${domain}` };
}

/**
 * Commits exactly `files` with `template` (a commit message template) filled for one translation. Returns the commit
 * id, or null for a `vcs: local` component or when the files already match HEAD.
 */
export async function commitFiles(
  h: ComponentHandle,
  files: string[],
  template: string,
  translation: { id: number; language_code: string; language_name: string },
  user: Actor | undefined,
): Promise<string | null> {
  if (!h.git) return null;
  const message = renderTemplate(template, await commitValues(h, [translation]));
  return vcs.commit({ dir: h.dir, cache: h.cache, files, message, author: await authorSignature(h, user), committer: h.config.committer });
}
