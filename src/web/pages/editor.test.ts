// The labels of a plural string's fields in the editor: the CLDR name of each form and numbers that take it.
import { describe, expect, it } from 'vitest';
import { translationPlural } from '../../languages/translation-plural.js';
import { pluralLabels } from './editor.js';

/** The labels of a translation whose plural is the language's (no file rule, no format tags). */
function labels(code: string, number: number, formula: string): string[] {
  return pluralLabels(code, translationPlural(code, { number, formula }, null, null));
}

describe('plural labels', () => {
  it('ends the examples with an ellipsis only when the form takes more numbers than it shows', () => {
    expect(labels('de', 2, 'n != 1')).toEqual(['one: 1', 'other: 0, 2, 3…']);
    expect(labels('cs', 3, '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2')).toEqual(['one: 1', 'few: 2, 3, 4', 'other: 0, 5, 6…']);
    expect(labels('ru', 3, '(n%10==1 && n%100!=11) ? 0 : ((n%10>=2 && n%10<=4 && (n%100<12 || n%100>14)) ? 1 : 2)')).toEqual([
      'one: 1, 21, 31…',
      'few: 2, 3, 4…',
      'many: 0, 5, 6…',
    ]);
  });

  it('names a file’s own forms from its formula, a form no whole number takes `other`, and a format’s forms by their tags', () => {
    const ru = translationPlural(
      'ru',
      { number: 3, formula: 'n%10==1 && n%100!=11 ? 0 : 1' },
      {
        number: 4,
        formula:
          '(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : n%10==0 || (n%10>=5 && n%10<=9) || (n%100>=11 && n%100<=14)? 2 : 3)',
      },
      null,
    );
    expect(pluralLabels('ru', ru)).toEqual(['one: 1, 21, 31…', 'few: 2, 3, 4…', 'many: 0, 5, 6…', 'other']);
    const stringsdict = translationPlural('cs', { number: 3, formula: 'n' }, null, ['zero', 'one', 'few', 'other']);
    expect(pluralLabels('cs', stringsdict)).toEqual(['zero: 0', 'one: 1', 'few: 2, 3, 4', 'other: 5, 6, 7…']);
    const android = translationPlural('fr', { number: 2, formula: 'n > 1' }, null, ['one', 'many', 'other']);
    expect(pluralLabels('fr', android)).toEqual(['one: 0, 1', 'many: 1000000, 2000000, 3000000…', 'other: 2, 3, 4…']);
  });
});
