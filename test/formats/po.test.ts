// gettext PO: the shared conformance suite on our fixtures, Weblate's example identities, minimal writes, the header, traps.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { FormatParseError, FormatWriteError } from '../../src/domain/errors.js';
import { State } from '../../src/domain/unit.js';
import type { FormatContext, ParsedFile, UnitWrite } from '../../src/formats/format.js';
import { decodePo } from '../../src/formats/po/charset.js';
import { quoteLines } from '../../src/formats/po/quote.js';
import { parsePoText, quotedParts, unquote } from '../../src/formats/po/syntax.js';
import { getFormat } from '../../src/formats/registry.js';
import { corpusDir } from '../helpers/corpus.js';
import { changedLines, fixture, runConformance } from './conformance.js';

const po = getFormat('po');
const poMono = getFormat('po-mono');
const decoder = new TextDecoder();
const encoder = new TextEncoder();

const REVISION = {
  translator: 'Jan Novák <jan@example.org>',
  date: new Date(Date.UTC(2025, 2, 4, 5, 6, 7)),
  generator: 'tms 1.2.3',
  languageTeam: 'Czech <http://tms.example/projects/p/c/cs/>',
};

function ctxFor(filename = 'cs.po', extra: Partial<FormatContext> = {}): FormatContext {
  return { filename, language: 'cs', sourceLanguage: 'en', ...extra };
}

function parseText(text: string, ctx = ctxFor()): ParsedFile {
  return po.parse(encoder.encode(text), ctx);
}

function writeText(text: string, edits: UnitWrite[], ctx = ctxFor()): string {
  return decoder.decode(po.write(encoder.encode(text), edits, ctx));
}

function parseError(text: string | Uint8Array): FormatParseError {
  try {
    po.parse(typeof text === 'string' ? encoder.encode(text) : text, ctxFor('bad.po'));
  } catch (e) {
    if (e instanceof FormatParseError) return e;
    throw e;
  }
  throw new Error('no error raised');
}

runConformance({
  format: 'po',
  cases: [
    {
      name: 'the example of the formats notes (§1.9), with a wrapped msgid, a fuzzy empty entry and an obsolete one',
      file: 'po/cs.po',
      language: 'cs',
      plurals: 3,
      count: 5,
      units: {
        0: { context: '', source: ['Monday'], target: ['Pondělí'], state: State.TRANSLATED, location: 'weblate/days.py:12', idHash: -2545223439978019002n },
        1: {
          context: 'No known user',
          source: ['None'],
          state: State.FUZZY,
          flags: 'python-format',
          note: 'Shown when nobody is logged in',
          previousSource: 'Nobody',
          idHash: -7853445022396868382n,
        },
        2: { source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'], flags: 'c-format', idHash: 4252344477872586470n },
        3: { state: State.EMPTY, note: "A translator's note", location: 'weblate/help.py:7, weblate/help.py:9' },
        4: { source: ['Tuesday'], state: State.EMPTY, flags: '' },
      },
      edit: { index: 0, target: ['Pondělí!'], maxChangedLines: 1, expectText: 'msgstr "Pondělí!"' },
      add: {
        write: { context: 'menu', source: ['Save'], target: ['Uložit'], state: State.TRANSLATED },
        expectText: 'msgctxt "menu"\nmsgid "Save"\nmsgstr "Uložit"',
      },
      remove: { index: 0 },
    },
    {
      name: 'CRLF line ends',
      file: 'po/crlf.po',
      language: 'de',
      count: 2,
      units: { 0: { source: ['Open'], target: ['Öffnen'] }, 1: { source: ['Close'], note: 'note one\r\nnote two\r' } },
      edit: { index: 1, target: ['Schließen'], maxChangedLines: 1 },
    },
    {
      name: 'a UTF-8 BOM and no final newline',
      file: 'po/bom.po',
      language: 'fr',
      count: 2,
      edit: { index: 1, target: ['Non'], maxChangedLines: 1 },
    },
  ],
  create: [{ base: 'po/messages.pot', language: 'cs', count: 5, expectText: '"Language: cs\\n"' }],
  bad: [
    { name: 'a string without its closing quote', text: 'msgid "a\nmsgstr "b"\n', line: 1 },
    { name: 'a msgid without msgstr', text: 'msgid "a"\n\nmsgid "b"\nmsgstr "c"\n', line: 3 },
    { name: 'msgstr[n] without msgid_plural (broken plural)', text: 'msgid "a"\nmsgstr[0] "b"\n', line: 2 },
    { name: 'msgid_plural without msgstr[n] (broken plural)', text: 'msgid "a"\nmsgid_plural "as"\nmsgstr "b"\n', line: 3 },
    { name: 'a plural index that is not a number', text: 'msgid "a"\nmsgid_plural "as"\nmsgstr[x] "b"\n', line: 3 },
    { name: 'a line that is no PO', text: 'msgid "a"\nmsgstr "b"\n\nhello world\n', line: 4 },
    { name: 'a #| comment without a previous msgid', text: '#| hello\nmsgid "a"\nmsgstr "b"\n', line: 1 },
    { name: 'a #, line Weblate cannot read as flags', text: '#, c-format, "quoted"\nmsgid "a"\nmsgstr "b"\n', line: 1 },
    { name: 'an unknown charset', text: 'msgid ""\nmsgstr "Content-Type: text/plain; charset=NO-SUCH-CHARSET\\n"\n', line: 2 },
    { name: 'bytes that are not UTF-8', text: new Uint8Array([...encoder.encode('msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "'), 0xff, 0x22, 0x0a]), line: 5 },
  ],
});

runConformance({
  format: 'po-mono',
  cases: [
    {
      name: 'msgid as key, the template holding the source',
      file: 'po/mono-cs.po',
      template: 'po/mono-en.po',
      language: 'cs',
      plurals: 3,
      count: 4,
      units: {
        0: { context: 'day-monday', source: ['Monday'], target: ['Pondělí'], note: 'The first day\n', idHash: -6570217448033415746n },
        1: { context: 'menu.open', source: ['Open'], target: ['Otevřít'], note: 'menu', idHash: 1895736704844797514n },
        2: { context: 'files', source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'] },
        3: { context: 'tuesday', source: ['Tuesday'], target: [''], state: State.EMPTY },
      },
      edit: { index: 0, target: ['Pondělí!'], maxChangedLines: 1 },
      add: { write: { context: 'tuesday', source: ['Tuesday'], target: ['Úterý'], state: State.TRANSLATED }, expectText: 'msgid "tuesday"\nmsgstr "Úterý"' },
    },
  ],
  create: [
    { base: null, language: 'cs', template: 'po/mono-en.po', count: 4, expectText: 'Content-Type: text/plain; charset=UTF-8' },
    { base: 'po/mono-cs.po', language: 'de', template: 'po/mono-en.po', count: 4 },
  ],
});

describe('format po: writes as Weblate saves them', () => {
  const cs = decoder.decode(fixture('po/cs.po'));

  it('updates the header as Weblate does: Last-Translator, PO-Revision-Date (UTC), Language-Team, X-Generator; nothing else moves', () => {
    const out = writeText(cs, [{ context: '', source: ['Monday'], target: ['Pondělí!'], state: State.TRANSLATED }], ctxFor('cs.po', { revision: REVISION }));
    expect(out).toContain('"PO-Revision-Date: 2025-03-04 05:06+0000\\n"');
    expect(out).toContain('"Last-Translator: Jan Novák <jan@example.org>\\n"');
    expect(out).toContain('"Language-Team: Czech <http://tms.example/projects/p/c/cs/>\\n"');
    expect(out).toMatch(/"Plural-Forms: nplurals=3; plural=\(n==1\) \? 0 : \(n>=2 && n<=4\) \? 1 : 2;\\n"\n"X-Generator: tms 1.2.3\\n"\n/);
    const before = cs.split('\n');
    const after = out.split('\n');
    expect(after.filter((l) => !before.includes(l))).toEqual([
      '"PO-Revision-Date: 2025-03-04 05:06+0000\\n"',
      '"Last-Translator: Jan Novák <jan@example.org>\\n"',
      '"Language-Team: Czech <http://tms.example/projects/p/c/cs/>\\n"',
      '"X-Generator: tms 1.2.3\\n"',
      'msgstr "Pondělí!"',
    ]);
    expect(before.filter((l) => !after.includes(l))).toEqual([
      '"PO-Revision-Date: 2024-02-01 10:00+0000\\n"',
      '"Last-Translator: Jane Doe <jane@example.org>\\n"',
      '"Language-Team: Czech <cs@li.org>\\n"',
      'msgstr "Pondělí"',
    ]);
    expect(out).toContain('msgid "Monday"\nmsgstr "Pondělí!"\n');
  });

  it('drops the header fuzzy flag whenever the header is updated', () => {
    const pot = decoder.decode(fixture('po/messages.pot'));
    const out = writeText(pot, [{ context: '', source: ['Monday'], target: ['Pondělí'], state: State.TRANSLATED }], ctxFor('cs.po', { revision: REVISION }));
    expect(out).not.toMatch(/^#, fuzzy\nmsgid ""/m);
    expect(out).toContain('"Content-Type: text/plain; charset=UTF-8\\n"');
    expect(out).toContain('"Language: cs\\n"');
  });

  it('marks fuzzy as the toolkit writes the flags: sorted on one line, before the #| and msgctxt lines', () => {
    const out = writeText(cs, [{ context: '', source: ['Monday'], target: ['Pondělí?'], state: State.FUZZY }]);
    expect(out).toContain('#: weblate/days.py:12\n#, fuzzy\nmsgid "Monday"\nmsgstr "Pondělí?"');
    const again = parseText(out).units[0]!;
    expect(again.state).toBe(State.FUZZY);
  });

  it('clears fuzzy and the #| previous msgid once a string is translated (Weblate forgets the previous source)', () => {
    const out = writeText(cs, [{ context: 'No known user', source: ['None'], target: ['Nikdo'], state: State.TRANSLATED }]);
    expect(out).toContain('#: weblate/accounts/avatar.py:163\n#, python-format\nmsgctxt "No known user"\nmsgid "None"\nmsgstr "Nikdo"\n');
    expect(out).not.toContain('#|');
  });

  it('wraps a long translation at 77 columns with an empty first line, and at the component width when set', () => {
    const long = 'Toto je dlouhý překlad, který se nevejde na jeden řádek souboru a musí se zalomit jako v gettextu.';
    const out = writeText(cs, [{ context: '', source: ['Tuesday'], target: [long], state: State.TRANSLATED }]);
    expect(out).toContain(
      'msgid "Tuesday"\nmsgstr ""\n"Toto je dlouhý překlad, který se nevejde na jeden řádek souboru a musí se "\n"zalomit jako v gettextu."\n',
    );
    const unwrapped = writeText(cs, [{ context: '', source: ['Tuesday'], target: [long], state: State.TRANSLATED }], ctxFor('cs.po', { lineWidth: -1 }));
    expect(unwrapped).toContain(`msgstr "${long}"`);
    expect(parseText(out).units[4]).toMatchObject({ target: [long], state: State.TRANSLATED });
  });

  it('writes plural forms in index order and refuses several forms for a string without a plural', () => {
    const out = writeText(cs, [{ context: '', source: ['%d file', '%d files'], target: ['a', 'b', 'c'], state: State.TRANSLATED }]);
    expect(out).toContain('msgid_plural "%d files"\nmsgstr[0] "a"\nmsgstr[1] "b"\nmsgstr[2] "c"\n');
    expect(() => writeText(cs, [{ context: '', source: ['Monday'], target: ['a', 'b'], state: State.TRANSLATED }])).toThrow(FormatWriteError);
  });

  it('keeps CRLF line ends and the BOM in the lines it writes', () => {
    const out = po.write(
      fixture('po/crlf.po'),
      [{ context: '', source: ['Close'], target: ['Schließen'], state: State.TRANSLATED }],
      ctxFor('crlf.po', { language: 'de', revision: REVISION }),
    );
    const text = decoder.decode(out);
    expect(text).toContain('msgid "Close"\r\nmsgstr "Schließen"\r\n');
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
    const bom = po.write(
      fixture('po/bom.po'),
      [{ context: '', source: ['No'], target: ['Non'], state: State.TRANSLATED }],
      ctxFor('bom.po', { language: 'fr' }),
    );
    expect([...bom.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(decoder.decode(bom).endsWith('msgstr "Non"')).toBe(true);
  });

  it('writes a single-byte charset back in that charset', () => {
    const latin = new Uint8Array([
      ...encoder.encode('msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "a"\nmsgstr "'),
      0xe9,
      ...encoder.encode('"\n'),
    ]);
    const store = po.parse(latin, ctxFor('l.po'));
    expect(store.units[0]!.target).toEqual(['é']);
    const out = po.write(latin, [{ context: '', source: ['a'], target: ['ü'], state: State.TRANSLATED }], ctxFor('l.po'));
    expect(out[out.length - 3]).toBe(0xfc);
  });

  it("finds the header's charset past the first 4 KiB (a long comment before the header)", () => {
    const comment = `# ${'x'.repeat(70)}\n`.repeat(80);
    const latin = new Uint8Array([
      ...encoder.encode(`${comment}msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "a"\nmsgstr "`),
      0xe9,
      ...encoder.encode('"\n'),
    ]);
    expect(latin.indexOf(0x3d)).toBeGreaterThan(4096);
    expect(po.parse(latin, ctxFor('l.po')).units[0]!.target).toEqual(['é']);
  });

  it('removes an obsolete entry with the same id when a string comes back', () => {
    const out = writeText(cs, [{ context: '', source: ['Old'], target: ['Starý'], state: State.TRANSLATED }]);
    expect(out).not.toContain('#~');
    expect(out.trimEnd().endsWith('msgid "Old"\nmsgstr "Starý"')).toBe(true);
  });

  it('creates a new language from the POT as Weblate does: emptied, header for the language, no header fuzzy', () => {
    const out = decoder.decode(po.create(fixture('po/messages.pot'), ctxFor('cs.po', { plurals: 3, pluralFormula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' })));
    expect(out).toContain('"Last-Translator: Automatically generated\\n"');
    expect(out).toContain('"Language-Team: none\\n"');
    expect(out).toContain('"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"');
    expect(out).toContain('"Content-Type: text/plain; charset=UTF-8\\n"');
    expect(out).toContain('"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"');
    expect(out).not.toMatch(/^#, fuzzy$/m);
    expect(() => po.create(null, ctxFor())).toThrow(FormatWriteError);
  });
});

describe('format po: input the toolkit accepts and Weblate lists', () => {
  it('a header-only file has no units', () => {
    expect(parseText('msgid ""\nmsgstr "Language: cs\\n"\n').units).toEqual([]);
    expect(parseText('').units).toEqual([]);
  });

  it('a msgctxt with an empty msgid is a unit; a KDE "_:" comment joins the context', () => {
    const units = parseText('msgctxt "c"\nmsgid ""\nmsgstr "x"\n\nmsgid "_: kde\\n"\n"text"\nmsgstr "y"\n').units;
    expect(units.map((u) => [u.context, u.source[0]])).toEqual([
      ['c', ''],
      ['kde', 'text'],
    ]);
  });

  it('+ and %20 in #: paths read as spaces, as the toolkit unquotes them', () => {
    expect(parseText('#: a+b.c:1 d%20e.c:2\nmsgid "x"\nmsgstr ""\n').units[0]!.location).toBe('a, b.c:1, d, e.c:2');
  });

  it("Sphinx's docstring references lose their `:docstring of name:line` part, as Weblate removes it from the joined list", () => {
    const text = '#: ../../api.py:docstring of pkg.mod.func:12 guide.rst:3\n#: x.py:docstring of a.b:1\nmsgid "x"\nmsgstr ""\n';
    expect(parseText(text).units[0]!.location).toBe('../../api.py, guide.rst:3, x.py');
  });

  it('errors name the file, line and column', () => {
    const e = parseError('msgid "a"\nmsgstr "b\n');
    expect(e.data).toMatchObject({ filename: 'bad.po', line: 2, column: 8 });
  });
});

// GNU gettext wrapped Midnight Commander's files (width 79 with the quotes): re-quoting every string gives its lines
// back, except where Weblate's own wrapper decides otherwise (listed).
const corpus = corpusDir();
describe.skipIf(!corpus)('format po: wrapping as gettext does (Midnight Commander, wrapped by msgmerge)', () => {
  it('re-quotes every string of the corpus files line for line, but for three known cases of Weblate’s wrapper', () => {
    const differ: string[] = [];
    let strings = 0;
    for (const file of fg.sync('MidnightCommander-mc/po/*.{po,pot}', { cwd: corpus! })) {
      const { text, bom } = decodePo(readFileSync(path.join(corpus!, file)), file);
      const doc = parsePoText(text, bom, file);
      for (const e of doc.entries.slice(1)) {
        if (e.obsolete) continue;
        for (const parts of [e.msgid, e.msgstr ?? [], ...(e.msgstrPlural ?? []).map((f) => f.parts)]) {
          if (parts.length === 0) continue;
          strings++;
          const again = quoteLines(unquote(text, parts), 77);
          if (JSON.stringify(again.length === 0 ? ['""'] : again) !== JSON.stringify(quotedParts(text, parts))) differ.push(unquote(text, parts));
        }
      }
    }
    expect(strings).toBeGreaterThan(24_000);
    // Weblate's wrapper may break after ")" and after "‘"; its one-line rule allows width − 6 characters, one more
    // than fits after `msgstr "` in 79 columns
    expect(differ.sort()).toEqual([
      '\nNão foi possível configurar o final da leitura do canal do SIGWINCH: %s (%d)\n',
      'Dois arquivos são necessários para invocar o visualizador de diferenças ‘diffviewer’.',
      'Количество шаблонных полей не соответствует количеству полей для замены',
    ]);
  });
});
