// A real smart-HTTP git server for tests: `git http-backend` run as CGI behind a Node server on a loopback port.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';

export interface GitServer {
  /** The URL of repository `name` (a folder under `root`), optionally with credentials in it. */
  url(name: string, credentials?: { username: string; password: string }): string;
  /** Requests served so far, as `METHOD path` lines. */
  readonly requests: string[];
  /** The slow-upstream setting (see GitServerOptions.delay), read at each request: set it to start or stop. */
  delay: GitServerOptions['delay'];
  close(): Promise<void>;
}

export interface GitServerOptions {
  /** Folder holding the repositories (GIT_PROJECT_ROOT). */
  root: string;
  /** When set, every request needs these HTTP basic credentials (401 + WWW-Authenticate otherwise). */
  auth?: { username: string; password: string };
  /**
   * How long an idle keep-alive connection stays open (Node's default: 5 s). A benchmark whose synchronous store
   * work blocks this process for longer sets it higher: the late timer would otherwise close a socket the client is
   * reusing at that moment (ECONNRESET).
   */
  keepAliveTimeoutMs?: number;
  /**
   * Asked before each request is served: a promise holds the request until it settles (a slow or stalled upstream);
   * a request whose client went away meanwhile is dropped unserved.
   */
  gate?: (method: string, url: string) => Promise<void> | undefined;
  /**
   * A slow upstream (a busy forge computing a pack): each git-upload-pack and git-receive-pack POST is answered after
   * `ms` of silence. With `pieces`, the answer's headers then go at once and its body in that many parts, each after
   * `ms` more of silence: the exchange lasts `(pieces + 1) × ms` while the server is never silent for longer than `ms`.
   */
  delay?: { ms: number; pieces?: number };
}

/** Starts the server on 127.0.0.1, port 0; pushes are allowed (`http.receivepack`). */
export async function startGitServer(opts: GitServerOptions): Promise<GitServer> {
  const requests: string[] = [];
  const state: Pick<GitServer, 'delay'> = { delay: opts.delay };
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    let user: string | null = null;
    if (opts.auth) {
      user = checkBasicAuth(req.headers.authorization, opts.auth);
      if (!user) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="tms test git"', 'Content-Type': 'text/plain' });
        res.end('authentication required\n');
        return;
      }
    }
    const delay = req.method === 'POST' && /\/git-(upload|receive)-pack$/.test(req.url ?? '') ? state.delay : undefined;
    const held = delay ? sleep(delay.ms) : opts.gate?.(req.method ?? 'GET', req.url ?? '/');
    if (!held) return runBackend(opts.root, req, res, user);
    void held.then(() => {
      if (!req.socket.destroyed) runBackend(opts.root, req, res, user, delay?.pieces ? delay : undefined);
    });
  });
  if (opts.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = opts.keepAliveTimeoutMs;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    requests,
    get delay() {
      return state.delay;
    },
    set delay(delay) {
      state.delay = delay;
    },
    url(name, credentials) {
      const userinfo = credentials ? `${encodeURIComponent(credentials.username)}:${encodeURIComponent(credentials.password)}@` : '';
      return `http://${userinfo}127.0.0.1:${port}/${name}`;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function checkBasicAuth(header: string | undefined, expected: { username: string; password: string }): string | null {
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return username === expected.username && password === expected.password ? username : null;
}

/** Runs `git http-backend` for one request; with `pieces`, its body is sent in parts `ms` apart (see `delay`). */
function runBackend(root: string, req: http.IncomingMessage, res: http.ServerResponse, user: string | null, pieces?: { ms: number; pieces?: number }): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('GIT_')) env[name] = value;
  Object.assign(env, {
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.receivepack',
    GIT_CONFIG_VALUE_0: 'true',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    GATEWAY_INTERFACE: 'CGI/1.1',
    REQUEST_METHOD: req.method ?? 'GET',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
    ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
    ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: req.headers['git-protocol'] } : {}),
    ...(user ? { REMOTE_USER: user } : {}),
  });
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  req.pipe(child.stdin);
  child.stdin.on('error', () => {});
  child.stderr.resume();

  // CGI output: header lines, a blank line, then the body (streamed through).
  let head = Buffer.alloc(0);
  let headersDone = false;
  const held: Buffer[] = [];
  const write = (chunk: Buffer) => (pieces ? held.push(chunk) : res.write(chunk));
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const crlf = head.indexOf('\r\n\r\n');
    const lf = head.indexOf('\n\n');
    const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
    if (end < 0) return;
    const sepLength = end === crlf ? 4 : 2;
    let status = 200;
    let statusText = 'OK';
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') {
        status = Number.parseInt(value, 10);
        statusText = value.slice(String(status).length).trim();
      } else {
        headers[name] = value;
      }
    }
    headersDone = true;
    res.writeHead(status, statusText, headers);
    if (pieces) res.flushHeaders();
    const rest = head.subarray(end + sepLength);
    if (rest.length) write(rest);
  });
  child.stdout.on('end', () => {
    if (!headersDone) res.writeHead(502);
    if (!pieces) return res.end();
    void (async () => {
      const body = Buffer.concat(held);
      const count = pieces.pieces ?? 1;
      const size = Math.ceil(body.length / count);
      for (let i = 0; i < count && !res.destroyed; i++) {
        await sleep(pieces.ms);
        res.write(body.subarray(i * size, (i + 1) * size));
      }
      res.end();
    })();
  });
  child.on('error', () => {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
}
