// XLIFF 1.2 (xliff, plainxliff, poxliff): the shared conformance suite on fixtures, plus Weblate's XLIFF rules for writes.
import { describe, expect, it } from 'vitest';
import { FormatParseError, FormatWriteError } from '../../src/domain/errors.js';
import { State } from '../../src/domain/unit.js';
import type { FormatContext, UnitWrite } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { changedLines, fixture, runConformance } from './conformance.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const xliff = getFormat('xliff');
const plain = getFormat('plainxliff');
const poxliff = getFormat('poxliff');

const BAD = [
  { name: 'malformed XML (line of the unclosed tag)', text: '<xliff version="1.2">\n<file>\n<body>\n</file></xliff>', line: 4 },
  { name: 'XLIFF 2.0', text: '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0"><file id="f"/></xliff>', line: 1 },
  { name: 'another root element', text: '<?xml version="1.0"?>\n<resources><string name="a">b</string></resources>', line: 2 },
  { name: 'an XLIFF without <file>', text: '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"/>', line: 1 },
  {
    name: 'an entity bomb',
    text: '<?xml version="1.0"?>\n<!DOCTYPE xliff [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;">]>\n<xliff version="1.2"><file><body/></file></xliff>',
    line: 2,
  },
  {
    name: 'an external entity',
    text: '<?xml version="1.0"?>\n<!DOCTYPE xliff [\n<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<xliff version="1.2"><file><body><trans-unit id="1"><source>&xxe;</source></trans-unit></body></file></xliff>',
    line: 3,
  },
  { name: 'an undeclared namespace prefix', text: '<xliff version="1.2">\n  <x:file/></xliff>', line: 2 },
  {
    name: 'a file that is not UTF-8',
    text: new Uint8Array([0x3c, 0x78, 0x6c, 0x69, 0x66, 0x66, 0x3e, 0xe9, 0x3c, 0x2f, 0x78, 0x6c, 0x69, 0x66, 0x66, 0x3e]),
    line: 1,
  },
];

runConformance({
  format: 'xliff',
  cases: [
    {
      name: 'the notes example (formats-notes-2 §2.8): ids by original///id or resname, states, flags',
      file: 'xliff/notes-example.xlf',
      language: 'cs',
      count: 3,
      units: {
        0: { context: 'app.strings///hello', source: ['Hello'], target: ['Ahoj'], state: State.TRANSLATED, flags: 'xml-text', idHash: 2683875632669286442n },
        1: { context: 'greeting', source: ['Hello'], target: ['Nazdar'], state: State.APPROVED, note: 'Informal', idHash: -2658301729136097855n },
        2: {
          context: 'app.strings///t2',
          source: ['Save <x id="1"/>now'],
          target: ['Uložit'],
          state: State.FUZZY,
          flags: 'max-length:10, xml-text',
          idHash: 6212723115981309073n,
        },
      },
      edit: { index: 2, target: ['Uložit <x id="1"/>teď'], maxChangedLines: 1, expectText: '<target state="translated">Uložit <x id="1"/>teď</target>' },
      add: {
        write: { context: 'app.strings///t9', source: ['Quit'], target: ['Konec'], state: State.TRANSLATED },
        expectText: '<trans-unit id="t9" xml:space="preserve">',
      },
      remove: { index: 0 },
    },
    {
      name: 'Angular i18n: <x/> placeholders with escaped HTML in equiv-text, a unit without <target>, state="new"',
      file: 'xliff/angular.de.xlf',
      language: 'de',
      count: 3,
      units: {
        0: {
          context: 'ng2.template///2321031042449352964',
          source: [
            'You are using the <x id="START_LINK" ctype="x-a" equiv-text="&lt;a href=&quot;/demo&quot;&gt;"/>Live Demo<x id="CLOSE_LINK" ctype="x-a" equiv-text="&lt;/a&gt;"/>.',
          ],
          state: State.TRANSLATED,
          location: 'apps/client/src/app/app.component.html:12',
        },
        1: { source: ['Create Account'], target: [''], state: State.EMPTY, note: 'Header button' },
        2: { source: ['Hello <x id="INTERPOLATION" equiv-text="{{ name }}"/>!'], state: State.FUZZY },
      },
      edit: {
        index: 2,
        target: ['Hallo <x id="INTERPOLATION" equiv-text="{{ name }}"/>!'],
        maxChangedLines: 1,
        expectText: '<target state="translated">Hallo <x',
      },
    },
    {
      name: 'monolingual Symfony layout: resname keys, template targets as source, a key missing from the translation',
      file: 'xliff/messages.de.xlf',
      template: 'xliff/messages.en.xlf',
      language: 'de',
      count: 4,
      units: {
        0: { context: 'action.close', source: ['Close'], target: ['Schließen'], state: State.TRANSLATED },
        1: { context: 'invoice.tax', source: ['VAT'], target: [''], state: State.EMPTY, note: 'Shown on invoices\n' },
        2: { context: 'menu.homepage', source: ['Dashboard'], target: ['Dashboard'], state: State.FUZZY },
        3: { context: 'api_token_repeat', flags: 'max-length:30, xml-text', state: State.TRANSLATED },
      },
      edit: { index: 2, target: ['Übersicht'], maxChangedLines: 1, expectText: '<target state="translated">Übersicht</target>' },
      add: {
        write: { context: 'invoice.tax', source: ['VAT'], target: ['MwSt.'], state: State.TRANSLATED },
        // Cloned from the template without its note, appended to the body like the other units.
        expectText:
          '      </trans-unit>\n      <trans-unit id="EO57yXg" resname="invoice.tax">\n        <source>invoice.tax</source>\n        <target state="translated">MwSt.</target>\n      </trans-unit>\n    </body>',
      },
      remove: { index: 0 },
    },
  ],
  create: [
    { base: 'xliff/angular.de.xlf', language: 'pt_BR', count: 3, expectText: 'target-language="pt-BR"' },
    { base: 'xliff/messages.en.xlf', language: 'fr', count: 4, expectText: '<source>action.close</source>\n      </trans-unit>' },
  ],
  bad: BAD,
});

runConformance({
  format: 'plainxliff',
  cases: [
    {
      name: 'the trap fixture read as plain text (tags drop out, their text stays)',
      file: 'xliff/traps.xlf',
      language: 'de',
      count: 11,
      units: {
        0: { context: 'app///spaces', source: ['Hello big world'], target: ['A & "b" > {0}'], flags: '' },
        1: { source: ['Hi axb there'], state: State.FUZZY },
        2: { context: 'app///preserved', source: ['  a   b   '], target: ['  A   B   '] },
        3: { context: 'app///cdata', source: ["a < b 'q' line"], state: State.APPROVED, note: 'Shown in the toolbar\nChecked twice' },
        4: { context: 'app///locked', state: State.READONLY },
        5: { context: 'key.no_target', location: 'src/a.ts:12, src/b.ts', state: State.EMPTY },
        7: { context: 'app///in-group', flags: 'c-format, max-size:20', state: State.FUZZY },
        9: { context: 'app///arated', note: 'alt note' },
        10: { context: 'second.ts///other' },
      },
      edit: {
        index: 0,
        target: ['Tab\tand  two spaces'],
        maxChangedLines: 1,
        expectText: '<target state="translated" xml:space="preserve">Tab\tand  two spaces</target>',
      },
      add: { write: { context: 'fresh', source: ['New <b>source</b>'], target: ['Neu'], state: State.TRANSLATED } },
      remove: { index: 6 },
    },
  ],
  create: [{ base: 'xliff/traps.xlf', language: 'cs', count: 11 }],
  bad: BAD,
});

runConformance({
  format: 'poxliff',
  cases: [
    {
      name: 'gettext plural groups, po-reference locations, the header skipped, singular units without states',
      file: 'xliff/plurals.poxliff',
      language: 'cs',
      plurals: 3,
      count: 5,
      units: {
        0: { context: 'messages.po///1', source: ['Monday'], state: State.APPROVED, location: 'days.py:12' },
        1: {
          context: 'messages.po///2',
          source: ['%d file', '%d files', '%d files'],
          target: ['%d soubor', '%d soubory', '%d souborů'],
          state: State.FUZZY,
          location: 'files.py:3',
          note: 'Count of files',
        },
        2: { source: ['%d day', '%d days'], target: ['%d den', ''], state: State.APPROVED },
        3: { source: ['%d hour', '%d hours'], target: ['', ''], state: State.EMPTY },
        4: { context: 'ctx', source: ['Tuesday'], target: ['Úterý'] },
      },
      edit: {
        index: 1,
        target: ['%d soubor', '%d soubory', '%d souborů!'],
        state: State.FUZZY,
        maxChangedLines: 1,
        expectText: '<target state="needs-translation">%d souborů!</target>',
      },
      remove: { index: 4 },
    },
  ],
  create: [{ base: 'xliff/plurals.poxliff', language: 'sk', count: 5 }],
  bad: BAD,
});

function ctx(file: string, extra: Partial<FormatContext> = {}): FormatContext {
  return { filename: file, language: 'de', sourceLanguage: 'en', ...extra };
}

function edit(bytes: Uint8Array, format: typeof xliff, writes: UnitWrite[], context = ctx('f.xlf')): string {
  return decoder.decode(format.write(bytes, writes, context));
}

describe('XLIFF writes as Weblate makes them', () => {
  const angular = fixture('xliff/angular.de.xlf');
  const units = xliff.parse(angular, ctx('a.xlf')).units;

  it('writes placeholders typed in a rich target back as XML, attributes re-ordered as Translate Toolkit rebuilds them', () => {
    const u = units[2]!;
    const out = edit(angular, xliff, [
      { context: u.context, source: u.source, target: ['Hallo <x equiv-text="{{ name }}" id="INTERPOLATION"/>!'], state: State.TRANSLATED },
    ]);
    expect(out).toContain('<target state="translated">Hallo <x id="INTERPOLATION" equiv-text="{{ name }}"/>!</target>');
  });

  it('escapes a rich target that is not XML, as Weblate stores it literally', () => {
    const u = units[2]!;
    const out = edit(angular, xliff, [{ context: u.context, source: u.source, target: ['a < b & c'], state: State.TRANSLATED }]);
    expect(out).toContain('<target state="translated">a &lt; b &amp; c</target>');
    expect(xliff.parse(encoder.encode(out), ctx('a.xlf')).units[2]!.target).toEqual(['a &lt; b &amp; c']);
  });

  it('escapes markup typed in a plain target', () => {
    const u = plain.parse(angular, ctx('a.xlf')).units[1]!;
    const out = edit(angular, plain, [{ context: u.context, source: u.source, target: ['<b>Konto</b> & mehr'], state: State.TRANSLATED }]);
    expect(out).toContain('<target state="translated">&lt;b&gt;Konto&lt;/b&gt; &amp; mehr</target>');
  });

  it('maps states to the target state attribute: fuzzy needs-translation, approved final (with approved="yes"), and back', () => {
    const u = units[0]!;
    const fuzzy = edit(angular, xliff, [{ context: u.context, source: u.source, target: u.target, state: State.FUZZY }]);
    expect(changedLines(decoder.decode(angular), fuzzy).added.join('\n')).toContain('<target state="needs-translation">');
    const approved = encoder.encode(edit(angular, xliff, [{ context: u.context, source: u.source, target: u.target, state: State.APPROVED }]));
    const text = decoder.decode(approved);
    expect(text).toContain('<trans-unit id="2321031042449352964" datatype="html" approved="yes">');
    expect(text).toContain('<target state="final">');
    expect(xliff.parse(approved, ctx('a.xlf')).units[0]!.state).toBe(State.APPROVED);
    // approved="yes" becomes "no" when the unit goes back to translated; it is never added needlessly
    const back = edit(approved, xliff, [{ context: u.context, source: u.source, target: u.target, state: State.TRANSLATED }]);
    expect(back).toContain('datatype="html" approved="no">');
    expect(back).not.toContain('approved="yes"');
  });

  it('removes the <target> of a rich unit emptied; an existing state then becomes "new" only in plain mode', () => {
    const u = units[0]!;
    const emptied = edit(angular, xliff, [{ context: u.context, source: u.source, target: [''], state: State.EMPTY }]);
    const { removed, added } = changedLines(decoder.decode(angular), emptied);
    expect(added).toEqual([]);
    expect(removed).toHaveLength(1);
    expect(removed[0]).toContain('<target state="translated">');
    const p = plain.parse(angular, ctx('a.xlf')).units[0]!;
    const plainEmptied = edit(angular, plain, [{ context: p.context, source: p.source, target: [''], state: State.EMPTY }]);
    expect(plainEmptied).toContain('<target state="new"></target>');
  });

  it('marks a target whose spaces would be normalized away with xml:space="preserve", and only then', () => {
    const u = units[2]!;
    const spaced = edit(angular, xliff, [{ context: u.context, source: u.source, target: [' Hallo\n<x id="INTERPOLATION"/>! '], state: State.TRANSLATED }]);
    expect(spaced).toContain('<target state="translated" xml:space="preserve"> Hallo\n<x id="INTERPOLATION"/>! </target>');
    expect(xliff.parse(encoder.encode(spaced), ctx('a.xlf')).units[2]!.target).toEqual([' Hallo\n<x id="INTERPOLATION"/>! ']);
    const tight = edit(angular, xliff, [{ context: u.context, source: u.source, target: ['Hallo!'], state: State.TRANSLATED }]);
    expect(tight).not.toContain('xml:space');
  });

  it('inserts a missing <target> right after its <source>, indented like it; the BOM and all else stay byte for byte', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...angular]);
    const u = units[1]!;
    const out = xliff.write(bom, [{ context: u.context, source: u.source, target: ['Konto'], state: State.TRANSLATED }], ctx('a.xlf'));
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const { removed, added } = changedLines(decoder.decode(bom), decoder.decode(out));
    expect(removed).toEqual([]);
    expect(added).toEqual(['        <target state="translated">Konto</target>']);
  });

  it('writes every form of a poxliff plural group and sets each form trans-unit state, leaving singular units without one', () => {
    const bytes = fixture('xliff/plurals.poxliff');
    const store = poxliff.parse(bytes, ctx('p.poxliff', { plurals: 3 }));
    const hours = store.units[3]!;
    const monday = store.units[0]!;
    const out = edit(bytes, poxliff, [
      { context: hours.context, source: hours.source, target: ['%d hodina', '%d hodiny', '%d hodin'], state: State.TRANSLATED },
      { context: monday.context, source: monday.source, target: ['Pondělí!'], state: State.TRANSLATED },
    ]);
    expect(out).toContain('<source>%d hour</source>\n          <target state="translated">%d hodina</target>');
    expect(out).toContain('<source>%d hours</source>\n          <target state="translated">%d hodiny</target>');
    // a third form gets a trans-unit of its own, copying the last source
    expect(out).toContain('<trans-unit id="4[2]" xml:space="preserve"><source>%d hours</source><target state="translated">%d hodin</target></trans-unit>');
    // the singular unit keeps its state attribute (Translate Toolkit lists no state nodes for it); approved="yes" is cleared
    expect(out).toContain('<trans-unit id="1" approved="no">');
    expect(out).toContain('<target state="needs-translation">Pondělí!</target>');
    const again = poxliff.parse(encoder.encode(out), ctx('p.poxliff', { plurals: 3 }));
    expect(again.units[3]!.target).toEqual(['%d hodina', '%d hodiny', '%d hodin']);
  });

  it('refuses an edit of a key that the template does not have', () => {
    const template = xliff.parse(fixture('xliff/messages.en.xlf'), ctx('messages.en.xlf', { language: 'en' }));
    const mono = ctx('messages.de.xlf', { template });
    expect(() => xliff.write(fixture('xliff/messages.de.xlf'), [{ context: 'nope', source: ['x'], target: ['y'], state: State.TRANSLATED }], mono)).toThrow(
      FormatWriteError,
    );
  });

  it('a new file needs a base: XLIFF has no empty skeleton', () => {
    expect(() => xliff.create(null, ctx('new.xlf'))).toThrow(FormatWriteError);
  });

  it('reports XLIFF 2 and a missing <file> with the file name and line', () => {
    try {
      xliff.parse(encoder.encode('\n<xliff version="2.0"/>'), ctx('two.xlf'));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormatParseError);
      expect((e as FormatParseError).data).toMatchObject({ filename: 'two.xlf', line: 2, column: 1 });
    }
  });
});

describe('XLIFF read over its UTF-8 bytes', () => {
  const NS = 'xmlns="urn:oasis:names:tc:xliff:document:1.2"';

  it('reads non-ASCII text, attribute values, references, a BOM and CRLF as the decoded text reads them', () => {
    const text =
      `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\r\n<xliff version="1.2" ${NS}>\r\n<file original="Grüße.txt" source-language="en">\r\n<body>\r\n` +
      '<trans-unit id="ü1" resname="Schlüssel &amp; 😀"><source>Börse &lt;&#xe9;&gt;\r\n中文</source><target state="new">Bö<x id="1" ctype="é"/>rse</target>' +
      '<note>Notiz é</note><context-group purpose="location"><context context-type="sourcefile">pfad/ä.html</context><context context-type="linenumber">7</context></context-group></trans-unit>\r\n' +
      '<trans-unit id="a2"><source>plain</source></trans-unit>\r\n</body>\r\n</file>\r\n</xliff>\r\n';
    const rich = xliff.parse(encoder.encode(text), ctx('u.xlf')).units;
    expect(rich.map((u) => [u.context, u.source, u.target, u.note, u.location, u.state])).toEqual([
      ['Schlüssel & 😀', ['Börse &lt;é&gt; 中文'], ['Bö<x id="1" ctype="é"/>rse'], 'Notiz é', 'pfad/ä.html:7', State.FUZZY],
      ['Grüße.txt///a2', ['plain'], [''], '', '', State.EMPTY],
    ]);
    expect(plain.parse(encoder.encode(text), ctx('u.xlf')).units.map((u) => u.target)).toEqual([['Börse'], ['']]);
  });

  it('reports an error after non-ASCII characters at their line and column in characters', () => {
    for (const [text, line, column] of [
      [`<xliff version="1.2" ${NS}>\n  <file original="äöü">中文</fil></xliff>`, 2, 26],
      [`<xliff version="1.2" ${NS}>\n <file>ü\u0001</file></xliff>`, 2, 9],
      [`<xliff version="1.2" ${NS}>\n <fileé/></xliff>`, 1, 1],
      [`<?xml version="1.0"?>\n<ü version="1.2" ${NS}>ä</ü>`, 2, 1],
    ] as const) {
      try {
        xliff.parse(encoder.encode(text), ctx('e.xlf'));
        expect.unreachable(text);
      } catch (e) {
        expect(e, text).toBeInstanceOf(FormatParseError);
        expect((e as FormatParseError).data, text).toMatchObject({ filename: 'e.xlf', line, column });
      }
    }
  });

  it('copies a non-ASCII unit of a template read over its bytes into a translation that lacks it', () => {
    const template = encoder.encode(
      `<xliff version="1.2" ${NS}>\n  <file original="m" source-language="en">\n    <body>\n      <trans-unit id="g" resname="grüße">\n        <source>Grüße, 世界</source>\n        <target>Grüße, 世界</target>\n      </trans-unit>\n    </body>\n  </file>\n</xliff>\n`,
    );
    const translation = encoder.encode(
      `<xliff version="1.2" ${NS}>\n  <file original="m" source-language="en" target-language="de">\n    <body>\n    </body>\n  </file>\n</xliff>\n`,
    );
    const parsedTemplate = xliff.parse(template, ctx('messages.en.xlf', { language: 'en' }));
    const mono = ctx('messages.de.xlf', { template: parsedTemplate });
    const [unit] = xliff.parse(translation, mono).units;
    expect(unit).toMatchObject({ context: 'grüße', source: ['Grüße, 世界'], target: [''] });
    const written = edit(translation, xliff, [{ ...unit!, target: ['Hallo, Welt'], state: State.TRANSLATED }], mono);
    expect(written).toContain('<trans-unit id="g" resname="grüße">');
    expect(written).toContain('<source>Grüße, 世界</source>');
    expect(xliff.parse(encoder.encode(written), mono).units[0]).toMatchObject({ source: ['Grüße, 世界'], target: ['Hallo, Welt'] });
  });
});
