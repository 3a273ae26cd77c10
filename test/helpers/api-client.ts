// The real API server on an ephemeral loopback port over the fixture store, and a small client for tests.
import { type RunningServer, startServer } from '../../src/server/server.js';
import { type ApiFixture, createApiFixture } from './api-fixture.js';
import { type HttpAnswer, type Json, httpRequest } from './http.js';

export type { Json };
export type ApiResponse = HttpAnswer;

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
export async function startApi(options: { siteUrl?: string; errors?: string[]; settings?: Record<string, unknown> } = {}): Promise<ApiHarness> {
  const fixture = await createApiFixture();
  // The conformance runs make hundreds of anonymous requests: Weblate's 100/day would throttle them.
  const base = { ...fixture.config, rate_limit: { anonymous: '', user: '' }, ...options.settings };
  const config = options.siteUrl === undefined ? base : { ...base, site_url: options.siteUrl };
  const server = await startServer({
    store: fixture.store,
    config,
    host: '127.0.0.1',
    port: 0,
    log: (message) => options.errors?.push(message),
  });
  const harness: ApiHarness = {
    fixture,
    server,
    origin: server.url,
    request: (pathOrUrl, init = {}) => httpRequest(server.url, pathOrUrl, init),
    get(pathOrUrl, token) {
      return harness.request(pathOrUrl, { token });
    },
    async close() {
      await server.close();
      await fixture.close();
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
