import { describe, expect, it } from 'vitest';
import { pluralSourceForms } from './plurals.js';

const english = { number: 2, formula: 'n != 1' };
const czech = { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' };
const french = { number: 2, formula: 'n > 1' };
const arabic = { number: 6, formula: 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5' };

describe('the source form an engine translates for each plural form', () => {
  it('maps same plurals form to form and one form to the last', () => {
    expect(pluralSourceForms(english, { number: 2, formula: '(n != 1)' })).toEqual([0, 1]);
    expect(pluralSourceForms(english, { number: 1, formula: '0' })).toEqual([1]);
  });
  it("takes the singular for a form of one number, the plural for the last, none for a middle form of many (Weblate's mapper)", () => {
    expect(pluralSourceForms(english, czech)).toEqual([0, null, 1]);
    expect(pluralSourceForms(czech, english)).toEqual([0, 2]);
    // zero and two cover one number each, in the source's plural
    expect(pluralSourceForms(english, arabic)).toEqual([1, 0, 1, null, null, 1]);
  });
  it("takes a form of just 0 and 1 as the singular (French's)", () => {
    expect(pluralSourceForms(english, french)).toEqual([0, 1]);
  });
});
