// Qt TS format: the shared conformance suite on our fixtures, Weblate's verified example, escaping and insertion.
import { describe, expect, it } from 'vitest';
import { FormatParseError, FormatWriteError } from '../../src/domain/errors.js';
import { calculateHash } from '../../src/domain/hash.js';
import { State } from '../../src/domain/unit.js';
import type { FormatContext, ParsedFile, UnitWrite } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { escapeTsText } from '../../src/formats/ts/escape.js';
import { changedLines, fixture, runConformance } from './conformance.js';

const ts = getFormat('ts');
const decoder = new TextDecoder();
const encoder = new TextEncoder();
const SEP = '\x1e\x1e';

function ctxFor(filename: string, language = 'de', template?: string): FormatContext {
  const ctx: FormatContext = { filename, language, sourceLanguage: 'en' };
  if (template) ctx.template = ts.parse(fixture(template), { filename: template, language: 'en', sourceLanguage: 'en' });
  return ctx;
}

function parseText(text: string, ctx: FormatContext = ctxFor('t.ts')): ParsedFile {
  return ts.parse(encoder.encode(text), ctx);
}

function writeText(text: string, edits: UnitWrite[], ctx: FormatContext = ctxFor('t.ts')): string {
  return decoder.decode(ts.write(encoder.encode(text), edits, ctx));
}

function parseError(text: string | Uint8Array): FormatParseError {
  const bytes = typeof text === 'string' ? encoder.encode(text) : text;
  try {
    ts.parse(bytes, ctxFor('bad.ts'));
  } catch (e) {
    if (e instanceof FormatParseError) return e;
    throw e;
  }
  throw new Error('no error raised');
}

runConformance({
  format: 'ts',
  cases: [
    {
      name: 'the verified Weblate example (formats notes §2.7)',
      file: 'ts/de_DE.ts',
      language: 'de_DE',
      count: 6,
      units: {
        0: {
          context: 'MainWindow',
          source: ['&File'],
          target: ['&Datei'],
          state: State.TRANSLATED,
          location: '../src/mainwindow.cpp:42',
          note: '',
          idHash: -8863427012360952575n,
        },
        1: {
          context: 'MainWindow\nverb',
          source: ['Open'],
          target: ['Öffnen'],
          state: State.FUZZY,
          location: '../src/mainwindow.cpp:45',
          note: 'File menu item\nKeep short',
          idHash: 264716708630659490n,
        },
        2: {
          context: 'MainWindow',
          source: ['Save "%1"?'],
          target: [''],
          state: State.EMPTY,
          location: '../src/mainwindow.cpp:50',
          idHash: -5563305136017819294n,
        },
        3: {
          context: 'MainWindow',
          source: ['%n file deleted', '%n files deleted'],
          target: ['%n Datei gelöscht', '%n Dateien gelöscht'],
          state: State.TRANSLATED,
          location: '../src/mainwindow.cpp:58',
          idHash: 8114864419729826250n,
        },
        4: {
          context: 'MainWindow',
          source: ['Same as source'],
          target: ['Same as source'],
          state: State.TRANSLATED,
          location: '',
          idHash: 688815168088229720n,
        },
        5: { context: 'MainWindow\napp.quit', source: ['Quit'], target: ['Beenden'], state: State.TRANSLATED, idHash: -831058156966877095n },
      },
      edit: { index: 2, target: ['„%1“ speichern?'], maxChangedLines: 1, expectText: '        <translation>„%1“ speichern?</translation>' },
      add: {
        write: { context: 'MainWindow', source: ['Close'], target: ['Schließen'], state: State.TRANSLATED },
        expectText: '    <message>\n        <source>Close</source>\n        <translation>Schließen</translation>\n    </message>\n</context>',
      },
      remove: { index: 2 },
    },
    {
      name: 'one message per TS feature',
      file: 'ts/features.ts',
      language: 'cs',
      plurals: 3,
      count: 14,
      units: {
        0: { context: 'Dialog', source: ['Cancel'], location: '../src/dialog.cpp:12, ../src/dialog.ui:3', numWords: 1 },
        1: { source: ["Tom & Jerry <b>'quoted'\u00a0hereA"], target: ["Tom & Jerry <b>'v uvozovkách'\u00a0zde"], state: State.TRANSLATED },
        2: { context: 'Dialog\nverb', source: ['Print'], target: [''], state: State.EMPTY, location: '../src/dialog.cpp:24' },
        3: { context: 'Dialog\nnoun', source: ['Print'], target: ['Tisk'], state: State.FUZZY, location: '' },
        4: {
          source: ['%n file copied', '%n files copied'],
          target: ['%n soubor zkopírován', '%n soubory zkopírovány', '%n souborů zkopírováno'],
          state: State.TRANSLATED,
          note: '%n is the number of files',
          numWords: 6,
        },
        5: { source: ['%n day', '%n days'], target: ['', '', ''], state: State.EMPTY },
        6: { source: ['OK'], target: ['OK'], state: State.TRANSLATED },
        7: {
          context: 'Help\nhelp.about',
          source: ['About <b>tms</b>'],
          target: ['O aplikaci <b>tms</b>'],
          note: 'Keep the markup.',
          flags: 'max-size:120, font-family:"Sans Serif", font-size:10, font-weight:75',
        },
        8: { source: ['Line one\nline two'], target: ['Řádek jedna\nřádek dva'], flags: 'max-length:40, placeholders:%1' },
        9: { source: ['Escape '], target: ['Escape'] },
        10: { context: 'Help', source: [''], target: ['Header-like message'], state: State.TRANSLATED },
        11: { source: ['Comment '], target: ['Komentář'] },
        12: { source: ['Duplicate'], target: ['První'] },
        13: { context: '', source: [''], target: ['Hlavička'], state: State.READONLY },
      },
      edit: {
        index: 5,
        target: ['%n den', '%n dny', '%n dní'],
        state: State.FUZZY,
        maxChangedLines: 5,
        expectText: '            <numerusform>%n dny</numerusform>',
      },
      add: {
        write: { context: 'Preferences\nnoun', source: ['%n item', '%n items'], target: ['%n položka', '%n položky', '%n položek'], state: State.TRANSLATED },
        expectText: '<source>%n item(s)</source>',
      },
      remove: { index: 3 },
    },
    {
      name: 'monolingual: units follow the template and its getid()',
      file: 'ts/app_de.ts',
      template: 'ts/app_en.ts',
      language: 'de',
      count: 6,
      units: {
        0: {
          context: 'MainWindow\nfile.menu&File',
          source: ['&File'],
          target: [''],
          state: State.EMPTY,
          note: 'Menu title',
          location: '../src/mainwindow.cpp:10',
          idHash: calculateHash('MainWindow\nfile.menu&File'),
          contentHash: calculateHash('&File', 'MainWindow\nfile.menu&File'),
        },
        1: {
          context: 'MainWindowQuit',
          source: ['Quit'],
          target: ['Beenden'],
          state: State.TRANSLATED,
          note: 'Leaves the application\nShort form',
          idHash: calculateHash('MainWindowQuit'),
        },
        2: {
          context: 'MainWindow%n file(s)',
          source: ['%n file', '%n files'],
          target: ['%n Datei', ''],
          state: State.FUZZY,
          contentHash: calculateHash(`%n file${SEP}%n files`, 'MainWindow%n file(s)'),
        },
        3: { context: 'MainWindowHelp', source: ['Help'], target: [''], state: State.EMPTY },
        4: { context: 'SettingsLanguage', source: ['Language'], target: ['Language'], state: State.TRANSLATED },
        5: { context: 'SettingsTheme', target: [''], state: State.EMPTY },
      },
      edit: { index: 2, target: ['%n Datei', '%n Dateien'], maxChangedLines: 4, expectText: '<numerusform>%n Dateien</numerusform>' },
      add: {
        write: { context: 'MainWindowHelp', source: ['Help'], target: ['Hilfe'], state: State.TRANSLATED },
        expectText: '<translation>Hilfe</translation>',
      },
      remove: { index: 1 },
    },
    {
      name: 'CRLF line ends and two-space indentation',
      file: 'ts/crlf.ts',
      language: 'fr',
      count: 2,
      units: {
        0: { context: 'Main', source: ['First line\nsecond line'], target: ['Première ligne\ndeuxième ligne'], state: State.TRANSLATED },
        1: { source: ['Save'], target: [''], state: State.EMPTY },
      },
      edit: { index: 1, target: ['Enregistrer'], maxChangedLines: 1, expectText: '    <translation>Enregistrer</translation>\r' },
      add: {
        write: { context: 'Main', source: ['Quit'], target: ['Quitter'], state: State.TRANSLATED },
        expectText: '  <message>\r\n    <source>Quit</source>\r\n    <translation>Quitter</translation>\r\n  </message>\r\n</context>',
      },
      remove: { index: 0 },
    },
  ],
  create: [
    { base: 'ts/base.ts', language: 'fr', count: 4, expectText: '<TS version="2.1" sourcelanguage="en" language="fr">' },
    { base: 'ts/base.ts', language: 'fr', template: 'ts/app_en.ts', count: 6 },
  ],
  bad: [
    { name: 'truncated XML', text: '<?xml version="1.0"?>\n<TS version="2.1">\n<context>\n<name>A</name>', line: 4 },
    { name: 'mismatched tags', text: '<TS>\n<context>\n<name>A</nam>\n</context>\n</TS>', line: 3 },
    { name: 'an undefined entity (&nbsp;)', text: '<TS>\n<context>\n<message><source>a&nbsp;b</source></message>\n</context>\n</TS>', line: 3 },
    { name: 'a wrong root element', text: '<?xml version="1.0"?>\n<xliff version="1.2"/>', line: 2 },
    {
      name: 'non-UTF-8 bytes',
      text: Uint8Array.from([...encoder.encode('<TS>\n<context><name>caf'), 0xe9, ...encoder.encode('</name></context></TS>')]),
      line: 2,
    },
    { name: 'a TS 1.x file', text: '<TS version="1.1">\n</TS>', line: 1 },
    { name: 'text after the root element', text: '<TS></TS>\ntrailing', line: 2 },
    { name: 'a second root element', text: '<TS></TS>\n<TS></TS>', line: 2 },
    { name: 'a repeated attribute', text: '<TS version="2.1" version="2.0"></TS>', line: 1 },
    { name: 'an unquoted attribute', text: '<TS\n version=2.1></TS>', line: 2 },
    { name: "'<' in an attribute value", text: '<TS language="a<b"></TS>', line: 1 },
    { name: "'--' inside a comment", text: '<TS>\n<!-- a -- b -->\n</TS>', line: 2 },
    { name: 'an XML declaration after the start', text: '\n<?xml version="1.0"?><TS/>', line: 2 },
    { name: 'a declared non-UTF-8 encoding', text: '<?xml version="1.0" encoding="ISO-8859-1"?><TS/>', line: 1 },
    { name: 'a control character', text: '<TS>\n<context>\u0001</context></TS>', line: 2 },
    { name: 'an unterminated CDATA section', text: '<TS><context>\n<name><![CDATA[x</name></context></TS>', line: 2 },
    { name: 'an empty file', text: '' },
    { name: "a bare '&'", text: '<TS><context><name>a & b</name></context></TS>', line: 1 },
    { name: 'a reference to an invalid character', text: '<TS><context><name>&#0;</name></context></TS>', line: 1 },
    { name: "']]>' in text", text: '<TS><context><name>a]]>b</name></context></TS>', line: 1 },
  ],
});

describe('format ts: errors', () => {
  it('reports the line and column of the problem and never a partial result', () => {
    const err = parseError('<TS>\n  <context>\n    <name>caf&eacute;</name>\n  </context>\n</TS>');
    expect(err.code).toBe('FormatParseError');
    expect(err.data).toEqual({ filename: 'bad.ts', line: 3, column: 14, reason: 'undefined entity &eacute;' });
  });

  it('names the expected end tag', () => {
    const err = parseError('<TS>\n<context>\n<message></context>\n</TS>');
    expect(err.data.line).toBe(3);
    expect(err.data.reason).toBe('mismatched end tag: expected </message>, found </context>');
  });

  it('points at the first invalid UTF-8 byte', () => {
    const bytes = Uint8Array.from([...encoder.encode('<TS>\n<context><name>ab'), 0xff, ...encoder.encode('</name></context></TS>')]);
    const err = parseError(bytes);
    expect([err.data.line, err.data.column]).toEqual([2, 18]);
    expect(err.data.reason).toContain('UTF-8');
  });

  it('refuses a template store that this format did not read', () => {
    const template: ParsedFile = { units: [], monolingual: false };
    expect(() => ts.parse(fixture('ts/app_de.ts'), { ...ctxFor('app_de.ts'), template })).toThrow(FormatParseError);
  });

  it('accepts a file without declaration, DOCTYPE or version, with a BOM and single-quoted attributes', () => {
    const store = parseText("\ufeff<TS language='de'><context><name>A</name><message><source>x</source><translation>y</translation></message></context></TS>");
    expect(store.units.map((u) => [u.context, u.source, u.target])).toEqual([['A', ['x'], ['y']]]);
  });
});

describe('format ts: escaping as lupdate writes it', () => {
  it('writes & < > " \' as entities and non-ASCII spaces as hex references', () => {
    expect(escapeTsText(`a & b < c > d "e" 'f'`)).toBe('a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;');
    expect(escapeTsText('no\u00a0break\u2028line\u202fnarrow\u3000ideographic')).toBe('no&#xa0;break&#x2028;line&#x202f;narrow&#x3000;ideographic');
    expect(escapeTsText('tab\tnewline\nreturn\r')).toBe('tab\tnewline\nreturn&#13;');
  });

  it('keeps other characters literal and drops what XML cannot store', () => {
    expect(escapeTsText('Grüße 😀 ©')).toBe('Grüße 😀 ©');
    expect(escapeTsText('bell\u0007 nul\u0000 end')).toBe('bell nul end');
  });

  it('round-trips a difficult translation through write and parse', () => {
    const text = decoder.decode(fixture('ts/de_DE.ts'));
    const target = `<b>"Tom" & 'Jerry'</b>\u00a0\u2029 &amp; ]]> end`;
    const out = writeText(text, [{ context: 'MainWindow', source: ['Save "%1"?'], target: [target], state: State.TRANSLATED }]);
    expect(out).toContain('<translation>&lt;b&gt;&quot;Tom&quot; &amp; &apos;Jerry&apos;&lt;/b&gt;&#xa0;&#x2029; &amp;amp; ]]&gt; end</translation>');
    expect(parseText(out).units[2]!.target).toEqual([target]);
  });
});

describe('format ts: writing translations', () => {
  const text = decoder.decode(fixture('ts/de_DE.ts'));
  const units = parseText(text).units;

  it('marks fuzzy and emptied units unfinished and drops the marker when translated', () => {
    const out = writeText(text, [
      { context: units[0]!.context, source: units[0]!.source, target: [''], state: State.EMPTY },
      { context: units[1]!.context, source: units[1]!.source, target: ['Öffnen'], state: State.TRANSLATED },
      { context: units[5]!.context, source: units[5]!.source, target: ['Verlassen'], state: State.FUZZY },
    ]);
    const before = text.split('\n');
    const after = out.split('\n');
    expect(after.length).toBe(before.length);
    const changed = after.flatMap((line, i) => (line === before[i] ? [] : [[before[i], line]]));
    expect(changed).toEqual([
      ['        <translation>&amp;Datei</translation>', '        <translation type="unfinished"></translation>'],
      ['        <translation type="unfinished">Öffnen</translation>', '        <translation>Öffnen</translation>'],
      [
        '    <message id="app.quit"><source>Quit</source><translation>Beenden</translation></message>',
        '    <message id="app.quit"><source>Quit</source><translation type="unfinished">Verlassen</translation></message>',
      ],
    ]);
  });

  it('leaves the file untouched when an edit repeats what the file says', () => {
    const out = writeText(text, [{ context: units[5]!.context, source: units[5]!.source, target: ['Beenden'], state: State.TRANSLATED }]);
    expect(out).toBe(text);
  });

  it('replaces a self-closing <translation/> and writes numerus forms one indent deeper', () => {
    const src =
      '<?xml version="1.0" ?><!DOCTYPE TS><TS version="2.1" language="ru">\n<context>\n    <name>Entry</name>\n    <message numerus="yes">\n        <source>%n day(s)</source>\n        <translation type="unfinished"/>\n    </message>\n</context>\n</TS>\n';
    const out = writeText(
      src,
      [{ context: 'Entry', source: ['%n day', '%n days'], target: ['%n день', '%n дня', '%n дней'], state: State.TRANSLATED }],
      ctxFor('ru.ts', 'ru'),
    );
    expect(out).toBe(
      src.replace(
        '        <translation type="unfinished"/>',
        '        <translation>\n            <numerusform>%n день</numerusform>\n            <numerusform>%n дня</numerusform>\n            <numerusform>%n дней</numerusform>\n        </translation>',
      ),
    );
  });

  it('marks a message numerus when it gets several forms, and adds a missing <translation>', () => {
    const src = '<TS version="2.1">\n<context>\n    <name>A</name>\n    <message>\n        <source>%n item(s)</source>\n    </message>\n</context>\n</TS>\n';
    const out = writeText(src, [{ context: 'A', source: ['%n item(s)'], target: ['%n Ding', '%n Dinge'], state: State.TRANSLATED }]);
    expect(out).toContain(
      '    <message numerus="yes">\n        <source>%n item(s)</source>\n        <translation>\n            <numerusform>%n Ding</numerusform>\n            <numerusform>%n Dinge</numerusform>\n        </translation>\n    </message>',
    );
  });

  it('keeps numerus forms inline when the file writes them inline', () => {
    const src =
      '<TS version="2.1">\n<context>\n    <name>A</name>\n    <message numerus="yes">\n        <source>%n item(s)</source>\n        <translation><numerusform>a</numerusform><numerusform>b</numerusform></translation>\n    </message>\n</context>\n</TS>\n';
    const out = writeText(src, [{ context: 'A', source: ['%n item', '%n items'], target: ['%n Ding', '%n Dinge'], state: State.FUZZY }]);
    expect(out).toBe(
      src.replace(
        '<translation><numerusform>a</numerusform><numerusform>b</numerusform></translation>',
        '<translation type="unfinished"><numerusform>%n Ding</numerusform><numerusform>%n Dinge</numerusform></translation>',
      ),
    );
  });

  it('keeps a byte order mark', () => {
    const src = `\ufeff${text}`;
    const out = ts.write(
      encoder.encode(src),
      [{ context: units[2]!.context, source: units[2]!.source, target: ['x'], state: State.TRANSLATED }],
      ctxFor('bom.ts'),
    );
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(parseText(decoder.decode(out)).units[2]!.target).toEqual(['x']);
  });

  it('refuses to remove a unit that is not in a bilingual file', () => {
    expect(() => writeText(text, [{ context: 'Nope', source: ['x'], target: [''], state: State.EMPTY, remove: true }])).toThrow(FormatWriteError);
  });
});

describe('format ts: where new and removed messages go', () => {
  const text = decoder.decode(fixture('ts/features.ts'));

  it('appends a new message at the end of its context, before </context>', () => {
    const out = writeText(text, [{ context: 'Dialog', source: ['Apply'], target: ['Použít'], state: State.TRANSLATED }]);
    const { removed, added } = changedLines(text, out);
    expect(removed).toEqual([]);
    expect(added).toEqual(['    <message>', '        <source>Apply</source>', '        <translation>Použít</translation>', '    </message>']);
    expect(out.indexOf('<source>Apply</source>')).toBeGreaterThan(out.indexOf('Nedávno odstraněno'));
    expect(out.indexOf('<source>Apply</source>')).toBeLessThan(out.indexOf('<name>Help</name>'));
  });

  it('creates a missing context at the end of the file, with the disambiguation as <comment>', () => {
    const out = writeText(text, [{ context: 'Toolbar\nverb', source: ['Run'], target: [''], state: State.EMPTY }]);
    expect(
      out.endsWith(
        '<context>\n    <name>Toolbar</name>\n    <message>\n        <source>Run</source>\n        <comment>verb</comment>\n        <translation type="unfinished"></translation>\n    </message>\n</context>\n</TS>\n',
      ),
    ).toBe(true);
    const added = parseText(out).units.find((u) => u.source[0] === 'Run');
    expect(added).toMatchObject({ context: 'Toolbar\nverb', state: State.EMPTY, position: 15 });
  });

  it('removes a message together with its lines', () => {
    const store = parseText(text);
    const u = store.units[6];
    const out = writeText(text, [{ context: u!.context, source: u!.source, target: u!.target, state: u!.state, remove: true }]);
    expect(out).toBe(text.replace('    <message>\n        <source>OK</source>\n        <translation></translation>\n    </message>\n', ''));
    expect(out.length).toBeLessThan(text.length);
  });

  it('clones a missing monolingual unit from the template without its notes', () => {
    const ctx = ctxFor('app_de.ts', 'de', 'ts/app_en.ts');
    const src = decoder.decode(fixture('ts/app_de.ts'));
    const out = writeText(src, [{ context: 'MainWindow\nfile.menu&File', source: ['&File'], target: ['&Datei'], state: State.TRANSLATED }], ctx);
    expect(changedLines(src, out).added).toEqual([
      '    <message id="file.menu">',
      '        <location filename="../src/mainwindow.cpp" line="10"/>',
      '        <source>&amp;File</source>',
      '        <translation>&amp;Datei</translation>',
      '    </message>',
    ]);
    expect(parseText(out, ctx).units[0]).toMatchObject({ target: ['&Datei'], state: State.TRANSLATED, note: 'Menu title' });
  });

  it('clones into a context the translation file does not have yet', () => {
    const ctx = ctxFor('app_de.ts', 'de', 'ts/app_en.ts');
    const src = '<TS version="2.1" language="de">\n<context>\n    <name>MainWindow</name>\n</context>\n</TS>\n';
    const out = writeText(src, [{ context: 'SettingsTheme', source: ['Theme'], target: ['Design'], state: State.TRANSLATED }], ctx);
    expect(out).toBe(
      `${src.slice(0, -6)}<context>\n    <name>Settings</name>\n    <message>\n        <source>Theme</source>\n        <translation>Design</translation>\n    </message>\n</context>\n</TS>\n`,
    );
  });
});

describe('format ts: new files from new_base', () => {
  it('needs a base file', () => {
    expect(() => ts.create(null, ctxFor('new.ts', 'fr'))).toThrow(FormatWriteError);
  });

  it("empties translated messages with the language's number of forms and keeps vanished ones", () => {
    const out = decoder.decode(ts.create(fixture('ts/base.ts'), { ...ctxFor('new.ts', 'pl'), plurals: 3 }));
    expect(out).toContain('<TS version="2.1" sourcelanguage="en" language="pl">');
    expect(out).toContain(
      '        <translation type="unfinished">\n            <numerusform></numerusform>\n            <numerusform></numerusform>\n            <numerusform></numerusform>\n        </translation>',
    );
    expect(out).toContain('<translation type="vanished">Gone</translation>');
    expect(out).toContain('<extracomment>File menu item</extracomment>');
    const units = parseText(out).units;
    expect(units.map((u) => u.state)).toEqual([State.EMPTY, State.EMPTY, State.EMPTY, State.EMPTY]);
  });

  it('replaces an existing language attribute and keeps fuzzy text', () => {
    const out = decoder.decode(ts.create(fixture('ts/de_DE.ts'), ctxFor('new.ts', 'pt_BR')));
    expect(out).toContain('<TS version="2.1" language="pt_BR" sourcelanguage="en">');
    expect(out).toContain('<translation type="unfinished">Öffnen</translation>');
    const states = parseText(out).units.map((u) => u.state);
    expect(states).toEqual([State.EMPTY, State.FUZZY, State.EMPTY, State.EMPTY, State.EMPTY, State.EMPTY]);
  });
});
