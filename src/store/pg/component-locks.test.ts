// The component locks several nodes share (PostgreSQL only): one holder per component, a wait limit, given back by a
// release or by the end of the holder's session.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlOn } from '../../../test/helpers/store.js';
import { openStore } from '../index.js';
import type { ComponentLocks, Store } from '../store.js';

const onPostgres = Boolean(process.env.TMS_TEST_POSTGRES);
if (!onPostgres) console.warn('[skip] component locks: needs PostgreSQL (TMS_TEST_POSTGRES; run `npm run test:postgres`)');

describe.skipIf(!onPostgres)('component locks (PostgreSQL)', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-locks-')), 'tms.sqlite');
  // two nodes: two stores on one database
  let stores: Store[];
  let one: ComponentLocks;
  let two: ComponentLocks;
  beforeAll(async () => {
    stores = [await openStore(file), await openStore(file)];
    [one, two] = stores.map((s) => s.componentLocks()!) as [ComponentLocks, ComponentLocks];
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  it('has one holder per component; the other waits for the release', async () => {
    const release = await one.acquire('hello/app', 1000);
    expect(release).toBeTypeOf('function');
    // another component is free
    const other = await two.acquire('hello/docs', 1000);
    expect(other).toBeTypeOf('function');
    other!();
    const started = performance.now();
    expect(await two.acquire('hello/app', 300)).toBeNull();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const waiting = two.acquire('hello/app', 5000);
    setTimeout(release!, 200);
    const next = await waiting;
    expect(next).toBeTypeOf('function');
    next!();
  });

  it('does not block the event loop while it waits', async () => {
    const release = (await one.acquire('hello/app', 1000))!;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    expect(await two.acquire('hello/app', 500)).toBeNull();
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(20);
    release();
  });

  it('knows when it no longer holds a lock: released, or its session lost', async () => {
    const release = (await one.acquire('hello/app', 1000))!;
    expect(await one.held('hello/app')).toBe(true);
    expect(await two.held('hello/app')).toBe(false);
    // asking does not take it twice: after the release another node gets it at once
    release();
    expect(await one.held('hello/app')).toBe(false);
    const again = (await two.acquire('hello/app', 100))!;
    expect(again).toBeTypeOf('function');
    again();
    // the holder's lock session is ended by the server (a network cut, an administrator): the lock is gone with it
    (await one.acquire('hello/app', 1000))!;
    // the session holding this component's key (a 64-bit key is classid:objid in pg_locks)
    const locker = await sqlOn(stores[0]!).values<number>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
         AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(current_schema() || ' component ' || ?, 0)`,
      'hello/app',
    );
    expect(locker.length).toBe(1);
    await sqlOn(stores[1]!).value('SELECT pg_terminate_backend(?)', locker[0]);
    expect(await one.held('hello/app')).toBe(false);
    const taken = await two.acquire('hello/app', 2000);
    expect(taken).toBeTypeOf('function');
    taken!();
  });

  it('is given back when the session of its holder ends', async () => {
    expect(await one.acquire('hello/app', 1000)).toBeTypeOf('function');
    // the holder's node dies: PostgreSQL ends its session
    stores[0]!.componentLocks()!.close();
    const release = await two.acquire('hello/app', 2000);
    expect(release).toBeTypeOf('function');
    release!();
  });
});
