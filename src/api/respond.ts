// Writing answers on plain node:http: bodies with their length, HEAD without one, and every error in the one JSON shape.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestAbortedError } from './body.js';
import { type ApiError, serverError, toApiError } from './errors.js';
import { toJson } from './json.js';

export const JSON_TYPE = 'application/json';

/** A plain node:http request handler; it never throws or rejects (errors are answered). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Sends a whole answer (no body for 204/304 and HEAD, but the length a GET would have). */
export function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  contentType: string,
  body: string | Uint8Array,
  headers?: Record<string, string>,
): void {
  res.statusCode = status;
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  if (status === 304 || status === 204) {
    res.end();
    return;
  }
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** Sends a JSON value (or JSON text) with a status. */
export function sendJson(res: ServerResponse, req: IncomingMessage, status: number, value: unknown, headers?: Record<string, string>): void {
  send(res, req, status, JSON_TYPE, typeof value === 'string' ? value : toJson(value), headers);
}

export function sendError(res: ServerResponse, req: IncomingMessage, error: ApiError): void {
  // A refused body may not have been read to its end: the connection is not reused after it.
  if (error.status === 413) res.setHeader('Connection', 'close');
  sendJson(res, req, error.status, error.body(), error.headers);
}

/**
 * Answers whatever a handler let through, in the one error shape: tms's errors by their meaning (`toApiError`),
 * anything else as a detail-free 500 that is logged. Nothing is sent to a client that went away, and an answer
 * already started is cut off rather than corrupted.
 */
export function answerError(res: ServerResponse, req: IncomingMessage, e: unknown, log: (message: string) => void): void {
  if (e instanceof RequestAbortedError || res.destroyed || req.socket.destroyed) {
    res.destroy();
    return;
  }
  const known = toApiError(e);
  if (!known) log(`tms: ${req.method} ${req.url}: ${(e as Error)?.stack ?? String(e)}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(res, req, known ?? serverError());
}
