// Weblate's statistics percentages.

/**
 * Weblate's percentage: floored to one decimal, never 0.0 for a non-zero count nor 100.0 short of the total.
 * `percent(1, 3) === 33.3`, `percent(1, 10000) === 0.1`, `percent(9999, 10000) === 99.9`.
 */
export function percent(count: number, total: number, zeroComplete = false): number {
  if (total === 0) return zeroComplete ? 100 : 0;
  const p = Math.floor((1000 * count) / total) / 10;
  if (p === 0 && count !== 0) return 0.1;
  if (p === 100 && count < total) return 99.9;
  return p;
}
