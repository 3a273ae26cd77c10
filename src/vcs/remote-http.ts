// The HTTP client isomorphic-git reaches http(s) remotes through: kept-alive connections and git's patience with a
// silent server (an idle limit that every byte either way resets), then one error naming remote, operation and wait.
//
// Why not isomorphic-git's own Node client: it runs on Node's global agent, whose sockets time out after 5 s without
// a byte, so a forge that thinks for 6 s before answering (computing a pack) failed every fetch with "Request timed
// out"; and once an answer has begun, a timeout there surfaces as a connection reset, or as a pack cut short,
// indistinguishable from a server that hung up.
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { type VcsError, silentRemote } from './vcs-error.js';

/** An idle kept-alive connection is closed after this (Node's default; a server's shorter `Keep-Alive` hint wins). */
const IDLE_CONNECTION_MS = 5_000;
const MAX_REDIRECTS = 10;
/** The request body goes out in slices, each written when the last one left: every slice is progress. */
const UPLOAD_SLICE = 64 * 1024;

let agents: { 'http:': http.Agent; 'https:': https.Agent } | undefined;
function agentFor(protocol: string): http.Agent {
  agents ??= {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };
  return protocol === 'https:' ? agents['https:'] : agents['http:'];
}

export interface RemoteHttpOptions {
  /** The longest silence (no byte sent or received) a request waits through. */
  timeoutMs: number;
  /** The vcs function the requests serve, for the error: `fetch`, `push` … */
  operation: string;
  /** The remote, credential-free, for the error. */
  url: string;
}

/** An HttpClient that also tells whether one of its requests gave up on a silent remote. */
export interface RemoteHttp extends HttpClient {
  /**
   * The timeout error, once a request gave up: what isomorphic-git then throws (a reset, a pack cut short) is a
   * consequence of it, and the caller reports this instead.
   */
  timedOut(): VcsError | undefined;
}

/**
 * The client for one operation on one remote. A request fails with VcsError kind `timeout` when the remote sends
 * nothing (and takes nothing) for `timeoutMs`, however long the whole exchange lasts.
 * @example git.fetch({ ..., http: remoteHttp({ timeoutMs: 600_000, operation: 'fetch', url: display }) })
 */
export function remoteHttp(opts: RemoteHttpOptions): RemoteHttp {
  let timedOut: VcsError | undefined;
  const silence = () => {
    timedOut ??= silentRemote(opts.operation, opts.url, opts.timeoutMs);
    return timedOut;
  };
  return {
    request: (req) => send(req, opts.timeoutMs, silence, () => timedOut),
    timedOut: () => timedOut,
  };
}

async function send(req: GitHttpRequest, timeoutMs: number, silence: () => VcsError, timedOut: () => VcsError | undefined): Promise<GitHttpResponse> {
  let body = req.body ? Buffer.concat(await collect(req.body)) : undefined;
  let url = req.url;
  let method = req.method ?? 'GET';
  const headers: Record<string, string> = { ...req.headers };
  for (let hop = 0; ; hop++) {
    const res = await exchange(url, method, headers, body, timeoutMs, silence, req.signal);
    const location = res.headers.location;
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && location && hop < MAX_REDIRECTS) {
      res.resume();
      const next = new URL(location, url);
      // credentials go to the host they were given for, never to the one a redirect names
      if (next.host !== new URL(url).host) for (const name of Object.keys(headers)) if (name.toLowerCase() === 'authorization') delete headers[name];
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = next.href;
      continue;
    }
    return {
      url,
      method,
      statusCode: status,
      statusMessage: res.statusMessage ?? '',
      headers: res.headers as Record<string, string>,
      body: eagerly(decoded(res), (e) => timedOut() ?? e),
    };
  }
}

/** One request and its answer's head; the body is read by the caller. */
function exchange(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  timeoutMs: number,
  silence: () => VcsError,
  signal: AbortSignal | undefined,
): Promise<http.IncomingMessage> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(target, {
      method,
      headers: { 'accept-encoding': 'gzip, deflate', ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      agent: agentFor(target.protocol),
      // the socket's idle timer: reset by every byte read or written
      timeout: timeoutMs,
      ...(signal ? { signal } : {}),
    });
    req.on('timeout', () => req.destroy(silence()));
    req.on('error', reject);
    req.on('response', resolve);
    void upload(req, body);
  });
}

async function upload(req: http.ClientRequest, body: Buffer | undefined): Promise<void> {
  for (let at = 0; body && at < body.length && !req.destroyed; at += UPLOAD_SLICE) {
    if (!req.write(body.subarray(at, at + UPLOAD_SLICE))) await Promise.race([once(req, 'drain'), once(req, 'close')]).catch(() => {});
  }
  if (!req.destroyed) req.end();
}

/** The body as the server meant it: gzip and deflate undone (asked for, as git asks). */
function decoded(res: http.IncomingMessage): Readable {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'gzip' || encoding === 'x-gzip') return pipeline(res, zlib.createGunzip(), () => {});
  if (encoding === 'deflate') return pipeline(res, zlib.createInflate(), () => {});
  return res;
}

/**
 * The body read as it arrives, whether or not the caller reads it (isomorphic-git leaves a 401's body unread: left
 * in the socket, it would hold the connection until the idle timer fired); an error comes after the bytes before it.
 */
function eagerly(stream: Readable, failure: (e: unknown) => unknown): AsyncIterableIterator<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let next = 0;
  let ended = false;
  let error: unknown;
  let wake: (() => void) | undefined;
  const woken = () => {
    wake?.();
    wake = undefined;
  };
  stream.on('data', (chunk: Uint8Array) => {
    chunks.push(chunk);
    woken();
  });
  stream.on('end', () => {
    ended = true;
    woken();
  });
  stream.on('error', (e) => {
    error ??= failure(e);
    woken();
  });
  async function* read(): AsyncGenerator<Uint8Array> {
    for (;;) {
      if (next < chunks.length) {
        const chunk = chunks[next] as Uint8Array;
        chunks[next++] = EMPTY;
        yield chunk;
        continue;
      }
      if (error !== undefined) throw error;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  return read();
}

const EMPTY = new Uint8Array(0);

async function collect(body: NonNullable<GitHttpRequest['body']>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) out.push(chunk);
  return out;
}
