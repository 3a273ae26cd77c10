import { describe, expect, it } from 'vitest';
// The unit-aware three-way merge, the message templates and the RFC 2822 dates, without git.
import { FormatParseError } from '../../src/domain/errors.js';
import { getFormat } from '../../src/formats/registry.js';
import { mergeUnits, renderTemplate, rfc2822 } from '../../src/operations/index.js';
import { demoFile } from '../helpers/sync-env.js';

const ts = getFormat('ts');
const json = getFormat('json-nested');
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const ctx = { filename: 'translations/app_de.ts', language: 'de', sourceLanguage: 'en', plurals: 2 };
const base = demoFile('app/translations/app_de.ts');
const quitLocal = base.replace('<translation type="unfinished"></translation>', '<translation>Beenden</translation>');

describe('mergeUnits', () => {
  it('takes each side where only it changed a unit, starting from upstream bytes', () => {
    const upstream = base.replace('<translation>&amp;Datei</translation>', '<translation>&amp;Datei…</translation>');
    const merged = mergeUnits(ts, ctx, enc(base), enc(upstream), enc(quitLocal))!;
    expect(merged.conflicts).toEqual([]);
    expect(dec(merged.bytes)).toBe(upstream.replace('<translation type="unfinished"></translation>', '<translation>Beenden</translation>'));
  });

  it('both sides changed a unit alike: no conflict, upstream bytes as they are', () => {
    const merged = mergeUnits(ts, ctx, enc(base), enc(quitLocal), enc(quitLocal))!;
    expect(merged.conflicts).toEqual([]);
    expect(dec(merged.bytes)).toBe(quitLocal);
  });

  it('both sides changed a unit differently: upstream wins in the file and the local text is the conflict', () => {
    const upstream = base.replace('<translation type="unfinished"></translation>', '<translation>Verlassen</translation>');
    const merged = mergeUnits(ts, ctx, enc(base), enc(upstream), enc(quitLocal))!;
    expect(dec(merged.bytes)).toBe(upstream);
    expect(merged.conflicts).toMatchObject([{ context: 'MainWindow', local: ['Beenden'], localState: 20, upstream: ['Verlassen'] }]);
  });

  it('a state change alone is a change (fuzzy → translated keeps the text)', () => {
    const local = base.replace('<translation type="unfinished">Über %1</translation>', '<translation>Über %1</translation>');
    const merged = mergeUnits(ts, ctx, enc(base), enc(base), enc(local))!;
    expect(dec(merged.bytes)).toBe(local);
  });

  it('a unit upstream removed that the local side changed is reported with upstream null', () => {
    const start = base.indexOf('    <message>\n        <location filename="../src/mainwindow.cpp" line="102"/>');
    const end = base.indexOf('</message>', start) + '</message>\n'.length;
    const upstream = base.slice(0, start) + base.slice(end);
    const merged = mergeUnits(ts, ctx, enc(base), enc(upstream), enc(quitLocal))!;
    expect(dec(merged.bytes)).toBe(upstream);
    expect(merged.conflicts).toMatchObject([{ local: ['Beenden'], upstream: null }]);
  });

  it('monolingual JSON: merges by key with the template', () => {
    const template = json.parse(enc(demoFile('web/locales/en.json')), { filename: 'locales/en.json', language: 'en', sourceLanguage: 'en' });
    const jctx = { filename: 'locales/de.json', language: 'de', sourceLanguage: 'en', plurals: 2, template };
    const b = demoFile('web/locales/de.json');
    const upstream = b.replace('"Öffnen"', '"Öffnen…"');
    const local = b.replace('"Speichern"', '"Sichern"');
    const merged = mergeUnits(json, jctx, enc(b), enc(upstream), enc(local))!;
    expect(merged.conflicts).toEqual([]);
    expect(JSON.parse(dec(merged.bytes)).menu).toEqual({ open: 'Öffnen…', save: 'Sichern' });
  });

  it('returns null when the local or base side does not parse (a conflict of the whole file)', () => {
    expect(mergeUnits(ts, ctx, enc('<TS><context>'), enc(base), enc(quitLocal))).toBeNull();
    expect(mergeUnits(ts, ctx, enc(base), enc(base), enc('<TS><context>'))).toBeNull();
  });

  it("throws upstream's parse error, naming the file and position, when upstream's side does not parse", () => {
    const error = (() => {
      try {
        mergeUnits(ts, ctx, enc(base), enc('<TS><context>'), enc(quitLocal));
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(FormatParseError);
    expect((error as FormatParseError).data).toMatchObject({ filename: ctx.filename, line: 1 });
    expect((error as FormatParseError).message).toMatch(/upstream/);
  });
});

describe('renderTemplate and rfc2822', () => {
  it('fills nested names, blanks unknown ones, applies Django text filters and ignores the others', () => {
    const values = { language_name: 'German', stats: { translated_percent: 80 } };
    expect(renderTemplate('{{ language_name }} {{stats.translated_percent}}% {{ nope }}|{{ language_name|upper }}|{{ language_name|safe }}', values)).toBe(
      'German 80% |GERMAN|German',
    );
  });

  it('prints git dates in their own zone', () => {
    expect(rfc2822(1416397824, -60)).toBe('Wed, 19 Nov 2014 12:50:24 +0100');
    expect(rfc2822(1700000000, 0)).toBe('Tue, 14 Nov 2023 22:13:20 +0000');
    expect(rfc2822(1700000000, 330)).toBe('Tue, 14 Nov 2023 16:43:20 -0530');
  });
});
