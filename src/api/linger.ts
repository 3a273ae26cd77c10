// A lingering close: an answer given before the request's body was read waits for that body, so the client sees it.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies up to this size are read to their end before an early answer; larger ones are cut (the answer may be lost). */
export const LINGER_BYTES = 16 * 1024 * 1024;
/** How long an early answer waits for the rest of a body before it is sent anyway. */
export const LINGER_MS = 5_000;

/** Whether the request still has body bytes on the wire. */
function bodyPending(req: IncomingMessage): boolean {
  if (req.complete || req.readableEnded || req.destroyed) return false;
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Holds back the end of an answer until the request's body has been read (and discarded), up to `limit` bytes or
 * `ms`. node:http closes a connection the client asked to close as soon as the answer is written; body bytes
 * still arriving then meet a closed socket, the kernel resets the connection, and the client's side drops the
 * answer it had not read yet. A 404, 401 or 405 to a large upload is then never seen.
 * @example http.createServer((req, res) => { lingerOnEarlyAnswer(req, res); handle(req, res); })
 */
export function lingerOnEarlyAnswer(req: IncomingMessage, res: ServerResponse, limit = LINGER_BYTES, ms = LINGER_MS): void {
  // most requests (every GET) carry no body: nothing to wait for, nothing to wrap
  if (!bodyPending(req)) return;
  const end = res.end;
  res.end = function lingeringEnd(this: ServerResponse, ...args: unknown[]) {
    res.end = end;
    const announced = Number(req.headers['content-length']);
    if (!bodyPending(req) || (Number.isFinite(announced) && announced > limit)) return end.apply(this, args as never);
    let read = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off('data', count);
      req.off('end', finish);
      req.off('close', finish);
      end.apply(res, args as never);
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) finish();
    };
    const timer = setTimeout(finish, ms);
    timer.unref();
    req.on('data', count);
    req.once('end', finish);
    req.once('close', finish);
    req.resume();
    return this;
  } as ServerResponse['end'];
}
