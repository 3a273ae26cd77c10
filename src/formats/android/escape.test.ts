// Android's escapes read by a loop: the same values as the regular-expression replacement they stand for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEscapes } from './escape.js';

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
