// Several nodes on one database: a node's working copy is its cache of upstream, brought to the commit the store
// says before the node does git work on the component (another node may have committed, pushed and moved on).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ComponentTarget, sharersOf } from '../component/resolve.js';
import { syncedCommitOf } from '../store/projects.repo.js';
import { type ComponentSyncResult, type SyncOptions, syncLocked } from './sync.js';

/** What `alignWorkingCopy` did. */
export type Alignment = 'single-node' | 'in-step' | 'cloned' | 'moved' | 'followed-upstream';

/** What `alignWorkingCopy` did, and the sync it ran when it cloned or followed upstream (what that sync found). */
export interface AlignResult {
  alignment: Alignment;
  synced?: ComponentSyncResult;
}

/**
 * Call holding the component's lock. With several nodes (`h.nodes`): a missing working copy is cloned and loaded;
 * one whose HEAD is not the store's synced commit is fetched and reset to it (what was checked out here is only a
 * cache: commits are recorded in the store once upstream has them, pending edits live in the store). When the store
 * names no commit this node can find (none, or one upstream no longer has), the working copy follows upstream and the
 * store re-reads it, pending edits kept. Nothing is done on a single node.
 * @example (await alignWorkingCopy(h)).alignment // 'moved': another node had moved the component on
 */
export async function alignWorkingCopy(h: ComponentTarget, opts: SyncOptions = {}): Promise<AlignResult> {
  if (!h.nodes || !h.git) return { alignment: 'single-node' };
  if (!existsSync(path.join(h.dir, '.git'))) {
    const synced = await syncLocked(h, opts);
    if (!synced.ok && synced.error && !existsSync(path.join(h.dir, '.git'))) throw new Error(`${h.key}: cannot clone the repository: ${synced.error}`);
    return { alignment: 'cloned', synced };
  }
  const vcs = await import('../vcs/index.js');
  const git = { dir: h.dir, cache: h.cache };
  const head = await vcs.headOid(git);
  const synced = await h.store.read((tx) => syncedCommitOf(tx, h.row.id));
  if (head !== null && head === synced) return { alignment: 'in-step' };
  // a working copy shared with other components (weblate:// links) is in step when it is where any of them is: the
  // others move their commit on without reading when their files did not change, never the working copy back
  if (head !== null) {
    for (const other of await sharersOf(h)) if ((await h.store.read((tx) => syncedCommitOf(tx, other.row.id))) === head) return { alignment: 'in-step' };
  }
  await vcs.fetch({ ...git, url: h.component.repoResolved, auth: h.auth, branch: h.branch, timeoutMs: h.remoteTimeoutMs });
  if (synced !== null && (await vcs.hasCommit(git, synced))) {
    await vcs.resetHard({ ...git, ref: synced });
    return { alignment: 'moved' };
  }
  await vcs.resetHard({ ...git, ref: `refs/remotes/${vcs.REMOTE}/${h.branch}` });
  return { alignment: 'followed-upstream', synced: await syncLocked(h, { ...opts, offline: true }) };
}
