import { describe, expect, it } from 'vitest';
import { MAX_DEFAULT_WORKERS, cpuQuota, defaultWorkers } from './cores.js';

describe('cpuQuota', () => {
  it("reads cgroup v2's cpu.max and v1's quota and period; no quota is null; a fraction is a whole CPU", () => {
    expect(cpuQuota({ v2: 'max 100000\n' })).toBeNull();
    expect(cpuQuota({ v2: '200000 100000\n' })).toBe(2);
    expect(cpuQuota({ v2: '150000 100000' })).toBe(2);
    expect(cpuQuota({ v2: '50000 100000' })).toBe(1);
    expect(cpuQuota({ v1Quota: '-1\n', v1Period: '100000\n' })).toBeNull();
    expect(cpuQuota({ v1Quota: '400000', v1Period: '100000' })).toBe(4);
    expect(cpuQuota({})).toBeNull();
  });
});

describe('defaultWorkers', () => {
  it('takes the fewest of the cores, the quota and the cap', () => {
    expect(defaultWorkers(64, 2)).toBe(2);
    expect(defaultWorkers(2, null)).toBe(2);
    expect(defaultWorkers(2, 16)).toBe(2);
    expect(defaultWorkers(64, null)).toBe(MAX_DEFAULT_WORKERS);
    expect(defaultWorkers(1, null)).toBe(1);
  });

  it('on this machine: at least one, never more than the cores', async () => {
    const { availableParallelism } = await import('node:os');
    const n = defaultWorkers();
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(availableParallelism());
  });
});
