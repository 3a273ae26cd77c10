// Android's escapes read by a loop, and whitespace collapsed by fewer matches: the same values as the readings they stand for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PY_SPACE, pyLstrip, pyRstrip } from '../python-text.js';
import { decodeEscapes, decodeText, plainText } from './escape.js';

/** The reading the loop replaced: `\uXXXX` first, then every backslash and the character after it (not a line feed). */
function reference(text: string): string {
  const unicode = text.replace(/\\u([a-fA-F0-9]{4})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return unicode.replace(/\\([^\n])/g, (_m, c: string) => {
    if (c === 'n' || c === 'N') return '\n';
    if (c === 't' || c === 'T') return '\t';
    return [' ', '"', "'", '@', '?', '\\'].includes(c) ? c : '';
  });
}

describe('decodeEscapes', () => {
  it('reads escapes as the replacement did, on any mix of backslashes, escape letters and line ends', () => {
    const piece = fc.constantFrom('\\', '\\\\', 'n', 'N', 't', 'T', 'u', '00e9', ' ', '"', "'", '@', '?', 'x', '\n', '\r', 'é', '😀');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(decodeEscapes(text)).toBe(reference(text));
      }),
      { numRuns: 3000 },
    );
    expect(decodeEscapes("It\\'s \\@home\\nnow\\")).toBe("It's @home\nnow\\");
  });
});

describe('decodeText', () => {
  const piece = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u3000', '\u2028', 'a', 'é', '中', '<', '>', '"', '\\', "\\'", '\\n', 'x y');

  it('collapses whitespace as one replacement of every run of it, then strips the edges', () => {
    const run = new RegExp(`[${PY_SPACE}]+`, 'g');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        fc.pre(!text.includes('"') && !text.includes('\\'));
        expect(decodeText(text)).toBe(pyLstrip(pyRstrip(text.replace(run, ' '))));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes a text that needs no decoding as it is, and leaves any other to the decoder', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        const plain = plainText(text);
        if (plain !== null) expect(plain).toBe(decodeText(text));
      }),
      { numRuns: 3000 },
    );
    expect(plainText(' Play  ')).toBeNull();
    expect(plainText(' Play with Kodi ')).toBe('Play with Kodi');
  });
});
