// The API's building blocks on their own: the JSON writer, URL encoding, the path router, timestamps.
import { describe, expect, it } from 'vitest';
import { calculateHash, checksumToHash } from '../domain/hash.js';
import { parseTimestamp } from './handlers/changes.js';
import { JsonBytes, OneDecimal, RawJson, toJson } from './json.js';
import { createRouter } from './router.js';
import { iso } from './serializers/common.js';
import { checksumOf } from './serializers/unit.js';
import { Urls, encodeQuery, quotePlus, seg } from './urls.js';

describe('toJson', () => {
  it('writes BigInt exactly, where JSON.stringify cannot', () => {
    const big = -4101198283576545269n;
    expect(toJson({ id_hash: big, n: 2n ** 63n - 1n })).toBe('{"id_hash":-4101198283576545269,"n":9223372036854775807}');
    expect(() => JSON.stringify({ big })).toThrow();
  });

  it('matches JSON.stringify on plain values, leaving undefined properties out', () => {
    const value = { a: 'x"\n\u00e9', b: [1, 2.5, null, true, { c: [] }], d: undefined, e: {} };
    expect(toJson(value)).toBe(JSON.stringify(value));
  });

  it('writes one-decimal numbers, raw JSON, and escapes U+2028/U+2029 as DRF does', () => {
    expect(toJson([new OneDecimal(100), new OneDecimal(33.3), new OneDecimal(0)])).toBe('[100.0,33.3,0.0]');
    expect(toJson({ raw: new RawJson('{"x":1}') })).toBe('{"raw":{"x":1}}');
    expect(toJson('a\u2028b\u2029')).toBe('"a\\u2028b\\u2029"');
  });
});

describe('JsonBytes', () => {
  it('writes text as UTF-8 through its growths, whatever the characters', () => {
    const pieces = ['{"a":', toJson('Grüße, 你好 😀 \u2028'), ',"b":"', 'x'.repeat(5000), '","c":"Привет"}'];
    const out = new JsonBytes(4);
    for (const piece of pieces) out.text(piece);
    const bytes = out.bytes();
    expect(bytes.equals(Buffer.from(pieces.join('')))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8')).a).toBe('Grüße, 你好 😀 \u2028');
    // a kept answer holds little spare room (or a slice of Node's shared pool, for a small one)
    expect(bytes.buffer.byteLength).toBeLessThanOrEqual(Math.max(8192, (bytes.length * 9) / 8));
  });

  it('keeps each answer its own bytes: writers one after the other, at once, and past the shared buffer', () => {
    const first = new JsonBytes();
    first.text('"first"');
    const during = new JsonBytes();
    during.text('"during"');
    const firstBytes = first.bytes();
    const after = new JsonBytes();
    after.text(`"${'y'.repeat(300 * 1024)}"`);
    const afterBytes = after.bytes();
    const again = new JsonBytes();
    again.text('"again"');
    const againBytes = again.bytes();
    expect([firstBytes, during.bytes(), againBytes].map((b) => b.toString())).toEqual(['"first"', '"during"', '"again"']);
    expect(afterBytes.length).toBe(300 * 1024 + 2);
    expect(afterBytes.every((b, i) => b === (i === 0 || i === afterBytes.length - 1 ? 0x22 : 0x79))).toBe(true);
    // a writer used after its bytes were taken writes into no one else's answer
    const next = new JsonBytes();
    next.text('"next"');
    again.text('"late"');
    expect(next.bytes().toString()).toBe('"next"');
  });
});

describe('URLs', () => {
  it("encodes query values as Python's quote_plus and sorts parameters by key", () => {
    expect(quotePlus("state:<translated it's (x)*!")).toBe('state%3A%3Ctranslated+it%27s+%28x%29%2A%21');
    expect(
      encodeQuery([
        ['q', 'a b'],
        ['format', 'api'],
        ['action', '2'],
        ['page', '2'],
        ['action', '5'],
      ]),
    ).toBe('action=2&action=5&format=api&page=2&q=a+b');
  });

  it('keeps @ readable in path segments and carries format into API and web URLs', () => {
    expect(seg('ca@valencia')).toBe('ca@valencia');
    expect(seg('a/b c')).toBe('a%2Fb%20c');
    const urls = new Urls('http://h:1', 'https://site.example/', 'api');
    expect(urls.api('units/1/')).toBe('http://h:1/api/units/1/?format=api');
    expect(urls.web('translate/p/c/de/', 'checksum=00ff')).toBe('https://site.example/translate/p/c/de/?checksum=00ff&format=api');
    expect(new Urls('http://h:1', '', null).web('projects/p/')).toBe('http://h:1/projects/p/');
  });
});

describe('createRouter', () => {
  const router = createRouter([
    { path: '/api/' },
    { path: '/api/units/' },
    { path: '/api/units/{id}/' },
    { path: '/api/translations/{project}/{component}/{language}/' },
    { path: '/api/translations/{project}/{component}/{language}/units/' },
  ]);

  it('matches templates and decodes parameters', () => {
    expect(router.match('/api/units/42/')).toEqual({ route: { path: '/api/units/{id}/' }, params: { id: '42' } });
    expect(router.match('/api/translations/p/c/pt_BR/units/')?.params).toEqual({ project: 'p', component: 'c', language: 'pt_BR' });
    expect(router.match('/api/translations/p/c%2Fd/sr%40latin/')?.params).toEqual({ project: 'p', component: 'c/d', language: 'sr@latin' });
    expect(router.match('/api/units/')?.route.path).toBe('/api/units/');
  });

  it('matches nothing without the trailing slash, with empty or malformed segments', () => {
    expect(router.match('/api/units/42')).toBeUndefined();
    expect(router.match('/api/units//')).toBeUndefined();
    expect(router.match('/api/units/%E0%A4%A/')).toBeUndefined();
    expect(router.match('/api/translations/p/c/')).toBeUndefined();
  });
});

describe('timestamps and checksums', () => {
  it('writes stored times with fractional seconds', () => {
    expect(iso('2025-03-01T10:00:00.000Z')).toBe('2025-03-01T10:00:00.000Z');
    expect(iso('2025-03-01T10:00:00Z')).toBe('2025-03-01T10:00:00.000Z');
    expect(iso('2025-03-01T10:00:00+02:00')).toBe('2025-03-01T08:00:00.000Z');
    expect(iso(null)).toBeNull();
  });

  it('reads filter times as UTC unless a zone is given', () => {
    expect(parseTimestamp('2025-03-01')).toBe('2025-03-01T00:00:00.000Z');
    expect(parseTimestamp('2025-03-01T10:00')).toBe('2025-03-01T10:00:00.000Z');
    expect(parseTimestamp('2025-03-01 10:00:00+0200')).toBe('2025-03-01T08:00:00.000Z');
    expect(parseTimestamp('2025-03-01T10:00:00.5z')).toBe('2025-03-01T10:00:00.500Z');
    expect(parseTimestamp('yesterday')).toBeNull();
    expect(parseTimestamp('2025-13-40')).toBeNull();
  });

  it("pads the checksum to Weblate's 16 hex digits", () => {
    // Weblate's test vector: calculate_checksum("Message") == "f5351ff85ab23173"
    expect(checksumOf(calculateHash('Message'))).toBe('f5351ff85ab23173');
    const small = -(2n ** 63n) + 255n;
    expect(checksumOf(small)).toBe('00000000000000ff');
    expect(checksumToHash(checksumOf(small))).toBe(small);
  });
});
