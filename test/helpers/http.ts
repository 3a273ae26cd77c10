// The tests' one HTTP client: a request to the server under test, its answer read as text, bytes and (when it parses) JSON.

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
