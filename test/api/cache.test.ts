import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/api/response-cache.js';
import { type ApiHarness, startApi } from '../helpers/api-client.js';
import { sqlOn } from '../helpers/store.js';
// Answers are cached only while the store is unchanged: a write through any connection shows at once.
import { openDatabaseOf } from '../helpers/store.js';

describe('ResponseCache', () => {
  it('drops the oldest entries past its byte budget, and caches nothing at 0', () => {
    const cache = new ResponseCache(8 * 100);
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, Buffer.alloc(90));
    expect(cache.size).toBeLessThan(20);
    expect(cache.get('k19')).toBeDefined();
    expect(cache.get('k0')).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
    const off = new ResponseCache(0);
    off.set('k', Buffer.alloc(1));
    expect(off.get('k')).toBeUndefined();
  });
});

describe('cached answers follow the store', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  async function firstUnit() {
    return (await api.get('/api/translations/hello/app/de/units/')).json.results[0];
  }

  it("shows a write made through the server's own connection", async () => {
    const before = await firstUnit();
    expect((await firstUnit()).target).toEqual(before.target);
    await sqlOn(api.fixture.store).run('UPDATE units SET target = ? WHERE id = ?', 'Neu (same connection)', before.id);
    expect((await firstUnit()).target).toEqual(['Neu (same connection)']);
  });

  it('shows a commit made by another connection (another process, e.g. tms sync)', async () => {
    const before = await firstUnit();
    await api.get(`/api/units/${before.id}/`);
    const other = openDatabaseOf(api.fixture.config.database);
    try {
      other.prepare('UPDATE units SET target = ? WHERE id = ?').run('Neu (other connection)', before.id);
    } finally {
      other.close();
    }
    expect((await firstUnit()).target).toEqual(['Neu (other connection)']);
    expect((await api.get(`/api/units/${before.id}/`)).json.target).toEqual(['Neu (other connection)']);
  });

  it('keeps answers of different users and origins apart', async () => {
    const anonymous = await api.get('/api/projects/');
    const admin = await api.get('/api/projects/', api.fixture.tokens.admin);
    expect(anonymous.json.count).toBe(1);
    expect(admin.json.count).toBe(2);
    expect((await api.get('/api/projects/')).json.count).toBe(1);
    const other = await api.get(`${api.origin.replace('127.0.0.1', 'localhost')}/api/projects/`);
    expect(other.json.results[0].url).toBe(`${api.origin.replace('127.0.0.1', 'localhost')}/api/projects/hello/`);
  });
});
