// A translation's statistics as sums over its units: what one unit adds to them, and what a change of it moves.
import { State } from './unit.js';

/** What one unit adds to its translation's statistics. */
export interface UnitStatsFacts {
  state: number;
  num_words: number;
  num_chars: number;
  failing: number;
  /** 1 when the unit has a suggestion. */
  suggestion: number;
  /** 1 when the unit (or its source string) has an unresolved comment. */
  comment: number;
}

/** How much each counter of a translation's statistics moves (strings, words, characters of each bucket). */
export type StatsDelta = Record<
  `${'total' | 'translated' | 'fuzzy' | 'approved' | 'readonly'}${'' | '_words' | '_chars'}` | 'failing' | 'failing_words' | 'suggestions' | 'comments',
  number
>;

// the totals too: a unit's words and characters change with its source (a monolingual template's edited)
const BUCKETS: readonly [name: 'total' | 'translated' | 'fuzzy' | 'approved' | 'readonly', holds: (state: number) => boolean][] = [
  ['total', () => true],
  ['translated', (s) => s >= State.TRANSLATED],
  ['fuzzy', (s) => s === State.FUZZY],
  ['approved', (s) => s === State.APPROVED],
  ['readonly', (s) => s === State.READONLY],
];

/**
 * What a unit that changed from `before` to `after` moves in its translation's statistics.
 * @example statsDelta({ state: 10, … }, { state: 20, … }).fuzzy // -1
 */
export function statsDelta(before: UnitStatsFacts, after: UnitStatsFacts): StatsDelta {
  const delta = {} as StatsDelta;
  for (const [name, holds] of BUCKETS) {
    const was = holds(before.state);
    const is = holds(after.state);
    delta[name] = Number(is) - Number(was);
    delta[`${name}_words`] = (is ? after.num_words : 0) - (was ? before.num_words : 0);
    delta[`${name}_chars`] = (is ? after.num_chars : 0) - (was ? before.num_chars : 0);
  }
  delta.failing = after.failing - before.failing;
  delta.failing_words = (after.failing ? after.num_words : 0) - (before.failing ? before.num_words : 0);
  delta.suggestions = after.suggestion - before.suggestion;
  delta.comments = after.comment - before.comment;
  return delta;
}
