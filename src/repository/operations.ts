// The repository operations of Weblate's `repository/` endpoint: push, pull, reset, cleanup, file-sync, file-scan.
import { readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { ComponentConfig, Config, ProjectConfig } from '../config/config.js';
import { Action } from '../domain/actions.js';
import type { Db } from '../store/db.js';
import { now } from '../store/db.js';
import { markAllPending, recordChanges } from '../store/pending.repo.js';
import { withComponentLock } from '../sync/component-lock.js';
import { type ComponentSyncResult, syncLocked } from '../sync/sync.js';
import * as vcs from '../vcs/index.js';
import { type CommitResult, commitLocked } from './commit.js';
import { type Actor, type ComponentHandle, errorLine, hasWorkingCopy, type OperationResult, pushBranch, pushUrl, resolveComponent } from './component.js';
import { type ConflictReport, integrateLocked, recordUpdateFailure } from './integrate.js';

export interface OperationOptions {
  /** Who asked: the user of the recorded changes, and the commit author of pending edits without one. */
  user?: Actor;
}

/** What push, pull, reset and the file operations return; the API sends `result` and `detail`. */
export interface RepositoryResult extends OperationResult {
  /** The commit of pending edits made first, when there was one. */
  commit?: CommitResult;
  /** Local edits that met upstream changes of the same strings (pull, push). */
  conflicts?: ConflictReport[];
  /** The re-sync that followed, when there was one. */
  sync?: ComponentSyncResult;
}

type Locked = (h: ComponentHandle) => Promise<RepositoryResult & { resync?: boolean; force?: boolean }>;

/** Runs `work` under the component lock, then re-syncs the component (same lock) when asked to. */
async function operate(db: Db, config: Config, project: ProjectConfig, component: ComponentConfig, work: Locked): Promise<RepositoryResult> {
  const h = resolveComponent(db, config, project, component);
  return withComponentLock(h.key, async () => {
    if (!hasWorkingCopy(h)) return { result: false, detail: `${h.key}: the repository has not been cloned yet (sync the component first)` };
    let outcome: RepositoryResult & { resync?: boolean; force?: boolean };
    try {
      outcome = await work(h);
    } catch (e) {
      // A batch never throws half-way: an unexpected failure becomes the result.
      return { result: false, detail: errorLine(e, h) };
    }
    const { resync, force, ...result } = outcome;
    if (resync) {
      // still under the lock: no other operation runs between the git work and the re-scan
      result.sync = await syncLocked(db, config, project, component, { force });
      if (!result.sync.ok && result.sync.error) result.detail = joinLines(result.detail, `Re-scan: ${result.sync.error}`);
      if (force) result.result = result.result && result.sync.ok;
    }
    return result;
  });
}

function joinLines(...lines: (string | undefined)[]): string | undefined {
  const kept = lines.filter((l): l is string => Boolean(l));
  return kept.length > 0 ? kept.join('\n') : undefined;
}

function conflictLines(conflicts: readonly ConflictReport[]): string | undefined {
  if (conflicts.length === 0) return undefined;
  const kept = conflicts.filter((c) => c.kept);
  const lost = conflicts.filter((c) => !c.kept);
  const lines: string[] = [];
  if (kept.length > 0) {
    lines.push(`${kept.length} local edit(s) met upstream changes of the same string; upstream's text is in the file and the local text is pending again:`);
    for (const c of kept) lines.push(`  ${c.path} [${c.context}]`);
  }
  if (lost.length > 0) {
    lines.push(`${lost.length} local edit(s) are of strings upstream removed:`);
    for (const c of lost) lines.push(`  ${c.path} [${c.context}]: ${JSON.stringify(c.local)}`);
  }
  return lines.join('\n');
}

async function fetchRemote(h: ComponentHandle): Promise<void> {
  await vcs.fetch({ dir: h.dir, cache: h.cache, url: h.component.repoResolved, auth: h.auth, branch: h.branch });
}

/**
 * pull: fetches; when upstream has new commits, commits pending edits, then rebases (unit-aware) or merges per
 * `merge_style` and re-syncs so new upstream strings appear. Records 21/20, or 23/22 with the error (the
 * commits made first are taken back so every edit is pending again). Conflicting edits stay pending.
 * @example const { result, detail, conflicts } = await pullComponent(db, config, project, component);
 */
export async function pullComponent(
  db: Db,
  config: Config,
  project: ProjectConfig,
  component: ComponentConfig,
  opts: OperationOptions = {},
): Promise<RepositoryResult> {
  return operate(db, config, project, component, async (h) => {
    if (!h.git) return { result: true, detail: 'A local component has no upstream.' };
    try {
      await fetchRemote(h);
    } catch (e) {
      const error = errorLine(e, h);
      recordUpdateFailure(h, error, opts.user);
      return { result: false, detail: error };
    }
    const status = await vcs.status({ dir: h.dir, cache: h.cache, branch: h.branch });
    if (!status.needsMerge) return { result: true, detail: 'Already up to date.' };
    const { result: commit, undo } = await commitLocked(h, opts);
    const outcome = await integrateLocked(h, undo, opts.user);
    if (!outcome.ok) return { result: false, detail: joinLines(commit.detail, `Could not update the repository: ${outcome.error}`), commit };
    return { result: true, detail: joinLines(commit.detail, conflictLines(outcome.conflicts)), commit, conflicts: outcome.conflicts, resync: true };
  });
}

/**
 * push: commits pending edits, brings upstream in first when it moved (as pull), pushes the branch to `push`
 * (else the repository) as `push_branch` (else the branch). A push rejected because upstream moved meanwhile
 * is retried once after a pull. Records 18, or 28 with the credential-free error.
 * @example await pushComponent(db, config, project, component, { user })
 */
export async function pushComponent(
  db: Db,
  config: Config,
  project: ProjectConfig,
  component: ComponentConfig,
  opts: OperationOptions = {},
): Promise<RepositoryResult> {
  return operate(db, config, project, component, async (h) => {
    if (!h.git) return { result: true, detail: 'A local component has no upstream.' };
    const { result: commit, undo } = await commitLocked(h, opts);
    const conflicts: ConflictReport[] = [];
    let resync = false;
    const failed = (error: string, action: number | null): RepositoryResult & { resync: boolean } => {
      if (action !== null) {
        recordChanges(h.db, [{ action, timestamp: now(), projectId: h.row.project_id, componentId: h.row.id, userId: opts.user?.id ?? null, target: error, details: { error } }]);
      }
      return { result: false, detail: joinLines(commit.detail, conflictLines(conflicts), `Could not push: ${error}`), commit, conflicts, resync };
    };
    // Brings upstream in when it has commits we lack; false (recorded) when that failed.
    const update = async (): Promise<string | null> => {
      await fetchRemote(h);
      const status = await vcs.status({ dir: h.dir, cache: h.cache, branch: h.branch });
      if (!status.needsMerge) return null;
      const outcome = await integrateLocked(h, undo, opts.user);
      if (!outcome.ok) return outcome.error ?? 'update failed';
      conflicts.push(...outcome.conflicts);
      resync = true;
      return null;
    };
    try {
      const error = await update();
      if (error) return failed(error, null);
    } catch (e) {
      return failed(errorLine(e, h), Action.FAILED_PUSH);
    }
    const status = await vcs.status({ dir: h.dir, cache: h.cache, branch: h.branch });
    if (!status.needsPush && pushUrl(h) === h.component.repoResolved && pushBranch(h) === h.branch) {
      return { result: true, detail: joinLines(commit.detail, conflictLines(conflicts), 'Nothing to push.'), commit, conflicts, resync };
    }
    const push = () => vcs.push({ dir: h.dir, cache: h.cache, url: pushUrl(h), auth: h.auth, branch: h.branch, remoteBranch: pushBranch(h) });
    try {
      try {
        await push();
      } catch (e) {
        if (!(e instanceof vcs.VcsError && e.data.kind === 'rejected')) throw e;
        const error = await update();
        if (error) return failed(error, null);
        await push();
      }
    } catch (e) {
      return failed(errorLine(e, h), Action.FAILED_PUSH);
    }
    recordChanges(h.db, [{ action: Action.PUSH, timestamp: now(), projectId: h.row.project_id, componentId: h.row.id, userId: opts.user?.id ?? null }]);
    return { result: true, detail: joinLines(commit.detail, conflictLines(conflicts)), commit, conflicts, resync };
  });
}

/**
 * reset: fetches and resets the branch, index and working tree hard to upstream (tms's unpushed commits go),
 * records 19 with `{new_head, previous_head}`, then re-syncs. Pending edits stay pending in the store and are
 * written again at the next commit.
 */
export async function resetComponent(
  db: Db,
  config: Config,
  project: ProjectConfig,
  component: ComponentConfig,
  opts: OperationOptions = {},
): Promise<RepositoryResult> {
  return operate(db, config, project, component, async (h) => {
    if (!h.git) return { result: true, detail: 'A local component has no upstream.' };
    let previous: string | null;
    let head: string;
    try {
      await fetchRemote(h);
      previous = (await vcs.headCommit({ dir: h.dir, cache: h.cache }))?.oid ?? null;
      head = await vcs.resetHard({ dir: h.dir, cache: h.cache, ref: `refs/remotes/${vcs.REMOTE}/${h.branch}` });
    } catch (e) {
      return { result: false, detail: `Could not reset the repository: ${errorLine(e, h)}` };
    }
    recordChanges(h.db, [{
      action: Action.RESET, timestamp: now(), projectId: h.row.project_id, componentId: h.row.id, userId: opts.user?.id ?? null,
      details: { new_head: head, previous_head: previous },
    }]);
    return { result: true, resync: true };
  });
}

/** cleanup: removes every file of the working copy that git does not track (and folders left empty). */
export async function cleanupComponent(
  db: Db,
  config: Config,
  project: ProjectConfig,
  component: ComponentConfig,
): Promise<RepositoryResult> {
  return operate(db, config, project, component, async (h) => {
    if (!h.git) return { result: true, detail: 'A local component has no repository to clean.' };
    const head = await vcs.headCommit({ dir: h.dir, cache: h.cache });
    const tracked = head ? await vcs.listFilesWithBlobIds({ dir: h.dir, cache: h.cache }) : new Map<string, string>();
    const removed = await removeUntracked(h.dir, '', new Set(tracked.keys()));
    return { result: true, detail: removed.length > 0 ? `Removed ${removed.length} untracked file(s).` : 'Nothing to clean.' };
  });
}

/** Removes untracked files under `rel` (never `.git`); returns their paths. Folders left empty go too. */
async function removeUntracked(root: string, rel: string, tracked: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  const entries = await readdir(path.join(root, rel), { withFileTypes: true });
  for (const entry of entries) {
    const file = rel ? `${rel}/${entry.name}` : entry.name;
    if (file === '.git') continue;
    if (entry.isDirectory()) {
      removed.push(...(await removeUntracked(root, file, tracked)));
      if ((await readdir(path.join(root, file))).length === 0) await rmdir(path.join(root, file));
    } else if (!tracked.has(file)) {
      await rm(path.join(root, file), { force: true });
      removed.push(file);
    }
  }
  return removed;
}

/** file-sync: marks every unit of every translation (not the source) pending and commits, rewriting the files from the store. */
export async function fileSync(
  db: Db,
  config: Config,
  project: ProjectConfig,
  component: ComponentConfig,
  opts: OperationOptions = {},
): Promise<RepositoryResult> {
  return operate(db, config, project, component, async (h) => {
    markAllPending(h.db, h.row.id);
    const { result: commit } = await commitLocked(h, opts);
    return { result: commit.result, detail: commit.detail, commit };
  });
}

/** file-scan: commits pending edits, then re-parses every file (a forced sync). */
export async function fileScan(
  db: Db,
  config: Config,
  project: ProjectConfig,
  component: ComponentConfig,
  opts: OperationOptions = {},
): Promise<RepositoryResult> {
  return operate(db, config, project, component, async (h) => {
    const { result: commit } = await commitLocked(h, opts);
    return { result: commit.result, detail: commit.detail, commit, resync: true, force: true };
  });
}
