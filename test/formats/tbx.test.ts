// TBX: the shared conformance suite on small fixtures, plus the glossary rules Weblate applies.
import { describe, expect, it } from 'vitest';
import { FormatParseError, FormatWriteError } from '../../src/domain/errors.js';
import { calculateHash } from '../../src/domain/hash.js';
import { State } from '../../src/domain/unit.js';
import type { FormatContext, UnitWrite } from '../../src/formats/format.js';
import { tbxFormat } from '../../src/formats/tbx/index.js';
import { thrownBy } from '../helpers/errors.js';
import { changedLines, fixture, runConformance } from './conformance.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

runConformance({
  format: 'tbx',
  cases: [
    {
      name: 'the verified notes example (formats-notes §4.5)',
      file: 'tbx/notes-example.tbx',
      language: 'cs',
      count: 4,
      units: {
        0: {
          context: 'c1',
          source: ['address bar'],
          target: ['adresní řádek'],
          state: State.TRANSLATED,
          note: 'noun',
          explanation: 'Preferred since 2020',
          idHash: -2675654185277880728n,
          numWords: 2,
        },
        1: { context: '', source: ['bookmark'], target: ['záložka'], state: State.TRANSLATED, note: 'Also used as verb', idHash: 1697728638677672281n },
        2: { context: 'c3', source: ['Weblate'], target: [''], state: State.READONLY, idHash: 2698232169898995028n },
        3: { context: 'c5', source: [''], target: ['barva'], state: State.READONLY, idHash: -5947456048599555766n },
      },
      edit: { index: 1, target: ['oblíbená položka'], maxChangedLines: 1, expectText: '<tig><term>oblíbená položka</term></tig>' },
      add: {
        write: { context: 'c9', source: ['tab'], target: ['karta'], state: State.TRANSLATED },
        // Laid out like the last entry, which is written on one line.
        expectText:
          '</termEntry>\n  <termEntry id="c9"><langSet xml:lang="en"><tig><term>tab</term></tig></langSet><langSet xml:lang="cs"><tig><term>karta</term></tig></langSet></termEntry>\n    </body>',
      },
      remove: { index: 0 },
    },
    {
      name: 'a Weblate-written glossary (4-space martif, <term/> empties, a duplicate term)',
      file: 'tbx/weblate-cs.tbx',
      language: 'cs',
      count: 5,
      units: {
        0: { context: '', source: ['Glyph'], target: [''], state: State.EMPTY, idHash: calculateHash('Glyph', '') },
        1: { source: ['volume'], target: ['objem'], state: State.TRANSLATED },
        2: { source: ['Save & close'], target: ['Uložit & zavřít'], state: State.TRANSLATED },
        3: { context: 'ctx-1', source: ['plugin'], target: [''], state: State.EMPTY, flags: 'forbidden, max-length:12' },
        4: { source: ['scene'], target: [''], state: State.EMPTY },
      },
      edit: { index: 0, target: ['Glyf'], maxChangedLines: 1, expectText: '<langSet xml:lang="cs"><tig><term>Glyf</term></tig></langSet>' },
      add: {
        write: { context: '', source: ['layout'], target: ['rozvržení <b> & co'], state: State.TRANSLATED },
        expectText: [
          '            </termEntry>',
          '            <termEntry>',
          '                <langSet xml:lang="en"><tig><term>layout</term></tig></langSet>',
          '                <langSet xml:lang="cs"><tig><term>rozvržení &lt;b&gt; &amp; co</term></tig></langSet>',
          '            </termEntry>',
          '        </body>',
        ].join('\n'),
      },
      remove: { index: 2 },
    },
    {
      name: 'a Lokalize glossary (en-US/zh-CN, synonyms, descrip, multi-line tig)',
      file: 'tbx/lokalize-zh.tbx',
      language: 'zh_CN',
      sourceLanguage: 'en_US',
      count: 3,
      units: {
        0: { context: 'kde-0', source: ['add'], target: ['添加'], state: State.TRANSLATED, note: '' },
        1: { context: 'kde-1', source: ['bookmark'], target: ['书签'], state: State.TRANSLATED },
        2: { context: 'kde-4', source: ['cancel'], target: [''], state: State.EMPTY },
      },
      edit: { index: 0, target: ['增加'], maxChangedLines: 1, expectText: '            <term>增加</term>' },
      add: {
        write: { context: 'kde-9', source: ['copy'], target: ['复制'], state: State.TRANSLATED },
        expectText: [
          '      </termEntry>',
          '      <termEntry id="kde-9">',
          '        <langSet xml:lang="en-US">',
          '          <tig>',
          '            <term>copy</term>',
          '          </tig>',
          '        </langSet>',
          '        <langSet xml:lang="zh-CN">',
          '          <tig>',
          '            <term>复制</term>',
          '          </tig>',
          '        </langSet>',
          '      </termEntry>',
          '    </body>',
        ].join('\n'),
      },
      remove: { index: 1 },
    },
    {
      name: 'TBX v3 (conceptEntry/langSec/termSec, tabs)',
      file: 'tbx/v3-es.tbx',
      language: 'es',
      count: 2,
      units: {
        0: { context: 'c1', source: ['open cluster'], target: ['cúmulo abierto'], state: State.TRANSLATED, note: 'noun' },
        1: { context: 'c2', source: ['black hole'], target: [''], state: State.EMPTY },
      },
      edit: { index: 0, target: ['cúmulo estelar abierto'], maxChangedLines: 1 },
      add: {
        write: { context: 'c7', source: ['star'], target: ['estrella'], state: State.TRANSLATED },
        expectText:
          '\t\t\t<conceptEntry id="c7">\n\t\t\t\t<langSec xml:lang="en">\n\t\t\t\t\t<termSec>\n\t\t\t\t\t\t<term>star</term>\n\t\t\t\t\t</termSec>\n\t\t\t\t</langSec>\n\t\t\t\t<langSec xml:lang="es">',
      },
      remove: { index: 0 },
    },
  ],
  create: [
    { base: null, language: 'de', count: 0, expectText: '<martif type="TBX" xml:lang="en">' },
    { base: 'tbx/weblate-cs.tbx', language: 'cs', count: 5, expectText: '<langSet xml:lang="cs"><tig><term></term></tig></langSet>' },
    { base: 'tbx/notes-example.tbx', language: 'de', count: 3 },
  ],
  bad: [
    { name: 'truncated XML', text: '<?xml version="1.0"?>\n<martif>\n<text><body>\n<termEntry>', line: 4 },
    {
      name: 'an undefined entity',
      text: '<martif><text><body>\n<termEntry><langSet xml:lang="en"><tig><term>&nbsp;</term></tig></langSet></termEntry></body></text></martif>',
      line: 2,
    },
    { name: 'a wrong root element', text: '<?xml version="1.0"?>\n<xliff version="1.2"><file/></xliff>', line: 2 },
    { name: 'non-UTF-8 bytes', text: Uint8Array.from([...encoder.encode('<martif>\n<text>caf'), 0xe9, ...encoder.encode('</text></martif>')]), line: 2 },
    { name: 'a non-UTF-8 encoding declaration', text: '<?xml version="1.0" encoding="ISO-8859-1"?>\n<martif/>', line: 1 },
    { name: 'an empty file', text: '' },
    { name: 'two root elements', text: '<martif/>\n<martif/>', line: 2 },
  ],
});

const CS: FormatContext = { filename: 'glossary/cs.tbx', language: 'cs', sourceLanguage: 'en' };

function parseText(text: string, ctx: FormatContext = CS) {
  return tbxFormat.parse(encoder.encode(text), ctx);
}

function writeText(text: string, edits: UnitWrite[], ctx: FormatContext = CS): string {
  return decoder.decode(tbxFormat.write(encoder.encode(text), edits, ctx));
}

function martif(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<martif type="TBX" xml:lang="en">\n    <text>\n        <body>\n${body}        </body>\n    </text>\n</martif>\n`;
}

describe('format tbx: reading', () => {
  it('uses only the first term of each side (synonyms are ignored)', () => {
    const store = tbxFormat.parse(fixture('tbx/lokalize-zh.tbx'), { filename: 'terms.tbx', language: 'zh-CN', sourceLanguage: 'en-US' });
    expect(store.units[1]!.source).toEqual(['bookmark']);
    expect(store.units[1]!.target).toEqual(['书签']);
  });

  it('reads every descrip but "Translation needed" as the source explanation, de-duplicated', () => {
    const store = tbxFormat.parse(fixture('tbx/lokalize-zh.tbx'), { filename: 'terms.tbx', language: 'zh_CN', sourceLanguage: 'en_US' });
    expect(store.units[0]!.sourceExplanation).toBe('动作');
    expect(store.units[1]!.sourceExplanation).toBe('名词\nA saved link to a page.');
    expect(store.units[2]!.sourceExplanation).toBe('动作');
  });

  it('matches languages case-insensitively with _ and - alike, but en never matches en-US', () => {
    const file = fixture('tbx/lokalize-zh.tbx');
    const exact = tbxFormat.parse(file, { filename: 'terms.tbx', language: 'ZH_cn', sourceLanguage: 'EN_us' });
    expect(exact.units.map((u) => u.state)).toEqual([State.TRANSLATED, State.TRANSLATED, State.EMPTY]);
    const base = tbxFormat.parse(file, { filename: 'terms.tbx', language: 'zh', sourceLanguage: 'en' });
    expect(base.units).toHaveLength(0);
    const sourceOnly = tbxFormat.parse(file, { filename: 'terms.tbx', language: 'zh_CN', sourceLanguage: 'en' });
    expect(sourceOnly.units.map((u) => [u.source[0], u.target[0], u.state])).toEqual([
      ['', '添加', State.READONLY],
      ['', '书签', State.READONLY],
    ]);
  });

  it('skips entries with a deprecated term and entries with neither side', () => {
    const store = tbxFormat.parse(fixture('tbx/notes-example.tbx'), CS);
    expect(store.units.map((u) => u.context)).not.toContain('c4');
    const text = martif(
      [
        '            <termEntry id="a"><langSet xml:lang="en"><tig><term>x</term><termNote type="administrativeStatus">Deprecated</termNote></tig></langSet></termEntry>',
        '            <termEntry id="b"><langSet xml:lang="de"><tig><term>y</term></tig></langSet></termEntry>',
        '            <termEntry id="c"><langSet xml:lang="en"><tig><term>z</term><termNote type="administrativeStatus">admittedTerm-admn-sts</termNote></tig></langSet></termEntry>',
        '',
      ].join('\n'),
    );
    expect(parseText(text).units.map((u) => u.context)).toEqual(['c']);
  });

  it('keeps the first of two entries with the same id_hash', () => {
    const store = tbxFormat.parse(fixture('tbx/weblate-cs.tbx'), CS);
    expect(store.units.filter((u) => u.source[0] === 'Glyph').map((u) => u.target)).toEqual([['']]);
  });

  it('honours "Translation needed" and the read-only flag', () => {
    const text = martif(
      [
        '            <termEntry id="y"><descrip type="Translation needed"> Yes </descrip><langSet xml:lang="en"><tig><term>a</term></tig></langSet></termEntry>',
        '            <termEntry id="n"><descrip type="Translation needed">no</descrip><langSet xml:lang="en"><tig><term>b</term></tig></langSet></termEntry>',
        '            <termEntry id="r" weblate-flags="read-only, max-length:5"><langSet xml:lang="en"><tig><term>c</term></tig></langSet></termEntry>',
        '',
      ].join('\n'),
    );
    const units = parseText(text).units;
    expect(units.map((u) => u.state)).toEqual([State.EMPTY, State.READONLY, State.READONLY]);
    expect(units[2]!.flags).toBe('max-length:5, read-only');
  });

  it('decodes entities, CDATA and nested markup, and keeps spaces unless xml:space="default"', () => {
    const text = martif(
      [
        '            <termEntry><langSet xml:lang="en"><tig><term> a &lt;b&gt; &amp; &#x263A; </term></tig></langSet><langSet xml:lang="cs"><tig><term><![CDATA[<x>]]> <hi>y</hi></term></tig></langSet></termEntry>',
        '            <termEntry xml:space="default"><langSet xml:lang="en"><tig><term>  two\n   words </term></tig></langSet></termEntry>',
        '',
      ].join('\n'),
    );
    const units = parseText(text).units;
    expect(units[0]!.source).toEqual([' a <b> & ☺ ']);
    expect(units[0]!.target).toEqual(['<x> y']);
    expect(units[1]!.source).toEqual(['two words']);
    expect(units[1]!.numWords).toBe(2);
  });

  it('keeps a deprecated synonym from retiring a TBX v3 concept, but not a deprecated main term', () => {
    const store = tbxFormat.parse(fixture('tbx/v3-es.tbx'), { filename: 'astro.tbx', language: 'es', sourceLanguage: 'en' });
    expect(store.units.map((u) => u.context)).toEqual(['c1', 'c2']);
    const zu = tbxFormat.parse(fixture('tbx/v3-es.tbx'), { filename: 'astro.tbx', language: 'zu', sourceLanguage: 'en' });
    expect(zu.units.map((u) => [u.context, u.source[0], u.target[0], u.state])).toEqual([
      ['c1', 'open cluster', '', State.EMPTY],
      ['c2', 'black hole', '', State.EMPTY],
      ['c4', '', 'Bally2005', State.READONLY],
    ]);
  });

  it('refuses a template with a FormatParseError', () => {
    const err = thrownBy(FormatParseError, () => tbxFormat.parse(fixture('tbx/weblate-cs.tbx'), { ...CS, template: { units: [], monolingual: true } }));
    expect(err.data.reason).toContain('bilingual');
  });

  it('reports the line and column of XML errors', () => {
    const err = thrownBy(FormatParseError, () => parseText('<martif>\n  <text>\n    <body>&bogus;</body>\n  </text>\n</martif>'));
    expect(err.code).toBe('FormatParseError');
    // the column of the reference's '&' (saxes, which TBX used to read with, reported the position after it)
    expect(err.data).toMatchObject({ filename: 'glossary/cs.tbx', line: 3, column: 11 });
    expect(err.data.reason).toContain('undefined entity');
    const root = thrownBy(FormatParseError, () => parseText('<?xml version="1.0"?>\n\n  <TS version="2.1"/>'));
    expect(root.data).toMatchObject({ line: 3, column: 3 });
    expect(root.data.reason).toContain('<TS>');
    const bytes = Uint8Array.from([...encoder.encode('<martif>\n  <x>čá'), 0xff, ...encoder.encode('</x></martif>')]);
    const utf = thrownBy(FormatParseError, () => tbxFormat.parse(bytes, CS));
    expect(utf.data).toMatchObject({ line: 2, column: 8 });
    expect(utf.data.reason).toContain('0xff');
  });

  it('accepts entities declared in the internal DTD subset', () => {
    const text =
      '<!DOCTYPE martif [<!ENTITY app "Weblate">]>\n<martif><text><body><termEntry><langSet xml:lang="en"><tig><term>&app;</term></tig></langSet></termEntry></body></text></martif>';
    expect(parseText(text).units[0]!.source).toEqual(['Weblate']);
  });
});

describe('format tbx: writing', () => {
  const edit = (source: string, target: string, extra: Partial<UnitWrite> = {}): UnitWrite => ({
    context: '',
    source: [source],
    target: [target],
    state: State.TRANSLATED,
    ...extra,
  });

  it("creates a missing target langSet right after the source one, in the file's single-line style", () => {
    const file = fixture('tbx/weblate-cs.tbx');
    const out = decoder.decode(tbxFormat.write(file, [edit('plugin', 'zásuvný modul', { context: 'ctx-1' })], CS));
    const { removed, added } = changedLines(decoder.decode(file), out);
    expect(removed).toEqual([]);
    expect(added).toEqual(['                <langSet xml:lang="cs"><tig><term>zásuvný modul</term></tig></langSet>']);
    expect(out).toContain('<term>plugin</term></tig></langSet>\n                <langSet xml:lang="cs">');
  });

  it('creates a missing target langSet in a multi-line layout, spelling the code as the file does', () => {
    const file = fixture('tbx/lokalize-zh.tbx');
    const ctx = { filename: 'terms.tbx', language: 'zh_CN', sourceLanguage: 'en_US' };
    const out = decoder.decode(tbxFormat.write(file, [edit('cancel', '取消', { context: 'kde-4' })], ctx));
    const { removed, added } = changedLines(decoder.decode(file), out);
    expect(removed).toEqual([]);
    expect(added.join('\n')).toContain(
      '        <langSet xml:lang="zh-CN">\n          <tig>\n            <term>取消</term>\n          </tig>\n        </langSet>',
    );
    expect(tbxFormat.parse(encoder.encode(out), ctx).units[2]).toMatchObject({ target: ['取消'], state: State.TRANSLATED });
  });

  it("creates a missing langSec in TBX v3 with the file's tabs", () => {
    const ctx = { filename: 'astro.tbx', language: 'es', sourceLanguage: 'en' };
    const out = decoder.decode(tbxFormat.write(fixture('tbx/v3-es.tbx'), [edit('black hole', 'agujero negro', { context: 'c2' })], ctx));
    expect(out).toContain(
      '\t\t\t\t</langSec>\n\t\t\t\t<langSec xml:lang="es">\n\t\t\t\t\t<termSec>\n\t\t\t\t\t\t<term>agujero negro</term>\n\t\t\t\t\t</termSec>\n\t\t\t\t</langSec>\n\t\t\t</conceptEntry>',
    );
  });

  it('escapes < and & in terms and reads them back', () => {
    const file = fixture('tbx/weblate-cs.tbx');
    const out = tbxFormat.write(file, [edit('volume', 'a < b & "c" > d')], CS);
    expect(decoder.decode(out)).toContain('<term>a &lt; b &amp; "c" &gt; d</term>');
    expect(tbxFormat.parse(out, CS).units[1]!.target).toEqual(['a < b & "c" > d']);
  });

  it('clears a target to an empty <term></term> and leaves an unchanged one alone', () => {
    const file = fixture('tbx/weblate-cs.tbx');
    const out = decoder.decode(tbxFormat.write(file, [edit('volume', '')], CS));
    expect(out).toContain('<langSet xml:lang="cs"><tig><term></term></tig></langSet>');
    expect(tbxFormat.write(file, [edit('Glyph', ''), edit('volume', 'objem')], CS)).toEqual(file);
  });

  it('writes to the listed one of two duplicate entries', () => {
    const file = fixture('tbx/weblate-cs.tbx');
    const out = decoder.decode(tbxFormat.write(file, [edit('Glyph', 'Glyfa')], CS));
    expect(out.indexOf('<term>Glyfa</term>')).toBeLessThan(out.indexOf('<term>volume</term>'));
    expect(out).toContain('<term>Glyf</term>');
  });

  it("replaces the translator note with one appended as the entry's last child", () => {
    const file = fixture('tbx/notes-example.tbx');
    const out = decoder.decode(tbxFormat.write(file, [edit('address bar', 'adresní řádek', { context: 'c1', explanation: '  Used in Firefox  ' })], CS));
    expect(out).not.toContain('Preferred since 2020');
    expect(out).toContain('<tig><term>adresní řádek</term></tig></langSet>\n    <note from="translator">Used in Firefox</note>\n  </termEntry>');
    expect(tbxFormat.parse(encoder.encode(out), CS).units[0]!.explanation).toBe('Used in Firefox');

    const cleared = decoder.decode(tbxFormat.write(file, [edit('address bar', 'adresní řádek', { context: 'c1', explanation: '' })], CS));
    expect(cleared).not.toContain('from="translator"');
    const same = tbxFormat.write(file, [edit('address bar', 'adresní řádek', { context: 'c1', explanation: 'Preferred since 2020' })], CS);
    expect(same).toEqual(file);
  });

  it('adds an explanation to a new entry and removes entries with their line', () => {
    const file = fixture('tbx/weblate-cs.tbx');
    const out = writeText(decoder.decode(file), [
      edit('toolbar', 'lišta', { context: 'new-1', explanation: 'Top of the window' }),
      { ...edit('volume', 'objem'), remove: true },
    ]);
    expect(out).not.toContain('<term>volume</term>');
    expect(out).toContain(
      '            <termEntry id="new-1">\n                <langSet xml:lang="en"><tig><term>toolbar</term></tig></langSet>\n                <langSet xml:lang="cs"><tig><term>lišta</term></tig></langSet>\n                <note from="translator">Top of the window</note>\n            </termEntry>\n        </body>',
    );
    const units = parseText(out).units;
    expect(units.map((u) => u.source[0])).toEqual(['Glyph', 'Save & close', 'plugin', 'scene', 'toolbar']);
    expect(units[4]!.explanation).toBe('Top of the window');
  });

  it('adds entries to an empty body, including the new-file skeleton', () => {
    const skeleton = decoder.decode(tbxFormat.create(null, CS));
    const out = writeText(skeleton, [edit('file', 'soubor')]);
    expect(out).toContain(
      '<text><body>\n    <termEntry>\n        <langSet xml:lang="en"><tig><term>file</term></tig></langSet>\n        <langSet xml:lang="cs"><tig><term>soubor</term></tig></langSet>\n    </termEntry>\n</body></text>',
    );
    expect(parseText(out).units).toHaveLength(1);
    const selfClosing = writeText('<martif xml:lang="en">\n  <text>\n    <body/>\n  </text>\n</martif>\n', [edit('file', 'soubor')]);
    expect(selfClosing).toContain('    <body>\n      <termEntry>\n        <langSet xml:lang="en">');
    expect(selfClosing).toContain('</termEntry>\n    </body>\n  </text>');
  });

  it('keeps CRLF line breaks when adding and removing entries', () => {
    const crlf = decoder.decode(fixture('tbx/weblate-cs.tbx')).replaceAll('\n', '\r\n');
    expect(writeText(crlf, [])).toBe(crlf);
    const out = writeText(crlf, [edit('toolbar', 'lišta'), { ...edit('volume', 'objem'), remove: true }, edit('plugin', 'modul', { context: 'ctx-1' })]);
    expect(out.replaceAll('\r\n', '')).not.toContain('\n');
    expect(out).not.toContain('\r\r');
    expect(out).toContain('</termEntry>\r\n            <termEntry>\r\n                <langSet xml:lang="en"><tig><term>toolbar</term></tig></langSet>\r\n');
    expect(parseText(out).units.map((u) => u.target[0])).toEqual(['', 'Uložit & zavřít', 'modul', '', 'lišta']);
  });

  it('keeps a BOM and refuses plural targets and templates', () => {
    const withBom = Uint8Array.from([0xef, 0xbb, 0xbf, ...fixture('tbx/weblate-cs.tbx')]);
    expect(tbxFormat.write(withBom, [], CS)).toEqual(withBom);
    const out = tbxFormat.write(withBom, [edit('volume', 'svazek')], CS);
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(thrownBy(FormatWriteError, () => tbxFormat.write(withBom, [{ ...edit('volume', 'a'), target: ['a', 'b'] }], CS)).code).toBe('FormatWriteError');
    expect(thrownBy(FormatWriteError, () => tbxFormat.write(withBom, [], { ...CS, template: { units: [], monolingual: true } })).data.filename).toBe(
      'glossary/cs.tbx',
    );
  });

  it('creates the TT skeleton with the source language set', () => {
    const text = decoder.decode(tbxFormat.create(null, { filename: 'glossary/de.tbx', language: 'de', sourceLanguage: 'en' }));
    expect(text).toBe(
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE martif PUBLIC "ISO 12200:1999A//DTD MARTIF core (DXFcdV04)//EN" "TBXcdv04.dtd">',
        '<martif type="TBX" xml:lang="en">',
        '<martifHeader>',
        '<fileDesc>',
        '<sourceDesc><p>Translate Toolkit</p></sourceDesc>',
        '</fileDesc>',
        '</martifHeader>',
        '<text><body></body></text>',
        '</martif>',
      ].join('\n'),
    );
  });
});
