// Changing what is checked out: commit chosen files, move a branch and its working tree, reset hard.
import type nodeFs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import git, { type FsClient } from 'isomorphic-git';
import { type RepoOptions, currentBranch, fsOf, resolveOrNull } from './context.js';
import { type BlobEntry, TreeReader } from './tree.js';
import { VcsError, toVcsError } from './vcs-error.js';

/** Who wrote or committed a change; `timestamp` (seconds) defaults to now. */
export interface Signature {
  name: string;
  email: string;
  timestamp?: number;
  /** Minutes, with the sign of `Date.getTimezoneOffset()` (UTC+2 → -120). */
  timezoneOffset?: number;
}

interface PromiseFs {
  readFile(file: string): Promise<Uint8Array>;
  writeFile(file: string, data: Uint8Array): Promise<void>;
  unlink(file: string): Promise<void>;
  lstat(file: string): Promise<nodeFs.Stats>;
  readlink(file: string): Promise<string>;
  readdir(file: string): Promise<string[]>;
  rmdir(file: string): Promise<void>;
}

/** The promise half of whatever fs client was given (isomorphic-git accepts both styles). */
function promiseFs(client: FsClient): PromiseFs {
  if ('promises' in client) return client.promises as unknown as PromiseFs;
  const c = client as unknown as Record<keyof PromiseFs, (...args: unknown[]) => void>;
  return {
    readFile: promisify(c.readFile) as PromiseFs['readFile'],
    writeFile: promisify(c.writeFile) as PromiseFs['writeFile'],
    unlink: promisify(c.unlink) as PromiseFs['unlink'],
    lstat: promisify(c.lstat) as PromiseFs['lstat'],
    readlink: promisify(c.readlink) as PromiseFs['readlink'],
    readdir: promisify(c.readdir) as PromiseFs['readdir'],
    rmdir: promisify(c.rmdir) as PromiseFs['rmdir'],
  };
}

export function fullSignature(who: Signature): Required<Signature> {
  return {
    name: who.name,
    email: who.email,
    timestamp: who.timestamp ?? Math.floor(Date.now() / 1000),
    timezoneOffset: who.timezoneOffset ?? new Date().getTimezoneOffset(),
  };
}

/**
 * Commits exactly `files` (repository-relative; a file missing from the working tree is committed as deleted) on the
 * current branch, whatever else is modified or staged, and returns the new commit id, or null when those files
 * match HEAD already. `committer` defaults to `author`.
 * `await commit({ dir, files: ['po/de.po'], message: 'Translated using tms', author: { name, email } })`.
 */
export async function commit(opts: RepoOptions & { files: string[]; message: string; author: Signature; committer?: Signature }): Promise<string | null> {
  const fs = fsOf(opts);
  const pfs = promiseFs(fs);
  const branch = await currentBranch(opts, 'commit');
  const parent = await resolveOrNull(opts, `refs/heads/${branch}`);
  const reader = new TreeReader({ ...opts, cache: opts.cache ?? {} });
  const baseTree = parent ? (await git.readCommit({ fs, dir: opts.dir, oid: parent, cache: opts.cache })).commit.tree : null;

  const changes = new Map<string, BlobEntry | null>();
  for (const file of new Set(opts.files)) {
    const entry = await writeWorktreeBlob(opts, pfs, file);
    const before = baseTree ? await reader.blobAt(baseTree, file) : null;
    if (entry?.oid === before?.oid && entry?.mode === before?.mode) continue;
    changes.set(file, entry);
  }
  if (changes.size === 0) return null;

  const tree = await reader.edit(baseTree, changes);
  const author = fullSignature(opts.author);
  const committer = fullSignature(opts.committer ?? opts.author);
  const message = opts.message.endsWith('\n') ? opts.message : `${opts.message}\n`;
  const oid = await git.writeCommit({
    fs,
    dir: opts.dir,
    commit: { message, tree, parent: parent ? [parent] : [], author, committer },
  });
  await git.writeRef({ fs, dir: opts.dir, ref: `refs/heads/${branch}`, value: oid, force: true });
  for (const [file, entry] of changes) {
    if (entry) await git.add({ fs, dir: opts.dir, filepath: file, cache: opts.cache });
    else await git.remove({ fs, dir: opts.dir, filepath: file, cache: opts.cache });
  }
  return oid;
}

/** One commit of a series: the files' new contents (null deletes the file), its message and author. */
export interface CommitSpec {
  files: ReadonlyMap<string, Uint8Array | null>;
  message: string;
  author: Signature;
  committer?: Signature;
}

/**
 * Makes `commits` one after another on the current branch from contents held in memory (no file of the working
 * tree is read), moves the branch once, then writes each file's last content into the working tree and the index.
 * Each commit's id is returned in order (null for a commit whose files already matched its parent: it is not
 * made). A failure before the branch moves leaves branch, index and working tree as they were.
 * `await commitSeries({ dir }, [{ files: new Map([['po/de.po', bytes]]), message, author }])` → `['3b18e5…']`.
 */
export async function commitSeries(opts: RepoOptions, commits: readonly CommitSpec[]): Promise<(string | null)[]> {
  const fs = fsOf(opts);
  const branch = await currentBranch(opts, 'commit');
  const head = await resolveOrNull(opts, `refs/heads/${branch}`);
  const reader = new TreeReader({ ...opts, cache: opts.cache ?? {} });
  let parent = head;
  let tree = head ? (await git.readCommit({ fs, dir: opts.dir, oid: head, cache: opts.cache })).commit.tree : null;
  const last = new Map<string, BlobEntry | null>();
  const oids: (string | null)[] = [];
  for (const spec of commits) {
    const changes = new Map<string, BlobEntry | null>();
    for (const [file, content] of spec.files) {
      const before = tree ? await reader.blobAt(tree, file) : null;
      const entry = content === null ? null : { oid: await git.writeBlob({ fs, dir: opts.dir, blob: content }), mode: before?.mode ?? '100644' };
      if (entry?.oid === before?.oid) continue;
      changes.set(file, entry);
    }
    if (changes.size === 0) {
      oids.push(null);
      continue;
    }
    tree = await reader.edit(tree, changes);
    const message = spec.message.endsWith('\n') ? spec.message : `${spec.message}\n`;
    parent = await git.writeCommit({
      fs,
      dir: opts.dir,
      commit: { message, tree, parent: parent ? [parent] : [], author: fullSignature(spec.author), committer: fullSignature(spec.committer ?? spec.author) },
    });
    oids.push(parent);
    for (const [file, entry] of changes) last.set(file, entry);
  }
  if (parent === head) return oids;
  await git.writeRef({ fs, dir: opts.dir, ref: `refs/heads/${branch}`, value: parent!, force: true });
  const pfs = promiseFs(fs);
  for (const [file, entry] of last) {
    const full = path.join(opts.dir, file);
    if (entry) {
      await pfs.writeFile(full, commits.findLast((c) => c.files.has(file))!.files.get(file)!);
      await git.updateIndex({ fs, dir: opts.dir, filepath: file, oid: entry.oid, mode: Number.parseInt(entry.mode, 8), add: true, cache: opts.cache });
    } else {
      await pfs.unlink(full).catch(() => {});
      await git.remove({ fs, dir: opts.dir, filepath: file, cache: opts.cache });
    }
  }
  return oids;
}

async function writeWorktreeBlob(opts: RepoOptions, pfs: PromiseFs, file: string): Promise<BlobEntry | null> {
  const full = path.join(opts.dir, file);
  let stats: nodeFs.Stats;
  try {
    stats = await pfs.lstat(full);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw err;
  }
  if (stats.isDirectory()) return null;
  const content = stats.isSymbolicLink() ? Buffer.from(await pfs.readlink(full), 'utf8') : await pfs.readFile(full);
  const mode = stats.isSymbolicLink() ? '120000' : stats.mode & 0o111 ? '100755' : '100644';
  const oid = await git.writeBlob({ fs: fsOf(opts), dir: opts.dir, blob: content });
  return { oid, mode };
}

/**
 * Points the checked-out `branch` at `to` and brings index and working tree along (files changed between the two
 * commits are rewritten; other local changes stay). When a local change is in the way, the branch is put back on
 * `from`, nothing is written, and VcsError `conflict` lists the files.
 */
export async function moveBranch(opts: RepoOptions, branch: string, from: string | null, to: string, operation: string): Promise<void> {
  const fs = fsOf(opts);
  const ref = `refs/heads/${branch}`;
  await git.writeRef({ fs, dir: opts.dir, ref, value: to, force: true });
  try {
    await git.checkout({ fs, dir: opts.dir, ref: branch, cache: opts.cache });
  } catch (err) {
    if (from) await git.writeRef({ fs, dir: opts.dir, ref, value: from, force: true });
    else await git.deleteRef({ fs, dir: opts.dir, ref });
    throw toVcsError(err, { operation });
  }
  if (from) await removeEmptiedDirectories(opts, from, to);
}

/**
 * Makes the current branch, index and working tree equal to `ref` (a commit id, branch or `origin/<branch>`),
 * discarding local changes to tracked files; untracked files stay, as with `git reset --hard`.
 */
export async function resetHard(opts: RepoOptions & { ref: string }): Promise<string> {
  const fs = fsOf(opts);
  const branch = await currentBranch(opts, 'resetHard');
  const target = await resolveOrNull(opts, opts.ref);
  if (!target) throw new VcsError(`resetHard: no such ref: ${opts.ref}`, { kind: 'not-found', operation: 'resetHard' });
  const before = await resolveOrNull(opts, `refs/heads/${branch}`);
  await git.writeRef({ fs, dir: opts.dir, ref: `refs/heads/${branch}`, value: target, force: true });
  await git.checkout({ fs, dir: opts.dir, ref: branch, force: true, cache: opts.cache });
  if (before) await removeEmptiedDirectories(opts, before, target);
  return target;
}

/** git removes directories that a checkout left empty; isomorphic-git leaves them behind. */
async function removeEmptiedDirectories(opts: RepoOptions, from: string, to: string): Promise<void> {
  if (from === to) return;
  const pfs = promiseFs(fsOf(opts));
  const reader = new TreeReader(opts);
  const changes = await reader.diff(await treeOfCommit(opts, from), await treeOfCommit(opts, to));
  const dirs = new Set<string>();
  for (const [file, change] of changes) {
    if (change.after) continue;
    for (let dir = path.posix.dirname(file); dir !== '.'; dir = path.posix.dirname(dir)) dirs.add(dir);
  }
  // Deepest first, so a parent is only tried once its children are gone.
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    const full = path.join(opts.dir, dir);
    try {
      if ((await pfs.readdir(full)).length === 0) await pfs.rmdir(full);
    } catch {
      // Already gone or not a directory: nothing to tidy.
    }
  }
}

async function treeOfCommit(opts: RepoOptions, oid: string): Promise<string> {
  return (await git.readCommit({ fs: fsOf(opts), dir: opts.dir, oid, cache: opts.cache })).commit.tree;
}
