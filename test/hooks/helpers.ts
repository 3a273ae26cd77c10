// Test wiring for the hook router: a real HTTP server on an ephemeral port, a real store, a recording queue.
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Config } from '../../src/config/config.js';
import { createHookRouter } from '../../src/hooks/router.js';
import type { EnqueueOutcome, UpdateQueue } from '../../src/hooks/queue.js';
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
  post(path: string, body: string | Buffer, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown>; headers: globalThis.Headers }>;
  close(): Promise<void>;
}

/** Serves `createHookRouter` at /hooks on 127.0.0.1 (and the extra routes the caller adds). */
export async function startHookServer(opts: { store: Store; getConfig: () => Config; queue: UpdateQueue; setup?: (app: express.Express) => void }): Promise<HookServer> {
  const app = express();
  app.use('/hooks', createHookRouter({ store: opts.store, getConfig: opts.getConfig, queue: opts.queue }));
  opts.setup?.(app);
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async post(path, body, headers) {
      const res = await fetch(url + path, { method: 'POST', body, headers });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
