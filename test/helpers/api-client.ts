// The real API server on an ephemeral loopback port over the fixture store, and a small client for tests.
import { type RunningServer, startServer } from '../../src/api/server.js';
import { type ApiFixture, createApiFixture } from './api-fixture.js';

/** A parsed JSON body: tests read answers loosely and assert on what they find. */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined for an empty or non-JSON body). Integers beyond 2^53 lose precision: check `text`. */
  json: Json;
}

export interface ApiHarness {
  fixture: ApiFixture;
  server: RunningServer;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** A request to a path (or an absolute URL) with optional method, token and headers. */
  request(pathOrUrl: string, init?: { method?: string; token?: string; scheme?: string; headers?: Record<string, string> }): Promise<ApiResponse>;
  get(pathOrUrl: string, token?: string): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** Builds the fixture store and serves it (`errors` collects what the server logs). */
export async function startApi(options: { siteUrl?: string; errors?: string[] } = {}): Promise<ApiHarness> {
  const fixture = await createApiFixture();
  const config = options.siteUrl === undefined ? fixture.config : { ...fixture.config, site_url: options.siteUrl };
  const server = await startServer({
    db: fixture.db,
    config,
    host: '127.0.0.1',
    port: 0,
    log: (message) => options.errors?.push(message),
  });
  const harness: ApiHarness = {
    fixture,
    server,
    origin: server.url,
    async request(pathOrUrl, init = {}) {
      const url = pathOrUrl.startsWith('http') ? pathOrUrl : server.url + pathOrUrl;
      const headers: Record<string, string> = { ...init.headers };
      if (init.token !== undefined) headers.Authorization = `${init.scheme ?? 'Token'} ${init.token}`;
      const response = await fetch(url, { method: init.method ?? 'GET', headers, redirect: 'manual' });
      const text = await response.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    get(pathOrUrl, token) {
      return harness.request(pathOrUrl, { token });
    },
    async close() {
      await server.close();
      fixture.close();
    },
  };
  return harness;
}

/** Every page of a list, following `next`. */
export async function allPages(api: ApiHarness, path: string, token?: string): Promise<Json[]> {
  const out: Json[] = [];
  let url: string | null = path;
  while (url) {
    const r = await api.get(url, token);
    if (r.status !== 200) throw new Error(`${url}: HTTP ${r.status} ${r.text}`);
    out.push(...r.json.results);
    url = r.json.next;
  }
  return out;
}
