// The store's units of work on either engine (TMS_TEST_POSTGRES selects PostgreSQL): a write's transaction stays
// open across its awaits without letting another caller's statements in, a read never sees what an open write has not
// committed, a write that throws leaves nothing; on PostgreSQL, units of work run side by side and none blocks the
// event loop while the server works.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Store, openStore } from '../../src/store/index.js';
import { onPostgres, sqlOn } from '../helpers/store.js';
import { sleep } from '../helpers/wait.js';

describe('units of work', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(path.join(mkdtempSync(path.join(tmpdir(), 'tms-tx-')), 'tms.sqlite'));
    await sqlOn(store).run('CREATE TABLE tx_probe (n integer NOT NULL)');
  });
  afterAll(() => store?.close());

  const count = () => store.read(async (tx) => Number(await tx.prepare('SELECT count(*) FROM tx_probe').pluck().get()));

  it('keeps a write to itself across its awaits: a read meanwhile never sees half of it', async () => {
    const before = await count();
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const writing = store.write(async (tx) => {
      await tx.prepare('INSERT INTO tx_probe (n) VALUES (1)').run();
      entered();
      // work that yields in the middle of the transaction (on SQLite the same connection serves the read below)
      await gate;
      await tx.prepare('INSERT INTO tx_probe (n) VALUES (2)').run();
    });
    await inside;
    const reading = count();
    // PostgreSQL reads beside the write (what was committed before it); SQLite's one connection waits for the write's
    // commit, so that no read runs inside another caller's transaction
    if (onPostgres) expect(await reading).toBe(before);
    release();
    await writing;
    if (!onPostgres) expect(await reading).toBe(before + 2);
    expect(await count()).toBe(before + 2);
  });

  it('runs one write at a time: a second write begins after the first has committed', async () => {
    const order: string[] = [];
    const write = (name: string) =>
      store.write(async (tx) => {
        order.push(`${name} begins`);
        await tx.prepare('INSERT INTO tx_probe (n) VALUES (3)').run();
        await sleep(20);
        order.push(`${name} ends`);
      });
    await Promise.all([write('a'), write('b')]);
    expect(order).toEqual(['a begins', 'a ends', 'b begins', 'b ends']);
  });

  it('leaves nothing of a write that throws, and the store goes on', async () => {
    const before = await count();
    const failure = await store
      .write(async (tx) => {
        await tx.prepare('INSERT INTO tx_probe (n) VALUES (4)').run();
        await sleep(10);
        throw new Error('changed my mind');
      })
      .catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(await count()).toBe(before);
    await store.write((tx) => tx.prepare('INSERT INTO tx_probe (n) VALUES (5)').run());
    expect(await count()).toBe(before + 1);
  });

  it('fails a write whose statement failed, even when its function went on: nothing of it is committed', async () => {
    const before = await count();
    const failure = await store
      .write(async (tx) => {
        await tx.prepare('INSERT INTO tx_probe (n) VALUES (6)').run();
        // a NOT NULL violation, caught by the function, which carries on
        try {
          await tx.prepare('INSERT INTO tx_probe (n) VALUES (?)').run(null);
        } catch {
          // carried on
        }
        return 'done';
      })
      .then(
        () => null,
        (e: Error) => e,
      );
    // PostgreSQL's transaction is aborted by the failed statement: the write fails rather than claim a commit; SQLite's
    // statement failed alone, so the rest of the transaction commits
    if (onPostgres) {
      expect(failure).toBeInstanceOf(Error);
      expect(await count()).toBe(before);
    } else {
      expect(failure).toBeNull();
      expect(await count()).toBe(before + 1);
    }
  });

  it.runIf(onPostgres)('runs reads side by side on PostgreSQL, and never blocks the event loop while the server works', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => store.read((tx) => tx.prepare('SELECT pg_sleep(0.3)').get())));
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // five reads of 0.3 s each, at once: about 0.3 s, not 1.5 s
    expect(elapsed).toBeLessThan(1200);
    // the timer kept running meanwhile
    expect(ticks).toBeGreaterThan(10);
  });

  it.runIf(onPostgres)('refuses a write outside store.write on PostgreSQL (it would skip the write lock and the change token)', async () => {
    const error = await store.read((tx) => tx.prepare('INSERT INTO tx_probe (n) VALUES (7)').run()).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
  });
});
