// Background commits: pending edits older than their component's `commit_pending_age` hours are committed (and pushed with `push_on_commit`).
import { type GitRunner, configuredComponent, openComponent } from '../component/handle.js';
import type { Config } from '../config/config.js';
import { pendingAgesOf } from '../store/edits.repo.js';
import type { Store } from '../store/index.js';
import type { CommitResult } from './commit.js';
import { commitPending } from './operations.js';

/** What one pass did for one component. */
export interface BackgroundCommit {
  project: string;
  component: string;
  /** Hours the oldest pending edit had waited. */
  ageHours: number;
  result: CommitResult | { result: false; detail: string };
}

export interface BackgroundCommitter {
  /** Looks once for components whose oldest pending edit is old enough and commits them, one after another. */
  pass(): Promise<BackgroundCommit[]>;
  /** Passes made and components committed since start (for /healthz). */
  status(): { passes: number; commits: number; failures: number; running: boolean };
  /** Stops the timer and waits for a running pass. */
  close(): Promise<void>;
}

export interface BackgroundCommitOptions {
  store: Store;
  /** The configuration in force (it may change while serving). */
  getConfig: () => Config;
  /** Where the commits' git work runs (`tms serve`'s git worker); default: this thread. */
  git?: GitRunner;
  /** Milliseconds between passes (default: the configuration's `commit_pending_check_seconds`); 0 for no timer. */
  intervalMs?: number;
  /** The clock (tests move it forward). */
  now?: () => number;
  log?: (line: string) => void;
}

/**
 * Starts the timer of `tms serve`: every `commit_pending_check_seconds` it commits each component whose oldest
 * pending edit (or string removal) is at least `commit_pending_age` hours old (0: at the next pass), through
 * `commitPending` (the component's mutex, the git work in a worker thread, push per `push_on_commit`). A failed
 * commit keeps every edit pending and is retried at the next pass. Weblate looks at the component's last change
 * instead; tms looks at the oldest edit so that no edit stays only in the database much longer than the age.
 * @example const committer = startBackgroundCommits({ store, getConfig }); await committer.close();
 */
export function startBackgroundCommits(opts: BackgroundCommitOptions): BackgroundCommitter {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  let passes = 0;
  let commits = 0;
  let failures = 0;
  let running: Promise<BackgroundCommit[]> | null = null;
  let closed = false;

  async function passOnce(): Promise<BackgroundCommit[]> {
    const config = opts.getConfig();
    const done: BackgroundCommit[] = [];
    for (const pending of await opts.store.read((tx) => pendingAgesOf(tx))) {
      if (closed) break;
      const found = configuredComponent(config, pending.project, pending.component);
      if (!found) continue;
      const ageHours = (now() - Date.parse(pending.oldest)) / 3_600_000;
      if (!(ageHours >= found.component.commit_pending_age)) continue;
      let result: BackgroundCommit['result'];
      try {
        const h = await openComponent(opts.store, config, found.project, found.component, { git: opts.git });
        result = await commitPending(h);
      } catch (e) {
        result = { result: false, detail: (e as Error).message };
      }
      if (result.result) commits++;
      else failures++;
      log(
        result.result
          ? `background commit of ${pending.project}/${pending.component} (oldest edit ${ageHours.toFixed(1)} h old): ${'commits' in result ? result.commits.length : 0} commit(s)`
          : `background commit of ${pending.project}/${pending.component} failed, edits kept pending: ${result.detail ?? 'unknown error'}`,
      );
      done.push({ project: pending.project, component: pending.component, ageHours, result });
    }
    passes++;
    return done;
  }

  const pass = (): Promise<BackgroundCommit[]> => {
    // one pass at a time: a timer tick during a long pass joins it
    running ??= passOnce().finally(() => {
      running = null;
    });
    return running;
  };

  const intervalMs = opts.intervalMs ?? opts.getConfig().commit_pending_check_seconds * 1000;
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          pass().catch((e) => log(`background commits: ${(e as Error).message}`));
        }, intervalMs)
      : null;
  timer?.unref();

  return {
    pass,
    status: () => ({ passes, commits, failures, running: running !== null }),
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
