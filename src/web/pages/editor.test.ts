// The labels of a plural string's fields in the editor: the CLDR name of each form and numbers that take it.
import { describe, expect, it } from 'vitest';
import type { CatalogLanguage } from '../../store/index.js';
import { pluralLabels, tagLabels } from './editor.js';

function language(code: string, pluralNumber: number, pluralFormula: string): CatalogLanguage {
  return { id: 1, code, name: code, direction: 'ltr', population: 0, pluralNumber, pluralFormula, pluralType: 0, pluralSource: 0, aliases: [] };
}

describe('plural labels', () => {
  it('ends the examples with an ellipsis only when the form takes more numbers than it shows', () => {
    expect(pluralLabels(language('de', 2, 'n != 1'))).toEqual(['one: 1', 'other: 0, 2, 3…']);
    expect(pluralLabels(language('cs', 3, '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2'))).toEqual(['one: 1', 'few: 2, 3, 4', 'other: 0, 5, 6…']);
    expect(pluralLabels(language('ru', 3, '(n%10==1 && n%100!=11) ? 0 : ((n%10>=2 && n%10<=4 && (n%100<12 || n%100>14)) ? 1 : 2)'))).toEqual([
      'one: 1, 21, 31…',
      'few: 2, 3, 4…',
      'many: 0, 5, 6…',
    ]);
  });

  it('names the forms a file format decides by their CLDR categories, .stringsdict’s zero taking 0', () => {
    expect(tagLabels(['zero', 'one', 'other'], 'de')).toEqual(['zero: 0', 'one: 1', 'other: 2, 3, 4…']);
    expect(tagLabels(['zero', 'one', 'few', 'other'], 'cs')).toEqual(['zero: 0', 'one: 1', 'few: 2, 3, 4', 'other: 5, 6, 7…']);
    // Android's Hebrew (CLDR 42: no `many`) and Arabic, which has its own zero
    expect(tagLabels(['one', 'two', 'other'], 'he')).toEqual(['one: 1', 'two: 2', 'other: 0, 3, 4…']);
    expect(tagLabels(['zero', 'one', 'two', 'few', 'many', 'other'], 'ar-rLY')[0]).toBe('zero: 0');
  });
});
