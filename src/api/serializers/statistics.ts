// Statistics records: the counts and percentages of a translation, component translation, project, language.
import { percent } from '../../domain/percent.js';
import { type Field, Serializer, t } from '../serializer.js';
import type { Counts } from '../statistics.js';
import { type Ctx, iso } from './common.js';

/** What a statistics record is written from. */
export interface StatisticsRecord {
  counts: Counts;
  /** Review enabled: "complete" then means approved, and an empty object is 0 % translated. */
  review: boolean;
  name: string;
  /** Web page of the object. */
  url: string;
  /** Translation and project-language records only. */
  code?: string;
  translateUrl?: string;
}

type F = Field<StatisticsRecord, Ctx>;
const n = (name: keyof Counts): F => ({ name, type: t.integer, get: (r) => r.counts[name] });
const p = (name: string, count: keyof Counts, total: 'total' | 'total_words' | 'total_chars', complete?: 'translated' | 'approved'): F => ({
  name,
  type: t.percent,
  get: (r) => {
    const zeroComplete = complete === 'translated' ? !r.review : complete === 'approved' ? r.review : false;
    return percent(r.counts[count] as number, r.counts[total], zeroComplete);
  },
});

const COUNTS: F[] = [
  n('total'),
  n('total_words'),
  n('total_chars'),
  { name: 'last_change', type: t.nullable(t.timestamp), get: (r) => iso(r.counts.last_change) },
  n('recent_changes'),
  n('translated'),
  n('translated_words'),
  p('translated_percent', 'translated', 'total', 'translated'),
  p('translated_words_percent', 'translated_words', 'total_words', 'translated'),
  n('translated_chars'),
  p('translated_chars_percent', 'translated_chars', 'total_chars', 'translated'),
  n('fuzzy'),
  p('fuzzy_percent', 'fuzzy', 'total'),
  n('fuzzy_words'),
  p('fuzzy_words_percent', 'fuzzy_words', 'total_words'),
  n('fuzzy_chars'),
  p('fuzzy_chars_percent', 'fuzzy_chars', 'total_chars'),
  n('failing'),
  p('failing_percent', 'failing', 'total'),
  n('approved'),
  p('approved_percent', 'approved', 'total', 'approved'),
  n('approved_words'),
  p('approved_words_percent', 'approved_words', 'total_words', 'approved'),
  n('approved_chars'),
  p('approved_chars_percent', 'approved_chars', 'total_chars', 'approved'),
  n('readonly'),
  p('readonly_percent', 'readonly', 'total'),
  n('readonly_words'),
  p('readonly_words_percent', 'readonly_words', 'total_words'),
  n('readonly_chars'),
  p('readonly_chars_percent', 'readonly_chars', 'total_chars'),
  n('suggestions'),
  n('comments'),
];

const code: F = { name: 'code', type: t.string, get: (r) => r.code ?? '' };
const name: F = { name: 'name', type: t.string, get: (r) => r.name };
const url: F = { name: 'url', type: t.url, get: (r) => r.url };
const translateUrl: F = { name: 'translate_url', type: t.url, get: (r) => r.translateUrl ?? '' };

/** Statistics of a project or a language: `name` and `url` after the counts. */
export const statisticsSerializer = new Serializer<StatisticsRecord, Ctx>('Statistics', [...COUNTS, name, url]);

/** Statistics of one translation; `last_author` (full name or null) is read by wlc. */
export const translationStatisticsSerializer = new Serializer<StatisticsRecord, Ctx>('TranslationStatistics', [
  ...COUNTS,
  code,
  name,
  url,
  translateUrl,
  { name: 'last_author', type: t.nullable(t.string), get: (r) => r.counts.last_author },
]);

/** Statistics of one language within a project (`/api/projects/<p>/languages/`). */
export const projectLanguageStatisticsSerializer = new Serializer<StatisticsRecord, Ctx>('ProjectLanguageStatistics', [
  ...COUNTS,
  code,
  name,
  url,
  translateUrl,
]);
