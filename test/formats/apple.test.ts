// Apple .strings (UTF-16 and UTF-8) and .stringsdict: the shared conformance suite, encodings, escapes, plural categories.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FormatParseError } from '../../src/domain/errors.js';
import { calculateHash } from '../../src/domain/hash.js';
import { State } from '../../src/domain/unit.js';
import { countWords } from '../../src/domain/words.js';
import { decodeStringsValue, escapeStringsValue } from '../../src/formats/apple/strings.js';
import { type DictUnit, type StringsdictInternal, readPlainShape, readPlainUnits, readStringsdict } from '../../src/formats/apple/stringsdict.js';
import type { FormatContext, FormatId, UnitWrite } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { lookupUnicodeName } from '../../src/formats/unicode-names.js';
import { thrownBy } from '../helpers/errors.js';
import { type ToolkitResult, describeToolkit, toolkitUnits } from '../helpers/toolkit.js';
import { FIXTURES, changedLines, fixture, runConformance } from './conformance.js';

const T = State.TRANSLATED;
const E = State.EMPTY;
const encoder = new TextEncoder();
const utf16 = (text: string) => new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])]);
const set = (context: string, target: string[]): UnitWrite => ({ context, source: [], target, state: T });

function open(format: FormatId, bytes: Uint8Array, language: string, templateFile: string | null) {
  const f = getFormat(format);
  const ctx: FormatContext = { filename: `${language}.lproj/x`, language, sourceLanguage: 'en' };
  if (templateFile) ctx.template = f.parse(fixture(templateFile), { filename: templateFile, language: 'en', sourceLanguage: 'en' });
  const store = f.parse(bytes, ctx);
  return { f, ctx, store, write: (edits: UnitWrite[]) => f.write(bytes, edits, ctx) };
}

runConformance({
  format: 'strings-utf8',
  cases: [
    {
      name: 'the template read alone: bilingual, the decoded key as source and the key as context',
      file: 'apple/en.lproj/Localizable.strings',
      language: 'en',
      count: 7,
      units: {
        0: {
          context: 'welcome',
          source: ['welcome'],
          target: ['Welcome, %@!'],
          note: 'Shown on the first screen',
          idHash: calculateHash('welcome', 'welcome'),
        },
        1: { context: 'escaped "key"', source: ['escaped "key"'], target: ['Say "hi"\n\ttab \\ back é'], note: '' },
        2: { context: 'inline', note: 'inline note' },
        3: { context: 'NSCameraUsageDescription', target: ['Takes photos'] },
        4: { context: 'multi', target: ['line oneline two'] },
        5: { context: 'empty', target: [''], state: E },
      },
      edit: { index: 1, target: ['Say "hello"\nagain'], maxChangedLines: 1, expectText: '"escaped \\"key\\"" = "Say \\"hello\\"\\nagain";' },
    },
    {
      name: 'a Czech file against the template (a multi-line value, a missing key)',
      file: 'apple/cs.lproj/Localizable.strings',
      template: 'apple/en.lproj/Localizable.strings',
      language: 'cs',
      count: 7,
      units: {
        0: {
          context: 'welcome',
          source: ['Welcome, %@!'],
          target: ['Vítejte, %@!'],
          state: T,
          note: 'Shown on the first screen',
          idHash: calculateHash('welcome'),
        },
        2: { context: 'inline', target: ['Vložený'], note: 'inline note\n' },
        4: { context: 'multi', source: ['line oneline two'], target: ['řádek'] },
        6: { context: 'last', target: [''], state: E },
      },
      edit: { index: 0, target: ['Ahoj, %@!'], maxChangedLines: 1, expectText: '"welcome" = "Ahoj, %@!";' },
      add: { write: set('last', ['Poslední']), expectText: '"inline" = "Vložený";\n"last" = "Poslední";\n' },
      remove: { index: 4 },
    },
  ],
  create: [
    { base: null, language: 'fr', template: 'apple/en.lproj/Localizable.strings', count: 7, expectText: '\n' },
    { base: 'apple/cs.lproj/Localizable.strings', language: 'fr', template: 'apple/en.lproj/Localizable.strings', count: 7, expectText: '"welcome" = "";' },
  ],
  bad: [
    { name: 'a UTF-16 file read as UTF-8', text: utf16('"a" = "b";\n'), line: 1 },
    { name: 'a quoted key that never closes', text: '"a" = "b";\n"unterminated\n', line: 2 },
    { name: 'a first entry without "="', text: 'just some text\n"a" = "b";\n', line: 1 },
    { name: 'bytes that are not UTF-8', text: new Uint8Array([...encoder.encode('"a" = "'), 0xe9, ...encoder.encode('";\n')]), line: 1 },
  ],
});

runConformance({
  format: 'strings',
  cases: [
    {
      name: 'a UTF-16 file with a BOM and CRLF line ends',
      file: 'apple/de.lproj/Localizable.strings',
      language: 'de',
      count: 2,
      units: { 0: { context: 'welcome', source: ['welcome'], target: ['Willkommen, %@!'], state: T }, 1: { context: 'last', target: ['Letzte'] } },
    },
  ],
  bad: [{ name: 'a UTF-8 file read as UTF-16', text: '"a" = "b";\n', line: 1 }],
});

runConformance({
  format: 'stringsdict',
  cases: [
    {
      name: 'a Czech file against its template (categories with zero first, a missing entry)',
      file: 'apple/cs.lproj/Localizable.stringsdict',
      template: 'apple/en.lproj/Localizable.stringsdict',
      language: 'cs',
      count: 4,
      units: {
        0: { context: 'files.count', source: ['%#@files@'], target: ['%#@files@'], state: T, idHash: calculateHash('files.count') },
        1: { context: 'files.count:files', source: ['No files', '%ld file', '%ld files'], target: ['', '%ld soubor', '%ld soubory', '%ld souborů'], state: T },
        2: { context: 'people', source: ['%#@people@ & more'], target: [''], state: E },
        3: { context: 'people:people', source: ['', '%ld person', '%ld people'], target: [''], state: E },
      },
      edit: { index: 1, target: ['', '%ld soubor', '%ld soubory!', '%ld souborů'], maxChangedLines: 1, expectText: '<string>%ld soubory!</string>' },
      add: { write: set('people:people', ['', '%ld osoba', '%ld osoby', '%ld osob']), expectText: '<key>few</key>' },
    },
  ],
  create: [
    { base: null, language: 'fr', template: 'apple/en.lproj/Localizable.stringsdict', count: 4, expectText: '<dict>' },
    {
      base: 'apple/en.lproj/Localizable.stringsdict',
      language: 'fr',
      template: 'apple/en.lproj/Localizable.stringsdict',
      count: 4,
      expectText: '<key>NSStringFormatValueTypeKey</key>',
    },
  ],
  bad: [
    { name: 'a root other than <plist>', text: '<?xml version="1.0"?>\n<dict/>\n', line: 2 },
    { name: 'a top-level value that is not a dict', text: '<plist>\n<dict>\n<key>a</key>\n<string>x</string>\n</dict>\n</plist>\n', line: 3 },
    {
      name: 'a variable of another rule type',
      text: '<plist><dict><key>a</key><dict>\n<key>v</key><dict><key>NSStringFormatSpecTypeKey</key><string>Other</string></dict></dict></dict></plist>',
      line: 2,
    },
  ],
});

describe('strings: values and encodings', () => {
  it('decodes the escapes Translate Toolkit decodes and drops other backslashes', () => {
    expect(decodeStringsValue('a\\"b\\n\\t\\\\\\u00e9\\U00E8\\x\\\'')).toBe('a"b\n\t\\éèx\'');
    expect(escapeStringsValue('a"b\n\t\\')).toBe('a\\"b\\n\\t\\\\');
  });

  it('decodes \\N{NAME} by Python’s Unicode names, keeps \\N without {…}, and refuses an unknown name with its line', () => {
    expect(decodeStringsValue('Caf\\N{LATIN SMALL LETTER E WITH ACUTE} \\N{degree sign}')).toBe('Café °');
    // aliases and corrected names; algorithmic names only in upper case, as Python reads them
    expect(decodeStringsValue('\\N{BOM}\\N{LATIN CAPITAL LETTER OI}\\N{HANGUL SYLLABLE GAG}\\N{CJK UNIFIED IDEOGRAPH-4E00}')).toBe('\ufeffƢ각一');
    expect(lookupUnicodeName('hangul syllable gag')).toBeNull();
    expect(lookupUnicodeName('CJK UNIFIED IDEOGRAPH-4e00')).toBeNull();
    expect(lookupUnicodeName('TANGUT IDEOGRAPH-17000')).toBeNull();
    expect(lookupUnicodeName('KHITAN SMALL SCRIPT CHARACTER-18B00')).toBe('\u{18b00}');
    // no {…}: the toolkit keeps the backslash and N; an unclosed { is dropped
    expect(decodeStringsValue('a\\Nb \\N{DEGREE SIGN')).toBe('a\\Nb \\NDEGREE SIGN');
    const bad = encoder.encode('"a" = "ok";\n"b" = "x \\N{NO SUCH CHARACTER}";\n');
    let error: unknown;
    try {
      getFormat('strings-utf8').parse(bad, { filename: 'de.lproj/Localizable.strings', language: 'de', sourceLanguage: 'en' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatParseError);
    expect((error as FormatParseError).data).toMatchObject({ filename: 'de.lproj/Localizable.strings', line: 2, column: 7 });
    expect(() => decodeStringsValue('x\\N')).toThrow(FormatParseError);
  });

  it('reads UTF-16 with a BOM and CRLF, writes an edit back in UTF-16LE with its BOM and CRLF', () => {
    const bytes = fixture('apple/de.lproj/Localizable.strings');
    const { store, write, f, ctx } = open('strings', bytes, 'de', null);
    expect(store.units.find((u) => u.context === 'welcome')?.target).toEqual(['Willkommen, %@!']);
    const out = write([set('welcome', ['Hallo, %@!'])]);
    expect([out[0], out[1]]).toEqual([0xff, 0xfe]);
    const text = new TextDecoder('utf-16le').decode(out.subarray(2));
    expect(text).toBe('"welcome" = "Hallo, %@!";\r\n"last" = "Letzte";\r\n');
    expect(f.parse(out, ctx).units.find((u) => u.context === 'welcome')?.target).toEqual(['Hallo, %@!']);
  });

  it('reads UTF-16 without a BOM in either byte order', () => {
    const le = new Uint8Array([...'"a" = "b";\n'].flatMap((c) => [c.charCodeAt(0), 0]));
    const be = new Uint8Array([...'"a" = "b";\n'].flatMap((c) => [0, c.charCodeAt(0)]));
    for (const bytes of [le, be]) {
      const units = getFormat('strings').parse(bytes, { filename: 'x.strings', language: 'en', sourceLanguage: 'en' }).units;
      expect(units.map((u) => u.target)).toEqual([['b']]);
      expect(
        Buffer.from(getFormat('strings').write(bytes, [], { filename: 'x.strings', language: 'en', sourceLanguage: 'en' })).equals(Buffer.from(bytes)),
      ).toBe(true);
    }
  });

  it('names the right format when the encoding is wrong', () => {
    const err = (() => {
      try {
        getFormat('strings').parse(encoder.encode('"a" = "b";\n'), { filename: 'x.strings', language: 'en', sourceLanguage: 'en' });
      } catch (e) {
        return e as FormatParseError;
      }
    })();
    expect(err).toBeInstanceOf(FormatParseError);
    expect(err?.data.reason).toContain('strings-utf8');
  });

  it('replaces a multi-line value whole and adds a key to a file without a final newline', () => {
    const text = '"multi" = "line one\n   line two";\n"welcome" = "Hi"';
    const { write } = open('strings-utf8', encoder.encode(text), 'cs', 'apple/en.lproj/Localizable.strings');
    const decoder = new TextDecoder();
    expect(decoder.decode(write([set('multi', ['one line'])]))).toBe('"multi" = "one line";\n"welcome" = "Hi"');
    expect(decoder.decode(write([set('last', ['Konec'])]))).toBe(`${text}\n"last" = "Konec";\n`);
    expect(decoder.decode(write([set('NSCameraUsageDescription', ['Fotí'])]))).toContain('\nNSCameraUsageDescription = "Fotí";\n');
  });
});

describe('stringsdict: writing', () => {
  it('removes an emptied category and adds a new one in CLDR order, leaving the rest of the file alone', () => {
    const bytes = fixture('apple/cs.lproj/Localizable.stringsdict');
    const { write } = open('stringsdict', bytes, 'cs', 'apple/en.lproj/Localizable.stringsdict');
    const before = new TextDecoder().decode(bytes);
    const after = new TextDecoder().decode(write([set('files.count:files', ['Žádné', '%ld soubor', '', '%ld souborů'])]));
    const expected = before
      .replace('\t\t\t<key>one</key>', '\t\t\t<key>zero</key>\n\t\t\t<string>Žádné</string>\n\t\t\t<key>one</key>')
      .replace('\t\t\t<key>few</key>\n\t\t\t<string>%ld soubory</string>\n', '');
    expect(after).toBe(expected);
    expect(changedLines(before, after).removed).toHaveLength(4);
  });

  it('adds a whole entry missing from the file, format key and variable, before the closing </dict>', () => {
    const bytes = fixture('apple/cs.lproj/Localizable.stringsdict');
    const { write, f, ctx } = open('stringsdict', bytes, 'cs', 'apple/en.lproj/Localizable.stringsdict');
    const out = write([set('people', ['%#@people@ a další']), set('people:people', ['', '%ld osoba', '%ld osoby', '%ld osob'])]);
    const units = f.parse(out, ctx).units;
    expect(units.find((u) => u.context === 'people')?.target).toEqual(['%#@people@ a další']);
    expect(units.find((u) => u.context === 'people:people')?.target).toEqual(['', '%ld osoba', '%ld osoby', '%ld osob']);
    expect(new TextDecoder().decode(out)).toContain('\t<key>people</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n');
  });
});

describe('stringsdict: a parse reads the units from the tokens, the tree where the file is not of the plain shape', () => {
  const plist = (
    body: string,
    head = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n',
  ) => `${head}<plist version="1.0">\n<dict>\n${body}\n</dict>\n</plist>\n`;
  const variable = (pairs: string) =>
    `<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>ld</string>${pairs}`;
  const entry = (key: string, format: string, pairs: string) =>
    `<key>${key}</key>\n<dict>\n<key>NSStringLocalizedFormatKey</key>\n${format}\n<key>n</key>\n<dict>${variable(pairs)}</dict>\n</dict>`;
  const light = (entries: readonly DictUnit[] | null) =>
    entries?.map(({ id, plural, text, forms, format }) => ({
      id,
      plural,
      text,
      format,
      forms: forms.map(({ key, text }) => ({ key, text })),
    }));

  it('reads the same units as the tree from plain files: a DOCTYPE, BOM, CRLF, comments, CDATA, references, repeated keys, non-ASCII, empty values', () => {
    const plain = [
      plist(entry('a', '<string>%#@n@</string>', '<key>one</key><string>%ld soubor</string><key>other</key><string>%ld souborů</string>')),
      `\ufeff${plist(entry('a', '<string>x</string>', '<key>one</key><string>1</string>'))}`,
      plist(entry('a', '<string>x</string>', '<key>one</key><string>1</string>')).replaceAll('\n', '\r\n'),
      plist(
        `<!-- c -->${entry('a', '<string><!-- in -->x<![CDATA[<b> & ]]>y &amp; &#233; &lt;</string>', '<!-- c --><key>one</key><string/><key>one</key><string>later</string>')}`,
      ),
      plist(entry('a', '<true/>', '<key>other</key><integer>3</integer><key>few</key><false></false>')),
      plist(`${entry('a', '<string>x</string>', '')}\n${entry('a', '<string>y</string>', '<key>one</key><string>again</string>')}`),
      plist(entry('日本', '<string>件</string>', '<key>other</key><string>%ld 件</string>')),
      // a repeated spec type and value type: the first of each, the first value type empty
      plist(
        '<key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string/><key>NSStringFormatSpecTypeKey</key><string>Other</string><key>NSStringFormatValueTypeKey</key><string>lu</string><key>one</key><string>1</string></dict></dict>',
      ),
      plist(''),
      '<plist/>',
      '<plist><dict/></plist>',
    ];
    for (const text of plain) {
      const bytes = encoder.encode(text);
      const units = readPlainUnits(bytes, 'x.stringsdict');
      expect(units, text).not.toBeNull();
      expect(light(units), text).toEqual(light(readStringsdict(bytes, 'x.stringsdict').entries));
    }
    expect(readPlainUnits(encoder.encode(plain[3]!), 'x')?.find((e) => e.id === 'a')?.text).toBe('x<b> & y & é <');
  });

  it('lists a file against its template by id whatever its order, and a template that repeats an id with the last of it as target', () => {
    const f = getFormat('stringsdict');
    const forms = (one: string) => `<key>one</key><string>${one}</string><key>other</key><string>${one}s</string>`;
    const tctx = { filename: 'en.lproj/x.stringsdict', language: 'en', sourceLanguage: 'en' };
    const tbytes = encoder.encode(
      plist(
        `${entry('a', '<string>x</string>', forms('1 file,\u00a0 in\ttotal'))}\n${entry('b', '<string>b</string>', '')}\n${entry('a', '<string>y</string>', forms('2'))}`,
      ),
    );
    const own = f.parseTemplate(tbytes, tctx, true).units;
    expect(own.map((u) => [u.context, u.source, u.target])).toEqual([
      ['a', ['x'], ['y']],
      ['a:n', ['', '1 file,\u00a0 in\ttotal', '1 file,\u00a0 in\ttotals'], ['', '2', '2s']],
      ['b', ['b'], ['b']],
      ['b:n', ['', '', ''], ['', '', '']],
    ]);
    expect(own).toEqual(f.parse(tbytes, { ...tctx, template: f.parse(tbytes, tctx) }).units);
    // the words of the sources, counted from the bytes their content hashes read
    expect(own.map((u) => u.numWords)).toEqual(own.map((u) => countWords(u.source)));
    expect(own[1]!.numWords).toBe(8);
    // a file in another order than its template's, with an id the template lacks and an entry whose id is a variable's
    const template = f.parseTemplate(tbytes, tctx, false);
    const ctx = { filename: 'cs.lproj/x.stringsdict', language: 'cs', sourceLanguage: 'en', template };
    const bytes = encoder.encode(
      plist(
        `${entry('b', '<string>B</string>', '')}\n${entry('c', '<string>C</string>', '')}\n${entry('a', '<string>A</string>', forms('J'))}\n<key>a:n</key><dict><key>NSStringLocalizedFormatKey</key><string>not the variable</string></dict>`,
      ),
    );
    expect(f.parse(bytes, ctx).units.map((u) => [u.context, u.target])).toEqual([
      ['a', ['A']],
      ['a:n', ['not the variable']],
      ['b', ['B']],
      ['b:n', ['', '', '', '']],
    ]);
  });

  it('leaves the rest to the tree, whose units and errors a parse gives', () => {
    const others = [
      plist(entry('a', '<string>x<b>bold</b></string>', '')),
      plist(entry('a', '<array><string>x</string></array>', '')),
      plist(entry('a', '<foo>x</foo>', '')),
      plist(entry('a', '<string>x</string>', '<key>one</key><dict/>')),
      `<plist><dict/><string>ignored</string></plist>`,
    ];
    const f = getFormat('stringsdict');
    for (const text of others) {
      const bytes = encoder.encode(text);
      expect(readPlainUnits(bytes, 'x.stringsdict'), text).toBeNull();
      const units = f.parse(bytes, { filename: 'x.stringsdict', language: 'cs', sourceLanguage: 'en' }).units;
      expect(
        units.map((u) => u.context),
        text,
      ).toEqual(readStringsdict(bytes, 'x.stringsdict').entries.map((e) => e.id));
    }
    const broken = encoder.encode(plist('<key>a</key>\n<string>x</string>'));
    expect(readPlainUnits(broken, 'x.stringsdict')).toBeNull();
    const error = thrownBy(FormatParseError, () => getFormat('stringsdict').parse(broken, { filename: 'x.stringsdict', language: 'cs', sourceLanguage: 'en' }));
    expect(error.data.line).toBe(5);
    const rule = encoder.encode(plist('<key>a</key>\n<dict><key>v</key>\n<dict><key>NSStringFormatSpecTypeKey</key><string>Other</string></dict></dict>'));
    expect(readPlainUnits(rule, 'x.stringsdict')).toBeNull();
    expect(
      thrownBy(FormatParseError, () => getFormat('stringsdict').parse(rule, { filename: 'x.stringsdict', language: 'cs', sourceLanguage: 'en' })).data.line,
    ).toBe(6);
    // malformed XML fails in the token reader as in the tree, at the same place
    const malformed = encoder.encode(`\ufeff<plist><dict><key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>x</strin></dict></dict></plist>`);
    const fromTokens = thrownBy(FormatParseError, () => readPlainUnits(malformed, 'x.stringsdict'));
    expect(fromTokens.data).toEqual(thrownBy(FormatParseError, () => readStringsdict(malformed, 'x.stringsdict')).data);
  });
});

describe('stringsdict: the plain shape read without tokens, every other file by the general path', () => {
  // a file as Xcode writes it: the prolog, tabs, one entry with a format string and a variable
  const head =
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n';
  const body = [
    '<plist version="1.0">',
    '<dict>',
    '\t<key>files.count</key>',
    '\t<dict>',
    '\t\t<key>NSStringLocalizedFormatKey</key>',
    '\t\t<string>%#@files@ in total</string>',
    '\t\t<key>files</key>',
    '\t\t<dict>',
    '\t\t\t<key>NSStringFormatSpecTypeKey</key>',
    '\t\t\t<string>NSStringPluralRuleType</string>',
    '\t\t\t<key>NSStringFormatValueTypeKey</key>',
    '\t\t\t<string>ld</string>',
    '\t\t\t<key>one</key>',
    '\t\t\t<string>%ld soubor</string>',
    '\t\t\t<key>other</key>',
    '\t\t\t<string>%ld souborů</string>',
    '\t\t</dict>',
    '\t</dict>',
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
  const plain = head + body;
  const light = (entries: readonly DictUnit[] | null) =>
    entries?.map(({ id, plural, text, forms, format }) => ({ id, plural, text, format, forms: forms.map(({ key, text }) => ({ key, text })) }));
  const latin1 = (text: string) => Buffer.from(text, 'latin1');

  it('reads the units the token reader reads from files of that shape', () => {
    const files: Record<string, string | Uint8Array> = {
      plain,
      'a BOM': `\ufeff${plain}`,
      'no XML declaration': plain.slice(plain.indexOf('<!DOCTYPE')),
      'no DOCTYPE': `<?xml version="1.0" encoding="utf-8"?>\n${body}`,
      'neither, and <plist> without a version': body.replace('<plist version="1.0">', '<plist>'),
      'spaces, and the whole file on one line': plain.replaceAll('\t', '    ').replace(/>\s+</g, '><'),
      'keys and values in several scripts, a character outside the BMP, a tab, a newline and a ">" in a value': plain
        .replace('files.count', 'файлы.число')
        .replace('%ld soubor<', '%ld 件 😀\t>\n<')
        .replace('<key>one</key>', '<key>one</key>'),
      'text among the elements (both general readers drop it)': plain.replace('\t\t<key>files</key>', '\t\tnot a tag, é\n\t\t<key>files</key>'),
      'empty values and keys': plain.replace('%ld soubor', '').replace('files.count', ''),
      'repeated spec and value types, the first of each taken': plain.replace(
        '\t\t\t<key>one</key>',
        '\t\t\t<key>NSStringFormatValueTypeKey</key><string>lu</string><key>NSStringFormatSpecTypeKey</key><string>Other</string>\n\t\t\t<key>one</key>',
      ),
      'a spec type left empty': plain.replace('<string>NSStringPluralRuleType</string>', '<string></string>'),
      'an empty dict': `${head}<plist version="1.0">\n<dict>\n</dict>\n</plist>`,
    };
    for (const [name, text] of Object.entries(files)) {
      const bytes = typeof text === 'string' ? encoder.encode(text) : text;
      const units = readPlainShape(bytes);
      expect(units, name).not.toBeNull();
      expect(light(units), name).toEqual(light(readPlainUnits(bytes, 'x.stringsdict')));
    }
    expect(readPlainShape(encoder.encode(files[Object.keys(files)[6]!] as string))?.map((e) => e.forms.find((f) => f.key === 'one')?.text ?? e.text)).toEqual([
      '%#@files@ in total',
      '%ld 件 😀\t>\n',
    ]);
  });

  it('leaves every other file to the general path: its units, or its error with the same line and column', () => {
    const others: Record<string, string | Uint8Array> = {
      'a comment': plain.replace('\t\t\t<key>one</key>', '\t\t\t<!-- one --><key>one</key>'),
      CDATA: plain.replace('%ld soubor<', '<![CDATA[%ld <b>soubor</b>]]><'),
      'a processing instruction past the prolog': plain.replace('\t<dict>', '\t<?pi x?><dict>'),
      'an entity reference in a value': plain.replace('%ld soubor<', '%ld &amp; soubor<'),
      'a character reference in a key': plain.replace('<key>files.count', '<key>files&#46;count'),
      'an undefined entity (an error)': plain.replace('%ld soubor<', '%ld &nbsp; soubor<'),
      'an attribute': plain.replace('<key>one</key>', '<key xml:lang="cs">one</key>'),
      'another attribute on <plist>': plain.replace('<plist version="1.0">', '<plist version="1.0" xmlns:x="y">'),
      'a space in a tag': plain.replace('\t<dict>', '\t<dict >'),
      '<string/>': plain.replace('<string>%ld soubor</string>', '<string/>'),
      'another scalar': plain.replace('<string>%ld soubor</string>', '<integer>1</integer>'),
      'another rule type, which the tree reader refuses (an error)': plain.replace('<string>NSStringPluralRuleType</string>', '<string>Other</string>'),
      'a value of a variable that is a dict': plain.replace('<string>%ld soubor</string>', '<dict/>'),
      'CRLF line ends': plain.replaceAll('\n', '\r\n'),
      'a CR in a value': plain.replace('%ld soubor', '%ld\rsoubor'),
      'a control character XML forbids (an error)': plain.replace('%ld soubor', '%ld\u0001soubor'),
      'U+FFFF (an error)': plain.replace('%ld soubor', '%ld\uffffsoubor'),
      "']]>' in a value (an error)": plain.replace('%ld soubor', '%ld ]]> soubor'),
      'invalid UTF-8 (an error)': latin1(plain.replace('%ld soubor', '%ld \xff soubor')),
      'Latin-1 declared (an error)': plain.replace('UTF-8', 'ISO-8859-1'),
      'a standalone declaration': plain.replace('encoding="UTF-8"', 'encoding="UTF-8" standalone="yes"'),
      'whitespace before the declaration (an error)': ` ${plain}`,
      'a DOCTYPE with an internal subset': plain.replace('.dtd">', '.dtd" [<!ENTITY n "soubor">]>'),
      'a mismatched end tag (an error)': plain.replace('soubor</string>', 'soubor</strin>'),
      'a dict not closed (an error)': plain.replace('\t\t</dict>\n', ''),
      'a file cut short (an error)': plain.slice(0, plain.indexOf('<key>other')),
      'text after the root element (an error)': `${plain}x`,
      'a comment after the root element': `${plain}<!-- end -->\n`,
      'a second root element (an error)': `${plain}<plist/>`,
      'an empty plist': `${head}<plist version="1.0"/>`,
      'a key of the outer dict without a dict (an error)': plain.replace(
        '\t<key>files.count</key>\n\t<dict>',
        '\t<key>files.count</key>\n\t<string>x</string>\n\t<dict>',
      ),
      'a key without its value (an error)': plain.replace('\t\t\t<string>%ld soubor</string>\n', ''),
      'an element of another name (an error)': plain.replace('<key>one</key>', '<keys>one</keys>'),
    };
    const f = getFormat('stringsdict');
    const outcome = (read: () => readonly DictUnit[]) => {
      try {
        return { units: light(read()) };
      } catch (e) {
        if (!(e instanceof FormatParseError)) throw e;
        return { code: e.code, data: e.data };
      }
    };
    let errors = 0;
    for (const [name, text] of Object.entries(others)) {
      const bytes = typeof text === 'string' ? encoder.encode(text) : text;
      expect(readPlainShape(bytes), name).toBeNull();
      const general = outcome(() => readPlainUnits(bytes, 'x.stringsdict') ?? readStringsdict(bytes, 'x.stringsdict').entries);
      const parsed = outcome(
        () => (f.parse(bytes, { filename: 'x.stringsdict', language: 'cs', sourceLanguage: 'en' }).internal as StringsdictInternal).stringsdict.entries,
      );
      expect(parsed, name).toEqual(general);
      expect('code' in general, name).toBe(name.endsWith('(an error)'));
      if ('code' in general) errors++;
    }
    expect(errors).toBe(16);
    // a malformed file's error names its line and column, as before
    const cut = thrownBy(FormatParseError, () =>
      f.parse(encoder.encode(others['a mismatched end tag (an error)'] as string), { filename: 'x', language: 'cs', sourceLanguage: 'en' }),
    );
    expect([cut.data.line, cut.data.column]).toEqual([16, 22]);
  });
});

describeToolkit('strings: \\N{NAME} escapes as Debian’s Translate Toolkit decodes them', () => {
  const file = path.join(FIXTURES, 'apple/escapes/Localizable.strings');
  let result: ToolkitResult;
  beforeAll(async () => {
    result = await toolkitUnits(file, 'strings-utf8');
  }, 60_000);

  it('every key and value of the fixture: context, source, target and id_hash', () => {
    const { store } = open('strings-utf8', fixture('apple/escapes/Localizable.strings'), 'en', null);
    const theirs = result.units.filter((u) => !u.blank && !u.header).map((u) => u.weblate);
    const ours = store.units.map((u) => ({ context: u.context, source: u.source, target: u.target, idHash: u.idHash }));
    expect(ours).toEqual(theirs.map(({ context, source, target, idHash }) => ({ context, source, target, idHash })));
    // the fixture decodes something in every entry but the one that keeps its \N
    expect(ours.filter((u) => u.target[0]!.includes('\\N'))).toHaveLength(1);
    expect(ours.find((u) => u.context === 'key \\N{DEGREE SIGN}')).toMatchObject({ source: ['key °'], target: ['20 °C'] });
  });
});
