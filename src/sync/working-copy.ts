// A component's working copy: cloned on first use, updated from upstream after, and listed with git blob ids.
import { existsSync, mkdirSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { credentialsOf } from '../component/resolve.js';
import type { ComponentConfig } from '../config/config.js';
import * as vcs from '../vcs/index.js';
import { blobId } from './blob-id.js';

export { blobId };

export interface WorkingCopyState {
  dir: string;
  /** HEAD commit after the update (null for `vcs: local` or an empty repository). */
  head: string | null;
  /** What the update did: cloned, fast-forward, rebased, merged, up-to-date, or local. */
  update: 'cloned' | 'local' | 'diverged' | vcs.UpdateResult['result'];
}

/**
 * Clones the component's repository into `dir` on first use; afterwards fetches and fast-forwards the branch.
 * When tms has commits of its own not pushed yet, the branch is left as it is (`diverged`): pull and push
 * integrate upstream unit by unit. `timeoutMs`: how long the remote may stay silent (`remote_timeout_s`).
 */
export async function updateWorkingCopy(component: ComponentConfig, dir: string, cache: object, timeoutMs?: number): Promise<WorkingCopyState> {
  if (component.vcs === 'local') {
    mkdirSync(dir, { recursive: true });
    return { dir, head: null, update: 'local' };
  }
  const auth = credentialsOf(component);
  if (!existsSync(path.join(dir, '.git'))) return cloneInPlace(component, dir, auth, timeoutMs);
  const tracking = await vcs.remoteTrackingHead({ dir, cache });
  // A clone cut short in place (by an older tms, or a folder made by hand): no commit and no tracking ref. The
  // working copy is only a cache of upstream (pending edits live in the store): clone it again. (An empty
  // upstream looks the same; cloning it again costs nothing.)
  if (tracking === null && (await vcs.headOid({ dir, cache })) === null) return cloneInPlace(component, dir, auth, timeoutMs);
  // One ref advertisement tells whether upstream moved; the fetch (negotiation, pack) only runs when it did.
  const upstream = await vcs.remoteBranchHead({ dir, url: component.repoResolved, auth, cache, timeoutMs });
  let fetched = upstream === null || upstream !== tracking;
  if (fetched) await vcs.fetch({ dir, url: component.repoResolved, auth, cache, timeoutMs });
  const head = await vcs.headOid({ dir, cache });
  // Nothing moved and the branch sits on upstream's commit: no history walk (it reads commit objects from the pack).
  if (!fetched && head === upstream) return { dir, head, update: 'up-to-date' };
  // The tracking ref is upstream's head but the branch is not: a fetch cut short may have moved the ref without
  // the objects. Repair it, and fetch again, before trusting it.
  if (!fetched && (await vcs.repairRemoteTracking({ dir, cache }))) {
    await vcs.fetch({ dir, url: component.repoResolved, auth, cache, timeoutMs });
    fetched = true;
  }
  const status = await vcs.status({ dir, cache });
  let update: WorkingCopyState['update'] = 'up-to-date';
  // With commits of its own not pushed yet, tms leaves integration to pull/push, which merge unit by unit;
  // the sync then reads what is checked out.
  if (status.needsMerge && status.ahead === 0) {
    try {
      update = (await vcs.fastForward({ dir, cache })).result;
    } catch (e) {
      if (!/local changes would be overwritten/.test((e as Error).message)) throw e;
      // tms keeps no work in the working tree (edits live in the store): tracked files that differ from HEAD are
      // what a process killed during a checkout left behind. Put them back and fast-forward again.
      await vcs.resetHard({ dir, cache, ref: 'HEAD' });
      update = (await vcs.fastForward({ dir, cache })).result;
    }
  } else if (status.needsMerge) update = 'diverged';
  return { dir, head: await vcs.headOid({ dir, cache }), update };
}

/**
 * Clones into a sibling temporary folder and renames it into place, so that a clone cut short (killed, out of
 * disk, network gone) never looks like a working copy; leftovers of earlier cut-short clones are removed first.
 */
async function cloneInPlace(
  component: ComponentConfig,
  dir: string,
  auth: vcs.Credentials | undefined,
  timeoutMs: number | undefined,
): Promise<WorkingCopyState> {
  const parent = path.dirname(dir);
  const prefix = `${path.basename(dir)}.cloning-`;
  await mkdir(parent, { recursive: true });
  // What an interrupted clone left. Its git may outlive a killed tms and still be writing there (removal then meets
  // a folder that fills again, ENOTEMPTY): such a folder is left for a later clone, it does not stop this one.
  for (const name of await readdir(parent)) {
    if (name.startsWith(prefix)) await rm(path.join(parent, name), { recursive: true, force: true, maxRetries: 3, retryDelay: 50 }).catch(() => {});
  }
  const temp = path.join(parent, `${prefix}${process.pid}-${Date.now()}`);
  try {
    await vcs.clone({
      dir: temp,
      url: component.repoResolved,
      branch: component.branch || undefined,
      depth: component.depth || undefined,
      auth,
      cache: {},
      timeoutMs,
    });
  } catch (e) {
    await rm(temp, { recursive: true, force: true });
    throw e;
  }
  await rm(dir, { recursive: true, force: true });
  await rename(temp, dir);
  return { dir, head: await vcs.headOid({ dir, cache: {} }), update: 'cloned' };
}

/**
 * What the working tree holds for `file`, checked against the blob HEAD's tree names: a checkout cut short leaves
 * files empty or half-written, and parsing those would load nothing (or a parse error) while the revision says
 * the file was read. A file that does not match is restored from the object store (written atomically) and its
 * blob's bytes are returned. Local working copies have no tree: their bytes are what they are.
 */
export async function verifiedBytes(
  state: WorkingCopyState,
  file: string,
  bytes: Uint8Array,
  expected: string | undefined,
  cache: object,
): Promise<Uint8Array> {
  if (state.head === null || expected === undefined || blobId(bytes) === expected) return bytes;
  const blob = await vcs.readBlobAt({ dir: state.dir, cache, ref: 'HEAD', path: file });
  if (!blob) return bytes;
  const full = path.join(state.dir, file);
  const temp = `${full}.tms-restore-${process.pid}`;
  await writeFile(temp, blob);
  await rename(temp, full);
  return blob;
}

/** Blob ids of files: from the HEAD tree for git working copies, hashed from disk for local ones. */
export async function blobIdsOf(state: WorkingCopyState, paths: readonly string[], cache: object): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // (the trees on the paths' way only: a component of a repository many share reads its own trees, not all of theirs)
  const tree = state.head ? await vcs.blobIdsAt({ dir: state.dir, cache, ref: state.head }, paths) : new Map<string, string>();
  await Promise.all(
    paths.map(async (p) => {
      const known = tree.get(p);
      out.set(p, known ?? blobId(await readFile(path.join(state.dir, p))));
    }),
  );
  return out;
}
