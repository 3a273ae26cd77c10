// Memory files read in pieces (TMX, Weblate JSON): whatever the cut between pieces, the same entries and the same
// errors as the whole file, on awkward input; Translate Toolkit reads the same texts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatParseError } from '../../src/domain/errors.js';
import { createMemoryJsonReader } from '../../src/formats/memory/json.js';
import { type MemoryFileEntry, type MemoryFileReader, createTmxReader } from '../../src/formats/memory/tmx.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** Reads bytes in pieces of `size` bytes (1: byte by byte, splitting every multi-byte character). */
function readInPieces(reader: MemoryFileReader, bytes: Uint8Array, size: number): MemoryFileEntry[] {
  const out: MemoryFileEntry[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...reader.push(bytes.subarray(i, i + size)));
  out.push(...reader.end());
  return out;
}

/** The outcome of reading: the entries, or the error's code and where it points. */
function outcome(make: () => MemoryFileReader, bytes: Uint8Array, size: number): unknown {
  try {
    return readInPieces(make(), bytes, size);
  } catch (e) {
    if (!(e instanceof FormatParseError)) throw e;
    return { code: e.code, line: e.data.line, column: e.data.column, reason: e.data.reason };
  }
}

const SIZES = [1, 2, 3, 5, 7, 16, 61, 4096];

/** Every piece size gives what the whole file gives. */
function expectSameInPieces(make: () => MemoryFileReader, bytes: Uint8Array): unknown {
  const whole = outcome(make, bytes, bytes.length + 1);
  for (const size of SIZES) expect(outcome(make, bytes, size), `pieces of ${size} bytes`).toEqual(whole);
  return whole;
}

// A BOM, a DOCTYPE entity, comments and CDATA holding `</tu>`, `>` and references in attributes, CRLF line ends,
// inline codes, a unit whose srclang is not the header's, three languages in one unit, characters beyond the BMP,
// and units that give nothing (an empty source, one language, a variant without a segment).
const AWKWARD = [
  '\ufeff<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE tmx [ <!ENTITY product "Wörterbuch"> ]>',
  '<!-- a comment with <tu> and </tu> inside -->',
  '<tmx version="1.4">',
  '  <header srclang="en" creationtool="hand" o-tmf="x" adminlang="en" datatype="plaintext" segtype="sentence" creationtoolversion="1">',
  '    <note>header note with &amp; and <![CDATA[</tu> in CDATA]]></note>',
  '  </header>',
  '  <body>',
  '    <tu tuid="1" note="a &gt; b &amp; c > d">\r',
  '      <prop type="x-origin">ignored</prop>',
  '      <tuv xml:lang="en"><seg>Open &product; file</seg></tuv>',
  '      <tuv xml:lang="de"><seg>&product;-Datei öffnen</seg></tuv>',
  '    </tu>',
  '    <tu><tuv xml:lang="en"><seg><![CDATA[5 < 6 & </seg></tu> stays text]]></seg></tuv><tuv xml:lang="cs"><seg>5 &lt; 6 &#x26; &#233;</seg></tuv></tu>',
  '    <tu srclang="de"><tuv xml:lang="en"><seg>Close</seg></tuv><tuv xml:lang="de"><seg>Schließen</seg></tuv><tuv xml:lang="fr"><seg>Fermer</seg></tuv></tu>',
  '    <tu><tuv lang="en"><seg>Bold <bpt i="1">&lt;b&gt;</bpt>text<ept i="1">&lt;/b&gt;</ept> and <ph>&lt;br/&gt;</ph><hi>hi</hi> 😀</seg></tuv><tuv xml:lang="ja"><seg>太字<bpt i="1">&lt;b&gt;</bpt>テキスト<ept i="1">&lt;/b&gt;</ept></seg></tuv></tu>',
  '    <tu><tuv xml:lang="en"><seg>Line one\r\nline two</seg></tuv><tuv xml:lang="de"><seg>Zeile eins\r\nZeile zwei</seg></tuv></tu>',
  '    <tu><tuv xml:lang="en"><seg></seg></tuv><tuv xml:lang="de"><seg>leer</seg></tuv></tu>',
  '    <tu><tuv xml:lang="en"><seg>Only one</seg></tuv></tu>',
  '    <tu><tuv xml:lang="en"><seg>Two segs</seg><seg>ignored</seg></tuv><tuv xml:lang="de"><note>no seg</note></tuv><tuv xml:lang="de"><seg>Zwei</seg></tuv></tu>',
  '    <?pi inside body?>',
  '  </body>',
  '</tmx>\r\n',
].join('\n');

const AWKWARD_ENTRIES: MemoryFileEntry[] = [
  { source: 'Open Wörterbuch file', target: 'Wörterbuch-Datei öffnen', sourceLanguage: 'en', targetLanguage: 'de' },
  { source: '5 < 6 & </seg></tu> stays text', target: '5 < 6 & é', sourceLanguage: 'en', targetLanguage: 'cs' },
  { source: 'Schließen', target: 'Close', sourceLanguage: 'de', targetLanguage: 'en' },
  { source: 'Schließen', target: 'Fermer', sourceLanguage: 'de', targetLanguage: 'fr' },
  { source: 'Bold <b>text</b> and <br/>hi 😀', target: '太字<b>テキスト</b>', sourceLanguage: 'en', targetLanguage: 'ja' },
  { source: 'Line one\nline two', target: 'Zeile eins\nZeile zwei', sourceLanguage: 'en', targetLanguage: 'de' },
  { source: 'Two segs', target: 'Zwei', sourceLanguage: 'en', targetLanguage: 'de' },
];

const tmxReader = () => createTmxReader('awkward.tmx');

describe('TMX read in pieces', () => {
  it('gives the same entries whatever the cuts, multi-byte characters and CRLF split included', () => {
    expect(expectSameInPieces(tmxReader, encode(AWKWARD))).toEqual(AWKWARD_ENTRIES);
  });

  it('reads UTF-16 (either byte order, with its BOM) in pieces as it reads UTF-8', () => {
    const text = AWKWARD.slice(1).replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    expect(expectSameInPieces(tmxReader, le)).toEqual(AWKWARD_ENTRIES);
    expect(expectSameInPieces(tmxReader, be)).toEqual(AWKWARD_ENTRIES);
  });

  it('raises the same error at the same line and column whatever the cuts', () => {
    const broken: [string, string | Uint8Array, RegExp][] = [
      ['mismatched tag near the end', AWKWARD.replace('<seg>Zwei</seg>', '<seg>Zwei</sag>'), /mismatched end tag/],
      ['unclosed root', AWKWARD.replace('</tmx>', ''), /not closed/],
      ['undefined entity', AWKWARD.replace('&product;-Datei', '&nope;-Datei'), /undefined entity/],
      ['forbidden character', AWKWARD.replace('Fermer', 'Fer\u0001mer'), /not allowed in XML/],
      ['not TMX', '<?xml version="1.0"?>\n<xliff><body/></xliff>', /not a TMX file/],
      ['no body', '<tmx version="1.4"><header srclang="en"/></tmx>', /needs a <body>/],
      ['declaration later on', AWKWARD.replace('<?pi inside body?>', '<?xml version="1.0"?>'), /XML declaration/],
      ['text after the root', `${AWKWARD}trailing`, /after the root element/],
      [
        'invalid UTF-8 inside a character',
        Buffer.concat([Buffer.from(AWKWARD.slice(0, 900)), Buffer.from([0xc3, 0x28]), Buffer.from(AWKWARD.slice(900))]),
        /invalid UTF-8/,
      ],
      ['a file cut inside a character', Buffer.from(AWKWARD).subarray(0, Buffer.from(AWKWARD).indexOf(Buffer.from('ö')) + 1), /invalid UTF-8|not closed/],
    ];
    for (const [what, input, reason] of broken) {
      const bytes = typeof input === 'string' ? encode(input) : input;
      const whole = expectSameInPieces(tmxReader, bytes) as { code?: string; reason?: string; line?: number };
      expect(whole.code, what).toBe('FormatParseError');
      expect(whole.reason, what).toMatch(reason);
    }
    // the position is the file's, not a piece's
    const late = outcome(tmxReader, encode(AWKWARD.replace('<seg>Zwei</seg>', '<seg>Zwei</sag>')), 3) as { line: number; column: number };
    const lines = AWKWARD.split('\n');
    const row = lines.findIndex((l) => l.includes('<seg>Zwei</seg>'));
    expect(late).toMatchObject({ line: row + 1, column: lines[row]!.indexOf('</seg>', lines[row]!.indexOf('Zwei')) + 1 });
    const bad = outcome(tmxReader, encode(AWKWARD.replace('Fermer', 'Fer\u0001mer')), 2) as { line: number; column: number };
    const fr = lines.findIndex((l) => l.includes('Fermer'));
    expect(bad).toMatchObject({ line: fr + 1, column: lines[fr]!.indexOf('Fermer') + 4 });
  });

  it('keeps only the unit being read: a unit longer than every piece is still read whole', () => {
    const long = 'x'.repeat(200_000);
    const tmx = `<tmx><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>${long}</seg></tuv><tuv xml:lang="de"><seg>y${long}</seg></tuv></tu></body></tmx>`;
    const reader = createTmxReader('long.tmx');
    const bytes = encode(tmx);
    const seen: MemoryFileEntry[] = [];
    for (let i = 0; i < bytes.length; i += 4096) seen.push(...reader.push(bytes.subarray(i, i + 4096)));
    seen.push(...reader.end());
    expect(seen).toEqual([{ source: long, target: `y${long}`, sourceLanguage: 'en', targetLanguage: 'de' }]);
  });

  it('gives each unit as soon as its end tag has arrived', () => {
    const reader = createTmxReader('early.tmx');
    expect(reader.push(encode('<tmx><body><tu><tuv xml:lang="en"><seg>One</seg></tuv><tuv xml:lang="de"><seg>Eins</seg></tuv></t'))).toEqual([]);
    expect(reader.push(encode('u><tu>'))).toEqual([{ source: 'One', target: 'Eins', sourceLanguage: 'en', targetLanguage: 'de' }]);
    expect(() => reader.end()).toThrow(FormatParseError);
  });

  it('reads the texts Translate Toolkit reads (units of two languages)', (ctx) => {
    const python = process.env.TMS_PYTHON ?? '/usr/bin/python3';
    if (spawnSync(python, ['-c', 'import translate.storage.tmx']).status !== 0) {
      ctx.skip();
      return;
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tms-tmx-oracle-'));
    try {
      const file = path.join(dir, 'awkward.tmx');
      writeFileSync(file, AWKWARD);
      const script = `import json, sys
from translate.storage import tmx
units = tmx.tmxfile.parsefile(sys.argv[1]).units
print(json.dumps([[u.source, u.target] for u in units if len(u.getlanguageNodes()) == 2]))`;
      const r = spawnSync(python, ['-c', script, file], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      const pairs = JSON.parse(r.stdout) as [string, string | null][];
      const ours = AWKWARD_ENTRIES.map((e) => [e.source, e.target]);
      // Translate Toolkit keeps units with an empty source or a missing target, which give no entry here
      const kept = pairs.filter(([source, target]) => source !== '' && target);
      expect(kept.length).toBe(4);
      for (const pair of kept) expect(ours).toContainEqual(pair);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Weblate JSON memory read in pieces', () => {
  const jsonReader = () => createMemoryJsonReader('dump.json');
  const items = [
    { source: 'Open "file" ] }', target: 'Datei öffnen\n', source_language: 'en', target_language: 'de', origin: 'weblate', category: 2 },
    { source: 'Emoji 😀 \\ slash', target: 'Ｅｍｏｊｉ', source_language: 'en', target_language: 'ja', extra: [1, { nested: ['[', '{'] }] },
  ];
  const expected = [
    { source: 'Open "file" ] }', target: 'Datei öffnen\n', sourceLanguage: 'en', targetLanguage: 'de', origin: 'weblate' },
    { source: 'Emoji 😀 \\ slash', target: 'Ｅｍｏｊｉ', sourceLanguage: 'en', targetLanguage: 'ja', origin: undefined },
  ];

  it('gives the same entries whatever the cuts (BOM, pretty-printed or not, brackets inside strings)', () => {
    expect(expectSameInPieces(jsonReader, encode(`\ufeff${JSON.stringify(items, null, 2)}\r\n`))).toEqual(expected);
    expect(expectSameInPieces(jsonReader, encode(JSON.stringify(items)))).toEqual(expected);
    expect(expectSameInPieces(jsonReader, encode(' [ ] '))).toEqual([]);
  });

  it('names the line of the entry at fault, the same whatever the cuts', () => {
    const pretty = JSON.stringify(items, null, 2);
    const lines = pretty.split('\n');
    const second = lines.indexOf('  {', 2) + 1;
    const cases: [string, RegExp, number][] = [
      [pretty.replace('"source": "Emoji', '"source": 5, "x": "Emoji'), /entry 2: "source" must be a string/, second],
      [pretty.replace('"target": "Ｅｍｏｊｉ"', '"target": Ｅｍｏｊｉ'), /entry 2: not JSON/, second],
      [pretty.replace(/\]\s*$/, ''), /not closed/, lines.length],
      [`${pretty} []`, /text after the list/, lines.length],
      ['{"source": "a"}', /a JSON memory file is a list of entries/, 1],
      ['', /empty/, 1],
      ['[1,,2]', /where an entry should be|must be a string/, 1],
    ];
    for (const [text, reason, line] of cases) {
      const whole = expectSameInPieces(jsonReader, encode(text)) as { code: string; reason: string; line: number };
      expect(whole.code, text).toBe('FormatParseError');
      expect(whole.reason, text).toMatch(reason);
      expect(whole.line, text).toBe(line);
    }
  });
});
