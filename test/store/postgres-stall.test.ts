// A PostgreSQL server that stops answering (a network partition, a stuck server): the node's requests that need the
// database wait, while /healthz answers within its bound and what needs no database keeps being served; once the
// database answers again, the waiting requests finish. The database sits behind a TCP proxy that stops forwarding.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { type Store, openStore } from '../../src/store/index.js';
import { migrateDatabase, testSchemaFor } from '../../src/store/pg/open.js';
import { PgStore } from '../../src/store/pg/pg-store.js';
import { applyConfig } from '../../src/sync/config.js';
import { httpRequest } from '../helpers/http.js';
import { startLatencyProxy } from '../helpers/latency-proxy.js';

const url = process.env.TMS_TEST_POSTGRES;
if (!url) console.warn('test/store/postgres-stall.test.ts: TMS_TEST_POSTGRES is not set: skipped (npm run test:postgres runs it)');

/** The unix socket and database of the test server's URL (`postgresql:///db?host=<dir>&user=…`). */
function socketOf(database: string): { socket: string; name: string; user: string } {
  const u = new URL(database);
  return { socket: path.join(u.searchParams.get('host')!, '.s.PGSQL.5432'), name: u.pathname.slice(1), user: u.searchParams.get('user') ?? 'postgres' };
}

describe.skipIf(!url)('a PostgreSQL server that stops answering', () => {
  let proxy: Awaited<ReturnType<typeof startLatencyProxy>>;
  let store: Store;
  let server: RunningServer;

  beforeAll(async () => {
    const { socket, name, user } = socketOf(url!);
    proxy = await startLatencyProxy(socket, 0);
    const schema = testSchemaFor(path.join(mkdtempSync(path.join(tmpdir(), 'tms-stall-')), 'tms.sqlite'));
    const options = encodeURIComponent(`-c search_path=${schema},public`);
    const config = parseConfig(
      JSON.stringify({
        projects: [
          {
            name: 'Hello',
            slug: 'hello',
            components: [{ name: 'App', slug: 'app', repo: 'https://example.org/app.git', filemask: 'po/*.ts', file_format: 'ts' }],
          },
        ],
      }),
      '/srv/tms.config.json',
    );
    // a schema of its own (made directly), then the store through the proxy
    await migrateDatabase(url!, schema);
    store = await openStore(`postgresql://${user}@127.0.0.1:${proxy.port}/${name}?options=${options}`);
    expect(store).toBeInstanceOf(PgStore);
    await store.write((tx) => applyConfig(tx, config));
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: () => {} });
  });
  afterAll(async () => {
    proxy?.stall(false);
    await server?.close();
    await store?.close();
    await proxy?.close();
  });

  it('lets requests that need it wait, answers /healthz (503) and what needs no database, and goes on when it is back', async () => {
    expect((await httpRequest(server.url, '/api/projects/')).status).toBe(200);
    expect((await httpRequest(server.url, '/healthz')).status).toBe(200);
    proxy.stall(true);
    let settled: number | undefined;
    const waiting = httpRequest(server.url, '/api/projects/hello/components/').then((r) => {
      settled = r.status;
      return r;
    });
    // the health check reports the database within its bound instead of waiting with the requests
    const started = performance.now();
    const health = await httpRequest(server.url, '/healthz');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.text).database).toMatch(/^error: /);
    // (a new session's connection would wait out libpq's connect_timeout, 10 s)
    expect(performance.now() - started).toBeLessThan(5000);
    // what needs no database is served meanwhile: an unknown path (404), the API's own 404
    expect((await httpRequest(server.url, '/nothing-here/')).status).toBe(404);
    expect((await httpRequest(server.url, '/api/nothing-here/')).status).toBe(404);
    // the request that needs the database is still waiting (or failed as unavailable: 503, never another error)
    expect(settled === undefined || settled === 503).toBe(true);
    proxy.stall(false);
    const answer = await waiting;
    expect([200, 503]).toContain(answer.status);
    // and every request after it is answered
    expect((await httpRequest(server.url, '/api/projects/hello/components/')).status).toBe(200);
    expect((await httpRequest(server.url, '/healthz')).status).toBe(200);
  }, 30_000);
});
