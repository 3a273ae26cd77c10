// Per-translation statistics: counts from units, last change from content changes; read by the API.

import { ACTIONS_CONTENT } from '../domain/actions.js';
import type { StatsDelta, UnitStatsFacts } from '../domain/statistics.js';
import type { BulkColumn, Tx } from './db.js';
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
/** The statistics columns a unit's share moves (the rest are the recent changes). */
export const DELTA_NAMES = [
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
] as const satisfies readonly (keyof StatsDelta)[];
const DELTA_COLUMNS: readonly BulkColumn[] = [['id', 'bigint'], ...DELTA_NAMES.map((n): BulkColumn => [n, 'bigint'])];
const LAST_COLUMNS: readonly BulkColumn[] = [
  ['id', 'bigint'],
  ['last_change', 'text'],
  ['author_id', 'bigint'],
  ['since', 'text'],
];

/** The shares of the units whose ids `ids` (a subquery or `?`) holds. */
const unitFacts = (ids: string) =>
  `SELECT units.id, state, num_words, num_chars, ${FAILING} AS failing, ${HAS_SUGGESTION} AS suggestion, ${hasComment('t.component_id')} AS comment
   FROM units JOIN translations t ON t.id = units.translation_id WHERE units.id IN (${ids})`;

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
  get: tx.prepare('SELECT * FROM translation_stats WHERE translation_id = ?'),
  // the same for several units and translations at once: a statement each, however many units an edit touched
  // (one unit or translation through `?`: SQLite reads a JSON parameter's rows at a cost a single edit notices)
  unitFacts: tx.prepare(unitFacts('?')),
  unitFactsOf: tx.prepare(unitFacts(tx.dialect.idsOfJson)),
  delta: tx.prepare(`UPDATE translation_stats SET ${DELTA_NAMES.map((n) => `${n} = ${n} + ?`).join(', ')} WHERE translation_id = ? RETURNING translation_id`),
  deltas: tx.prepare(
    `UPDATE translation_stats SET ${DELTA_NAMES.map((n) => `${n} = translation_stats.${n} + d.${n}`).join(', ')}
     FROM (${tx.dialect.rowsOfJson(DELTA_COLUMNS)}) AS d WHERE translation_stats.translation_id = d.id RETURNING translation_stats.translation_id`,
  ),
  lastOf: tx.prepare(
    `SELECT t.id,
       (SELECT c.timestamp FROM changes c WHERE c.translation_id = t.id AND c.action IN (${CONTENT}) ORDER BY c.timestamp DESC, c.id DESC LIMIT 1) AS timestamp,
       (SELECT c.author_id FROM changes c WHERE c.translation_id = t.id AND c.action IN (${CONTENT}) ORDER BY c.timestamp DESC, c.id DESC LIMIT 1) AS author_id
     FROM translations t WHERE t.id IN (${tx.dialect.idsOfJson})`,
  ),
  setLastOf: tx.prepare(
    `UPDATE translation_stats SET last_change = d.last_change, last_author_id = d.author_id,
       recent_changes = CASE WHEN d.last_change IS NULL THEN 0 ELSE
         (SELECT count(*) FROM changes c WHERE c.translation_id = d.id AND c.action IN (${CONTENT}) AND c.timestamp > d.since) END
     FROM (${tx.dialect.rowsOfJson(LAST_COLUMNS)}) AS d WHERE translation_stats.translation_id = d.id`,
  ),
}));

/** The shares of several units by id (units gone left out): unitStatsFacts in one statement. */
export async function unitStatsFactsOf(tx: Tx, unitIds: readonly number[]): Promise<Map<number, UnitStatsFacts>> {
  if (unitIds.length === 0) return new Map();
  const { unitFacts, unitFactsOf } = sql(tx);
  const rows = (await (unitIds.length === 1 ? unitFacts.all(unitIds[0]) : unitFactsOf.all(JSON.stringify(unitIds)))) as (UnitStatsFacts & { id: number })[];
  return new Map(rows.map(({ id, ...facts }) => [Number(id), facts]));
}

/**
 * addStatsDelta for several translations at once (one statement for the deltas, two for the last changes unless
 * `lastChange: false`, the last changes' read sent with the deltas: two round trips on PostgreSQL); a translation
 * without statistics yet is counted again.
 */
export async function addStatsDeltas(tx: Tx, deltas: ReadonlyMap<number, StatsDelta>, opts: { lastChange?: boolean } = {}): Promise<void> {
  if (deltas.size === 0) return;
  const rows = [...deltas].map(([id, d]) => [id, ...DELTA_NAMES.map((n) => d[n])]);
  const { delta, deltas: deltasOf } = sql(tx);
  const one = rows.length === 1 ? rows[0]! : undefined;
  const [movedRows, lasts] = await Promise.all([
    one ? delta.all(...one.slice(1), one[0]) : deltasOf.all(JSON.stringify(rows)),
    opts.lastChange !== false ? lastChangesOf(tx, [...deltas.keys()]) : undefined,
  ]);
  const moved = new Set((movedRows as { translation_id: number }[]).map((r) => Number(r.translation_id)));
  const missing = [...deltas.keys()].filter((id) => !moved.has(id));
  await Promise.all([
    missing.length > 0 ? refreshStats(tx, missing) : undefined,
    lasts && moved.size > 0
      ? setLastChanges(
          tx,
          lasts.filter((l) => moved.has(l.id)),
        )
      : undefined,
  ]);
}

/** A translation's last content change and where its recent changes start (six hours before it). */
interface LastChange {
  id: number;
  timestamp: string | null;
  authorId: number | null;
  since: string | null;
}

/** The last content change of each of these translations, in one statement. */
async function lastChangesOf(tx: Tx, ids: readonly number[]): Promise<LastChange[]> {
  const rows = (await sql(tx).lastOf.all(JSON.stringify(ids))) as { id: number; timestamp: string | null; author_id: number | null }[];
  return rows.map((r) => ({
    id: Number(r.id),
    timestamp: r.timestamp,
    authorId: r.author_id === null ? null : Number(r.author_id),
    since: r.timestamp === null ? null : new Date(Date.parse(r.timestamp) - SIX_HOURS_MS).toISOString(),
  }));
}

/** Stores the translations' last changes (lastChangesOf's) and counts their recent changes, in one statement. */
async function setLastChanges(tx: Tx, lasts: readonly LastChange[]): Promise<void> {
  if (lasts.length === 0) return;
  await sql(tx).setLastOf.run(JSON.stringify(lasts.map((l) => [l.id, l.timestamp, l.authorId, l.since])));
}

/** Recomputes the statistics of these translations from their units and changes (call inside a transaction). */
export async function refreshStats(tx: Tx, translationIds: Iterable<number>): Promise<void> {
  const ids = [...translationIds];
  if (ids.length === 0) return;
  const { counts } = sql(tx);
  // the counts and the last changes' read need no answer of each other: sent together, then the last changes written
  const [, lasts] = await Promise.all([Promise.all(ids.map((id) => counts.run({ id }))), lastChangesOf(tx, ids)]);
  await setLastChanges(tx, lasts);
}

export async function getStats(tx: Tx, translationId: number): Promise<TranslationStatsRow | undefined> {
  return (await sql(tx).get.get(translationId)) as TranslationStatsRow | undefined;
}
