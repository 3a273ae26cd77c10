// The JSON family: shared conformance per format id, the verified examples of formats-notes §3.7, and targeted edge cases.
import { describe, expect, it } from 'vitest';
import { FormatParseError, FormatWriteError } from '../../src/domain/errors.js';
import { calculateHash } from '../../src/domain/hash.js';
import { State } from '../../src/domain/unit.js';
import type { FormatContext, FormatId, ParsedFile, UnitWrite } from '../../src/formats/format.js';
import { pythonFloat } from '../../src/formats/json/scalars.js';
import { pluralTags } from '../../src/formats/plural-tags.js';
import { getFormat } from '../../src/formats/registry.js';
import { changedLines, fixture, runConformance } from './conformance.js';

const encoder = new TextEncoder();
const decode = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
const T = State.TRANSLATED;

/** Parses text (or a fixture) as `format`, monolingual when a template text is given. */
function open(format: FormatId, text: string, language = 'de', templateText?: string, plurals?: number) {
  const f = getFormat(format);
  const ctx: FormatContext = { filename: `${language}.json`, language, sourceLanguage: 'en', plurals };
  if (templateText !== undefined) {
    ctx.template = f.parse(encoder.encode(templateText), { filename: 'en.json', language: 'en', sourceLanguage: 'en' });
  }
  const bytes = encoder.encode(text);
  const store = f.parse(bytes, ctx);
  const write = (edits: UnitWrite[]) => decode(f.write(bytes, edits, ctx));
  return { f, ctx, bytes, store, write };
}

const set = (context: string, target: string[], source: string[] = []): UnitWrite => ({ context, source, target, state: T });
const setKey = (key: string, target: string[]): UnitWrite => ({ context: '', source: [key], target, state: T });

const COMMON_BAD = [
  { name: 'a trailing comma', text: '{\n  "a": "x",\n}\n', line: 2 },
  { name: 'a truncated file', text: '{\n  "a": "x"', line: 2 },
  { name: 'non-UTF-8 bytes', text: new Uint8Array([...encoder.encode('{\n  "a": "'), 0xff, ...encoder.encode('"\n}')]), line: 2 },
  { name: 'an empty file', text: '', line: 1 },
  { name: 'a top-level string', text: '"just a string"\n', line: 1 },
];

// ---- conformance, one run per format id --------------------------------------------------

runConformance({
  format: 'json',
  cases: [
    {
      name: 'bilingual flat file (keys with dots, escapes, numbers, booleans, null)',
      file: 'json/flat-en.json',
      language: 'en',
      count: 10,
      units: {
        0: { context: '', source: ['Settings'], target: ['Settings'], state: T, idHash: calculateHash('Settings') },
        1: { source: ['Reconnecting...'], idHash: calculateHash('Reconnecting...') },
        2: { source: ['disableauth.message1'], numWords: 1 },
        5: { source: ['Path'], target: ['C:\\Users\\{user}\\file "x"'] },
        6: { source: ['retries'], target: ['3'] },
        7: { source: ['ratio'], target: ['1.5'] },
        8: { source: ['beta'], target: ['False'], state: T },
        9: { source: ['unset'], target: [''], state: State.EMPTY },
      },
      edit: { index: 5, target: ['D:\\Daten\\"y"'], maxChangedLines: 1, expectText: '"Path": "D:\\\\Daten\\\\\\"y\\""' },
      add: { write: setKey('New key', ['Neu']), expectText: '    "New key": "Neu"\n}' },
      remove: { index: 3 },
    },
    {
      name: 'monolingual flat file with keys missing and extra',
      file: 'json/flat-de.json',
      template: 'json/flat-en.json',
      language: 'de',
      count: 10,
      units: {
        0: { context: 'Settings', source: ['Settings'], target: ['Einstellungen'], state: T, idHash: calculateHash('Settings') },
        1: { context: 'Reconnecting...', target: ['Verbinde neu …'] },
        2: { context: 'disableauth.message1', target: [''], state: State.EMPTY, numWords: 8 },
        6: { context: 'retries', source: ['3'], target: ['5'] },
        8: { context: 'beta', source: ['False'], target: [''] },
      },
      edit: { index: 0, target: ['Konfiguration'], maxChangedLines: 1, expectText: '"Settings": "Konfiguration",' },
      add: {
        write: set('pauseMonitorMsg', ['Wirklich pausieren?']),
        expectText: '    "obsolete": "Nicht mehr in der Vorlage",\n    "pauseMonitorMsg": "Wirklich pausieren?"\n}',
      },
      remove: { index: 4 },
    },
  ],
  create: [
    { base: null, language: 'fr', template: 'json/flat-en.json', count: 10, expectText: '{}\n' },
    { base: 'json/flat-en.json', language: 'fr', template: 'json/flat-en.json', count: 10, expectText: '"retries": "",' },
  ],
  bad: [...COMMON_BAD, { name: 'a comment', text: '{\n  // no comments in JSON\n  "a": "x"\n}', line: 2 }],
});

runConformance({
  format: 'json-nested',
  cases: [
    {
      name: '§3.7 (a): monolingual nested file with a BOM, 2-space indent, dotted key, list, scalars',
      file: 'json/nested-de.json',
      template: 'json/nested-en.json',
      language: 'de',
      count: 10,
      units: {
        0: { context: 'hello', source: ['Hello'], target: ['Hallo'], state: T, idHash: 1219941101254463490n },
        1: { context: 'app.name', source: ['Weblate'], target: ['Weblate'], state: T, idHash: 8441967881186858337n },
        2: { context: 'app.title', source: ['Translate {{what}}'], target: [''], state: State.EMPTY, idHash: -6717303852330811496n },
        3: { context: 'dot.key', source: ['Dotted'], target: [''], state: State.EMPTY, idHash: -3975304979559660224n },
        4: { context: 'list[0]', source: ['first'], target: [''], state: State.EMPTY, idHash: -4384817994132090469n },
        5: { context: 'list[1]', source: ['second'], target: [''], state: State.EMPTY, idHash: 2687294331881052410n },
        6: { context: 'count', source: ['5'], target: [''], state: State.EMPTY, idHash: -7574238398201069647n },
        7: { context: 'enabled', source: ['True'], target: [''], state: State.EMPTY, idHash: -4344249536315265110n },
        8: { context: 'nothing', source: [''], target: [''], state: State.EMPTY, idHash: 745224820080700932n },
        9: { context: 'empty', source: [''], target: [''], state: State.EMPTY, idHash: 5848201338590124318n },
      },
      edit: { index: 0, target: ['Servus'], maxChangedLines: 1, expectText: '  "hello": "Servus",' },
      add: { write: set('app.title', ['Übersetze {{what}}']), expectText: '    "name": "Weblate",\n    "title": "Übersetze {{what}}"\n  },' },
      remove: { index: 0 },
    },
    {
      name: 'bilingual nested template: keys as sources, same id_hash as monolingual',
      file: 'json/nested-en.json',
      language: 'en',
      count: 10,
      units: {
        0: { context: '', source: ['hello'], target: ['Hello'], idHash: 1219941101254463490n, contentHash: 1219941101254463490n },
        3: { source: ['dot.key'], target: ['Dotted'], idHash: -3975304979559660224n },
        5: { source: ['list[1]'], target: ['second'], idHash: 2687294331881052410n },
        7: { source: ['enabled'], target: ['True'], idHash: -4344249536315265110n },
      },
      edit: { index: 4, target: ['erste'], maxChangedLines: 1, expectText: '"list": ["erste", "second"],' },
      add: { write: setKey('app.subtitle', ['Sub']), expectText: '        "title": "Translate {{what}}",\n        "subtitle": "Sub"\n    },' },
      remove: { index: 1 },
    },
  ],
  create: [
    { base: null, language: 'fr', template: 'json/nested-en.json', count: 10, expectText: '{}\n' },
    { base: 'json/nested-en.json', language: 'fr', template: 'json/nested-en.json', count: 10, expectText: '"nothing": null,' },
  ],
  bad: [...COMMON_BAD, { name: 'NaN', text: '{"a": NaN}', line: 1 }],
});

runConformance({
  format: 'i18next',
  cases: [
    {
      name: '§3.7 (c): bilingual v3 template with _plural and _N plurals',
      file: 'json/i18next-en.json',
      language: 'en',
      count: 4,
      units: {
        0: { source: ['key'], target: ['value'] },
        1: { source: ['keyWithCount'], target: ['{{count}} item', '{{count}} items'], state: T },
        2: { source: ['ar.k'], target: ['zero', 'one', 'two'] },
        3: { source: ['nested.deep'], target: ['$t(key) nested'] },
      },
      edit: { index: 1, target: ['{{count}} thing', '{{count}} things'], expectText: '"keyWithCount_plural": "{{count}} things"' },
      add: { write: setKey('nested.other', ['Other']), expectText: '"deep": "$t(key) nested",\n        "other": "Other"' },
      remove: { index: 2 },
    },
    {
      name: 'monolingual Arabic with six _N forms against a two-form English template',
      file: 'json/i18next-ar.json',
      template: 'json/i18next-en.json',
      language: 'ar',
      count: 4,
      units: {
        0: { context: 'key', source: ['value'], target: ['قيمة'], idHash: calculateHash('key') },
        1: { context: 'keyWithCount', source: ['{{count}} item', '{{count}} items'], numWords: 4 },
        2: { context: 'ar.k', source: ['zero', 'one', 'two'], target: [''], state: State.EMPTY },
        3: { context: 'nested.deep', target: [''] },
      },
      edit: { index: 1, target: ['0', '1', '2', '3', '4', '5'], maxChangedLines: 6, expectText: '"keyWithCount_5": "5"' },
      add: { write: set('nested.deep', ['$t(key) متداخل']), expectText: '"nested": {\n        "deep": "$t(key) متداخل"\n    }' },
      remove: { index: 1 },
    },
  ],
  create: [{ base: 'json/i18next-en.json', language: 'ar', template: 'json/i18next-en.json', count: 4, expectText: '"keyWithCount_5": ""' }],
  bad: COMMON_BAD,
});

runConformance({
  format: 'i18nextv4',
  cases: [
    {
      name: '§3.7 (b): Czech against an English template (CLDR suffixes of the target language)',
      file: 'json/i18nextv4-cs.json',
      template: 'json/i18nextv4-en.json',
      language: 'cs',
      count: 5,
      units: {
        0: { context: 'welcome', source: ['Welcome, {{name}}!'], target: ['Vítejte, {{name}}!'], state: T, idHash: -6776350882518742396n },
        1: {
          context: 'apple',
          source: ['{{count}} apple', '{{count}} apples'],
          target: ['{{count}} jablko', '{{count}} jablka', '{{count}} jablek'],
          state: T,
          idHash: 5421866572974828948n,
        },
        2: { context: 'friend_male', source: ['A boyfriend'], target: [''], state: State.EMPTY, idHash: 8930887024993251535n },
        3: { context: 'nav.home', source: ['Home'], target: ['Domů'], state: T, idHash: 985957904608369694n },
        4: { context: 'nav.msg', source: ['One message', '{{count}} messages'], target: [''], state: State.EMPTY, idHash: -4429490345324850636n },
      },
      edit: { index: 1, target: ['{{count}} hruška', '{{count}} hrušky', '{{count}} hrušek'], maxChangedLines: 3 },
      add: {
        write: set('nav.msg', ['{{count}} zpráva', '{{count}} zprávy', '{{count}} zpráv']),
        expectText: '"home": "Domů",\n    "msg_one": "{{count}} zpráva",\n    "msg_few": "{{count}} zprávy",\n    "msg_other": "{{count}} zpráv"\n  }',
      },
      remove: { index: 1 },
    },
  ],
  create: [
    { base: 'json/i18nextv4-en.json', language: 'cs', template: 'json/i18nextv4-en.json', count: 5, expectText: '"apple_few": "",' },
    { base: null, language: 'cs', template: 'json/i18nextv4-en.json', count: 5 },
  ],
  bad: COMMON_BAD,
});

runConformance({
  format: 'go-i18n-json',
  cases: [
    {
      name: '§3.7 (e): v1 array, Czech against an English template',
      file: 'json/go-i18n-v1-cs.json',
      template: 'json/go-i18n-v1-en.json',
      language: 'cs',
      count: 2,
      units: {
        0: { context: 'd_days', source: ['{{.Count}} day', '{{.Count}} days'], target: [''], note: 'Number of days\n', idHash: calculateHash('d_days') },
        1: { context: 'hello', source: ['Hello {{.Name}}'], target: ['Ahoj {{.Name}}'], state: T },
      },
      edit: { index: 1, target: ['Nazdar {{.Name}}'], maxChangedLines: 1 },
      add: {
        write: set('d_days', ['{{.Count}} den', '{{.Count}} dny', '{{.Count}} dní']),
        expectText:
          '  {\n    "id": "d_days",\n    "translation": {\n      "one": "{{.Count}} den",\n      "few": "{{.Count}} dny",\n      "other": "{{.Count}} dní"\n    }\n  }\n]',
      },
      remove: { index: 1 },
    },
    {
      name: 'bilingual v1 template',
      file: 'json/go-i18n-v1-en.json',
      language: 'en',
      count: 2,
      units: { 0: { source: ['d_days'], target: ['{{.Count}} day', '{{.Count}} days'], note: 'Number of days' } },
      edit: { index: 0, target: ['{{.Count}} date', '{{.Count}} dates'] },
      remove: { index: 0 },
    },
  ],
  create: [
    { base: null, language: 'cs', template: 'json/go-i18n-v1-en.json', count: 2, expectText: '[]\n' },
    { base: 'json/go-i18n-v1-en.json', language: 'cs', template: 'json/go-i18n-v1-en.json', count: 2, expectText: '"few": ""' },
  ],
  bad: [
    ...COMMON_BAD,
    { name: 'an object instead of an array', text: '{\n  "hello": "Hello"\n}', line: 1 },
    { name: 'an item without id', text: '[\n  {"translation": "x"}\n]', line: 2 },
  ],
});

runConformance({
  format: 'go-i18n-json-v2',
  cases: [
    {
      name: '§3.7 (d): v2 map, Czech against an English template',
      file: 'json/go-i18n-v2-cs.json',
      template: 'json/go-i18n-v2-en.json',
      language: 'cs',
      count: 3,
      units: {
        0: { context: 'hello', source: ['Hello {{.Name}}'], target: ['Ahoj {{.Name}}'] },
        1: { context: 'days', source: ['{{.Count}} day', '{{.Count}} days'], target: [''], note: 'Number of days\n' },
        2: { context: 'person', source: ['Person'], target: ['Osoba'], note: 'Only description with other\n' },
      },
      edit: { index: 2, target: ['Člověk'], maxChangedLines: 1, expectText: '"person": "Člověk"' },
      add: {
        write: set('days', ['{{.Count}} den', '{{.Count}} dny', '{{.Count}} dní']),
        expectText: '"person": "Osoba",\n  "days": {\n    "one": "{{.Count}} den",\n    "few": "{{.Count}} dny",\n    "other": "{{.Count}} dní"\n  }\n}',
      },
      remove: { index: 0 },
    },
  ],
  create: [{ base: 'json/go-i18n-v2-en.json', language: 'cs', template: 'json/go-i18n-v2-en.json', count: 3, expectText: '"description": "Number of days",' }],
  bad: [...COMMON_BAD, { name: 'an array instead of an object', text: '[\n]', line: 1 }],
});

runConformance({
  format: 'webextension',
  cases: [
    {
      name: '§3.7 (f): messages.json with a comment, descriptions and placeholders',
      file: 'json/webextension-de.json',
      template: 'json/webextension-en.json',
      language: 'de',
      count: 2,
      units: {
        0: { context: 'extensionName', source: ['Notify link clicks'], target: ['Linkklicks melden'], note: 'Name of the extension.', flags: '' },
        1: {
          context: 'notificationContent',
          source: ['You clicked $URL$.'],
          target: [''],
          note: 'Tells the user which link they clicked.\n',
          flags: 'placeholders:$URL$,case-insensitive',
        },
      },
      edit: { index: 0, target: ['Klicks melden'], maxChangedLines: 1 },
      add: {
        write: set('notificationContent', ['Sie klickten $URL$.']),
        expectText: '"message": "Sie klickten $URL$.",\n    "placeholders": {\n      "url": {',
      },
      remove: { index: 0 },
    },
    {
      name: 'the template itself, comment kept on write',
      file: 'json/webextension-en.json',
      language: 'en',
      count: 2,
      units: { 1: { source: ['notificationContent'], target: ['You clicked $URL$.'], flags: 'placeholders:$URL$,case-insensitive' } },
      edit: { index: 1, target: ['You opened $URL$.'], maxChangedLines: 1 },
    },
  ],
  create: [{ base: 'json/webextension-en.json', language: 'fr', template: 'json/webextension-en.json', count: 2, expectText: '// Name of the extension' }],
  bad: [...COMMON_BAD, { name: 'a message that is a string', text: '{\n  "a": "x"\n}', line: 2 }],
});

runConformance({
  format: 'arb',
  cases: [
    {
      name: '§3.7 (g): ARB with header, @key metadata and an ICU plural',
      file: 'json/app_de.arb',
      template: 'json/app_en.arb',
      language: 'de',
      count: 3,
      units: {
        0: { context: 'title', source: ['My application'], target: ['Meine Anwendung'], note: 'The title of the application\n' },
        1: {
          context: 'itemCount',
          source: ['{count, plural, =0{no items} =1{1 item} other{{count} items}}'],
          target: [''],
          flags: 'placeholders:$COUNT$,case-insensitive',
          note: 'How many items there are\n',
        },
        2: { context: 'hello', source: ['Hello'], target: ['Hallo'] },
      },
      edit: { index: 2, target: ['Servus'], maxChangedLines: 1 },
      add: {
        write: set('itemCount', ['{count, plural, =1{1 Ding} other{{count} Dinge}}']),
        expectText: '"itemCount": "{count, plural, =1{1 Ding} other{{count} Dinge}}",\n  "@itemCount": {',
      },
      remove: { index: 0 },
    },
  ],
  create: [{ base: 'json/app_en.arb', language: 'de', template: 'json/app_en.arb', count: 3, expectText: '"@@locale": "de",' }],
  bad: [...COMMON_BAD, { name: 'a top-level array', text: '[]', line: 1 }],
});

// ---- targeted behaviour ------------------------------------------------------------------

describe('json: §3.7 (a) written as the notes show, minus the bool bug', () => {
  it('adds app.title inside app, appends count and enabled, keeps the BOM and the untouched \\u escapes', () => {
    const f = getFormat('json-nested');
    const template = f.parse(fixture('json/nested-en.json'), { filename: 'en.json', language: 'en', sourceLanguage: 'en' });
    const ctx: FormatContext = { filename: 'de.json', language: 'de', sourceLanguage: 'en', template };
    const out = f.write(fixture('json/nested-de.json'), [set('app.title', ['Übersetze {{what}}']), set('count', ['7']), set('enabled', ['False'])], ctx);
    expect([...out.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(decode(out)).toBe(
      '\ufeff{\n  "app": {\n    "name": "Weblate",\n    "title": "Übersetze {{what}}"\n  },\n  "hello": "Hallo",\n  "empty": "",\n' +
        '  "extra": "Nicht im Template",\n  "unicode": "Gr\\u00fc\\u00dfe ✓",\n  "count": 7,\n  "enabled": false\n}\n',
    );
    const again = f.parse(out, ctx);
    expect(again.units.find((u) => u.context === 'enabled')?.target).toEqual(['False']);
    expect(again.units.find((u) => u.context === 'count')?.target).toEqual(['7']);
  });
});

describe('json: escaping follows the file', () => {
  const tricky = 'a"b\\c\nd\te\u0001f/gé\u2028';
  it('escapes quotes, backslashes and control characters, keeps non-ASCII, / and U+2028 raw by default', () => {
    const { write, f, ctx } = open('json', '{\n  "a": "x"\n}\n');
    const out = write([setKey('a', [tricky])]);
    expect(out).toBe('{\n  "a": "a\\"b\\\\c\\nd\\te\\u0001f/gé\u2028"\n}\n');
    expect(f.parse(encoder.encode(out), ctx).units[0]!.target).toEqual([tricky]);
  });
  it("writes \\u escapes (in the file's hex case) when the file keeps to ASCII", () => {
    expect(open('json', '{"a": "Gr\\u00FC\\u00DFe", "b": ""}').write([setKey('b', ['Größe ✓'])])).toBe(
      '{"a": "Gr\\u00FC\\u00DFe", "b": "Gr\\u00F6\\u00DFe \\u2713"}',
    );
    expect(open('json', '{"a": "\\u00e9", "b": ""}').write([setKey('b', ['😀'])])).toBe('{"a": "\\u00e9", "b": "\\ud83d\\ude00"}');
  });
  it('escapes / only when the file does, and <>& as Go does', () => {
    expect(open('json', '{"u": "http:\\/\\/x", "b": ""}').write([setKey('b', ['a/b'])])).toBe('{"u": "http:\\/\\/x", "b": "a\\/b"}');
    expect(open('json', '{"u": "http://x", "b": ""}').write([setKey('b', ['a/b'])])).toBe('{"u": "http://x", "b": "a/b"}');
    expect(open('go-i18n-json-v2', '{"a": "\\u003cb\\u003e", "b": ""}').write([setKey('b', ['<i>&'])])).toBe(
      '{"a": "\\u003cb\\u003e", "b": "\\u003ci\\u003e\\u0026"}',
    );
  });
});

describe('json: where new keys go', () => {
  const template = '{"x": "X", "a": {"b": {"c": "C", "d": "D"}}, "list": ["one", "two"]}';
  it("creates missing parent objects at the end of the root, in the file's indentation (tabs)", () => {
    const { write } = open('json-nested', '{\n\t"x": "Y"\n}\n', 'de', template);
    expect(write([set('a.b.c', ['Cc']), set('a.b.d', ['Dd'])])).toBe(
      '{\n\t"x": "Y",\n\t"a": {\n\t\t"b": {\n\t\t\t"c": "Cc",\n\t\t\t"d": "Dd"\n\t\t}\n\t}\n}\n',
    );
  });
  it("fills an empty skeleton with Weblate's 4-space indent", () => {
    const { write } = open('json-nested', '{}\n', 'de', template);
    expect(write([set('x', ['Y']), set('a.b.d', ['Dd'])])).toBe('{\n    "x": "Y",\n    "a": {\n        "b": {\n            "d": "Dd"\n        }\n    }\n}\n');
  });
  it('appends to one-line objects on the same line', () => {
    const { write } = open('json-nested', '{"a": {"b": {"c": "Cc"}}}', 'de', template);
    expect(write([set('a.b.d', ['Dd']), set('x', ['Y'])])).toBe('{"a": {"b": {"c": "Cc", "d": "Dd"}}, "x": "Y"}');
  });
  it('pads a list with null up to a missing index', () => {
    expect(open('json-nested', '{\n  "x": "Y"\n}', 'de', template).write([set('list[1]', ['zwei'])])).toBe(
      '{\n  "x": "Y",\n  "list": [\n    null,\n    "zwei"\n  ]\n}',
    );
    expect(open('json-nested', '{"list": ["eins"]}', 'de', template).write([set('list[1]', ['zwei'])])).toBe('{"list": ["eins", "zwei"]}');
  });
  it('keeps CRLF line ends', () => {
    const { write } = open('json-nested', '{\r\n  "x": "Y"\r\n}\r\n', 'de', template);
    expect(write([set('a.b.c', ['Cc'])])).toBe('{\r\n  "x": "Y",\r\n  "a": {\r\n    "b": {\r\n      "c": "Cc"\r\n    }\r\n  }\r\n}\r\n');
  });
  it('json keeps a typed dotted key whole, json-nested and i18next split it', () => {
    expect(open('json', '{}\n').write([setKey('app.new.key', ['v'])])).toBe('{\n    "app.new.key": "v"\n}\n');
    expect(open('json-nested', '{"app": {"old": "o"}}').write([setKey('app.new.key', ['v'])])).toBe('{"app": {"old": "o", "new": {"key": "v"}}}');
    expect(open('i18next', '{}').write([setKey('a.list[1]', ['v'])])).toBe(
      '{\n    "a": {\n        "list": [\n            null,\n            "v"\n        ]\n    }\n}',
    );
  });
  it('refuses a path through a string', () => {
    const { f, ctx, bytes } = open('json-nested', '{"a": "not an object"}', 'de', template);
    expect(() => f.write(bytes, [set('a.b.c', ['x'])], ctx)).toThrow(FormatWriteError);
  });
});

describe('json: removing keys', () => {
  it('removes a middle, a last and an only member, and a parent left empty', () => {
    const text = '{\n  "a": "1",\n  "b": {\n    "c": "2"\n  },\n  "d": "3"\n}\n';
    expect(open('json-nested', text).write([{ ...setKey('a', []), remove: true }])).toBe('{\n  "b": {\n    "c": "2"\n  },\n  "d": "3"\n}\n');
    expect(open('json-nested', text).write([{ ...setKey('d', []), remove: true }])).toBe('{\n  "a": "1",\n  "b": {\n    "c": "2"\n  }\n}\n');
    expect(open('json-nested', text).write([{ ...setKey('b.c', []), remove: true }])).toBe('{\n  "a": "1",\n  "d": "3"\n}\n');
    const all = ['a', 'b.c', 'd'].map((k) => ({ ...setKey(k, []), remove: true }));
    expect(open('json-nested', text).write(all)).toBe('{}\n');
  });
  it('removes every plural key of an i18next v4 group, and ARB metadata with its key', () => {
    const v4 = '{"n_one": "1", "x": "x", "n_other": "n", "n_many": "m"}';
    expect(open('i18nextv4', v4, 'pl').write([{ ...setKey('n', []), remove: true }])).toBe('{"x": "x"}');
    const arb = '{\n  "a": "A",\n  "@a": {"description": "d"},\n  "b": "B"\n}';
    expect(open('arb', arb).write([{ ...setKey('a', []), remove: true }])).toBe('{\n  "b": "B"\n}');
  });
  it('removes and adds in one write', () => {
    const template = '{"a": "A", "b": "B"}';
    const { write } = open('json', '{\n  "a": "x"\n}', 'de', template);
    expect(write([{ ...set('a', []), remove: true }, set('b', ['y'])])).toBe('{\n  "b": "y"\n}');
  });
});

describe('json: numbers, booleans and null', () => {
  const text = '{"i": 7, "f": 1.5, "e": 1e5, "z": -0, "big": 12345678901234567890, "t": true, "n": null, "s": "x"}';
  it('shows scalars as Python str() does', () => {
    const { store } = open('json', text);
    expect(Object.fromEntries(store.units.map((u) => [u.source[0], u.target[0]]))).toEqual({
      i: '7',
      f: '1.5',
      e: '100000.0',
      z: '0',
      big: '12345678901234567890',
      t: 'True',
      n: '',
      s: 'x',
    });
    expect(store.units.find((u) => u.source[0] === 'n')?.state).toBe(State.EMPTY);
  });
  it('formats floats like Python repr', () => {
    expect([1e16, 1.5e-7, 0.0001, 123456789.5, 1e22, -2.5, 0.1].map(pythonFloat)).toEqual([
      '1e+16',
      '1.5e-07',
      '0.0001',
      '123456789.5',
      '1e+22',
      '-2.5',
      '0.1',
    ]);
  });
  it('keeps numbers numeric, never turns "False" into true, and writes other text as strings', () => {
    const { write } = open('json', text);
    expect(write([setKey('i', ['8']), setKey('f', ['2.25']), setKey('t', ['False']), setKey('n', ['jetzt'])])).toBe(
      '{"i": 8, "f": 2.25, "e": 1e5, "z": -0, "big": 12345678901234567890, "t": false, "n": "jetzt", "s": "x"}',
    );
    expect(write([setKey('i', ['1_000']), setKey('f', ['1,5']), setKey('t', ['ja'])])).toContain('"i": 1000, "f": "1,5"');
    expect(write([setKey('t', ['ja'])])).toContain('"t": "ja"');
    expect(write([setKey('i', ['']), setKey('t', ['']), setKey('n', [''])])).toContain(
      '{"i": "", "f": 1.5, "e": 1e5, "z": -0, "big": 12345678901234567890, "t": "", "n": null',
    );
  });
});

describe('json: plural tags from the target language', () => {
  it('uses CLDR categories that whole numbers reach', () => {
    expect(pluralTags('cs')).toEqual(['one', 'few', 'other']);
    expect(pluralTags('pl')).toEqual(['one', 'few', 'many']);
    expect(pluralTags('ru')).toEqual(['one', 'few', 'many']);
    expect(pluralTags('fr')).toEqual(['one', 'many', 'other']);
    expect(pluralTags('pt_BR')).toEqual(['one', 'many', 'other']);
    expect(pluralTags('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(pluralTags('ja')).toEqual(['other']);
    expect(pluralTags('zh_Hant')).toEqual(['other']);
    expect(pluralTags('sr@latin')).toEqual(pluralTags('sr'));
    expect(pluralTags('qqq-unknown')).toEqual(['one', 'other']);
    expect(pluralTags('qqq-unknown', 1)).toEqual(['other']);
  });
  const template = '{"n_one": "{{count}} file", "n_other": "{{count}} files"}';
  it('i18next v4 writes ar 6 keys, pl one/few/many (leaving _other alone), ja only _other', () => {
    const ar = open('i18nextv4', '{}', 'ar', template).write([set('n', ['0', '1', '2', '3', '4', '5'])]);
    expect(Object.keys(JSON.parse(ar))).toEqual(['n_zero', 'n_one', 'n_two', 'n_few', 'n_many', 'n_other']);
    const pl = open('i18nextv4', '{"n_one": "a", "n_other": "d"}', 'pl', template);
    expect(pl.store.units[0]!.target).toEqual(['a', '', '']);
    expect(pl.write([set('n', ['1 plik', '2 pliki', '5 plików'])])).toBe('{"n_one": "1 plik", "n_few": "2 pliki", "n_many": "5 plików", "n_other": "d"}');
    const ja = open('i18nextv4', '{}', 'ja', template);
    expect(ja.store.units[0]!.target).toEqual(['']);
    expect(ja.write([set('n', ['{{count}} ファイル'])])).toBe('{\n    "n_other": "{{count}} ファイル"\n}');
  });
  it('i18next v4 ignores suffix keys with a non-string sibling and non-CLDR suffixes', () => {
    const { store } = open('i18nextv4', '{"a_one": "x", "a_other": {"deep": "y"}, "b_male": "z"}', 'en');
    expect(store.units.map((u) => u.source[0])).toEqual(['a_one', 'a_other.deep', 'b_male']);
  });
  it('i18next v3 writes _0 for one-form languages, _plural for two, _0…_n otherwise', () => {
    const zh = open('i18next', '{"n_0": "{{count}} 個檔案"}', 'zh_Hant');
    expect(zh.store.units[0]!.target).toEqual(['{{count}} 個檔案']);
    expect(zh.write([setKey('n', ['{{count}} 個文件'])])).toBe('{"n_0": "{{count}} 個文件"}');
    const en = open('i18next', '{"n": "one", "n_plural": "many", "m": "x"}', 'fr');
    expect(en.write([setKey('n', ['a', 'b', 'c'])])).toBe('{"n_0": "a", "n_1": "b", "n_2": "c", "m": "x"}');
    const v4like = open('i18next', '{"max_one": "1", "max_other": "n"}', 'en');
    expect(v4like.store.units.map((u) => u.source[0])).toEqual(['max_one', 'max_other']);
  });
});

describe('json: variant shapes', () => {
  it('go-i18n v2 nests plain objects and reads objects with reserved keys as messages', () => {
    const { store, write } = open('go-i18n-json-v2', '{"menu": {"open": "Open", "count": {"one": "1 item", "other": "{{.Count}} items"}}}', 'en');
    expect(store.units.map((u) => [u.source[0], u.target])).toEqual([
      ['menu.open', ['Open']],
      ['menu.count', ['1 item', '{{.Count}} items']],
    ]);
    expect(write([setKey('menu.count', ['one', 'many'])])).toBe('{"menu": {"open": "Open", "count": {"one": "one", "other": "many"}}}');
  });
  it('i18next v3 reads a lone _plural key as an ordinary key', () => {
    expect(open('i18next', '{"x_plural": "many"}', 'en').store.units.map((u) => u.source[0])).toEqual(['x_plural']);
  });
  it('i18next turns a singular key into a plural group when plural forms are written', () => {
    expect(open('i18nextv4', '{"n": "x", "m": "y"}', 'en').write([setKey('n', ['a', 'b'])])).toBe('{"n_one": "a", "n_other": "b", "m": "y"}');
    expect(open('i18next', '{\n  "m": "y",\n  "n": "x"\n}', 'en').write([setKey('n', ['a', 'b'])])).toBe('{\n  "m": "y",\n  "n": "a",\n  "n_plural": "b"\n}');
  });
  it("go-i18n v1 writes a plural object over a string translation, in the file's indentation", () => {
    const { write } = open('go-i18n-json', '[\n  {\n    "id": "d",\n    "translation": "x"\n  }\n]', 'cs');
    expect(write([setKey('d', ['a', 'b', 'c'])])).toBe(
      '[\n  {\n    "id": "d",\n    "translation": {\n      "one": "a",\n      "few": "b",\n      "other": "c"\n    }\n  }\n]',
    );
  });
  it('one template store serves many translation files with the same identities', () => {
    const f = getFormat('json-nested');
    const template = f.parse(fixture('json/nested-en.json'), { filename: 'en.json', language: 'en', sourceLanguage: 'en' });
    const a = f.parse(fixture('json/nested-de.json'), { filename: 'de.json', language: 'de', sourceLanguage: 'en', template });
    const b = f.parse(encoder.encode('{"hello": "Salut"}'), { filename: 'fr.json', language: 'fr', sourceLanguage: 'en', template });
    expect(b.units.map((u) => [u.idHash, u.contentHash, u.numWords])).toEqual(a.units.map((u) => [u.idHash, u.contentHash, u.numWords]));
    expect(a.units[0]!.contentHash).toBe(calculateHash('Hello', 'hello'));
    expect(b.units[0]!.target).toEqual(['Salut']);
  });
});

describe('json: identities Weblate gives odd keys', () => {
  it('a repeated key keeps its first position and its last value, and edits hit the last one', () => {
    const { store, write } = open('json', '{"a": "1", "b": "2", "a": "3"}');
    expect(store.units.map((u) => [u.source[0], u.target[0]])).toEqual([
      ['a', '3'],
      ['b', '2'],
    ]);
    expect(write([setKey('a', ['4'])])).toBe('{"a": "1", "b": "2", "a": "4"}');
  });
  it('a dotted key and the same nested path are one unit (the first wins)', () => {
    const { store } = open('json-nested', '{"a.b": "literal", "a": {"b": "nested"}}');
    expect(store.units).toHaveLength(1);
    expect(store.units[0]).toMatchObject({ source: ['a.b'], target: ['literal'], idHash: calculateHash('a.b') });
  });
  it('a key starting with a dot: context keeps one dot, the bilingual source none', () => {
    const mono = open('json', '{".x": "v"}', 'de', '{".x": "V"}');
    expect(mono.store.units[0]!.context).toBe('.x');
    expect(open('json', '{".x": "v"}').store.units[0]!.source).toEqual(['x']);
  });
  it('empty objects and arrays make no unit and stay in the file', () => {
    const { store, write } = open('json-nested', '{"o": {}, "l": [], "s": "x"}');
    expect(store.units).toHaveLength(1);
    expect(write([setKey('s', ['y'])])).toBe('{"o": {}, "l": [], "s": "y"}');
  });
});

describe('json: parse errors point at the problem', () => {
  function parseError(format: FormatId, text: string | Uint8Array): FormatParseError {
    const bytes = typeof text === 'string' ? encoder.encode(text) : text;
    try {
      getFormat(format).parse(bytes, { filename: 'x.json', language: 'de', sourceLanguage: 'en' });
    } catch (e) {
      if (e instanceof FormatParseError) return e;
      throw e;
    }
    throw new Error('no error');
  }
  it('gives 1-based line and column and a one-line reason', () => {
    expect(parseError('json', '{\n  "a": "x",\n}').data).toMatchObject({ line: 2, column: 11, reason: "trailing comma before '}'" });
    expect(parseError('json', '{\n  "a": "x"').data).toMatchObject({ line: 2, column: 11 });
    expect(parseError('json', '{"a": "x" "b": "y"}').data).toMatchObject({ line: 1, column: 11 });
    expect(parseError('json', '\ufeff{"a": tru}').data).toMatchObject({ line: 1, column: 7 });
    expect(parseError('json', '{"a": "tab\there"}').data).toMatchObject({ line: 1, column: 11 });
    expect(parseError('json', '{"a": "\\x"}').data.reason).toContain('invalid escape');
    const bad = new Uint8Array([...encoder.encode('{\n "é": "'), 0xc3, 0x28, ...encoder.encode('"}')]);
    expect(parseError('json', bad).data).toMatchObject({ line: 2, column: 8 });
    expect(parseError('go-i18n-json', '{}').data.reason).toContain('must be a JSON array');
  });
  it('accepts comments only in WebExtension files', () => {
    const text = '{\n  /* block */\n  "a": {"message": "x"} // trailing\n}';
    expect(getFormat('webextension').parse(encoder.encode(text), { filename: 'm.json', language: 'en', sourceLanguage: 'en' }).units).toHaveLength(1);
    expect(parseError('json', text).data.line).toBe(2);
  });
});

describe('json: writes that cannot be done', () => {
  it('refuses plural forms for formats without plurals', () => {
    const { f, ctx, bytes } = open('json', '{"a": "x"}');
    expect(() => f.write(bytes, [setKey('a', ['x', 'y'])], ctx)).toThrow(FormatWriteError);
  });
  it('applies only the last of several writes to one unit', () => {
    expect(open('json', '{"a": "x"}').write([setKey('a', ['1']), setKey('a', ['2'])])).toBe('{"a": "2"}');
  });
  it('edits many units with one changed line each', () => {
    const text = `{\n${Array.from({ length: 50 }, (_, i) => `  "k${i}": "v${i}"`).join(',\n')}\n}\n`;
    const { write } = open('json', text);
    const out = write([setKey('k3', ['x']), setKey('k40', ['y'])]);
    const lines = out.split('\n');
    expect(lines[4]).toBe('  "k3": "x",');
    expect(lines[41]).toBe('  "k40": "y",');
    expect(changedLines(text, out).removed).toHaveLength(38);
  });
});

describe('json: create', () => {
  it('empties an i18next v4 base for Polish without collapsing plurals, clearing categories Polish lacks', () => {
    const base = encoder.encode('{"n_one": "{{count}} file", "n_other": "{{count}} files", "m": "x"}');
    const out = decode(getFormat('i18nextv4').create(base, { filename: 'pl.json', language: 'pl', sourceLanguage: 'en' }));
    expect(out).toBe('{"n_one": "", "n_few": "", "n_many": "", "n_other": "", "m": ""}');
  });
  it('keeps WebExtension descriptions and sets ARB @@locale to the new language', () => {
    const f = getFormat('arb');
    const out = decode(f.create(fixture('json/app_en.arb'), { filename: 'app_pt_BR.arb', language: 'pt_BR', sourceLanguage: 'en' }));
    expect(out).toContain('"@@locale": "pt_BR"');
    expect(out).toContain('"description": "The title of the application"');
    const store: ParsedFile = f.parse(encoder.encode(out), { filename: 'x.arb', language: 'pt_BR', sourceLanguage: 'en' });
    expect(store.units.every((u) => u.state === State.EMPTY)).toBe(true);
  });
});
