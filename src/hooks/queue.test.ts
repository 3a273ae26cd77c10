// The update queue on its own: one update a component at a time, coalesced, closed cleanly.
import { describe, expect, it } from 'vitest';
import { withComponentMutex } from '../component/mutex.js';
import { QueueClosedError, createUpdateQueue } from './queue.js';

/** An update function whose calls wait until the test releases them. */
function gatedUpdate() {
  const started: string[] = [];
  const gates: (() => void)[] = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  const perKey = new Map<string, number>();
  let maxPerKey = 0;
  const update = async (p: string, c: string) => {
    const key = `${p}/${c}`;
    started.push(key);
    concurrent++;
    maxConcurrent = Math.max(maxConcurrent, concurrent);
    perKey.set(key, (perKey.get(key) ?? 0) + 1);
    maxPerKey = Math.max(maxPerKey, perKey.get(key)!);
    await new Promise<void>((resolve) => gates.push(resolve));
    concurrent--;
    perKey.set(key, perKey.get(key)! - 1);
    return key;
  };
  const releaseAll = async () => {
    while (gates.length > 0) gates.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { update, started, releaseAll, stats: () => ({ maxConcurrent, maxPerKey }) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('update queue', () => {
  it('coalesces a burst for one component into one running and one queued update', async () => {
    const g = gatedUpdate();
    const queue = createUpdateQueue({ update: g.update });
    const outcomes = Array.from({ length: 20 }, () => queue.enqueue('hello', 'app'));
    expect(outcomes[0]).toBe('started');
    expect(outcomes[1]).toBe('queued');
    expect(outcomes.slice(2).every((o) => o === 'coalesced')).toBe(true);
    await tick();
    expect(g.started).toEqual(['hello/app']);
    expect(queue.pending()).toEqual({ running: ['hello/app'], queued: ['hello/app'] });

    await g.releaseAll();
    await tick();
    // the queued update started after the first finished: it sees every push of the burst
    expect(g.started).toEqual(['hello/app', 'hello/app']);
    expect(queue.enqueue('hello', 'app')).toBe('queued');
    await g.releaseAll();
    await tick();
    await g.releaseAll();
    await queue.idle();
    expect(g.started).toHaveLength(3);
    expect(g.stats().maxPerKey).toBe(1);
    expect(queue.pending()).toEqual({ running: [], queued: [] });
  });

  it('runs different components side by side up to the concurrency limit', async () => {
    const g = gatedUpdate();
    const queue = createUpdateQueue({ update: g.update, concurrency: 2 });
    expect(['a', 'b', 'c'].map((c) => queue.enqueue('p', c))).toEqual(['started', 'started', 'queued']);
    // waiting for a free slot counts as queued: a second request folds into it
    expect(queue.enqueue('p', 'c')).toBe('coalesced');
    await tick();
    expect(g.started).toEqual(['p/a', 'p/b']);
    await g.releaseAll();
    await tick();
    expect(g.started).toEqual(['p/a', 'p/b', 'p/c']);
    await g.releaseAll();
    await queue.idle();
    expect(g.stats().maxConcurrent).toBe(2);
  });

  it('reports errors and results and carries on', async () => {
    const errors: string[] = [];
    const done: string[] = [];
    const queue = createUpdateQueue({
      update: async (p, c) => {
        if (c === 'broken') throw new Error('fetch failed');
        return `${p}/${c} ok`;
      },
      onError: (e, p, c) => errors.push(`${p}/${c}: ${(e as Error).message}`),
      onDone: (_p, _c, result) => done.push(String(result)),
    });
    queue.enqueue('p', 'broken');
    queue.enqueue('p', 'fine');
    await queue.idle();
    expect(errors).toEqual(['p/broken: fetch failed']);
    expect(done).toEqual(['p/fine ok']);
    queue.enqueue('p', 'broken');
    await queue.idle();
    expect(errors).toHaveLength(2);
  });

  it('holds the component lock while updating (lock: true), and does not deadlock an update that locks itself (lock: false)', async () => {
    const order: string[] = [];
    const queue = createUpdateQueue({
      update: async () => {
        order.push('update');
      },
    });
    let release!: () => void;
    const holder = withComponentMutex('locked/app', async () => {
      order.push('other holder');
      await new Promise<void>((r) => (release = r));
      order.push('other holder done');
    });
    await tick();
    queue.enqueue('locked', 'app');
    await tick();
    expect(order).toEqual(['other holder']);
    release();
    await holder;
    await queue.idle();
    expect(order).toEqual(['other holder', 'other holder done', 'update']);

    const results: unknown[] = [];
    const q2 = createUpdateQueue({ update: (p, c) => withComponentMutex(`${p}/${c}`, async () => 'ran'), lock: false, onDone: (_p, _c, r) => results.push(r) });
    q2.enqueue('self', 'app');
    await q2.idle();
    expect(results).toEqual(['ran']);
  });

  it('refuses work after close and resolves close when the accepted work is done', async () => {
    const g = gatedUpdate();
    const queue = createUpdateQueue({ update: g.update });
    queue.enqueue('p', 'a');
    const closing = queue.close();
    expect(() => queue.enqueue('p', 'b')).toThrow(QueueClosedError);
    await tick();
    await g.releaseAll();
    await closing;
    expect(g.started).toEqual(['p/a']);
  });
});
