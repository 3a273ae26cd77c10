import { describe, expect, it } from 'vitest';
import { IdHashTable, calculateHash, checksumToHash, hashToChecksum, unitContentHash, unitIdHash, wordsOfLastHashed } from './hash.js';
import { joinPlural } from './unit.js';
import { countChars, countWords, countWordsUtf8 } from './words.js';

describe('calculateHash (Weblate test vectors)', () => {
  it.each([
    [['Message'], 8445691827737211251n],
    [['Context', 'Message'], -1602104568316855346n],
    [['Příšerně žluťoučký kůň úpěl ďábelské ódy'], -4296353750398394478n],
    [[''], 2141328909150225308n],
    [['Hello, world!\n', ''], -2012431413508206962n],
    [['Hello, world!\n', 'ctx'], 4981033190351516839n],
    [['Orangutan has %d banana.\n\x1e\x1eOrangutan has %d bananas.\n', ''], 2097404709965985808n],
    [['key.name'], -4101198283576545269n],
  ])('hash of %j', (parts, expected) => {
    expect(calculateHash(...parts)).toBe(expected);
  });

  it('converts to and from checksums', () => {
    expect(hashToChecksum(calculateHash('Message'))).toBe('f5351ff85ab23173');
    expect(hashToChecksum(calculateHash(''))).toBe('9db7874c312c839c');
    expect(hashToChecksum(94239120442185084n)).toBe('814ecdfb11e6d57c');
    expect(checksumToHash('f5351ff85ab23173')).toBe(8445691827737211251n);
    // small unsigned values keep 16 digits, as format(…, "016x") does
    expect(hashToChecksum(-(1n << 63n) + 0x4fec817bb9fa501n)).toBe('04fec817bb9fa501');
    expect(checksumToHash('04fec817bb9fa501')).toBe(-(1n << 63n) + 0x4fec817bb9fa501n);
  });

  it('builds id_hash and content_hash per Weblate', () => {
    expect(unitIdHash(false, ['Hello, world!\n'], 'ctx')).toBe(4981033190351516839n);
    expect(unitIdHash(true, ['anything'], 'key.name')).toBe(-4101198283576545269n);
    expect(unitContentHash(['Orangutan has %d banana.\n', 'Orangutan has %d bananas.\n'], '')).toBe(2097404709965985808n);
  });
});

describe('countWords / countChars', () => {
  it('counts whitespace tokens over plural forms', () => {
    expect(countWords(['Hello, world!\n'])).toBe(2);
    expect(countWords(['%d file', '%d files'])).toBe(4);
    expect(countWords(['<unused singular (hash=abc)>', '%d files'])).toBe(2);
    expect(countWords(['  '])).toBe(0);
  });
  it('counts the words of UTF-8 bytes (and of the text last hashed) as countWords counts a string', () => {
    // every whitespace character of the rule, and characters next to them or that look like them
    const spaces = [
      '\t',
      '\n',
      '\v',
      '\f',
      '\r',
      ' ',
      '\x1c',
      '\x1f',
      '\x85',
      '\xa0',
      '\u1680',
      '\u2000',
      '\u200a',
      '\u2028',
      '\u2029',
      '\u202f',
      '\u205f',
      '\u3000',
      '\ufeff',
    ];
    const others = [
      'a',
      '%d',
      'é',
      'ž',
      '中',
      '😀',
      '\u200b',
      '\u180e',
      '\ud800',
      '\udc00',
      '\x00',
      '\x7f',
      '\x84',
      '\x86',
      '\u2027',
      '\u200b',
      '\u3001',
      '\ufffd',
    ];
    const pieces = [...spaces, ...others];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const encoder = new TextEncoder();
    for (let i = 0; i < 3000; i++) {
      let text = '';
      for (let k = next() % 12; k > 0; k--) text += pieces[next() % pieces.length];
      calculateHash(text);
      expect(wordsOfLastHashed()).toBe(countWords([text]));
      // after a content hash: the source's words, not the context's (a plural separator counts as whitespace)
      const source = [text, pieces[next() % pieces.length]!];
      const contentHash = unitContentHash(source, 'a context');
      expect(wordsOfLastHashed()).toBe(countWords(source));
      expect(contentHash).toBe(calculateHash(joinPlural(source), 'a context'));
      const bytes = encoder.encode(`xx ${text}`);
      expect(countWordsUtf8(bytes, 3, bytes.length)).toBe(countWords([text]));
    }
  });

  it('counts code points including plural separators', () => {
    expect(countChars(['ab', 'cd'])).toBe(6);
    expect(countChars(['😀'])).toBe(1);
  });
});

describe('calculateHash on long and non-ASCII input', () => {
  it("agrees with the package's pure-JavaScript SipHash for inputs past the WebAssembly memory's first size", async () => {
    const { default: fallback } = await import('siphash24/fallback.js');
    const key = new TextEncoder().encode('Weblate Sip Hash');
    for (const text of ['ž'.repeat(5000), 'a'.repeat(20000) + '😀', 'short again', 'ü'.repeat(250_000), 'x', 'lone \ud800 surrogate']) {
      const out = new Uint8Array(8);
      fallback(out, new TextEncoder().encode(text), key);
      const expected = new DataView(out.buffer).getBigUint64(0, true) - (1n << 63n);
      expect(calculateHash(text)).toBe(expected);
    }
  });
});

describe('IdHashTable', () => {
  it('gives each text its calculateHash and the number kept with the first of the same hash, past its first size', () => {
    const table = new IdHashTable();
    for (let i = 0; i < 5000; i++) {
      expect(table.add(`unit ${i}`, i % 3 === 0 ? '' : 'ctx', i)).toBe(calculateHash(`unit ${i}`, i % 3 === 0 ? '' : 'ctx'));
      expect(table.earlier).toBe(-1);
    }
    expect(table.add('unit 1', 'ctx', 9999)).toBe(calculateHash('unit 1ctx'));
    expect(table.earlier).toBe(1);
    // source + context is one text, as Weblate hashes it
    table.add('unit 4', '1ctx', 9999);
    expect(table.earlier).toBe(41);
    expect(table.add('unit 0', '', 9999)).toBe(calculateHash('unit 0'));
    expect(table.earlier).toBe(0);
  });

  it('hashes a context given in two parts as the joined context, its words those of the text alone', () => {
    // short and long, ASCII and not (the short ASCII texts and contexts are written by a loop, the rest encoded), a
    // surrogate pair split between the two parts, and a text ending in a lone high surrogate
    const texts = ['', 'Save', 'Create Account', ' two  spaces\tand a tab ', 'x'.repeat(48), 'y '.repeat(30), 'Empfänger', '😀 smile', 'lone \ud83d'];
    const parts: Array<[string, string]> = [
      ['', ''],
      ['ng2.template///', '1267967133679326155'],
      ['ng2.template///', ''],
      ['', 'custom.id'],
      ['a'.repeat(49), 'b'],
      ['messages.xlf///', 'ü'],
      ['pre \ud83d', '\ude00 post'],
      ['\ude00', 'x'],
    ];
    const table = new IdHashTable();
    let value = 0;
    for (const text of texts) {
      for (const [context, end] of parts) {
        const hash = table.add(text, context, value++, end);
        expect(wordsOfLastHashed()).toBe(countWords([text]));
        expect(hash).toBe(calculateHash(text, context + end));
      }
    }
  });

  it('tells apart hashes whose upper halves are equal', () => {
    // these two share bits 32-63 of their hash (found by search)
    expect(calculateHash('unit 50048') >> 32n).toBe(calculateHash('unit 72194') >> 32n);
    const table = new IdHashTable();
    table.add('unit 50048', '', 1);
    table.add('unit 72194', '', 2);
    expect(table.earlier).toBe(-1);
    table.add('unit 72194', '', 3);
    expect(table.earlier).toBe(2);
  });
});
