import type { Config } from '../../src/config/config.js';
import type { EnqueueOutcome, UpdateQueue } from '../../src/hooks/queue.js';
import { createHookHandler } from '../../src/hooks/router.js';
// Test wiring for the hook receivers: a real HTTP server on an ephemeral port, a real store, a recording queue.
import { startServer } from '../../src/server/server.js';
import type { Store } from '../../src/store/index.js';

/** A queue that only records what was asked of it. */
export function recordingQueue(): UpdateQueue & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    enqueue(project, component): EnqueueOutcome {
      calls.push(`${project}/${component}`);
      return 'started';
    },
    pending: () => ({ running: [], queued: [] }),
    idle: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

export interface HookServer {
  url: string;
  post(
    path: string,
    body: string | Buffer,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: globalThis.Headers }>;
  close(): Promise<void>;
}

/** The real server on 127.0.0.1: the hook receivers at /hooks/ and the API beside them, as `tms serve` runs them. */
export async function startHookServer(opts: { store: Store; getConfig: () => Config; queue: UpdateQueue; bodyLimit?: number }): Promise<HookServer> {
  const hooks = createHookHandler({ store: opts.store, getConfig: opts.getConfig, queue: opts.queue, bodyLimit: opts.bodyLimit });
  const server = await startServer({
    store: opts.store,
    config: opts.getConfig(),
    getConfig: opts.getConfig,
    host: '127.0.0.1',
    port: 0,
    hooks,
    log: () => {},
  });
  return {
    url: server.url,
    async post(path, body, headers) {
      const res = await fetch(server.url + path, { method: 'POST', body, headers });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
    },
    close: () => server.close(),
  };
}
