// Starting and stopping the HTTP server (plain node:http) on a host and port (0 picks a free port): the API at /api/, the webhook receivers at /hooks/, the web pages everywhere else.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApp, createServices, originOf } from '../api/app.js';
import { methodNotAllowed, parseError } from '../api/errors.js';
import { acceptForwarded, createForwarder, leaderOnly } from '../api/forward.js';
import { LINGER_BYTES, LINGER_IDLE_MS, LINGER_MS, continueOnRead, lingerOnEarlyAnswer } from '../api/linger.js';
import { type RequestLogEntry, watchRequest } from '../api/request-log.js';
import { type RequestHandler, sendError, sendJson } from '../api/respond.js';
import type { GitRunner } from '../component/handle.js';
import type { Config } from '../config/config.js';
import type { Store } from '../store/index.js';
import { createWebApp } from '../web/app.js';
import { type Assets, loadAssets } from '../web/assets.js';

export interface RunningServer {
  /** `http://host:port` the server listens on. */
  url: string;
  /** Stops accepting connections, closes idle and open ones, resolves when done. */
  close(): Promise<void>;
}

/** The webhook receivers' prefix: requests under it go to `hooks`. */
export const HOOKS_PREFIX = '/hooks/';

/** Whether a request URL is the API's: `/api`, `/api/…`, `/api?…` (everything else but the hooks is a web page). */
function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** The health check's path, for load balancers and systemd (outside /api/: never throttled, no authentication). */
export const HEALTH_PATH = '/healthz';

/** What the process reports beside the database: the update queue and background work. */
export interface HealthDetails {
  /** Component updates (webhooks, watching) running and waiting. */
  queue?: { running: number; queued: number };
  [key: string]: unknown;
}

/** How long `/healthz` waits for the database: a server that stopped answering is reported, not waited for. */
export const HEALTH_TIMEOUT_MS = 2000;

/** `GET /healthz`: 200 when the database answers (within HEALTH_TIMEOUT_MS), else 503; both with the report as JSON. */
async function answerHealth(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  store: Store,
  details: (() => HealthDetails) | undefined,
  started: number,
): Promise<void> {
  res.setHeader('Cache-Control', 'no-store');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(res, req, methodNotAllowed(req.method ?? '', 'GET, HEAD'));
    return;
  }
  let database = 'ok';
  let timer: NodeJS.Timeout | undefined;
  try {
    const ping = store.ping();
    // a late answer or failure after the timeout is nobody's
    ping.catch(() => {});
    await Promise.race([
      ping,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`)), HEALTH_TIMEOUT_MS);
      }),
    ]);
  } catch (e) {
    database = `error: ${(e as Error).message}`;
  } finally {
    clearTimeout(timer);
  }
  const ok = database === 'ok';
  const body = { status: ok ? 'ok' : 'error', database, uptime_s: Math.round((performance.now() - started) / 1000), ...details?.() };
  sendJson(res, req, ok ? 200 : 503, body);
}

/**
 * Serves the API (and the webhook receivers, when given) until `close()`. A malformed request, a client that goes
 * away or a failing handler is answered or dropped; none of them ends the process.
 * @example const server = await startServer({ store, config, host: '127.0.0.1', port: 0 }); console.log(server.url)
 */
export function startServer(options: {
  store: Store;
  config: Config;
  host: string;
  port: number;
  log?: (message: string) => void;
  cacheBytes?: number;
  /** The webhook receivers (`createHookHandler`), served under /hooks/ (they read their raw body themselves, for signatures). */
  hooks?: RequestHandler;
  /** The configuration in force when a watched file can change it. */
  getConfig?: () => Config;
  /** Where repository operations' git work runs (`tms serve`'s git worker); default: the serving thread. */
  git?: GitRunner;
  /** The web interface's built script and style (default: the build's, from `build/web/`). */
  assets?: Assets;
  /** Called once per answered request (the structured request log). */
  requestLog?: (entry: RequestLogEntry) => void;
  /** What `/healthz` reports beside the database (queue depth …). */
  health?: () => HealthDetails;
  /** A serving worker of `tms serve --workers N`: the leader's internal port and key; `leaderOnly` requests go there. */
  forward?: { port: number; key: string };
  /** The leader's internal server: only requests carrying this key (forwarded by a worker) are answered, others get 403. */
  acceptKey?: string;
}): Promise<RunningServer> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const getConfig = options.getConfig ?? (() => options.config);
  // One set of services (catalog snapshot, principals) for the API and the pages: the same permissions from the same code.
  const services = createServices(options.store, getConfig, '0.1.0', options.git);
  const api = createApp({ store: options.store, config: options.config, getConfig, log, cacheBytes: options.cacheBytes, services });
  const web = createWebApp({ store: options.store, services, getConfig, assets: options.assets ?? loadAssets(undefined, log), log });
  const hooks = options.hooks;
  const { requestLog, store } = options;
  const started = performance.now();
  const forward = options.forward && createForwarder({ ...options.forward, originOf });
  const { acceptKey } = options;
  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    // A write to a client that went away must not become an unhandled 'error'.
    res.on('error', () => {});
    req.on('error', () => {});
    // Every answer (the API's JSON, files, pages, errors) is taken for the type it declares, never sniffed as another.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    lingerOnEarlyAnswer(req, res);
    if (acceptKey !== undefined && !acceptForwarded(req, acceptKey)) {
      res.writeHead(403, { 'Content-Length': 0 }).end();
      return;
    }
    const url = req.url ?? '/';
    // the leader logs what it answers for a worker (with the client's address)
    if (forward && leaderOnly(req.method, url)) {
      forward.handle(req, res);
      return;
    }
    if (requestLog) watchRequest(req, res, requestLog);
    const path = url.split('?', 1)[0];
    if (path === HEALTH_PATH || path === `${HEALTH_PATH}/`) {
      void answerHealth(req, res, store, options.health, started).catch((e) => {
        log(`tms: healthz: ${(e as Error).message}`);
        res.destroy();
      });
      return;
    }
    if (hooks && (url.startsWith(HOOKS_PREFIX) || url === '/hooks')) void hooks(req, res);
    else if (isApiPath(url) || (!hooks && (url.startsWith(HOOKS_PREFIX) || url === '/hooks'))) void api(req, res);
    else void web(req, res);
  };
  const server = http.createServer(handle);
  // `Expect: 100-continue`: the body is asked for when a handler reads it, so a refusal (413, 401…) comes before it.
  server.on('checkContinue', (req, res) => {
    continueOnRead(req, res);
    handle(req, res);
  });
  // What node:http itself cannot parse (a malformed request line or header): a 400 in the error shape, then close.
  // The client may still be sending (a body after a bad request line): what it sends is read and dropped for a while
  // (a lingering close), since closing at once would reset the connection and lose the answer on the client's side.
  const answered = new WeakMap<Duplex, number>();
  const idle = new WeakMap<Duplex, NodeJS.Timeout>();
  server.on('clientError', (error, socket) => {
    const since = answered.get(socket);
    if (since !== undefined) {
      // the parser reports each later chunk again: the answer is on its way, drop the bytes up to the limit
      if (((socket as Socket).bytesRead ?? 0) - since > LINGER_BYTES) socket.destroy();
      else idle.get(socket)?.refresh();
      return;
    }
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(parseError(`Malformed request: ${(error as Error).message}`).body());
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
    answered.set(socket, (socket as Socket).bytesRead ?? 0);
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
    idle.set(socket, setTimeout(() => socket.destroy(), LINGER_IDLE_MS).unref());
  });
  server.keepAliveTimeout = 65_000;
  // A client that half-closes after its request (it has nothing more to send) still wants the answer: node:http
  // otherwise drops every request in progress on the connection when the client's FIN arrives, and a handler that
  // takes a moment (a sign-in's password hash) answers nobody. With this, the connection closes after the answer.
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      server.on('error', (e) => log(`tms: server: ${e.message}`));
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${host}:${address.port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
            forward?.close();
          }),
      });
    });
  });
}
