// How many serving workers `tms serve` starts by default: the cores this process may use, container limits included.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** The default never starts more workers than this (each holds its own connection, cache and ~120–220 MiB). */
export const MAX_DEFAULT_WORKERS = 8;

/**
 * The CPUs a cgroup's quota allows, from cgroup v2's `cpu.max` ("200000 100000" → 2) or v1's quota and period
 * (-1: none); null without a quota. A fraction counts as a whole CPU.
 * @example cpuQuota({ v2: '150000 100000' }) // 2
 */
export function cpuQuota(files: { v2?: string; v1Quota?: string; v1Period?: string }): number | null {
  const quotaOf = (quota: number, period: number) => (quota > 0 && period > 0 ? Math.max(1, Math.ceil(quota / period)) : null);
  if (files.v2 !== undefined) {
    const [quota, period] = files.v2.trim().split(/\s+/);
    if (quota === 'max' || quota === undefined) return null;
    return quotaOf(Number(quota), Number(period ?? 100000));
  }
  if (files.v1Quota !== undefined && files.v1Period !== undefined) return quotaOf(Number(files.v1Quota.trim()), Number(files.v1Period.trim()));
  return null;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The default number of serving workers: the cores available to this process (`availableParallelism`, which
 * counts the CPUs it may run on but not a container's CPU quota), capped by the cgroup's quota and by
 * MAX_DEFAULT_WORKERS — a container limited to 2 CPUs on a 64-core host starts 2, not 64.
 */
export function defaultWorkers(
  cores = availableParallelism(),
  quota = cpuQuota({
    v2: read('/sys/fs/cgroup/cpu.max'),
    v1Quota: read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us'),
    v1Period: read('/sys/fs/cgroup/cpu/cpu.cfs_period_us'),
  }),
): number {
  return Math.max(1, Math.min(cores, quota ?? cores, MAX_DEFAULT_WORKERS));
}
