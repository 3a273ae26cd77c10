// The tests' one HTTP client: a request to the server under test, its answer read as text, bytes and (when it parses) JSON;
// and a large upload sent whole by node:http's client.
import http from 'node:http';

/** A parsed JSON body: tests read answers loosely and assert on what they find. */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Json = any;

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
  /** The parsed body (undefined for an empty or non-JSON body). Integers beyond 2^53 lose precision: check `text`. */
  json: Json;
}

export interface HttpRequest {
  method?: string;
  /** Sent as `Authorization: <scheme> <token>` (scheme `Token` unless given). */
  token?: string;
  scheme?: string;
  /** Sent as a JSON body with its Content-Type. */
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
}

/**
 * One request to `origin` + path (or to an absolute URL); redirects are not followed.
 * @example const r = await httpRequest(server.url, '/api/', { token }); r.json.projects
 */
export async function httpRequest(origin: string, pathOrUrl: string, init: HttpRequest = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers.Authorization = `${init.scheme ?? 'Token'} ${init.token}`;
  let body = init.body;
  if (init.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : origin + pathOrUrl;
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, bytes, json };
}

/** A multipart form uploading `content` as the translation file `de.ts`: its Content-Type and its body. */
export function multipartFile(content: string | Buffer): { type: string; body: Buffer } {
  const boundary = 'tmsboundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="de.ts"\r\nContent-Type: application/xml\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { type: `multipart/form-data; boundary=${boundary}`, body };
}

export interface UploadAnswer {
  status: number;
  text: string;
  /** The client's error (a reset connection: `EPIPE`, `ECONNRESET`), else null. */
  error: string | null;
  /** Whether the server asked for the body (`100 Continue`). */
  continued: boolean;
}

/**
 * Uploads `body` with node:http's client, sent whole (`req.end(body)`) as ordinary clients send it, and reads the
 * answer; settles when the connection is closed. With `expect`, the body is sent only after the server's `100
 * Continue` (not at all when a final answer comes first).
 */
export function uploadWhole(url: string, token: string, upload: { type: string; body: Buffer }, expect = false): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    let continued = false;
    let error: string | null = null;
    let status = 0;
    let text = '';
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: {
        Authorization: `Token ${token}`,
        'Content-Type': upload.type,
        'Content-Length': upload.body.length,
        ...(expect ? { Expect: '100-continue' } : {}),
      },
    });
    req.on('error', (e) => {
      error = (e as NodeJS.ErrnoException).code ?? e.message;
    });
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('error', () => {});
    });
    req.on('close', () => resolve({ status, text, error, continued }));
    if (expect) {
      req.on('continue', () => {
        continued = true;
        req.end(upload.body);
      });
      req.flushHeaders();
    } else req.end(upload.body);
  });
}
