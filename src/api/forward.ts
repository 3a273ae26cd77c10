// `tms serve --workers N`: what a serving worker hands to the leader (repository work, webhooks, uploads, health), and how.
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The headers a worker adds to a forwarded request: the shared key, the client's address and the origin it used. */
export const FORWARD_KEY_HEADER = 'x-tms-forward-key';
const FORWARD_ADDRESS_HEADER = 'x-tms-forward-address';
const FORWARD_ORIGIN_HEADER = 'x-tms-forward-origin';

/** Connection-level headers: never passed on by the forwarder (node:http sets its own). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'expect', 'te', 'trailer']);

interface Forwarded {
  address: string;
  origin: string;
}

const forwarded = new WeakMap<IncomingMessage, Forwarded>();

/** The client's address: the worker's socket peer for a forwarded request, else this socket's. */
export function clientAddress(req: IncomingMessage): string {
  return forwarded.get(req)?.address ?? req.socket.remoteAddress ?? '';
}

/** The origin (`http://host:port`) the client used, when the request came through a worker; else undefined. */
export function forwardedOrigin(req: IncomingMessage): string | undefined {
  return forwarded.get(req)?.origin;
}

/**
 * Whether this request must be answered by the leader: the webhook receivers (one update queue), `/healthz` (the
 * queue and background commits live there), anything that works on a working copy under the component mutex
 * (repository operations and status, file downloads and uploads, adding languages and strings) and
 * every other API write but unit edits, which any worker stores (SQLite serialises writers; busy_timeout waits).
 */
export function leaderOnly(method: string | undefined, url: string): boolean {
  const path = url.split('?', 1)[0]!;
  if (path === '/hooks' || path.startsWith('/hooks/')) return true;
  if (path === '/healthz' || path === '/healthz/') return true;
  const read = method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
  if (path === '/api' || path.startsWith('/api/')) {
    // file downloads read working copies under the component mutex; repository status asks git, where commits run
    // … and background tasks live in the leader, which runs them
    if (read) return /^\/api\/(?:projects|components|translations)\/.+\/(?:file|repository)\/?$/.test(path) || path.startsWith('/api/tasks/');
    // PATCH/PUT of one unit: the edit is one transaction; the file is written later, by the leader's commit.
    if ((method === 'PATCH' || method === 'PUT') && /^\/api\/units\/\d+\/?$/.test(path)) return false;
    return true;
  }
  if (path.startsWith('/repository/')) return true;
  // uploads work on a working copy; automatic translation runs as a task of the leader, where its progress is followed
  return !read && (path.startsWith('/upload/') || path.startsWith('/auto-translate/'));
}

/**
 * The worker side: a request handler passing the request to the leader's internal server on loopback and its answer
 * back, byte for byte. A leader that cannot be reached (restarting) is a 503 with Retry-After.
 */
export function createForwarder(opts: { port: number; key: string; originOf: (req: IncomingMessage) => string }): {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  close: () => void;
} {
  // Idle connections to the leader are dropped after 60 s, before the leader's own 65 s keep-alive timeout ends them:
  // a request never goes out on a connection the leader is closing.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 });
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name) && !name.startsWith('x-tms-forward-')) headers[name] = value;
    }
    // a body of unknown length goes on chunked, as it came
    if (req.headers['transfer-encoding'] && headers['content-length'] === undefined) headers['transfer-encoding'] = 'chunked';
    // A client waiting for 100 Continue gets it when the leader asks for the body (a refusal comes before it).
    const expectsContinue = /^\s*100-continue\s*$/i.test(req.headers.expect ?? '');
    if (expectsContinue) headers.expect = '100-continue';
    headers[FORWARD_KEY_HEADER] = opts.key;
    headers[FORWARD_ADDRESS_HEADER] = req.socket.remoteAddress ?? '';
    headers[FORWARD_ORIGIN_HEADER] = opts.originOf(req);
    let answered = false;
    const upstream = http.request({ host: '127.0.0.1', port: opts.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
      answer.on('end', () => {
        answered = true;
        // The leader answered before reading the whole body (a refused upload): the rest is not sent on to it but read
        // and dropped here, by this server's lingering close, so the client still gets the answer.
        if (!req.complete) {
          req.unpipe(upstream);
          upstream.destroy();
          req.resume();
        }
      });
    });
    upstream.on('error', () => {
      // the answer is whole: what failed after it (the leader closing a connection it answered on) is nobody's concern
      if (answered) return;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const body = JSON.stringify({ type: 'server_error', errors: [{ code: 'unavailable', detail: 'The server is restarting; try again.', attr: null }] });
      res.writeHead(503, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Retry-After': '1' });
      res.end(body);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (expectsContinue) {
      upstream.once('continue', () => req.pipe(upstream));
      upstream.flushHeaders();
    } else req.pipe(upstream);
  };
  return { handle, close: () => agent.destroy() };
}

/**
 * The leader side: whether a request on the internal server carries the key; when it does, the client's address and
 * origin are taken from it (for throttling, sign-in slow-downs, the request log and links) and the headers dropped.
 */
export function acceptForwarded(req: IncomingMessage, key: string): boolean {
  const given = req.headers[FORWARD_KEY_HEADER];
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  const address = req.headers[FORWARD_ADDRESS_HEADER];
  const origin = req.headers[FORWARD_ORIGIN_HEADER];
  forwarded.set(req, { address: typeof address === 'string' ? address : '', origin: typeof origin === 'string' ? origin : '' });
  delete req.headers[FORWARD_KEY_HEADER];
  delete req.headers[FORWARD_ADDRESS_HEADER];
  delete req.headers[FORWARD_ORIGIN_HEADER];
  return true;
}
