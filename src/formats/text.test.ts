// The formats' one UTF-8 decoder: every path (ASCII, transcoded, invalid) gives what a fatal TextDecoder gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../test/helpers/errors.js';
import { FormatParseError } from '../domain/errors.js';
import { decodeUtf8 } from './text.js';

const encoder = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

describe('decodeUtf8', () => {
  it('gives the text a fatal TextDecoder gives, BOM kept, for ASCII and for any other well-formed text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), fc.boolean(), (text, bom) => {
        const bytes = encoder.encode(bom ? `\ufeff${text}` : text);
        expect(decodeUtf8(bytes, 'f')).toBe(fatal.decode(bytes));
      }),
      { numRuns: 3000 },
    );
    // files of a megabyte, ASCII and not (Node hands strings of that size to V8 as external ones)
    for (const large of [encoder.encode(`\ufeff${'ä'.repeat(600_000)}😀`), encoder.encode('a'.repeat(1_100_000))]) {
      expect(decodeUtf8(large, 'f')).toBe(fatal.decode(large));
    }
    // a view into a larger buffer, and an empty file
    const inner = encoder.encode('xx\ufeffäb😀yy').subarray(2, 12);
    expect(decodeUtf8(inner, 'f')).toBe(fatal.decode(inner));
    expect(decodeUtf8(new Uint8Array(0), 'f')).toBe('');
  });

  it('refuses what is not UTF-8 at the first bad byte, whatever the bytes before it', () => {
    for (const [bytes, line, column, reason] of [
      [[0x61, 0x0a, 0xc3, 0xa4, 0xff], 2, 2, 'byte 0xff at byte offset 4'],
      [[0xed, 0xa0, 0x80], 1, 1, 'byte 0xed at byte offset 0'],
      [[0x61, 0xe2, 0x82], 1, 2, 'byte 0xe2 at byte offset 1'],
      [[0xc0, 0xaf], 1, 1, 'byte 0xc0 at byte offset 0'],
      [[...encoder.encode(`${'é'.repeat(150_000)}\n`), 0xff], 2, 1, 'byte 0xff at byte offset 300001'],
    ] as const) {
      const err = thrownBy(FormatParseError, () => decodeUtf8(Uint8Array.from(bytes), 'f.xml'));
      expect([err.data.line, err.data.column]).toEqual([line, column]);
      expect(err.data.reason).toContain(reason);
    }
  });
});
