// XPath normalize-space() as the XLIFF readers apply it: the same text as its definition (runs collapsed, ends trimmed) for any string.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeSpace } from './text.js';

/** normalize-space() as XPath defines it: each run of XML whitespace one space, and none at either end. */
function byDefinition(s: string): string {
  return s.replace(/[\t\n\r ]+/g, ' ').replace(/^ | $/g, '');
}

describe('normalizeSpace', () => {
  it.each([
    ['', ''],
    [' ', ''],
    ['\n\t \r', ''],
    ['Save', 'Save'],
    ['Save now', 'Save now'],
    [' Save', 'Save'],
    ['Save ', 'Save'],
    ['Last  Days', 'Last Days'],
    ['By , this is  per year or  per month', 'By , this is per year or per month'],
    ['\n        Hello\n        world\n      ', 'Hello world'],
    ['a\tb', 'a b'],
    ['a \n b', 'a b'],
    ['a\u00a0 b', 'a\u00a0 b'],
    ['  a  ', 'a'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeSpace(input)).toBe(expected);
    expect(byDefinition(input)).toBe(expected);
  });

  it('gives what its definition gives for any string of words, XML whitespace and other spaces', () => {
    const piece = fc.constantFrom(' ', '  ', '\t', '\n', '\r', '\r\n', 'a', 'bc', 'ü', '中', '\u00a0', '\u2003', '\v');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => {
        const s = pieces.join('');
        expect(normalizeSpace(s)).toBe(byDefinition(s));
      }),
      { numRuns: 3000 },
    );
  });
});
