// Bringing remote commits into the local branch: fast-forward, merge, and rebase (replayed here: isomorphic-git has none).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import { REMOTE, type RepoOptions, currentBranch, fsOf, resolveOrNull } from './context.js';
import { type CommitInfo, CommitReader } from './history.js';
import { type BlobEntry, TreeReader } from './tree.js';
import { VcsError, toVcsError } from './vcs-error.js';
import { type Signature, fullSignature, moveBranch } from './worktree.js';

/** What an update did to the local branch. */
export interface UpdateResult {
  result: 'up-to-date' | 'fast-forward' | 'merged' | 'rebased';
  /** The branch's commit afterwards (null: neither side has a commit yet). */
  head: string | null;
}

/** The three versions of one file in a rebase step; `null` means the file does not exist in that version. */
export interface MergeFileInput {
  path: string;
  /** The file in the replayed commit's parent. */
  base: Uint8Array | null;
  /** The file in the commit being rebased onto (the upstream side, plus commits already replayed). */
  ours: Uint8Array | null;
  /** The file in the replayed commit. */
  theirs: Uint8Array | null;
}

/** Resolves one file: the merged bytes, or null for a conflict. */
export type MergeFile = (input: MergeFileInput) => Uint8Array | null | Promise<Uint8Array | null>;

/** The default: when one side left the base alone, take the other; otherwise it is a conflict. */
export const defaultMergeFile: MergeFile = ({ base, ours, theirs }) => {
  if (sameBytes(ours, base)) return theirs;
  if (sameBytes(theirs, base) || sameBytes(ours, theirs)) return ours;
  return null;
};

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

interface Sides {
  branch: string;
  local: string | null;
  remote: string | null;
  ahead: CommitInfo[];
  behind: CommitInfo[];
  commits: CommitReader;
}

async function sides(opts: RepoOptions & { branch?: string }, operation: string): Promise<Sides> {
  const checkedOut = await currentBranch(opts, operation);
  const branch = opts.branch ?? checkedOut;
  if (branch !== checkedOut) {
    throw new VcsError(`${operation}: ${branch} is not the checked-out branch (${checkedOut})`, { kind: 'conflict', operation });
  }
  const local = await resolveOrNull(opts, `refs/heads/${branch}`);
  const remote = await resolveOrNull(opts, `refs/remotes/${REMOTE}/${branch}`);
  const commits = new CommitReader({ ...opts, cache: opts.cache ?? {} });
  const { ahead, behind } = await commits.divergence(local, remote);
  return { branch, local, remote, ahead, behind, commits };
}

/** The result when nothing needs doing, or a fast-forward when the local branch has nothing of its own. */
async function trivialUpdate(opts: RepoOptions, s: Sides, operation: string, noFastForward = false): Promise<UpdateResult | null> {
  if (!s.remote || s.behind.length === 0) return { result: 'up-to-date', head: s.local };
  if (s.ahead.length > 0 || (noFastForward && s.local)) return null;
  await moveBranch(opts, s.branch, s.local, s.remote, operation);
  return { result: 'fast-forward', head: s.remote };
}

/**
 * Moves the branch (default: the checked-out one) to `origin/<branch>` when it has no commits of its own.
 * Diverged histories: VcsError `conflict` (merge or rebase instead).
 */
export async function fastForward(opts: RepoOptions & { branch?: string }): Promise<UpdateResult> {
  const s = await sides(opts, 'fastForward');
  const done = await trivialUpdate(opts, s, 'fastForward');
  if (done) return done;
  throw new VcsError('fastForward: the local branch and the remote have diverged', { kind: 'conflict', operation: 'fastForward' });
}

/**
 * Merges `origin/<branch>` into the checked-out branch: a fast-forward when possible (unless `noFastForward`,
 * Weblate's `merge_noff`), otherwise a merge commit (isomorphic-git's three-way merge, line-based for text).
 * In a shallow working copy whose merge base upstream dropped, the shallow boundary stands in for it and `mergeFile`
 * (default: `defaultMergeFile`) decides the files both sides changed.
 * On a conflict nothing changes (branch, index and working tree stay as they were) and VcsError `conflict` lists the files.
 */
export async function merge(
  opts: RepoOptions & { branch?: string; author: Signature; committer?: Signature; message?: string; noFastForward?: boolean; mergeFile?: MergeFile },
): Promise<UpdateResult> {
  const s = await sides(opts, 'merge');
  const done = await trivialUpdate(opts, s, 'merge', opts.noFastForward);
  if (done) return done;
  let oid: string;
  try {
    const merged = await git.merge({
      fs: fsOf(opts),
      dir: opts.dir,
      ours: `refs/heads/${s.branch}`,
      theirs: `refs/remotes/${REMOTE}/${s.branch}`,
      fastForward: false,
      noUpdateBranch: true,
      abortOnConflict: true,
      message: opts.message ?? `Merge branch '${REMOTE}/${s.branch}' into ${s.branch}\n`,
      author: fullSignature(opts.author),
      committer: fullSignature(opts.committer ?? opts.author),
      cache: opts.cache,
    });
    if (!merged.oid) throw new Error('merge: isomorphic-git returned no commit');
    oid = merged.oid;
  } catch (err) {
    if ((err as { code?: string }).code !== 'MergeNotSupportedError') throw toVcsError(err, { operation: 'merge' });
    const shallow = await shallowCommits(opts);
    if (shallow.size === 0) throw toVcsError(err, { operation: 'merge' });
    oid = await mergeBeyondShallowBoundary(opts, s, shallow, opts.mergeFile ?? defaultMergeFile, {
      message: opts.message ?? `Merge branch '${REMOTE}/${s.branch}' into ${s.branch}\n`,
      author: fullSignature(opts.author),
      committer: fullSignature(opts.committer ?? opts.author),
    });
  }
  await moveBranch(opts, s.branch, s.local, oid, 'merge');
  return { result: 'merged', head: oid };
}

/**
 * Rebases the checked-out branch onto `origin/<branch>` by replaying each local commit (oldest first; merge commits
 * are dropped, as `git rebase` does) with its author, committer and message. For every file a commit changed whose
 * upstream version also differs from the commit's parent, `mergeFile` decides (default: `defaultMergeFile`); files
 * only one side touched are taken as they are. A commit whose changes are all upstream already is dropped.
 * On a conflict the branch, index and working tree are exactly as before and VcsError `conflict` lists the files.
 * Commits for which `replay` answers false are dropped rather than replayed.
 * `await rebase({ dir, mergeFile: ({ path, base, ours, theirs }) => mergeUnits(path, base, ours, theirs) })`.
 */
export async function rebase(opts: RepoOptions & { branch?: string; mergeFile?: MergeFile; replay?: (commit: CommitInfo) => boolean }): Promise<UpdateResult> {
  const s = await sides(opts, 'rebase');
  const done = await trivialUpdate(opts, s, 'rebase');
  if (done) return done;

  const replayed = oldestFirst(s.ahead).filter((c) => c.parents.length <= 1 && (!opts.replay || opts.replay(c)));
  const { head } = await replayOnto(opts, s, replayed, opts.mergeFile ?? defaultMergeFile);
  await moveBranch(opts, s.branch, s.local, head, 'rebase');
  return { result: 'rebased', head };
}

/**
 * Applies `commits` (oldest first) one by one on top of `origin/<branch>`, as new commits with their authors,
 * committers and messages, without moving any ref: the commits made and the last one's tree. Files both sides changed
 * go to `mergeFile`; a conflict is VcsError `conflict` listing the files.
 */
async function replayOnto(
  opts: RepoOptions,
  s: Sides,
  commits: CommitInfo[],
  mergeFile: MergeFile,
  operation = 'rebase',
): Promise<{ head: string; headTree: string }> {
  const trees = new TreeReader({ ...opts, cache: opts.cache ?? {} });
  const fs = fsOf(opts);
  const readBytes = async (entry: BlobEntry | null): Promise<Uint8Array | null> =>
    entry ? (await git.readBlob({ fs, dir: opts.dir, oid: entry.oid, cache: opts.cache })).blob : null;

  let head = s.remote!;
  let headTree = (await s.commits.read(head))!.tree;
  for (const replayed of commits) {
    const parent = replayed.parents[0] ? await s.commits.read(replayed.parents[0]) : null;
    const changes = await trees.diff(parent?.tree ?? null, replayed.tree);
    const apply = new Map<string, BlobEntry | null>();
    const conflicts: string[] = [];
    for (const [path, { before: base, after: theirs }] of changes) {
      const ours = await trees.blobAt(headTree, path);
      if (ours?.oid === base?.oid) apply.set(path, theirs);
      else if (ours?.oid === theirs?.oid) continue;
      else {
        const merged = await mergeFile({ path, base: await readBytes(base), ours: await readBytes(ours), theirs: await readBytes(theirs) });
        if (merged === null) conflicts.push(path);
        else {
          const oid = await git.writeBlob({ fs, dir: opts.dir, blob: merged });
          apply.set(path, { oid, mode: theirs?.mode ?? ours?.mode ?? '100644' });
        }
      }
    }
    if (conflicts.length > 0) {
      throw new VcsError(`${operation}: conflict replaying ${replayed.oid.slice(0, 7)} in ${conflicts.join(', ')}`, {
        kind: 'conflict',
        operation,
        paths: conflicts,
      });
    }
    const tree = apply.size > 0 ? await trees.edit(headTree, apply) : headTree;
    if (tree === headTree) continue;
    head = await git.writeCommit({
      fs,
      dir: opts.dir,
      commit: {
        message: replayed.message,
        tree,
        parent: [head],
        author: replayed.author,
        committer: replayed.committer,
      },
    });
    headTree = tree;
  }
  return { head, headTree };
}

/** The commits `.git/shallow` lists: where a shallow working copy's history stops. */
async function shallowCommits(opts: RepoOptions): Promise<Set<string>> {
  const text = await readFile(path.join(opts.dir, '.git', 'shallow'), 'utf8').catch(() => '');
  return new Set(text.split('\n').filter((l) => /^[0-9a-f]{40}$/.test(l)));
}

/**
 * A merge in a shallow working copy whose merge base the server no longer has: upstream rewrote its branch below
 * the shallow boundary and dropped the commits between the boundary and the base, so no fetch can bring them (a
 * server sends what its refs reach). The boundary commit stands in for the base, as in a clone whose history
 * started there: what the local branch changed since the boundary is applied to upstream's tree in one three-way
 * step (`mergeFile` for files both sides changed), and the merge commit joins both heads.
 */
async function mergeBeyondShallowBoundary(
  opts: RepoOptions,
  s: Sides,
  shallow: Set<string>,
  mergeFile: MergeFile,
  commit: { message: string; author: Required<Signature>; committer: Required<Signature> },
): Promise<string> {
  const boundary = s.ahead.filter((c) => shallow.has(c.oid)).sort((a, b) => b.committer.timestamp - a.committer.timestamp)[0];
  const local = s.local ? await s.commits.read(s.local) : null;
  if (!boundary || !local)
    throw new VcsError('merge: no common history with the remote, even at the shallow boundary', { kind: 'conflict', operation: 'merge' });
  // the local branch's changes since the boundary, as one commit whose parent is the boundary
  const { headTree } = await replayOnto(opts, s, [{ ...local, parents: [boundary.oid] }], mergeFile, 'merge');
  const message = commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`;
  return git.writeCommit({
    fs: fsOf(opts),
    dir: opts.dir,
    commit: { message, tree: headTree, parent: [s.local!, s.remote!], author: commit.author, committer: commit.committer },
  });
}

/** Parents before children, among the given commits only. */
function oldestFirst(commits: CommitInfo[]): CommitInfo[] {
  const byOid = new Map(commits.map((c) => [c.oid, c]));
  const done = new Set<string>();
  const out: CommitInfo[] = [];
  const visit = (c: CommitInfo): void => {
    const stack: { commit: CommitInfo; next: number }[] = [{ commit: c, next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (done.has(top!.commit.oid)) {
        stack.pop();
        continue;
      }
      const parentOid = top!.commit.parents[top!.next++];
      if (parentOid === undefined) {
        done.add(top!.commit.oid);
        out.push(top!.commit);
        stack.pop();
      } else {
        const parent = byOid.get(parentOid);
        if (parent && !done.has(parent.oid)) stack.push({ commit: parent, next: 0 });
      }
    }
  };
  // Visit oldest first so that independent branches keep their date order.
  for (const c of [...commits].reverse()) visit(c);
  return out;
}

/**
 * Brings `origin/<branch>` into the checked-out branch the way a component's `merge_style` says:
 * `rebase`, `merge`, or `merge_noff` (always a merge commit).
 */
export async function updateBranch(
  opts: RepoOptions & {
    branch?: string;
    mergeStyle: 'merge' | 'rebase' | 'merge_noff';
    author: Signature;
    committer?: Signature;
    message?: string;
    mergeFile?: MergeFile;
  },
): Promise<UpdateResult> {
  if (opts.mergeStyle === 'rebase') return rebase(opts);
  return merge({ ...opts, noFastForward: opts.mergeStyle === 'merge_noff' });
}
