// Replacing with user patterns: the required literal of a pattern, and every match replaced as JavaScript's own
// engine replaces it (the oracle for patterns both engines read alike), empty matches included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileUserRegex, compileUserReplacer, requiredLiteral } from './regex.js';

describe('compiled patterns', () => {
  it('keeps working after 20,000 compilations of the same patterns (each used to fill re2-wasm’s heap for good)', () => {
    for (let i = 0; i < 20_000; i++) {
      expect(compileUserRegex(`^Hal+o ${i % 3}$`).test(`Hallo ${i % 3}`)).toBe(true);
      compileUserReplacer('(D)atei');
    }
    expect(compileUserRegex('a+').test('baa')).toBe(true);
  });
});

describe('requiredLiteral', () => {
  it.each([
    ['(\\w+)datei', 'datei'],
    ['Datei', 'Datei'],
    ['^Hal+o$', 'Ha'],
    ['ab?cde', 'cde'],
    ['x[abc]yz{2}w', 'x'],
    ['xyz+w', 'xy'],
    ['a😀?b', 'a'],
    ['(foo|bar)baz', 'baz'],
    ['a|datei', null],
    ['(?i)datei', null],
    ['\\Qa|b\\E', null],
    ['.*', null],
    ['[a]]', ']'],
  ])('%s → %s', (pattern, literal) => {
    expect(requiredLiteral(pattern)).toBe(literal);
  });

  it('returns on patterns that match the empty string (re2-wasm’s own global replace never does)', () => {
    expect(compileUserReplacer('x*').replace('a😀b', '-')).toBe('-a-😀-b-');
    expect(compileUserReplacer('^').replace('ab', '>')).toBe('>ab');
    expect(compileUserReplacer('(D)(a)?tei').replace('Datei Dtei', '$2$1$$')).toBe('aD$ D$');
  });

  it('replaces every match as JavaScript does, whatever the pattern and text', () => {
    const atom = fc.constantFrom('a', 'b', 'ä', '.', '\\w', '\\d', '[ab]', '[^a]', '(a|b)', '(ab)', 'x', ' ', '^', '$', '😀');
    const quantifier = fc.constantFrom('', '', '', '?', '*', '+', '{2}', '{1,2}');
    const pattern = fc.array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 6 }).map((parts) => parts.map(([a, q]) => a + q).join(''));
    const alternation = fc.tuple(pattern, fc.option(pattern)).map(([a, b]) => (b === null ? a : `${a}|${b}`));
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'ä', 'x', ' ', '1', 'ab', '😀'), maxLength: 12 });
    fc.assert(
      fc.property(alternation, text, (p, t) => {
        let js: RegExp;
        try {
          js = new RegExp(p, 'gu');
        } catch {
          return; // a pattern JavaScript does not take (RE2 takes `$+`): no oracle
        }
        expect(compileUserReplacer(p).replace(t, '<$&|$1>')).toBe(t.replace(js, '<$&|$1>'));
      }),
      { numRuns: 2000 },
    );
  });
});
