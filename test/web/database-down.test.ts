// Pages while the database does not answer (PostgreSQL stopped): the API's 503 with its reason and Retry-After, in the site's layout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { applyConfig } from '../../src/sync/config.js';
import { httpRequest } from '../helpers/http.js';
import { type PostgresServer, startPostgres } from '../helpers/postgres-server.js';

const enabled = Boolean(process.env.TMS_TEST_POSTGRES);
if (!enabled) console.warn('[skip] pages while the database is down: needs PostgreSQL (TMS_TEST_POSTGRES; run `npm run test:postgres`)');

describe.skipIf(!enabled)('pages while the database does not answer', () => {
  let pg: PostgresServer;
  let dir: string;
  let store: Store;
  let server: RunningServer;
  const logged: string[] = [];
  beforeAll(async () => {
    // a server of this file's own: the test stops it
    pg = startPostgres(['tms_down']);
    dir = mkdtempSync(path.join(tmpdir(), 'tms-down-'));
    const config = parseConfig(
      JSON.stringify({ database: pg.url('tms_down'), projects: [{ name: 'Hello', slug: 'hello', components: [] }] }),
      path.join(dir, 'tms.config.json'),
    );
    store = await openStore(config.database);
    await store.write((tx) => applyConfig(tx, config));
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => logged.push(m) });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await store?.close();
    pg?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answer 503 with Retry-After and the reason the API gives, in the site layout; then serve again', async () => {
    expect((await httpRequest(server.url, '/projects/hello/')).status).toBe(200);
    pg.stop('fast');
    const api = await httpRequest(server.url, '/api/projects/');
    expect(api.status).toBe(503);
    expect(api.headers.get('retry-after')).toBe('1');
    const reason: string = api.json.errors[0].detail;
    for (const url of ['/', '/projects/hello/', '/translate/hello/app/de/']) {
      const page = await httpRequest(server.url, url);
      expect(page.status, url).toBe(503);
      expect(page.headers.get('retry-after'), url).toBe('1');
      expect(page.headers.get('content-type'), url).toContain('text/html');
      expect(page.text, url).toContain(`<p class="error-detail">${reason}</p>`);
      // the site's frame: its stylesheet and navigation
      expect(page.text, url).toMatch(/<link rel="stylesheet" href="\/static\/style-[0-9a-f]+\.css"\/>/);
      expect(page.text, url).toContain('<nav aria-label="Site">');
    }
    // an unavailable database is no defect: nothing logged as one
    expect(logged.filter((m) => m.includes('Error'))).toEqual([]);
    pg.start();
    const back = await httpRequest(server.url, '/projects/hello/');
    expect(back.status).toBe(200);
  }, 60_000);
});
