// The .strings reader's key and value stripping by offsets: the same strings as the toolkit's strip chain it stands for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/helpers/errors.js';
import { FormatParseError } from '../../domain/errors.js';
import { pyLstrip, pyRstrip, stripChars } from '../python-text.js';
import { keyStrip, readStringsDocument, valueStrip } from './strings-document.js';

// Translate Toolkit's strings dialect, step by step as the reader first followed it.
function referenceKey(key: string): string {
  let newkey = stripChars(pyRstrip(key), '"', 'end');
  if (newkey.endsWith('\\')) newkey += key.slice(newkey.length, newkey.length + 1);
  return stripChars(pyLstrip(newkey), '"', 'start').replaceAll('\\"', '"');
}

function referenceValue(value: string): string {
  let newvalue = stripChars(stripChars(pyRstrip(value), ';', 'end'), '"', 'end');
  if (newvalue.endsWith('\\')) newvalue += value.slice(newvalue.length, newvalue.length + 1);
  return stripChars(pyLstrip(newvalue), '"', 'start').replaceAll('\\"', '"');
}

describe('keyStrip / valueStrip', () => {
  it('strip as the toolkit does on any mix of quotes, semicolons, backslashes and whitespace', () => {
    const piece = fc.constantFrom('"', ';', '\\', ' ', '\t', '\u00a0', '\u3000', 'a', 'é', '=', '\\"', '😀');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const text = pieces.join('');
        expect(keyStrip(text)).toBe(referenceKey(text));
        expect(valueStrip(text)).toBe(referenceValue(text));
      }),
      { numRuns: 5000 },
    );
    expect(keyStrip(' "a\\"b" ')).toBe('a"b');
    expect(valueStrip(' "x\\";  ')).toBe('x"');
  });
});

describe('readStringsDocument: quoted keys', () => {
  it('ends a key at the first quote no backslash precedes, and refuses one that never closes at the end of its line', () => {
    const doc = readStringsDocument('"a\\"b" = "c";\n"x\\\\"y" = "z";\n', 'x.strings');
    expect(doc.entries.map((e) => [e.name, e.value])).toEqual([
      ['a"b', 'c'],
      // the toolkit's quirk: a quote after an escaped backslash still counts as escaped
      ['x\\"y', 'z'],
    ]);
    const err = thrownBy(FormatParseError, () => readStringsDocument('"a" = "b";\n"abc = 1;\n', 'x.strings'));
    expect(err.data).toEqual({ filename: 'x.strings', line: 2, column: 10, reason: 'the quoted key is not closed' });
  });
});
