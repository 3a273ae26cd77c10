import { describe, expect, it } from 'vitest';
import { calculateHash, checksumToHash, hashToChecksum, unitContentHash, unitIdHash } from './hash.js';
import { countChars, countWords } from './words.js';

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
  it('splits on every character the split by whitespace did (\\s, U+001C–U+001F, U+0085) and on no other', () => {
    const split = (form: string) =>
      form
        .trim()
        .split(/[\s\u001c-\u001f\u0085]+/u)
        .filter((t) => t !== '').length;
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      for (const form of [`a${ch}b`, `${ch}a`, `a${ch}`, ch, `${ch}${ch}`]) {
        if (countWords([form]) !== split(form)) expect([c.toString(16), form, countWords([form])]).toEqual([c.toString(16), form, split(form)]);
      }
    }
    expect(countWords(['\u3000 x\u00a0y\u2028z\ufeff😀 '])).toBe(4);
  });
  it('counts code points including plural separators', () => {
    expect(countChars(['ab', 'cd'])).toBe(6);
    expect(countChars(['😀'])).toBe(1);
  });
});

describe('calculateHash on long and non-ASCII input', () => {
  it("agrees with the package's pure-JavaScript SipHash for inputs past the reused buffer", async () => {
    const { default: fallback } = await import('siphash24/fallback.js');
    const key = new TextEncoder().encode('Weblate Sip Hash');
    // the last but one needs more than the WebAssembly module's memory holds at first (640 KiB), which then grows
    for (const text of ['ž'.repeat(5000), 'a'.repeat(20000) + '😀', `${'ж'.repeat(300_000)}x`, 'short again']) {
      const out = new Uint8Array(8);
      fallback(out, new TextEncoder().encode(text), key);
      const expected = new DataView(out.buffer).getBigUint64(0, true) - (1n << 63n);
      expect(calculateHash(text)).toBe(expected);
    }
  });
});
