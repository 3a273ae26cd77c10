// Several nodes on one database: the commits of a commit are pushed before the store records them, so no node holds
// work the others cannot see (a node killed before the push leaves every edit pending in the store).
import { type ComponentHandle, pushBranch, pushUrl } from '../component/handle.js';
import { confirmNodeLock } from '../component/mutex.js';
import { Action } from '../domain/actions.js';
import { TmsError } from '../domain/errors.js';
import { recordChanges } from '../store/changes.repo.js';
import { now } from '../store/index.js';
import { syncLocked, syncSharers } from '../sync/sync.js';
import * as vcs from '../vcs/index.js';
import { gitWork } from './git-work.js';

/** Upstream has commits the working copy lacks: the commits just made were taken back, to be made again on top. */
export class UpstreamMovedError extends TmsError<{ key: string }> {}

/**
 * Pushes what was just committed on top of `headBefore` (call holding the component's lock, before the store records
 * the commits). On any failure the branch is put back on `headBefore` first, so the store and the working copy
 * agree again: UpstreamMovedError when upstream moved on (fetched, or the push was rejected), else the error.
 * @example await publishCommits(h, headBefore, userId)
 */
export async function publishCommits(h: ComponentHandle, headBefore: string | null, userId: number | null): Promise<void> {
  try {
    await gitWork(h, 'fetch', { dir: h.dir, url: h.component.repoResolved, auth: h.auth, branch: h.branch, timeoutMs: h.remoteTimeoutMs });
    const status = await gitWork(h, 'status', { dir: h.dir, branch: h.branch });
    if (status.needsMerge) throw new UpstreamMovedError(`${h.key}: upstream moved on`, { key: h.key });
    if (!status.needsPush && pushUrl(h) === h.component.repoResolved && pushBranch(h) === h.branch) return;
    // another node may have the component by now if this node's lock session was lost: no push then
    await confirmNodeLock(h.key, h.nodes);
    try {
      await gitWork(h, 'push', { dir: h.dir, url: pushUrl(h), auth: h.auth, branch: h.branch, remoteBranch: pushBranch(h), timeoutMs: h.remoteTimeoutMs });
    } catch (e) {
      if (e instanceof vcs.VcsError && e.data.kind === 'rejected') throw new UpstreamMovedError(`${h.key}: upstream moved on during the push`, { key: h.key });
      throw e;
    }
  } catch (e) {
    if (headBefore !== null) await vcs.resetHard({ dir: h.dir, cache: h.cache, ref: headBefore });
    throw e;
  }
  await h.store.write((tx) => recordChanges(tx, [{ action: Action.PUSH, timestamp: now(), projectId: h.row.project_id, componentId: h.row.id, userId }]));
}

/**
 * After UpstreamMovedError: the working copy moved to upstream (already fetched) and the store re-reads it, edits kept
 * pending; so do the components sharing the working copy (upstream may have changed their files).
 */
export async function followUpstream(h: ComponentHandle): Promise<void> {
  await vcs.resetHard({ dir: h.dir, cache: h.cache, ref: `refs/remotes/${vcs.REMOTE}/${h.branch}` });
  await syncLocked(h, { offline: true });
  await syncSharers(h);
}
