// The structured request log: one entry per answered request (method, path, status, time, user), never credentials.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress } from './forward.js';

/** One request as the log records it. The query string is left out: only the path is kept. */
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  /** Milliseconds from the request's arrival to the end of the answer (or the client going away). */
  ms: number;
  /** The authenticated username, '' for anonymous or unauthenticated requests. */
  user: string;
  /** The client's address (a proxy in front makes it the proxy's). */
  address: string;
}

/** Who each request authenticated as (set by the API once the token is checked). */
export const requestUsers = new WeakMap<IncomingMessage, string>();

/** The request's path without its query string, cut to 500 characters, control characters escaped. */
function pathOf(url: string): string {
  const cut = url.indexOf('?');
  const path = cut < 0 ? url : url.slice(0, cut);
  return (path.length > 500 ? `${path.slice(0, 500)}…` : path).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Calls `write` once when the answer to `req` ends (or the client goes away: status 499, as nginx logs it).
 * @example server.on('request', (req, res) => watchRequest(req, res, (entry) => console.log(JSON.stringify(entry))))
 */
export function watchRequest(req: IncomingMessage, res: ServerResponse, write: (entry: RequestLogEntry) => void): void {
  const started = performance.now();
  let done = false;
  const finish = (aborted: boolean) => {
    if (done) return;
    done = true;
    write({
      method: req.method ?? '',
      path: pathOf(req.url ?? '/'),
      status: aborted && !res.writableFinished ? 499 : res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      user: requestUsers.get(req) ?? '',
      address: clientAddress(req),
    });
  };
  res.once('finish', () => finish(false));
  res.once('close', () => finish(true));
}
