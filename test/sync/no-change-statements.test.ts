// A no-change `sync --all` asks the store a fixed number of questions, however many components the site holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { syncAll } from '../../src/sync/index.js';
import { type Counts, counting, rowsWritten, sqlOn } from '../helpers/store.js';
import { type SyncEnv, createSyncEnv, linkedSite, linkedSiteFiles } from '../helpers/sync-env.js';

const MOST = 12;
const ADDON = 'weblate.autotranslate.autotranslate';

describe('a no-change sync --all', () => {
  let env: SyncEnv;
  let store: Store;
  beforeAll(async () => {
    env = await createSyncEnv();
    // two repositories, `site-0` and `site-1`, sharing MOST small Qt TS components (`c<i>` in `site-<i % 2>`)
    await env.addUpstream('site-0', linkedSiteFiles(MOST, 0, 2));
    await env.addUpstream('site-1', linkedSiteFiles(MOST, 1, 2));
    store = await env.openStore();
  });
  afterAll(() => env.close());

  /** The first `n` components, each linked to the first of its repository (two working copies), each with an add-on. */
  const config = (n: number) =>
    linkedSite(env, n, ['site-0', 'site-1'], { addons: [{ name: ADDON, configuration: { mode: 'translate', auto_source: 'others' } }] });

  /** Syncs the site of `n` components twice (the first reads what is new) and counts the second, no-change sync. */
  async function noChange(n: number): Promise<Counts> {
    const first = await syncAll(store, config(n));
    expect(first.every((r) => r.ok)).toBe(true);
    const counts = { transactions: 0, statements: 0, gitRequests: 0 };
    const requests = env.server.requests.length;
    const results = await syncAll(counting(store, counts), config(n));
    // the git side: one ref advertisement for each repository, nothing fetched
    counts.gitRequests = env.server.requests.length - requests;
    // (each its 401 challenge, then with the credentials), no pack asked for
    const advertisement = (repo: string) => `GET /${repo}.git/info/refs?service=git-upload-pack`;
    expect(env.server.requests.slice(requests).sort()).toEqual([
      advertisement('site-0'),
      advertisement('site-0'),
      advertisement('site-1'),
      advertisement('site-1'),
    ]);
    const bySlug = (a: { component: string }, b: { component: string }) => Number(a.component.slice(1)) - Number(b.component.slice(1));
    expect(results.sort(bySlug).map((r) => [r.component, r.parsed, r.scanned])).toEqual(Array.from({ length: n }, (_, i) => [`c${i}`, 0, false]));
    return counts;
  }

  it('runs as many transactions, statements and git requests over 12 components as over 3, and writes nothing', async () => {
    const few = await noChange(3);
    const written = await rowsWritten(store);
    const many = await noChange(MOST);
    expect(await sqlOn(store).value('SELECT count(*) FROM components')).toBe(MOST);
    console.log(`no-change sync --all: ${JSON.stringify(few)} over 3 components, ${JSON.stringify(many)} over ${MOST}`);
    expect(many).toEqual(few);
    // a handful: the configuration compared (3, nothing written), the rows resolved (1), each repository's sync points (3)
    expect(many.statements).toBeLessThanOrEqual(10);
    // the first sync of `many` added 9 components; its no-change sync wrote nothing more
    const again = await rowsWritten(store);
    await syncAll(store, config(MOST));
    expect(await rowsWritten(store)).toBe(again);
    expect(again).toBeGreaterThan(written);
  });

  it('still finds a changed setting and a changed add-on in the same run', async () => {
    await syncAll(store, config(MOST));
    const changed = config(MOST);
    changed.projects[0]!.components[5]!.priority = 50;
    changed.projects[0]!.components[7]!.addons = [];
    changed.projects[0]!.components[8]!.addons = [{ name: ADDON, configuration: { mode: 'suggest', auto_source: 'others' } }];
    const results = await syncAll(store, changed);
    // a changed setting (add-ons are settings) makes its component read its files again; the others are not scanned
    // (results in the order of the repositories, site-0's components first)
    expect(results.filter((r) => r.scanned).map((r) => r.component)).toEqual(['c8', 'c5', 'c7']);
    expect(results.find((r) => r.component === 'c5')!.parsed).toBe(2);
    const rows = await sqlOn(store).rows<{ slug: string; configuration: string }>(
      'SELECT c.slug, a.configuration FROM addons a JOIN components c ON c.id = a.component_id ORDER BY c.id',
    );
    expect(rows.map((r) => r.slug)).toEqual(Array.from({ length: MOST }, (_, i) => `c${i}`).filter((s) => s !== 'c7'));
    expect(rows.filter((r) => JSON.parse(r.configuration).mode === 'suggest').map((r) => r.slug)).toEqual(['c8']);
  });
});
