// Per-translation statistics: counts from units, last change from content changes; read by the API.

import { ACTIONS_CONTENT } from '../domain/actions.js';
import type { StatsDelta, UnitStatsFacts } from '../domain/statistics.js';
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

export interface TranslationStatsRow {
  translation_id: number;
  total: number;
  total_words: number;
  total_chars: number;
  translated: number;
  translated_words: number;
  translated_chars: number;
  fuzzy: number;
  fuzzy_words: number;
  fuzzy_chars: number;
  approved: number;
  approved_words: number;
  approved_chars: number;
  readonly: number;
  readonly_words: number;
  readonly_chars: number;
  failing: number;
  failing_words: number;
  suggestions: number;
  comments: number;
  last_change: string | null;
  last_author_id: number | null;
  recent_changes: number;
  /** The change number a trigger gives each write of the row (catalog_version.stats): what a catalog refresh reads since. */
  seq: number;
}

const CONTENT = [...ACTIONS_CONTENT].join(',');
// Weblate's `allchecks`: units with at least one failing check that is not dismissed
const FAILING = 'EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = units.id AND k.dismissed = 0)';
// Weblate's `suggestions`: units with a suggestion; `comments`: units with an unresolved comment, on the string itself
// or on its source string (a source comment shows in every translation)
const HAS_SUGGESTION = 'EXISTS (SELECT 1 FROM suggestions g WHERE g.unit_id = units.id)';
const hasComment = (component: string) =>
  `EXISTS (SELECT 1 FROM comments m WHERE m.resolved = 0 AND (m.unit_id = units.id OR (m.source = 1 AND m.component_id = ${component} AND m.id_hash = units.id_hash)))`;
const SIX_HOURS_MS = 6 * 3600 * 1000;

const sql = preparedOnce((tx: Tx) => ({
  counts: tx.prepare(`
    INSERT INTO translation_stats (translation_id, total, total_words, total_chars,
      translated, translated_words, translated_chars, fuzzy, fuzzy_words, fuzzy_chars,
      approved, approved_words, approved_chars, readonly, readonly_words, readonly_chars, failing, failing_words, suggestions, comments)
    SELECT @id, count(*), coalesce(sum(num_words), 0), coalesce(sum(num_chars), 0),
      count(*) FILTER (WHERE state >= 20), coalesce(sum(num_words) FILTER (WHERE state >= 20), 0), coalesce(sum(num_chars) FILTER (WHERE state >= 20), 0),
      count(*) FILTER (WHERE state = 10), coalesce(sum(num_words) FILTER (WHERE state = 10), 0), coalesce(sum(num_chars) FILTER (WHERE state = 10), 0),
      count(*) FILTER (WHERE state = 30), coalesce(sum(num_words) FILTER (WHERE state = 30), 0), coalesce(sum(num_chars) FILTER (WHERE state = 30), 0),
      count(*) FILTER (WHERE state = 100), coalesce(sum(num_words) FILTER (WHERE state = 100), 0), coalesce(sum(num_chars) FILTER (WHERE state = 100), 0),
      count(*) FILTER (WHERE ${FAILING}), coalesce(sum(num_words) FILTER (WHERE ${FAILING}), 0),
      count(*) FILTER (WHERE ${HAS_SUGGESTION}), count(*) FILTER (WHERE ${hasComment('(SELECT component_id FROM translations WHERE id = @id)')})
    FROM units WHERE translation_id = @id
    ON CONFLICT (translation_id) DO UPDATE SET
      total = excluded.total, total_words = excluded.total_words, total_chars = excluded.total_chars,
      translated = excluded.translated, translated_words = excluded.translated_words, translated_chars = excluded.translated_chars,
      fuzzy = excluded.fuzzy, fuzzy_words = excluded.fuzzy_words, fuzzy_chars = excluded.fuzzy_chars,
      approved = excluded.approved, approved_words = excluded.approved_words, approved_chars = excluded.approved_chars,
      readonly = excluded.readonly, readonly_words = excluded.readonly_words, readonly_chars = excluded.readonly_chars,
      failing = excluded.failing, failing_words = excluded.failing_words,
      suggestions = excluded.suggestions, comments = excluded.comments`),
  last: tx.prepare(`SELECT timestamp, author_id FROM changes WHERE translation_id = ? AND action IN (${CONTENT}) ORDER BY timestamp DESC, id DESC LIMIT 1`),
  recent: tx.prepare(`SELECT count(*) FROM changes WHERE translation_id = ? AND action IN (${CONTENT}) AND timestamp > ?`).pluck(),
  setLast: tx.prepare('UPDATE translation_stats SET last_change = ?, last_author_id = ?, recent_changes = ? WHERE translation_id = ?'),
  get: tx.prepare('SELECT * FROM translation_stats WHERE translation_id = ?'),
  unitFacts: tx.prepare(
    `SELECT state, num_words, num_chars, ${FAILING} AS failing, ${HAS_SUGGESTION} AS suggestion, ${hasComment('t.component_id')} AS comment
     FROM units JOIN translations t ON t.id = units.translation_id WHERE units.id = ?`,
  ),
  delta: tx.prepare(`UPDATE translation_stats SET
      translated = translated + @translated, translated_words = translated_words + @translated_words, translated_chars = translated_chars + @translated_chars,
      fuzzy = fuzzy + @fuzzy, fuzzy_words = fuzzy_words + @fuzzy_words, fuzzy_chars = fuzzy_chars + @fuzzy_chars,
      approved = approved + @approved, approved_words = approved_words + @approved_words, approved_chars = approved_chars + @approved_chars,
      readonly = readonly + @readonly, readonly_words = readonly_words + @readonly_words, readonly_chars = readonly_chars + @readonly_chars,
      failing = failing + @failing, failing_words = failing_words + @failing_words,
      suggestions = suggestions + @suggestions, comments = comments + @comments
    WHERE translation_id = @id`),
}));

/** The unit's share of its translation's statistics (read it before and after changing the unit). */
export async function unitStatsFacts(tx: Tx, unitId: number): Promise<UnitStatsFacts | undefined> {
  return (await sql(tx).unitFacts.get(unitId)) as UnitStatsFacts | undefined;
}

/**
 * Moves a translation's statistics by `delta` (`statsDelta` of one unit's facts before and after its change; call
 * inside a transaction) instead of counting every unit again as refreshStats does; the last change is read again
 * (unless `lastChange: false`: a check that changed is no change of the translation's). Falls back to refreshStats
 * when the translation has no statistics yet.
 */
export async function addStatsDelta(tx: Tx, translationId: number, delta: StatsDelta, opts: { lastChange?: boolean } = {}): Promise<void> {
  if ((await sql(tx).delta.run({ ...delta, id: translationId })).changes === 0) {
    await refreshStats(tx, [translationId]);
    return;
  }
  if (opts.lastChange !== false) await refreshLastChange(tx, translationId);
}

async function refreshLastChange(tx: Tx, id: number): Promise<void> {
  const { last, recent, setLast } = sql(tx);
  const row = (await last.get(id)) as { timestamp: string; author_id: number | null } | undefined;
  if (row) {
    const since = new Date(Date.parse(row.timestamp) - SIX_HOURS_MS).toISOString();
    await setLast.run(row.timestamp, row.author_id, await recent.get(id, since), id);
  } else {
    await setLast.run(null, null, 0, id);
  }
}

/** Recomputes the statistics of these translations from their units and changes (call inside a transaction). */
export async function refreshStats(tx: Tx, translationIds: Iterable<number>): Promise<void> {
  const { counts } = sql(tx);
  for (const id of translationIds) {
    await counts.run({ id });
    await refreshLastChange(tx, id);
  }
}

export async function getStats(tx: Tx, translationId: number): Promise<TranslationStatsRow | undefined> {
  return (await sql(tx).get.get(translationId)) as TranslationStatsRow | undefined;
}
