// Statistics of translations and their sums (component, project, language), as Weblate's stats compute them.
import type { CatalogStats } from '../store/index.js';
import type { TranslationStatsRow } from '../store/index.js';

/**
 * Counts of a translation or of a set of translations: the stored statistics, with the author of the newest
 * content change as a full name (`last_author`) instead of a user id.
 */
export type Counts = Omit<TranslationStatsRow, 'translation_id' | 'last_author_id' | 'seq'> & { last_author: string | null };

const SUMMED = [
  'total',
  'total_words',
  'total_chars',
  'translated',
  'translated_words',
  'translated_chars',
  'fuzzy',
  'fuzzy_words',
  'fuzzy_chars',
  'approved',
  'approved_words',
  'approved_chars',
  'readonly',
  'readonly_words',
  'readonly_chars',
  'failing',
  'failing_words',
  'suggestions',
  'comments',
  'recent_changes',
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
