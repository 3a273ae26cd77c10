// How alike two strings are, as the translation memory ranks its matches: 100 × (1 − edit distance / longer length).
import { distance } from 'fastest-levenshtein';

/**
 * The similarity of two strings in percent (integer, floored): 100 for equal strings, 0 for nothing in common.
 * @example similarity('Open file', 'Open files') // 90
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 100;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 100;
  return Math.floor((100 * (longer - distance(a, b))) / longer);
}

/** The lowest similarity a memory match needs to be shown (Weblate shows matches above about 75 %). */
export const MEMORY_THRESHOLD = 75;
