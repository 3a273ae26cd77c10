// `tms serve --workers N`: N serving processes (node:cluster, one shared port) beside the leader, the process that
// started them. The leader keeps everything that must happen once: the update queue (webhooks, watching), background
// commits, repository operations and uploads (forwarded to it by the workers over loopback); the workers answer reads
// and unit edits from their own connection to the same SQLite database.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config/config.js';
import { startServer } from '../server/server.js';
import { openStore } from '../store/index.js';
import { CliFailure, type CliIo } from './io.js';
import { createLogger } from './log.js';

/** Set in a serving worker's environment: the leader's internal port and the key its requests must carry. */
const WORKER_ENV = 'TMS_SERVE_WORKER';
const LEADER_PORT_ENV = 'TMS_SERVE_LEADER_PORT';
const KEY_ENV = 'TMS_SERVE_FORWARD_KEY';

type Message = { type: 'tms:listening'; url: string } | { type: 'tms:failed'; message: string } | { type: 'tms:config'; config: Config };

/** Whether this process is a serving worker started by `tms serve --workers N`. */
export function isServeWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] === '1';
}

/**
 * A serving worker: its own store connection, the same API and pages, `leaderOnly` requests forwarded to the leader.
 * Stops on SIGTERM/SIGINT, or when the leader goes away (its IPC channel closes).
 */
export async function runServeWorker(config: Config, io: CliIo, opts: { host: string; port: number }): Promise<number> {
  const port = Number(process.env[LEADER_PORT_ENV]);
  const key = process.env[KEY_ENV] ?? '';
  let current = config;
  process.on('message', (m: Message) => {
    if (m?.type === 'tms:config') current = m.config;
  });
  const store = await openStore(config.database);
  const logger = createLogger(config.log_level ?? 'info', (line) => io.out(line));
  const tell = (m: Message) => process.send?.(m);
  try {
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      server = await startServer({
        store,
        config,
        getConfig: () => current,
        host: opts.host,
        port: opts.port,
        log: (message) => io.err(message),
        requestLog: logger.enabled('info') ? (entry) => logger.log('info', 'request', { ...entry }) : undefined,
        forward: { port, key },
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const reason = code === 'EADDRINUSE' ? 'the address is already in use' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
      tell({ type: 'tms:failed', message: `cannot listen on ${opts.host}:${opts.port}: ${reason}` });
      return 1;
    }
    tell({ type: 'tms:listening', url: server.url });
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', () => resolve());
      process.once('SIGINT', () => resolve());
      process.once('disconnect', () => resolve());
    });
    await server.close();
    return 0;
  } finally {
    await store.close();
    if (process.connected) process.disconnect();
  }
}

export interface WorkerPool {
  /** `http://host:port` the workers share. */
  url: string;
  /** Sends a configuration reload to every worker. */
  configure(config: Config): void;
  status(): { count: number; running: number; restarts: number; pids: number[] };
  /** SIGTERM to every worker; resolves when all have exited (SIGKILL after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts `count` serving workers and resolves once all listen (rejects with CliFailure when one cannot). A worker that
 * exits while the pool runs is replaced (after 0.1 s, longer when replacements keep dying young).
 */
export function startWorkerPool(opts: { count: number; leaderPort: number; key: string; io: CliIo }): Promise<WorkerPool> {
  const { io } = opts;
  cluster.setupPrimary({ serialization: 'advanced' });
  const env = { [WORKER_ENV]: '1', [LEADER_PORT_ENV]: String(opts.leaderPort), [KEY_ENV]: opts.key };
  const live = new Set<Worker>();
  let stopping = false;
  let restarts = 0;
  let delay = 100;
  let config: Config | undefined;
  let url = '';
  return new Promise<WorkerPool>((resolve, reject) => {
    let waiting = opts.count;
    let started = false;
    const fork = () => {
      const born = Date.now();
      const worker = cluster.fork(env);
      live.add(worker);
      worker.on('message', (m: Message) => {
        if (m?.type === 'tms:listening') {
          url = m.url;
          if (config) worker.send({ type: 'tms:config', config } satisfies Message);
          if (!started && --waiting === 0) {
            started = true;
            resolve(pool);
          }
        } else if (m?.type === 'tms:failed' && !started) {
          stopping = true;
          void pool.close().then(() => reject(new CliFailure(m.message)));
        }
      });
      worker.on('exit', (code, signal) => {
        live.delete(worker);
        if (stopping) return;
        if (!started) {
          stopping = true;
          void pool.close().then(() => reject(new CliFailure(`a serving worker exited at start (${signal ?? `code ${code}`})`)));
          return;
        }
        restarts++;
        // one that died young: wait longer before the next (a crash loop must not spin)
        delay = Date.now() - born < 5000 ? Math.min(delay * 2, 5000) : 100;
        io.err(`tms: serving worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
        setTimeout(() => {
          if (!stopping) fork();
        }, delay);
      });
    };
    const pool: WorkerPool = {
      get url() {
        return url;
      },
      configure(next) {
        config = next;
        for (const w of live) if (w.isConnected()) w.send({ type: 'tms:config', config: next } satisfies Message);
      },
      status: () => ({ count: opts.count, running: live.size, restarts, pids: [...live].map((w) => w.process.pid ?? 0) }),
      async close(graceMs = 10_000) {
        stopping = true;
        const exits = [...live].map((w) => new Promise<void>((done) => (w.isDead() ? done() : w.once('exit', () => done()))));
        for (const w of live) w.process.kill('SIGTERM');
        const timer = setTimeout(() => {
          for (const w of live) w.process.kill('SIGKILL');
        }, graceMs);
        await Promise.all(exits);
        clearTimeout(timer);
      },
    };
    for (let i = 0; i < opts.count; i++) fork();
  });
}
