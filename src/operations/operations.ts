// The repository operations of Weblate's `repository/` endpoint: commit, push, pull, reset, cleanup, file-sync, file-scan.
import { readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { type Actor, type ComponentHandle, type OperationResult, errorLine, hasWorkingCopy, openSharers, pushBranch, pushUrl } from '../component/handle.js';
import { Action } from '../domain/actions.js';
import { recordChanges } from '../store/changes.repo.js';
import { markAllPending } from '../store/edits.repo.js';
import { now } from '../store/index.js';
import { runDiscovery } from '../sync/discovery.js';
import { type ComponentSyncResult, syncLocked, syncSharers } from '../sync/sync.js';
import * as vcs from '../vcs/index.js';
import { type CommitOptions, type CommitResult, type CommitUndo, commitAgain, commitLocked } from './commit.js';
import { withMutex } from './exclusive.js';
import { gitWork } from './git-work.js';
import { type ConflictReport, type IntegrateOutcome, integrateLocked, recordUpdateFailure } from './integrate.js';

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
  /** The re-syncs of the other components sharing the working copy (weblate:// links) that followed. */
  shared?: ComponentSyncResult[];
}

/** What an operation's git work returns to `operate`: whether to re-sync, and the sharing components it opened (if it did). */
type Locked = (h: ComponentHandle) => Promise<RepositoryResult & { resync?: boolean; force?: boolean; sharers?: readonly ComponentHandle[] }>;

/** Runs `work` holding the component's mutex, then re-syncs the component (same mutex) when asked to. */
async function operate(h: ComponentHandle, work: Locked): Promise<RepositoryResult> {
  return withMutex(h, async () => {
    if (!hasWorkingCopy(h)) return { result: false, detail: `${h.key}: the repository has not been cloned yet (sync the component first)` };
    let outcome: Awaited<ReturnType<Locked>>;
    try {
      outcome = await work(h);
    } catch (e) {
      // A batch never throws half-way: an unexpected failure becomes the result.
      return { result: false, detail: errorLine(e, h) };
    }
    const { resync, force, sharers, ...result } = outcome;
    if (resync) {
      // still under the lock: no other operation runs between the git work and the re-scan
      result.sync = await syncLocked(h, { force, offline: true });
      if (!result.sync.ok && result.sync.error) result.detail = joinLines(result.detail, `Re-scan: ${result.sync.error}`);
      if (force) result.result = result.result && result.sync.ok;
      // the components sharing the working copy read what it holds now too (those whose files did not change only
      // move their commit)
      for (const { target: other, result: synced } of await syncSharers(h, { force, sharers })) {
        result.shared = [...(result.shared ?? []), synced];
        if (!synced.ok && synced.error) result.detail = joinLines(result.detail, `Re-scan of ${other.project.slug}/${other.component.slug}: ${synced.error}`);
      }
      // Weblate's discovery add-on: the components the repository's files make after the update
      if (h.git && result.sync.commit !== null) {
        const discovered = await runDiscovery(h, { dir: h.dir, head: result.sync.commit, update: 'up-to-date' });
        if (discovered.synced.length > 0) result.shared = [...(result.shared ?? []), ...discovered.synced];
        if (discovered.warnings.length > 0) result.detail = joinLines(result.detail, ...discovered.warnings);
      }
    }
    return result;
  });
}

/** Re-reads the working copy (upstream was brought in) for the component and those sharing its working copy. */
async function resyncWithSharers(h: ComponentHandle): Promise<void> {
  await syncLocked(h, { offline: true });
  await syncSharers(h);
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
  await gitWork(h, 'fetch', { dir: h.dir, url: h.component.repoResolved, auth: h.auth, branch: h.branch, timeoutMs: h.remoteTimeoutMs });
}

function statusOf(h: ComponentHandle): Promise<vcs.RepoStatus> {
  return gitWork(h, 'status', { dir: h.dir, branch: h.branch });
}

/**
 * commit: writes every pending edit into its file and commits (see `commitLocked`). With the component's
 * `push_on_commit` (Weblate's default) a commit that made commits is pushed at once, whoever asked for it: the API,
 * the CLI or a webhook-triggered pull.
 * @example const r = await commitPending(h, { user: { id: 3 } });
 */
export async function commitPending(h: ComponentHandle, opts: CommitOptions = {}): Promise<CommitResult> {
  return withMutex(h, async () => {
    const { result: commit, undo } = await commitLocked(h, opts);
    // several nodes: the commit pushed its commits already
    if (!commit.result || commit.commits.length === 0 || !pushesOnCommit(h) || h.nodes) return commit;
    const pushed = await pushLocked(h, opts, { result: commit, undo });
    // Upstream had moved and was brought in first: load what it brought.
    if (pushed.resync) await resyncWithSharers(h);
    return { ...commit, result: pushed.result, ...(pushed.detail ? { detail: pushed.detail } : {}) };
  });
}

/**
 * The push `push_on_commit` asks for after a commit tms made of one file outside `commitPending` (a new language, a
 * replaced file), as Weblate pushes after each commit of its files; call holding the component's mutex. Pending edits
 * are not committed first (Weblate's push after a commit does not), upstream is brought in first when it moved. A
 * failed push is recorded (28) and returned; the commit stays and the next push takes it.
 * @example await pushAfterCommit(h, { user }); // null: push_on_commit is off
 */
export async function pushAfterCommit(h: ComponentHandle, opts: OperationOptions = {}): Promise<RepositoryResult | null> {
  if (!pushesOnCommit(h)) return null;
  const nothing: CommitResult = { result: true, commits: [], units: 0, failed: [] };
  const undo: CommitUndo = { head: null, units: [], revisions: new Map(), syncedCommit: null, changeIds: [] };
  const { resync, ...pushed } = await pushLocked(h, opts, { result: nothing, undo });
  // Upstream had moved and was brought in first: load what it brought.
  if (resync) await resyncWithSharers(h);
  return pushed;
}

/** Whether commits of this component are pushed as soon as they are made. */
function pushesOnCommit(h: ComponentHandle): boolean {
  return h.git && h.component.push_on_commit;
}

/**
 * pull: fetches; when upstream has new commits, commits pending edits, then rebases (unit-aware) or merges per
 * `merge_style` and re-syncs so new upstream strings appear. Records 21/20, or 23/22 with the error (the
 * commits made first are taken back so every edit is pending again). Conflicting edits stay pending. Edits of a
 * file the commit could not write before the update (upstream had broken it) are committed after it, when upstream
 * fixed the file. With `push_on_commit`, tms's commits that the update carried over are pushed at once.
 * @example const { result, detail, conflicts } = await pullComponent(h);
 */
export async function pullComponent(h: ComponentHandle, opts: OperationOptions = {}): Promise<RepositoryResult> {
  return operate(h, async (h) => {
    if (!h.git) return { result: true, detail: 'A local component has no upstream.' };
    try {
      await fetchRemote(h);
    } catch (e) {
      const error = errorLine(e, h);
      await recordUpdateFailure(h, error, opts.user);
      return { result: false, detail: error };
    }
    const status = await statusOf(h);
    if (!status.needsMerge) return { result: true, detail: 'Already up to date.' };
    // the components sharing the working copy, opened once for the commit, the merge and the re-sync
    const sharers = await openSharers(h);
    const first = await commitLocked(h, { ...opts, sharers });
    const outcome = await integrateLocked(h, first.undo, opts.user, sharers);
    if (!outcome.ok) return { result: false, detail: joinLines(`Could not update the repository: ${outcome.error}`, keptPending(first.result, outcome)) };
    const committed = await commitAgain(h, opts, first);
    const { result: commit } = committed;
    const pulled = {
      result: true,
      detail: joinLines(commit.detail, conflictLines(outcome.conflicts)),
      commit,
      conflicts: outcome.conflicts,
      resync: true,
      sharers,
    };
    if (!pushesOnCommit(h) || !(await statusOf(h)).needsPush) return pulled;
    // the push's detail tells the commit and the conflicts too
    return { ...(await pushLocked(h, opts, committed, outcome.conflicts)), resync: true, sharers };
  });
}

/**
 * What became of the pending edits when an update failed: the commits made before it were taken back (or, rarely,
 * could not be: the error says so), so nothing was committed and the edits are pending as before.
 */
function keptPending(commit: CommitResult, outcome: IntegrateOutcome): string | undefined {
  if (commit.commits.length === 0 && commit.failed.length === 0) return undefined;
  return outcome.takenBack ? 'Nothing was committed: the pending edits stay pending.' : undefined;
}

/**
 * push: commits pending edits, brings upstream in first when it moved (as pull), pushes the branch to `push`
 * (else the repository) as `push_branch` (else the branch). A push rejected because upstream moved meanwhile
 * is retried after a pull (three attempts in all). Records 18, or 28 with the credential-free error.
 * @example await pushComponent(h, { user })
 */
export async function pushComponent(h: ComponentHandle, opts: OperationOptions = {}): Promise<RepositoryResult> {
  return operate(h, async (h) => {
    if (!h.git) return { result: true, detail: 'A local component has no upstream.' };
    return pushLocked(h, opts, await commitLocked(h, opts));
  });
}

/** How many times a push rejected because upstream moved meanwhile is tried, bringing upstream in before each retry. */
const PUSH_ATTEMPTS = 3;

/**
 * The push after `committed` (made by the caller, under the same mutex): upstream brought in first when it moved,
 * and the edits of files the commit could not write committed again on top of it (see `commitAgain`).
 */
async function pushLocked(
  h: ComponentHandle,
  opts: OperationOptions,
  committed: { result: CommitResult; undo: CommitUndo },
  conflicts: ConflictReport[] = [],
): Promise<RepositoryResult & { resync: boolean }> {
  let resync = false;
  let { result: commit, undo } = committed;
  const failed = async (error: string, action: number | null, kept?: string): Promise<RepositoryResult & { resync: boolean }> => {
    if (action !== null) {
      await h.store.write((tx) =>
        recordChanges(tx, [
          { action, timestamp: now(), projectId: h.row.project_id, componentId: h.row.id, userId: opts.user?.id ?? null, target: error, details: { error } },
        ]),
      );
    }
    // after a failed update the commits were taken back: `kept` says so in place of what they had committed
    const done = kept === undefined ? commit.detail : kept;
    return {
      result: false,
      detail: joinLines(done, conflictLines(conflicts), `Could not push: ${error}`),
      ...(kept === undefined ? { commit } : {}),
      conflicts,
      resync,
    };
  };
  // Brings upstream in when it has commits we lack; the failed update's outcome (recorded) when that failed.
  const update = async (): Promise<IntegrateOutcome | null> => {
    await fetchRemote(h);
    const status = await statusOf(h);
    if (!status.needsMerge) return null;
    const outcome = await integrateLocked(h, undo, opts.user);
    if (!outcome.ok) return outcome;
    conflicts.push(...outcome.conflicts);
    resync = true;
    ({ result: commit, undo } = await commitAgain(h, opts, { result: commit, undo }));
    return null;
  };
  const updateFailed = (outcome: IntegrateOutcome) => failed(outcome.error ?? 'update failed', null, keptPending(commit, outcome) ?? '');
  try {
    const outcome = await update();
    if (outcome) return updateFailed(outcome);
  } catch (e) {
    return failed(errorLine(e, h), Action.FAILED_PUSH);
  }
  const status = await statusOf(h);
  if (!status.needsPush && pushUrl(h) === h.component.repoResolved && pushBranch(h) === h.branch) {
    return { result: true, detail: joinLines(commit.detail, conflictLines(conflicts), 'Nothing to push.'), commit, conflicts, resync };
  }
  const push = () =>
    gitWork(h, 'push', { dir: h.dir, url: pushUrl(h), auth: h.auth, branch: h.branch, remoteBranch: pushBranch(h), timeoutMs: h.remoteTimeoutMs });
  try {
    // Upstream moving on between our fetch and our push is a race, not a failure: bring it in and try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await push();
        break;
      } catch (e) {
        if (!(e instanceof vcs.VcsError && e.data.kind === 'rejected') || attempt === PUSH_ATTEMPTS) throw e;
        const outcome = await update();
        if (outcome) return updateFailed(outcome);
      }
    }
  } catch (e) {
    return failed(errorLine(e, h), Action.FAILED_PUSH);
  }
  await h.store.write((tx) =>
    recordChanges(tx, [{ action: Action.PUSH, timestamp: now(), projectId: h.row.project_id, componentId: h.row.id, userId: opts.user?.id ?? null }]),
  );
  return { result: true, detail: joinLines(commit.detail, conflictLines(conflicts)), commit, conflicts, resync };
}

/**
 * reset: fetches and resets the branch, index and working tree hard to upstream (tms's unpushed commits go),
 * records 19 with `{new_head, previous_head}`, then re-syncs. Pending edits stay pending in the store and are
 * written again at the next commit.
 */
export async function resetComponent(h: ComponentHandle, opts: OperationOptions = {}): Promise<RepositoryResult> {
  return operate(h, async (h) => {
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
    await h.store.write((tx) =>
      recordChanges(tx, [
        {
          action: Action.RESET,
          timestamp: now(),
          projectId: h.row.project_id,
          componentId: h.row.id,
          userId: opts.user?.id ?? null,
          details: { new_head: head, previous_head: previous },
        },
      ]),
    );
    return { result: true, resync: true };
  });
}

/** cleanup: removes every file of the working copy that git does not track (and folders left empty). */
export async function cleanupComponent(h: ComponentHandle): Promise<RepositoryResult> {
  return operate(h, async (h) => {
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
export async function fileSync(h: ComponentHandle, opts: OperationOptions = {}): Promise<RepositoryResult> {
  return operate(h, async (h) => {
    await h.store.write((tx) => markAllPending(tx, h.row.id));
    const { result: commit } = await commitLocked(h, opts);
    return { result: commit.result, detail: commit.detail, commit };
  });
}

/** file-scan: commits pending edits, then re-parses every file (a forced sync). */
export async function fileScan(h: ComponentHandle, opts: OperationOptions = {}): Promise<RepositoryResult> {
  return operate(h, async (h) => {
    const { result: commit } = await commitLocked(h, opts);
    return { result: commit.result, detail: commit.detail, commit, resync: true, force: true };
  });
}
