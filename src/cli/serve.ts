// `tms serve`: open the store, bring projects and components in step with the configuration, serve the API until a signal.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { workingCopyDir } from '../component/handle.js';
import type { Config } from '../config/config.js';
import {
  type ComponentUpdate,
  createComponentUpdater,
  createHookHandler,
  createStoredDeliveryLog,
  createUpdateQueue,
  finishingRequests,
  resumeRequestedUpdates,
} from '../hooks/index.js';
import { startBackgroundCommits } from '../operations/background-commit.js';
import { GitWorker } from '../operations/index.js';
import { startServer } from '../server/server.js';
import { openStore } from '../store/index.js';
import { applyConfig } from '../sync/config.js';
import { removeStaleTemporaries } from '../vcs/index.js';
import { startWatching } from '../watch/index.js';
import { CliFailure, type CliIo } from './io.js';
import { createLogger } from './log.js';
import { claimServeLock } from './serve-lock.js';
import { type WorkerPool, isServeWorker, runServeWorker, startWorkerPool } from './serve-workers.js';

/**
 * Serves the API on host:port and prints its address; stops cleanly on SIGINT/SIGTERM (or when
 * `stop` resolves, for tests). Returns the exit code. Requests are logged as JSON lines on stdout (level "info");
 * pending edits older than `commit_pending_age` are committed in the background.
 * @example await runServe(config, processIo, { host: '127.0.0.1', port: 8000 })
 */
export async function runServe(
  config: Config,
  io: CliIo,
  opts: { host: string; port: number; stop?: Promise<void>; now?: () => number; workers?: number },
): Promise<number> {
  if (isServeWorker()) return runServeWorker(config, io, opts);
  const workers = Math.max(1, opts.workers ?? 1);
  const release = claimServeLock(config.database);
  const store = await openStore(config.database);
  store.checkpointInBackground();
  // what a stopped process left of the search index's fill, caught up while serving (the search reads those units meanwhile)
  void store.fillSearchIndex().catch((e) => io.err(`tms: the search index's fill stopped: ${(e as Error).message}`));
  const logger = createLogger(config.log_level ?? 'info', (line) => io.out(line));
  try {
    for (const c of (await store.write((tx) => applyConfig(tx, config, { prune: true }))).keptComponents) {
      io.err(`tms: component ${c.slug} is no longer configured but holds uncommitted edits; kept in the store`);
    }
    // Repository operations' git work runs on one thread of its own (`TMS_GIT_WORKER=0`: on this one, for debugging)
    const git = process.env.TMS_GIT_WORKER === '0' ? undefined : new GitWorker();
    // Webhooks and watching: notifications and local edits queue per-component updates (pull, or re-scan)
    let getConfig = () => config;
    const queue = createUpdateQueue({
      // a webhook's request for an update is kept in the store until the update has run (a crash does not lose it)
      update: finishingRequests(store, createComponentUpdater({ store, getConfig: () => getConfig(), git })),
      lock: false,
      // a pull or re-scan that failed (a broken file upstream, an unreachable remote) is said, not only recorded
      onDone: (project, component, result) => {
        const update = result as ComponentUpdate;
        if (!update.ok) io.err(`tms: update of ${project}/${component} failed: ${update.detail.split('\n').join(' ')}`);
      },
      onError: (error, project, component) => io.err(`tms: update of ${project}/${component} failed: ${(error as Error).message}`),
    });
    let pool: WorkerPool | undefined;
    const watching = startWatching({ store, config, queue, log: (line) => io.err(`tms: ${line}`), onConfig: (next) => pool?.configure(next) });
    getConfig = watching.getConfig;
    for (const u of await resumeRequestedUpdates(store, config, queue)) io.err(`tms: resuming the update of ${u.project}/${u.component} a webhook asked for`);
    const hooks = createHookHandler({ store, getConfig, queue, deliveries: createStoredDeliveryLog(store), log: (line) => io.err(`tms: ${line}`) });
    const committer = startBackgroundCommits({ store, getConfig, git, now: opts.now, log: (line) => io.err(`tms: ${line}`) });
    let server: Awaited<ReturnType<typeof startServer>>;
    // With workers, this process is the leader: its server listens on loopback for what the workers forward.
    const key = workers > 1 ? randomBytes(24).toString('base64url') : undefined;
    try {
      server = await startServer({
        store,
        config,
        getConfig,
        git,
        host: key ? '127.0.0.1' : opts.host,
        port: key ? 0 : opts.port,
        log: (message) => io.err(message),
        hooks,
        requestLog: logger.enabled('info') ? (entry) => logger.log('info', 'request', { ...entry }) : undefined,
        health: () => {
          const { running, queued } = queue.pending();
          return {
            queue: { running: running.length, queued: queued.length },
            background_commits: committer.status(),
            ...(pool ? { workers: pool.status() } : {}),
          };
        },
        acceptKey: key,
      });
      if (key) {
        try {
          pool = await startWorkerPool({ count: workers, leaderPort: Number(new URL(server.url).port), key, io });
        } catch (e) {
          await server.close();
          throw e;
        }
      }
    } catch (e) {
      if (e instanceof CliFailure) {
        await committer.close();
        throw e;
      }
      await committer.close();
      const code = (e as NodeJS.ErrnoException).code;
      const reason = code === 'EADDRINUSE' ? 'the address is already in use' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
      throw new CliFailure(`cannot listen on ${opts.host}:${opts.port}: ${reason}`);
    }
    // Tools and tests read this line for the address: keep its shape. Said once the watchers see edits, so that an
    // edit of the configuration made after it is never missed.
    await watching.ready();
    const url = pool?.url ?? server.url;
    io.out(`tms: serving the API on ${url}/api/ (Ctrl+C to stop)`);
    io.out(`tms: the web interface is at ${url}/`);
    if (pool) io.out(`tms: ${workers} serving workers; process ${process.pid} leads (updates, commits, repository operations)`);
    // loaded now rather than by the first commit
    void git?.start().catch((e) => io.err(`tms: the git worker did not start: ${(e as Error).message}`));
    // what a killed process left half-way in the working copies' repositories (a write's temporary file)
    const leftovers = config.projects.flatMap((p) =>
      p.components.flatMap((c) => removeStaleTemporaries(path.join(workingCopyDir(config.repos_dir, p.slug, c.slug), '.git'))),
    );
    if (leftovers.length > 0) io.err(`tms: removed ${leftovers.length} temporary file(s) an interrupted process left in working copies`);
    let onInt = () => {};
    let onTerm = () => {};
    const signal = await new Promise<string>((resolve) => {
      onInt = () => resolve('SIGINT');
      onTerm = () => resolve('SIGTERM');
      process.once('SIGINT', onInt);
      process.once('SIGTERM', onTerm);
      opts.stop?.then(() => resolve('stop'));
    });
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    await pool?.close();
    await server.close();
    await committer.close();
    await watching.close();
    await queue.close();
    await git?.stop();
    io.out(`tms: stopped (${signal})`);
    return 0;
  } finally {
    await store.close();
    release();
  }
}
