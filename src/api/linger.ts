// A lingering close: an answer given before the request's body was read reaches the client, which may still be sending that body; `Expect: 100-continue` asks for the body only when a handler reads it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The most body bytes read (and discarded) after an early answer; beyond, the connection is closed. */
export const LINGER_BYTES = 1024 * 1024 * 1024;
/** How long the rest of a body is read (and discarded) after an early answer (nginx's `lingering_time`). */
export const LINGER_MS = 30_000;
/** A client that sent nothing for this long has stopped sending (nginx's `lingering_timeout`). */
export const LINGER_IDLE_MS = 5_000;

/** Requests whose client waits for `100 Continue` before sending the body, with their answer. */
const awaitingContinue = new WeakMap<IncomingMessage, ServerResponse>();

/** Whether the request still has body bytes on the wire. */
function bodyPending(req: IncomingMessage): boolean {
  if (req.complete || req.readableEnded || req.destroyed) return false;
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A request with `Expect: 100-continue` (node:http's `checkContinue`): `100 Continue` is sent when a handler starts
 * reading the body, never before; an answer given first (a 413 for the announced length, a 401, a 404) goes out
 * instead and the client sends no body (node:http then closes the connection).
 * @example server.on('checkContinue', (req, res) => { continueOnRead(req, res); handle(req, res); })
 */
export function continueOnRead(req: IncomingMessage, res: ServerResponse): void {
  awaitingContinue.set(req, res);
  // every reader (a 'data' listener, pipe, resume) puts the stream in flowing mode, which emits 'resume'
  req.once('resume', () => {
    awaitingContinue.delete(req);
    if (!res.headersSent && !res.writableEnded && !res.destroyed) res.writeContinue();
  });
}

/** Drops a body the handler will not read: read and discarded, unless its client is still waiting for `100 Continue` (then it is never sent). */
export function discardBody(req: IncomingMessage): void {
  if (!awaitingContinue.has(req)) req.resume();
}

/**
 * Sends an answer given before the request's body was read at once, but ends it (and lets node:http close the
 * connection) only once the body has been read and discarded, as nginx's lingering close does: until the body ends,
 * `ms` have passed, the client was silent for `idleMs`, or `bytes` were read. node:http closes a connection the
 * answer marks `Connection: close` as soon as the answer is written; body bytes still arriving then meet a closed
 * socket, the kernel resets the connection, and the client's side drops the answer it had not read yet. A 413 to a
 * large upload, or a 404, 401 or 405, is then never seen. A client that reads while it sends sees the answer at once.
 * @example http.createServer((req, res) => { lingerOnEarlyAnswer(req, res); handle(req, res); })
 */
export function lingerOnEarlyAnswer(req: IncomingMessage, res: ServerResponse, bytes = LINGER_BYTES, ms = LINGER_MS, idleMs = LINGER_IDLE_MS): void {
  // most requests (every GET) carry no body: nothing to wait for, nothing to wrap
  if (!bodyPending(req)) return;
  const end = res.end;
  res.end = function lingeringEnd(this: ServerResponse, ...args: unknown[]) {
    res.end = end;
    // a client waiting for 100 Continue sends no body: nothing to wait for
    if (!bodyPending(req) || awaitingContinue.has(req)) return end.apply(this, args as never);
    let [chunk, encoding, callback] = args as [unknown, unknown, unknown];
    if (typeof chunk === 'function') [chunk, callback] = [undefined, chunk];
    else if (typeof encoding === 'function') [encoding, callback] = [undefined, encoding];
    if (!res.headersSent && !res.hasHeader('content-length') && res.statusCode !== 204 && res.statusCode !== 304) {
      res.setHeader('Content-Length', chunk == null ? 0 : Buffer.byteLength(chunk as string | Uint8Array, encoding as BufferEncoding));
    }
    // the whole answer now (its length is known, so the client knows it is whole); only its end waits
    if (chunk != null) res.write(chunk, encoding as BufferEncoding);
    else res.flushHeaders();
    let read = 0;
    let done = false;
    const finish = (drained: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(total);
      clearTimeout(idle);
      req.off('data', count);
      req.off('end', ended);
      req.off('close', ended);
      // A body still coming is not read any further: the connection cannot be used again.
      if (!drained) res.once('finish', () => closeSocket(req.socket));
      (end as (this: ServerResponse, callback?: () => void) => ServerResponse).call(res, callback as (() => void) | undefined);
    };
    const ended = () => finish(true);
    const count = (data: Buffer) => {
      read += data.length;
      idle.refresh();
      if (read > bytes) finish(false);
    };
    const total = setTimeout(() => finish(false), ms);
    const idle = setTimeout(() => finish(false), idleMs);
    total.unref();
    idle.unref();
    req.on('data', count);
    req.once('end', ended);
    req.once('close', ended);
    req.resume();
    return this;
  } as ServerResponse['end'];
}

/** Ends a connection once what was written to it is sent. */
function closeSocket(socket: Socket): void {
  if (socket.destroyed) return;
  socket.end(() => socket.destroy());
}
