// Android string resources (`aresource`): the shared conformance suite, escaping both ways, markup modes, plurals and new keys.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { translationChecks } from '../../src/checks/index.js';
import { FormatParseError } from '../../src/domain/errors.js';
import { calculateHash } from '../../src/domain/hash.js';
import { State } from '../../src/domain/unit.js';
import { decodeText, escapeAndroid } from '../../src/formats/android/escape.js';
import type { FormatContext, UnitWrite } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { xmlFlags } from '../../src/formats/xml/flags.js';
import { type ToolkitResult, describeToolkit, toolkitStores } from '../helpers/toolkit.js';
import { FIXTURES, changedLines, runConformance } from './conformance.js';

const T = State.TRANSLATED;
const E = State.EMPTY;
const encoder = new TextEncoder();
const decode = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
const aresource = getFormat('aresource');

const TEMPLATE = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <!-- shown on the launcher -->
    <string name="app_name">App</string>
    <string name="greeting">Hello</string>
    <plurals name="files">
        <item quantity="one">%d file</item>
        <item quantity="other">%d files</item>
    </plurals>
    <string name="styled">Tap <b>here</b></string>
</resources>
`;

/** Parses `text` as the `language` translation of TEMPLATE (or of `template`). */
function open(text: string, language = 'cs', template = TEMPLATE) {
  const ctx: FormatContext = { filename: `values-${language}/strings.xml`, language, sourceLanguage: 'en' };
  ctx.template = aresource.parse(encoder.encode(template), { filename: 'values/strings.xml', language: 'en', sourceLanguage: 'en' });
  const bytes = encoder.encode(text);
  const store = aresource.parse(bytes, ctx);
  const write = (edits: UnitWrite[]) => decode(aresource.write(bytes, edits, ctx));
  const unit = (key: string) => store.units.find((u) => u.context === key)!;
  return { ctx, bytes, store, write, unit };
}

const set = (context: string, target: string[], state: UnitWrite['state'] = T): UnitWrite => ({ context, source: [], target, state });

runConformance({
  format: 'aresource',
  cases: [
    {
      name: 'the template read alone (values/strings.xml)',
      file: 'android/values/strings.xml',
      language: 'en',
      count: 16,
      units: {
        0: { context: 'app_name', source: ['Tiny App'], target: ['Tiny App'], note: ' The application name ', idHash: calculateHash('app_name') },
        10: { context: 'nontrans', state: State.READONLY },
      },
      edit: { index: 0, target: ['Tiny "App"'], maxChangedLines: 1, expectText: '<string name="app_name">Tiny \\"App\\"</string>' },
    },
    {
      name: 'a Czech translation against its template (plurals in CLDR order, notes, a missing key)',
      file: 'android/values-cs/strings.xml',
      template: 'android/values/strings.xml',
      language: 'cs',
      count: 16,
      units: {
        0: {
          context: 'app_name',
          source: ['Tiny App'],
          target: ['Malá aplikace'],
          state: T,
          idHash: calculateHash('app_name'),
          contentHash: calculateHash('Tiny App', 'app_name'),
        },
        1: { context: 'quoted', source: ['  two  spaces  '], target: [''], state: E },
        2: { context: 'escapes', target: ["To je 'ono'"], note: '\n translator note ', state: T },
        9: { context: 'ref', note: ' first \n second \n' },
        10: { context: 'nontrans', state: State.READONLY, target: [''] },
        11: { context: 'files', source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'], state: T },
      },
      edit: { index: 0, target: ['Aplikace'], maxChangedLines: 1, expectText: '<string name="app_name">Aplikace</string>' },
      add: { write: set('quoted', ['  dvě  mezery  ']), expectText: '    <string name="quoted">"  dvě  mezery  "</string>\n</resources>' },
      remove: { index: 2 },
    },
    {
      name: 'a German file with a BOM and CRLF line ends',
      file: 'android/values-de/strings.xml',
      template: 'android/values/strings.xml',
      language: 'de',
      count: 16,
      units: { 11: { context: 'files', target: ['%d Datei', '%d Dateien'], state: T } },
      edit: { index: 11, target: ['%d Datei', '%d Dateien!'], maxChangedLines: 1, expectText: '<item quantity="other">%d Dateien!</item>\r' },
    },
  ],
  create: [
    { base: null, language: 'fr', template: 'android/values/strings.xml', count: 16, expectText: '<resources></resources>' },
    { base: 'android/values-cs/strings.xml', language: 'fr', template: 'android/values/strings.xml', count: 16, expectText: '<resources>' },
  ],
  bad: [
    { name: 'a root other than <resources>', text: '<?xml version="1.0"?>\n<strings>\n</strings>\n', line: 2 },
    { name: 'an unclosed element', text: '<resources>\n  <string name="a">x\n</resources>\n', line: 3 },
    {
      name: 'an entity expansion bomb',
      text: '<?xml version="1.0"?>\n<!DOCTYPE resources [\n <!ENTITY a "aaaaaaaa">\n <!ENTITY b "&a;&a;&a;&a;">\n]>\n<resources><string name="x">&b;</string></resources>\n',
      line: 4,
    },
    {
      name: 'an external entity',
      text: '<?xml version="1.0"?>\n<!DOCTYPE resources [\n <!ENTITY ext SYSTEM "file:///etc/passwd">\n]>\n<resources>\n<string name="x">&ext;</string></resources>\n',
      // refused where it is declared, before anything could refer to it
      line: 3,
    },
    {
      name: 'bytes that are not UTF-8',
      text: new Uint8Array([...encoder.encode('<resources>\n<string name="a">'), 0xe9, ...encoder.encode('</string></resources>')]),
      line: 2,
    },
  ],
});

describe('aresource: reading values as Translate Toolkit does', () => {
  it('decodes escapes, drops unknown ones with their character, and collapses unquoted whitespace', () => {
    expect(decodeText(`It\\'s \\"q\\" \\@a \\?b \\u00e9 \\t \\n \\\\ \\d!`)).toBe(`It's "q" @a ?b é \t \n \\ !`);
    expect(decodeText('  a\n    b  ')).toBe('a b');
    expect(decodeText('"  a  b  "')).toBe('  a  b  ');
    expect(decodeText('x "y  z" w')).toBe('x y  z w');
    // Translate Toolkit collapses every Unicode space, a no-break space too
    expect(decodeText('a\u00a0b')).toBe('a b');
  });

  it('keeps inline markup and entities of a value with child elements', () => {
    const { unit } = open(TEMPLATE.replace('Tap <b>here</b>', 'Tap <b>here</b> &amp; <i>there</i>'), 'de');
    expect(unit('styled').target).toEqual(['Tap <b>here</b> &amp; <i>there</i>']);
  });

  it('lists plural forms in the file language’s CLDR tags, "" for a missing quantity, others ignored', () => {
    const { unit } = open(
      '<resources><plurals name="files"><item quantity="few">F</item><item quantity="two">x</item><item quantity="one">O</item></plurals></resources>',
      'pl',
    );
    expect(unit('files').target).toEqual(['O', 'F', '']);
  });

  it('reads b+ and -r folder codes by their base language', () => {
    const ar = open('<resources/>', 'ar-rLY');
    const sr = open('<resources><plurals name="files"><item quantity="few">F</item></plurals></resources>', 'b+sr+Latn');
    expect(ar.unit('files').target).toEqual(['']);
    expect(sr.unit('files').target).toEqual(['', 'F', '']);
  });

  it('skips an element without a name, and keeps string-array and other resources out of the units', () => {
    const { store } = open('<resources><string>blank</string><string-array name="a"><item>x</item></string-array><integer name="n">1</integer></resources>');
    expect(store.units.map((u) => u.context)).toEqual(['app_name', 'greeting', 'files', 'styled']);
  });
});

describe('aresource: writing', () => {
  const CS = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name">Aplikace</string>
    <plurals name="files">
        <item quantity="one">%d soubor</item>
        <item quantity="few">%d soubory</item>
        <item quantity="many">%d souboru</item>
        <item quantity="other">%d souborů</item>
    </plurals>
    <string name="styled">Klepněte <b>sem</b></string>
</resources>
`;

  it('escapes what Android would read otherwise, and reads it back unchanged', () => {
    for (const value of ["It's", 'say "hi"', '@string/x', '?attr', 'a\nb', 'tab\there', 'back\\slash', ' lead', 'trail ', 'two  spaces', 'Tom & <Jerry>', '']) {
      const { write, ctx } = open(CS);
      const out = write([set('app_name', [value])]);
      const again = aresource.parse(encoder.encode(out), ctx);
      expect(again.units.find((u) => u.context === 'app_name')?.target, value).toEqual([value]);
    }
    expect(escapeAndroid("It's @home")).toBe("It\\'s @home");
    expect(escapeAndroid('@x')).toBe('\\@x');
    expect(escapeAndroid(' a')).toBe('" a"');
  });

  it('writes a translation with well-formed markup as elements, and one with a bare & as text', () => {
    const { write } = open(CS);
    expect(write([set('styled', ["Klepněte <b>tady</b> 'hned'"])])).toContain(`<string name="styled">Klepněte <b>tady</b> \\'hned\\'</string>`);
    expect(write([set('app_name', ['A & B'])])).toContain('<string name="app_name">A &amp; B</string>');
  });

  it('changes only the edited plural item and keeps an existing decimal-only quantity', () => {
    const { write } = open(CS);
    const out = write([set('files', ['%d soubor', '%d soubory!', '%d souborů'])]);
    const { removed, added } = changedLines(CS, out);
    expect(removed).toEqual(['        <item quantity="few">%d soubory</item>']);
    expect(added).toEqual(['        <item quantity="few">%d soubory!</item>']);
  });

  it('omits empty plural forms and adds the first key to the empty skeleton on its own line', () => {
    const skeleton = '<?xml version="1.0" encoding="utf-8"?>\n<resources></resources>';
    const { write } = open(skeleton, 'de');
    expect(write([set('files', ['', '%d Dateien']), set('app_name', ['App'])])).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <plurals name="files">\n        <item quantity="other">%d Dateien</item>\n    </plurals>\n    <string name="app_name">App</string>\n</resources>',
    );
  });

  it('fills a self-closing element, and marks a read-only unit translatable="false"', () => {
    const { write } = open('<resources>\n    <string name="greeting"/>\n</resources>\n', 'de');
    expect(write([set('greeting', ['Hallo'])])).toContain('<string name="greeting">Hallo</string>');
    expect(write([set('greeting', ['Hallo'], State.READONLY)])).toContain('<string name="greeting" translatable="false">Hallo</string>');
  });

  it('removes a key with the comments before it', () => {
    const text = '<resources>\n    <!-- note -->\n    <string name="greeting">Hallo</string>\n    <string name="app_name">App</string>\n</resources>\n';
    const { write } = open(text, 'de');
    expect(write([{ ...set('greeting', ['']), remove: true }])).toBe('<resources>\n    <string name="app_name">App</string>\n</resources>\n');
  });

  it('refuses a file with an unterminated comment at its line', () => {
    expect(() => aresource.parse(encoder.encode('<resources>\n<!-- x\n</resources>'), { filename: 'f.xml', language: 'de', sourceLanguage: 'en' })).toThrow(
      FormatParseError,
    );
  });
});

describe('aresource: flags from the elements’ attributes, as Weblate reads them (TTKitUnit.flags)', () => {
  const dir = path.join(FIXTURES, 'android-flags');
  const read = (file: string) => readFileSync(path.join(dir, file));
  const template = aresource.parse(read('values/strings.xml'), { filename: 'values/strings.xml', language: 'en', sourceLanguage: 'en' });
  const cs = aresource.parse(read('values-cs/strings.xml'), { filename: 'values-cs/strings.xml', language: 'cs', sourceLanguage: 'en', template });
  const flagsOf = (units: typeof cs.units) => Object.fromEntries(units.map((u) => [u.context, u.flags]));

  it('maxwidth with size-unit, font and weblate-flags, the template’s over the translation’s', () => {
    expect(flagsOf(cs.units)).toEqual({
      title: 'max-length:20',
      banner: 'max-size:120',
      label: 'font-family:Ubuntu_Sans, font-size:12, font-weight:bold',
      code: 'read-only',
      files: 'c-format, max-length:12',
      // the translation's own element counts too
      plain: 'ignore-same',
      // both carry maxwidth: the template's wins
      both: 'ignore-end-stop, max-length:10',
      bytes: 'ignore-same, max-length:8',
      // a size-unit Weblate has no flag for
      lines: '',
    });
    expect(flagsOf(template.units)).toMatchObject({ title: 'max-length:20', plain: '', both: 'max-length:10' });
  });

  it('a read-only flag makes the string read-only, and max-length is checked on the translation', () => {
    expect(cs.units.find((u) => u.context === 'code')!.state).toBe(State.READONLY);
    expect(template.units.find((u) => u.context === 'code')!.state).toBe(State.READONLY);
    const title = cs.units.find((u) => u.context === 'title')!;
    const check = (target: string) =>
      translationChecks(
        { format: 'aresource', sourceLanguage: 'en', language: 'cs', oneNumberForms: [false, true], flags: '' },
        { source: title.source[0]!, target, state: State.TRANSLATED, flags: title.flags, extraFlags: '' },
      );
    expect(check(title.target[0]!)).toContain('max-length');
    expect(check('Název')).not.toContain('max-length');
  });

  describeToolkit('aresource flags: the attributes Translate Toolkit’s units carry (Debian’s translate-toolkit)', () => {
    let result: ToolkitResult;
    beforeAll(async () => {
      const [answer] = await toolkitStores([
        {
          file: path.join(dir, 'values-cs/strings.xml'),
          store: 'aresource',
          template: path.join(dir, 'values/strings.xml'),
          targetLanguage: 'cs',
          sourceLanguage: 'en',
        },
      ]);
      if (answer instanceof Error) throw answer;
      result = answer!;
    }, 60_000);

    it('every unit’s flags are Weblate’s merge of the translation’s then the template’s element attributes', () => {
      const reader = (attributes: Record<string, string> | undefined) => (name: string) => attributes?.[name];
      const expected = Object.fromEntries(
        result.units.filter((u) => !u.blank).map((u) => [u.weblate.context, xmlFlags([reader(u.translation?.flagAttributes), reader(u.flagAttributes)])]),
      );
      expect(flagsOf(cs.units)).toEqual(expected);
      // the fixture exercises every attribute, on <string> and <plurals>, on both sides
      expect(Object.values(expected).filter((f) => f !== '')).toHaveLength(8);
    });
  });
});
