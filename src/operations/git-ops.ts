// The git work of repository operations, as plain data in and out, so that it can run in the git worker thread.
import * as vcs from '../vcs/index.js';
import { type FileConflict, type MergerSpec, createUnitMerger } from './unit-merger.js';

/** isomorphic-git's object cache, one per working copy, kept by whichever thread runs the work. */
const caches = new Map<string, object>();
function repo(dir: string): vcs.RepoOptions {
  let cache = caches.get(dir);
  if (!cache) caches.set(dir, (cache = {}));
  return { dir, cache };
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
    for (const path of a.paths) out.push(await vcs.readBlobAt({ ...repo(a.dir), ref: a.ref, path }));
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
    const merger = createUnitMerger(repo(a.dir), a.merger);
    // Only tms's own commits are replayed: upstream's commits that upstream dropped (a force-push) stay dropped.
    const replay = a.committerEmail === undefined ? undefined : (c: vcs.CommitInfo) => c.committer.email === a.committerEmail;
    const update = await vcs.rebase({ ...repo(a.dir), branch: a.merger.branch, mergeFile: merger.mergeFile, replay });
    return { update, conflicts: merger.conflicts() };
  },
};

export type GitOps = typeof gitOps;
export type GitOp = keyof GitOps;
