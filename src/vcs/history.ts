// Commit history questions: the head commit, how far a branch and its remote-tracking ref have diverged, what is ahead.
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import git, { type CommitObject } from 'isomorphic-git';
import { REMOTE, type RepoOptions, currentBranch, fsOf, resolveOrNull } from './context.js';

/** A commit as the rest of tms sees it. */
export interface CommitInfo {
  oid: string;
  tree: string;
  message: string;
  author: { name: string; email: string; timestamp: number; timezoneOffset: number };
  committer: { name: string; email: string; timestamp: number; timezoneOffset: number };
  parents: string[];
}

/** Where a branch stands against its remote-tracking ref `origin/<branch>`. */
export interface RepoStatus {
  branch: string;
  /** Commits on the local branch that the remote does not have. */
  ahead: number;
  /** Commits on the remote that the local branch does not have. */
  behind: number;
  localCommit: CommitInfo | null;
  remoteCommit: CommitInfo | null;
  /** The remote has commits to bring in (fast-forward, merge or rebase). */
  needsMerge: boolean;
  /** The local branch has commits to push. */
  needsPush: boolean;
}

/** Reads commits once per operation; commits cut off by a shallow clone read as having no parents. */
export class CommitReader {
  private readonly commits = new Map<string, Promise<CommitInfo | null>>();
  private readonly cache: object;
  constructor(private readonly opts: RepoOptions) {
    this.cache = opts.cache ?? {};
  }

  read(oid: string): Promise<CommitInfo | null> {
    let found = this.commits.get(oid);
    if (!found) {
      found = git
        .readCommit({ fs: fsOf(this.opts), dir: this.opts.dir, oid, cache: this.cache })
        .then(({ commit }) => toInfo(oid, commit))
        .catch((err: { code?: string }) => {
          if (err.code === 'NotFoundError') return null;
          throw err;
        });
      this.commits.set(oid, found);
    }
    return found;
  }

  /**
   * Commits reachable from `ours` but not `theirs` and the reverse, each newest first, found by walking both
   * histories at once by commit date and stopping where they meet (git's own paint walk), so an old, long
   * history costs nothing once the two sides share it.
   */
  async divergence(ours: string | null, theirs: string | null): Promise<{ ahead: CommitInfo[]; behind: CommitInfo[] }> {
    const OURS = 1;
    const THEIRS = 2;
    const BOTH = 3;
    const flags = new Map<string, number>();
    const seen = new Map<string, CommitInfo>();
    const queue: CommitInfo[] = [];
    const enqueue = async (oid: string, flag: number): Promise<void> => {
      const before = flags.get(oid) ?? 0;
      const after = before | flag;
      if (after === before) return;
      flags.set(oid, after);
      const commit = await this.read(oid);
      if (!commit) return;
      seen.set(oid, commit);
      queue.push(commit);
    };
    if (ours) await enqueue(ours, OURS);
    if (theirs) await enqueue(theirs, THEIRS);
    while (queue.some((c) => flags.get(c.oid) !== BOTH)) {
      let newest = 0;
      for (let i = 1; i < queue.length; i++) {
        if (queue[i]!.committer.timestamp > queue[newest]!.committer.timestamp) newest = i;
      }
      const [commit] = queue.splice(newest, 1);
      const flag = flags.get(commit!.oid) ?? 0;
      for (const parent of commit!.parents) await enqueue(parent, flag);
    }
    // Commits with equal (or skewed) dates can be walked before a descendant reached by both sides:
    // everything below a commit both sides reach is shared too.
    const shared = [...seen.keys()].filter((oid) => flags.get(oid) === BOTH);
    while (shared.length > 0) {
      for (const parent of seen.get(shared.pop()!)?.parents ?? []) {
        if (seen.has(parent) && flags.get(parent) !== BOTH) {
          flags.set(parent, BOTH);
          shared.push(parent);
        }
      }
    }
    const ahead: CommitInfo[] = [];
    const behind: CommitInfo[] = [];
    for (const [oid, commit] of seen) {
      const flag = flags.get(oid);
      if (flag === OURS) ahead.push(commit);
      else if (flag === THEIRS) behind.push(commit);
    }
    const newestFirst = (a: CommitInfo, b: CommitInfo) => b.committer.timestamp - a.committer.timestamp;
    return { ahead: ahead.sort(newestFirst), behind: behind.sort(newestFirst) };
  }
}

function toInfo(oid: string, commit: CommitObject): CommitInfo {
  return {
    oid,
    tree: commit.tree,
    message: commit.message,
    author: { ...commit.author },
    committer: { ...commit.committer },
    parents: [...commit.parent],
  };
}

/** The commit HEAD points to, or null in a repository without commits. */
export async function headCommit(opts: RepoOptions): Promise<CommitInfo | null> {
  const oid = await resolveOrNull(opts, 'HEAD');
  return oid ? new CommitReader(opts).read(oid) : null;
}

/**
 * Compares a local branch (default: the current one) with its remote-tracking ref as of the last fetch.
 * `await status({ dir })` → `{ branch: 'main', ahead: 1, behind: 0, needsPush: true, needsMerge: false, … }`.
 */
export async function status(opts: RepoOptions & { branch?: string }): Promise<RepoStatus> {
  const branch = opts.branch ?? (await currentBranch(opts, 'status'));
  const reader = new CommitReader({ ...opts, cache: opts.cache ?? {} });
  const local = await resolveOrNull(opts, `refs/heads/${branch}`);
  const remote = await resolveOrNull(opts, `refs/remotes/${REMOTE}/${branch}`);
  const { ahead, behind } = await reader.divergence(local, remote);
  return {
    branch,
    ahead: ahead.length,
    behind: behind.length,
    localCommit: local ? await reader.read(local) : null,
    remoteCommit: remote ? await reader.read(remote) : null,
    needsMerge: behind.length > 0,
    needsPush: ahead.length > 0,
  };
}

/**
 * The commits of a local branch (default: the current one) that its remote-tracking ref does not have, newest first:
 * what a push would publish.
 */
export async function log(opts: RepoOptions & { branch?: string }): Promise<CommitInfo[]> {
  const branch = opts.branch ?? (await currentBranch(opts, 'log'));
  const reader = new CommitReader({ ...opts, cache: opts.cache ?? {} });
  const local = await resolveOrNull(opts, `refs/heads/${branch}`);
  const remote = await resolveOrNull(opts, `refs/remotes/${REMOTE}/${branch}`);
  return (await reader.divergence(local, remote)).ahead;
}

/** The commit of `origin/<branch>` as of the last fetch (default: the current branch), or null. */
export async function remoteTrackingHead(opts: RepoOptions & { branch?: string }): Promise<string | null> {
  const branch = opts.branch ?? (await currentBranch(opts, 'remoteTrackingHead'));
  return resolveOrNull(opts, `refs/remotes/${REMOTE}/${branch}`);
}

/** Whether the repository holds the commit `oid` (its object can be read). */
export async function hasCommit(opts: RepoOptions, oid: string): Promise<boolean> {
  try {
    await git.readCommit({ fs: fsOf(opts), dir: opts.dir, oid, cache: opts.cache });
    return true;
  } catch {
    return false;
  }
}

/** The commit id HEAD points to (a ref read, no object access), or null in a repository without commits. */
export async function headOid(opts: RepoOptions): Promise<string | null> {
  return resolveOrNull(opts, 'HEAD');
}

/**
 * Makes the remote-tracking ref trustworthy after a fetch that was cut short: when it names a commit whose object
 * cannot be read (the pack was written without its index, or not at all), it is moved back to HEAD's commit (or
 * removed) so that the next ref check sees upstream ahead and fetches again. Packs without an index are removed.
 * Returns whether anything was repaired.
 */
export async function repairRemoteTracking(opts: RepoOptions & { branch?: string }): Promise<boolean> {
  const fs = fsOf(opts);
  let repaired = false;
  const packDir = path.join(opts.dir, '.git', 'objects', 'pack');
  const names = await readdir(packDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith('.pack') || names.includes(name.replace(/\.pack$/, '.idx'))) continue;
    // a pack another process is still writing has no index yet either: only old ones are leftovers
    const written = await stat(path.join(packDir, name)).then(
      (s) => s.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - written < 10 * 60_000) continue;
    await unlink(path.join(packDir, name));
    repaired = true;
  }
  const branch = opts.branch ?? (await currentBranch(opts, 'repairRemoteTracking'));
  const ref = `refs/remotes/${REMOTE}/${branch}`;
  const tracking = await resolveOrNull(opts, ref);
  if (tracking === null || (await readable(opts, tracking))) return repaired;
  const head = await resolveOrNull(opts, 'HEAD');
  if (head !== null && (await readable(opts, head))) await git.writeRef({ fs, dir: opts.dir, ref, value: head, force: true });
  else await git.deleteRef({ fs, dir: opts.dir, ref });
  return true;
}

async function readable(opts: RepoOptions, oid: string): Promise<boolean> {
  try {
    await git.readCommit({ fs: fsOf(opts), dir: opts.dir, oid, cache: opts.cache });
    return true;
  } catch {
    return false;
  }
}
