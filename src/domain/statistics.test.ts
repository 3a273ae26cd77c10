// What a unit's change moves in its translation's statistics.
import { describe, expect, it } from 'vitest';
import { type UnitStatsFacts, statsDelta } from './statistics.js';
import { State } from './unit.js';

const unit = (facts: Partial<UnitStatsFacts>): UnitStatsFacts => ({
  state: State.EMPTY,
  num_words: 3,
  num_chars: 15,
  failing: 0,
  suggestion: 0,
  comment: 0,
  ...facts,
});

describe('statsDelta', () => {
  it('moves a string, its words and characters from one bucket to the next', () => {
    const d = statsDelta(unit({ state: State.FUZZY }), unit({ state: State.TRANSLATED }));
    expect(d).toMatchObject({ fuzzy: -1, fuzzy_words: -3, fuzzy_chars: -15, translated: 1, translated_words: 3, translated_chars: 15, approved: 0 });
  });

  it('counts an approved string as translated and approved, and the words it had before and has after', () => {
    const d = statsDelta(unit({ state: State.TRANSLATED, num_words: 2 }), unit({ state: State.APPROVED, num_words: 5 }));
    expect(d).toMatchObject({ translated: 0, translated_words: 3, approved: 1, approved_words: 5 });
  });

  it('moves the totals by the words and characters of a source that changed, never by the string itself', () => {
    const d = statsDelta(unit({ state: State.TRANSLATED, num_words: 2, num_chars: 9 }), unit({ state: State.FUZZY, num_words: 3, num_chars: 14 }));
    expect(d).toMatchObject({ total: 0, total_words: 1, total_chars: 5, translated: -1, translated_words: -2, fuzzy: 1, fuzzy_words: 3 });
  });

  it('moves failing checks, suggestions and comments, and nothing for an unchanged unit', () => {
    expect(statsDelta(unit({ failing: 1, suggestion: 1 }), unit({ comment: 1 }))).toMatchObject({
      failing: -1,
      failing_words: -3,
      suggestions: -1,
      comments: 1,
    });
    expect(Object.values(statsDelta(unit({ state: State.READONLY }), unit({ state: State.READONLY }))).every((n) => n === 0)).toBe(true);
  });
});
