// Several nodes on one database: a node's working copy is its cache of upstream, brought to the commit the store
// says before the node does git work on the component (another node may have committed, pushed and moved on).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { multiNode } from '../component/mutex.js';
import type { ComponentTarget } from '../component/resolve.js';
import { syncLocked } from './sync.js';

/** What `alignWorkingCopy` did. */
export type Alignment = 'single-node' | 'in-step' | 'cloned' | 'moved' | 'followed-upstream';

/**
 * Call holding the component's lock. With several nodes (`multiNode()`): a missing working copy is cloned and loaded;
 * one whose HEAD is not the store's synced commit is fetched and reset to it (what was checked out here is only a
 * cache: commits are recorded in the store once upstream has them, pending edits live in the store). When the store
 * names no commit this node can find (none, or one upstream no longer has), the working copy follows upstream and the
 * store re-reads it, pending edits kept. Nothing is done on a single node.
 * @example await alignWorkingCopy(h) // 'moved': another node had moved the component on
 */
export async function alignWorkingCopy(h: ComponentTarget): Promise<Alignment> {
  if (!multiNode() || !h.git) return 'single-node';
  if (!existsSync(path.join(h.dir, '.git'))) {
    const synced = await syncLocked(h);
    if (!synced.ok && synced.error && !existsSync(path.join(h.dir, '.git'))) throw new Error(`${h.key}: cannot clone the repository: ${synced.error}`);
    return 'cloned';
  }
  const vcs = await import('../vcs/index.js');
  const opts = { dir: h.dir, cache: h.cache };
  const head = await vcs.headOid(opts);
  const synced = await h.store.syncedCommit(h.row.id);
  if (head !== null && head === synced) return 'in-step';
  await vcs.fetch({ ...opts, url: h.component.repoResolved, auth: h.auth, branch: h.branch });
  if (synced !== null && (await vcs.hasCommit(opts, synced))) {
    await vcs.resetHard({ ...opts, ref: synced });
    return 'moved';
  }
  await vcs.resetHard({ ...opts, ref: `refs/remotes/${vcs.REMOTE}/${h.branch}` });
  await syncLocked(h, { offline: true });
  return 'followed-upstream';
}
