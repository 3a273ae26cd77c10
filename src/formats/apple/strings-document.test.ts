// The .strings reader's key and value stripping by offsets: the same strings as the toolkit's strip chain it stands for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pyLstrip, pyRstrip, stripChars } from '../python-text.js';
import { keyStrip, valueStrip } from './strings-document.js';

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
