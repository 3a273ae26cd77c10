// A push changing one file of a repository many components share costs as much in the store however many share it:
// the untouched components' working copy and sync points read once, their new commit written in one statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createComponentUpdater } from '../../src/hooks/updater.js';
import type { ComponentUpdate } from '../../src/hooks/updater.js';
import type { Store } from '../../src/store/index.js';
import { type SyncEvent, syncProject } from '../../src/sync/index.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { type Counts, counting, sqlOn } from '../helpers/store.js';
import { type SyncEnv, createSyncEnv, demoFile, linkedSite, linkedSiteFiles } from '../helpers/sync-env.js';

const MOST = 10;

describe('a one-file push to a repository shared by many components', () => {
  let env: SyncEnv;
  let store: Store;
  let round = 0;
  beforeAll(async () => {
    env = await createSyncEnv();
    // one repository holding MOST small Qt TS components
    await env.addUpstream('shared', linkedSiteFiles(MOST, 0, 1));
    store = await env.openStore();
  });
  afterAll(() => env.close());

  /** The first `n` components: c0 owns the repository, the others link to it. */
  const config = (n: number) => linkedSite(env, n, ['shared']);

  /** Upstream changes one string of c1's German file. */
  async function push(): Promise<void> {
    const de = demoFile('app/translations/app_de.ts');
    await commitToUpstream(env.upstream('shared'), { 'c1/app_de.ts': de.replace('Eine Datei öffnen', `Datei öffnen ${++round}`) });
  }

  /** What the store was asked to bring `n` components up to date after a one-file push: by a webhook's update, by `tms sync`. */
  async function onePush(n: number): Promise<{ hook: Counts; sync: Counts }> {
    // (c1's string differs from the others' already: the counted pushes change what they check alike)
    await push();
    expect((await syncProject(store, config(n), 'site')).every((r) => r.ok)).toBe(true);
    await push();
    const hook: Counts = { transactions: 0, statements: 0, writes: 0 };
    const update = createComponentUpdater({ store: counting(store, hook), getConfig: () => config(n) });
    const done = (await update('site', 'c0')) as ComponentUpdate;
    expect(done.ok).toBe(true);
    const hooked = [done.sync!, ...(done.shared ?? [])];
    expect(hooked.filter((s) => s.scanned).map((s) => [s.component, s.parsed])).toEqual([['c1', 1]]);
    expect(hooked).toHaveLength(n);

    await push();
    const sync: Counts = { transactions: 0, statements: 0, writes: 0 };
    const scanned: string[] = [];
    const onEvent = (e: SyncEvent) => {
      if (e.type === 'stage' && e.stage === 'scan') scanned.push(e.component);
    };
    const synced = await syncProject(counting(store, sync), config(n), 'site', undefined, { onEvent });
    expect(synced.every((r) => r.ok)).toBe(true);
    expect(scanned).toEqual(['c1']);
    // every component's store is at upstream's commit
    const commits = await sqlOn(store).rows('SELECT DISTINCT synced_commit FROM components WHERE id IN (SELECT id FROM components ORDER BY id LIMIT ?)', n);
    expect(commits).toHaveLength(1);
    return { hook, sync };
  }

  it(`runs as many transactions and statements for ${MOST} components as for 3`, async () => {
    const few = await onePush(3);
    const many = await onePush(MOST);
    console.log(`one-file push: ${JSON.stringify(few)} over 3 components, ${JSON.stringify(many)} over ${MOST}`);
    expect(many).toEqual(few);
  });
});
