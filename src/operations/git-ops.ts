// The git work of repository operations, as plain data in and out, so that it can run in the git worker thread.
import * as vcs from '../vcs/index.js';
import { type FileConflict, type MergerSpec, createUnitMerger } from './unit-merger.js';

/**
 * A working copy with a fresh isomorphic-git object cache: one per operation, dropped when it ends. The cache keeps
 * every pack it reads (whole, in memory) and never lets one go; kept per working copy for the thread's life, it held
 * one more pack each time upstream moved and a fetch brought one (every sibling component of a shared repository
 * fetches after each push), so the server's memory grew for as long as it ran. Reading a pack again costs a read of
 * a file the page cache holds.
 */
function repo(dir: string): vcs.RepoOptions {
  return { dir, cache: {} };
}

type Remote = { dir: string; url: string; auth?: vcs.Credentials; branch: string; timeoutMs: number };

/** Each operation takes one plain object and returns plain data (structured-clonable both ways). */
export const gitOps = {
  /** Answers once the thread has loaded everything (`startGitWorker` waits for it). */
  async ready(_: Record<string, never>): Promise<true> {
    return true;
  },
  /** The files at `ref` (null where one is missing). */
  async readBlobs(a: { dir: string; ref: string; paths: string[] }): Promise<(Uint8Array | null)[]> {
    const out: (Uint8Array | null)[] = [];
    const at = repo(a.dir);
    for (const path of a.paths) out.push(await vcs.readBlobAt({ ...at, ref: a.ref, path }));
    return out;
  },
  commitSeries(a: { dir: string; commits: vcs.CommitSpec[] }): Promise<(string | null)[]> {
    return vcs.commitSeries(repo(a.dir), a.commits);
  },
  fetch(a: Remote): Promise<string | null> {
    return vcs.fetch({ ...repo(a.dir), url: a.url, auth: a.auth, branch: a.branch, timeoutMs: a.timeoutMs });
  },
  push(a: Remote & { remoteBranch: string }): Promise<void> {
    return vcs.push({ ...repo(a.dir), url: a.url, auth: a.auth, branch: a.branch, remoteBranch: a.remoteBranch, timeoutMs: a.timeoutMs });
  },
  status(a: { dir: string; branch: string }): Promise<vcs.RepoStatus> {
    return vcs.status({ ...repo(a.dir), branch: a.branch });
  },
  /** A rebase onto `origin/<branch>` merging translation files unit by unit; the unit conflicts it met. */
  async rebase(a: { dir: string; merger: MergerSpec; committerEmail?: string }): Promise<{ update: vcs.UpdateResult; conflicts: FileConflict[] }> {
    const at = repo(a.dir);
    const merger = createUnitMerger(at, a.merger);
    // Only tms's own commits are replayed: upstream's commits that upstream dropped (a force-push) stay dropped.
    const replay = a.committerEmail === undefined ? undefined : (c: vcs.CommitInfo) => c.committer.email === a.committerEmail;
    const update = await vcs.rebase({ ...at, branch: a.merger.branch, mergeFile: merger.mergeFile, replay });
    return { update, conflicts: merger.conflicts() };
  },
};

export type GitOps = typeof gitOps;
export type GitOp = keyof GitOps;
