// Statistics of translations and their sums (component, project, language), as Weblate's stats compute them.
import type { CatalogStats } from '../store/catalog.query.js';

/** Counts of a translation or of a set of translations. */
export interface Counts {
  total: number; total_words: number; total_chars: number;
  translated: number; translated_words: number; translated_chars: number;
  fuzzy: number; fuzzy_words: number; fuzzy_chars: number;
  approved: number; approved_words: number; approved_chars: number;
  readonly: number; readonly_words: number; readonly_chars: number;
  failing: number; failing_words: number;
  suggestions: number; comments: number;
  /** The newest content change, and the full name of its author. */
  last_change: string | null;
  last_author: string | null;
  recent_changes: number;
}

const SUMMED = [
  'total', 'total_words', 'total_chars', 'translated', 'translated_words', 'translated_chars',
  'fuzzy', 'fuzzy_words', 'fuzzy_chars', 'approved', 'approved_words', 'approved_chars',
  'readonly', 'readonly_words', 'readonly_chars', 'failing', 'failing_words', 'suggestions', 'comments', 'recent_changes',
] as const;

/** Empty counts (a translation never counted yet). */
export function emptyCounts(): Counts {
  const counts = { last_change: null, last_author: null } as Counts;
  for (const key of SUMMED) counts[key] = 0;
  return counts;
}

/**
 * Sums translations' statistics: counts and recent changes add up, the newest last change wins
 * (with its author). `sumStats([a, b]).total === a.total + b.total`.
 */
export function sumStats(rows: Iterable<CatalogStats | undefined>): Counts {
  const counts = emptyCounts();
  for (const row of rows) {
    if (!row) continue;
    for (const key of SUMMED) counts[key] += row[key];
    if (row.last_change !== null && (counts.last_change === null || row.last_change > counts.last_change)) {
      counts.last_change = row.last_change;
      counts.last_author = row.last_author;
    }
  }
  return counts;
}
