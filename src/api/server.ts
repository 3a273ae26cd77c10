// Starting and stopping the API server on a host and port (0 picks a free port).
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Config } from '../config/config.js';
import type { Store } from '../store/index.js';
import { createApp } from './app.js';

export interface RunningServer {
  /** `http://host:port` the server listens on. */
  url: string;
  /** Stops accepting connections, closes idle and open ones, resolves when done. */
  close(): Promise<void>;
}

/**
 * Serves the API until `close()`.
 * @example const server = await startServer({ store, config, host: '127.0.0.1', port: 0 }); console.log(server.url)
 */
export function startServer(options: {
  store: Store;
  config: Config;
  host: string;
  port: number;
  log?: (message: string) => void;
  cacheBytes?: number;
  /** Served at `/hooks/` ahead of the API (it reads its raw body itself, for signatures). */
  hooks?: express.Router;
  /** The configuration in force when a watched file can change it. */
  getConfig?: () => Config;
}): Promise<RunningServer> {
  const api = createApp({ store: options.store, config: options.config, getConfig: options.getConfig, log: options.log, cacheBytes: options.cacheBytes });
  let app: express.Express = api;
  if (options.hooks) {
    app = express();
    app.disable('x-powered-by');
    app.use('/hooks', options.hooks);
    app.use(api);
  }
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port, options.host);
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${host}:${address.port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
