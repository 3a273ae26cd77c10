// The streamed XLIFF reader: the tree reader's units for every file of its shape, and no answer (the tree reader's turn) for any other.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/helpers/errors.js';
import { FormatParseError } from '../../domain/errors.js';
import { readXliff } from './document.js';
import { streamBilingual } from './stream.js';
import { type XliffReading, bilingualUnits } from './units.js';

const encoder = new TextEncoder();
const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/formats/xliff');
const RICH: XliffReading = { rich: true, po: false };
const PLAIN: XliffReading = { rich: false, po: false };
const NS = 'xmlns="urn:oasis:names:tc:xliff:document:1.2"';

function doc(body: string, root = `<xliff version="1.2" ${NS}>`): Uint8Array {
  return encoder.encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n  <file original="app" source-language="en">\n    <body>\n${body}\n    </body>\n  </file>\n</xliff>\n`,
  );
}

/** The tree reader's units of `bytes` (what the streamed ones must equal). */
function treeUnits(bytes: Uint8Array, reading: XliffReading) {
  return bilingualUnits(readXliff(bytes, 'f.xlf', 'xliff', true), reading).units;
}

// Files of the streamed shape, each with what it exercises.
const STREAMED: Array<[string, string]> = [
  [
    'notes (a repeated one dropped, one in alt-trans), xml:space on the unit, the note and the context',
    `<trans-unit id="1" xml:space="preserve"><source> Two  spaces </source><target state="needs-translation"> Zwei  Leer </target>
      <note>first  note</note><note xml:space="default"> second  note </note><note>first  note</note>
      <alt-trans><source>old</source><target>alt</target><note>from alt-trans</note></alt-trans>
      <context-group purpose="location"><context context-type="sourcefile" xml:space="default"> a.html </context><context context-type="linenumber">3</context></context-group>
    </trans-unit>`,
  ],
  [
    'context groups: other purposes, a file without a line, several sourcefiles (the first counts), an empty one, one inside alt-trans',
    `<trans-unit id="2"><source>Save</source>
      <context-group purpose="information"><context context-type="sourcefile">not.html</context></context-group>
      <context-group purpose="location"><context context-type="sourcefile">b.ts</context></context-group>
      <context-group purpose="location"><context context-type="linenumber">9</context></context-group>
      <context-group purpose="location"><context context-type="sourcefile">c.ts</context><context context-type="sourcefile">d.ts</context><context context-type="linenumber">1</context><context context-type="linenumber">2</context></context-group>
      <context-group purpose="location"><context context-type="sourcefile"></context></context-group>
      <alt-trans><context-group purpose="location"><context context-type="sourcefile">alt.ts</context></context-group></alt-trans>
    </trans-unit>
    <trans-unit id="2b"><source>Empty first location</source>
      <context-group purpose="location"><context context-type="sourcefile"/></context-group>
      <context-group purpose="location"><context context-type="sourcefile">e.ts</context></context-group>
    </trans-unit>`,
  ],
  [
    'inline markup: placeholders, nested g and ph, a comment and a processing instruction, CDATA, references',
    `<trans-unit id="3" resname="rich"><source>Hi <x id="INTERPOLATION" equiv-text="{{ name &amp; x }}"/>, <g id="1" ctype="x-b">bold <ph id="2">&lt;br/&gt;</ph><x id="3"/></g><!-- c --> after<?pi x?> more <![CDATA[<raw> & ]]> end &#x263A;</source>
      <target state="translated">Hallo <x id="INTERPOLATION"/>, <g id="1"><bpt id="4">[</bpt>fett<ept id="4">]</ept></g>  </target></trans-unit>`,
  ],
  [
    'a unit with only a target, a self-closing target, translate="no", approved, flags, an id with __%04__, duplicates',
    `<trans-unit id="4"><target>Only target</target></trans-unit>
    <trans-unit id="5" approved="yes" maxwidth="10" size-unit="char" weblate-flags="placeholders:{x}"><source>Five</source><target/></trans-unit>
    <trans-unit id="6" translate="no"><source>Six</source><target>Sechs</target></trans-unit>
    <trans-unit id="a__%04__b"><source>Seven</source><target state="final">Sieben</target></trans-unit>
    <trans-unit id="5" approved="yes"><source>Five</source><target>Fünf</target></trans-unit>
    <trans-unit id="empty"><source>  </source><target>leer</target></trans-unit>`,
  ],
  [
    'plain texts worked out while reading: whitespace only after an inline element or in CDATA, xml:space on the source or target itself, a reference',
    `<trans-unit id="9"><source>One<x id="1"/>  two </source><target xml:space="preserve">Eins<x id="1"/>  zwei </target></trans-unit>
    <trans-unit id="10" xml:space="preserve"><source xml:space="default">A<![CDATA[  b ]]></source><target>A\tb </target></trans-unit>
    <trans-unit id="11"><source>Word</source><target>Wort&#x20;</target></trans-unit>
    <trans-unit id="12"><source xml:space="preserve">Alone</source><target>Allein<x id="1"/>\n</target></trans-unit>`,
  ],
  [
    'a second <source> and <target> (the first count), text outside the text elements, a unit outside any <file>',
    `<trans-unit id="8">stray text<source>First</source><source>Second</source><target>Erste</target><target>Zweite</target></trans-unit>`,
  ],
];

describe('streamed XLIFF units', () => {
  it('equal the tree reader units on every file of the common shape, rich and plain', () => {
    for (const [what, body] of STREAMED) {
      const bytes = doc(body);
      for (const reading of [RICH, PLAIN]) {
        const streamed = streamBilingual(bytes, 'f.xlf', reading);
        expect(streamed, what).not.toBeNull();
        expect(streamed!.units, what).toEqual(treeUnits(bytes, reading));
        expect(streamed!.units.length, what).toBeGreaterThan(0);
      }
    }
  });

  it('equal the tree reader units on the XLIFF fixtures, with a BOM, CRLF and a root declaring a schema prefix', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.xlf'));
    let streamedFiles = 0;
    for (const name of files) {
      const original = readFileSync(path.join(FIXTURES, name));
      const variants = [original, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), original]), Buffer.from(original.toString('utf8').replaceAll('\n', '\r\n'))];
      for (const bytes of variants) {
        for (const reading of [RICH, PLAIN]) {
          const streamed = streamBilingual(bytes, name, reading);
          if (streamed === null) continue;
          streamedFiles++;
          expect(streamed.units, name).toEqual(treeUnits(bytes, reading));
        }
      }
    }
    // the Angular and Symfony fixtures are of the common shape
    expect(streamedFiles).toBeGreaterThanOrEqual(4 * 3 * 2);
    const schema = doc(
      '<trans-unit id="s"><source>S</source></trans-unit>',
      `<xliff version="1.2" ${NS} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:x x.xsd">`,
    );
    expect(streamBilingual(schema, 'f.xlf', RICH)?.units).toEqual(treeUnits(schema, RICH));
  });

  it('equal the tree reader units with a header, groups around units, two <file>s and a unit outside any <file>', () => {
    const bytes = encoder.encode(
      `<xliff version="1.2" ${NS}>\n` +
        '<file original="one"><header><note>header note</note><context-group purpose="location"><context context-type="sourcefile">h.ts</context></context-group></header>' +
        '<body><group id="g"><trans-unit id="1"><source>One</source><note>unit note</note></trans-unit></group></body></file>\n' +
        '<file original="two"><body><group><group><trans-unit id="1"><source>One</source><target>Eins</target></trans-unit></group></group></body></file>\n' +
        '<trans-unit id="outside"><source>Outside</source></trans-unit>\n</xliff>\n',
    );
    for (const reading of [RICH, PLAIN]) {
      const streamed = streamBilingual(bytes, 'f.xlf', reading);
      expect(streamed).not.toBeNull();
      expect(streamed!.units).toEqual(treeUnits(bytes, reading));
      expect(streamed!.units.map((u) => [u.context, u.note, u.location])).toEqual([
        ['one///1', 'unit note', ''],
        ['two///1', '', ''],
        ['outside', '', ''],
      ]);
    }
  });

  it('equal the tree reader units on a file of many scanner windows, and leave a window cut inside a comment to it', () => {
    let body = '';
    for (let i = 0; i < 1500; i++) {
      const pad = ' word'.repeat(i % 23);
      body +=
        `<trans-unit id="u${i}"><source>Text ${i} &gt;${pad} > </source><target state="${i % 3 === 0 ? 'needs-translation' : 'translated'}">Größe ${i}${pad}</target>\n` +
        `<note>note\n ${i % 7} </note><context-group purpose="location"><context context-type="sourcefile">src/app/f${i % 11}.html</context>` +
        `<context context-type="linenumber">${i}</context></context-group></trans-unit>\n`;
    }
    const bytes = doc(body);
    expect(bytes.length).toBeGreaterThan(200_000);
    for (const reading of [RICH, PLAIN]) {
      const streamed = streamBilingual(bytes, 'f.xlf', reading);
      expect(streamed).not.toBeNull();
      expect(streamed!.units).toEqual(treeUnits(bytes, reading));
      expect(streamed!.units.length).toBe(1500);
    }
    // a comment holding '> <' throughout is cut by some window: the tree reader reads the file
    const commented = doc(`${body}<!--${'> < '.repeat(20000)}-->`);
    expect(streamBilingual(commented, 'f.xlf', PLAIN)).toBeNull();
    expect(treeUnits(commented, PLAIN)).toEqual(treeUnits(bytes, PLAIN));
  });

  it('leaves every other shape, and every error, to the tree reader', () => {
    const unit = '<trans-unit id="1"><source>S</source></trans-unit>';
    const others: Array<[string, Uint8Array]> = [
      ['a prefixed element', doc(`<trans-unit id="1" xmlns:o="urn:other"><source>S</source><o:extra/></trans-unit>`)],
      ['a namespace declared below the root', doc(`<trans-unit id="1"><source>S <x id="1" xmlns="urn:other"/></source></trans-unit>`)],
      [
        'a namespace declared on a context (after its context-type)',
        doc(
          '<trans-unit id="1"><source>S</source><context-group purpose="location"><context context-type="sourcefile" xmlns="urn:other">a.ts</context></context-group></trans-unit>',
        ),
      ],
      [
        'a prefix declared on a context outside a group',
        doc('<trans-unit id="1"><source>S</source><context xmlns:o="urn:other" context-type="sourcefile">a.ts</context></trans-unit>'),
      ],
      ['a root without the XLIFF namespace', doc(unit, '<xliff version="1.2">')],
      ['a prefix bound to XLIFF on the root', doc(unit, `<xliff version="1.2" ${NS} xmlns:x="urn:oasis:names:tc:xliff:document:1.2">`)],
      ['XLIFF 2', doc(unit, '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0">')],
      ['a trans-unit inside a trans-unit', doc(`<trans-unit id="1"><source>S</source>${unit}</trans-unit>`)],
      ['a context group inside a context group', doc('<trans-unit id="1"><source>S</source><context-group><context-group/></context-group></trans-unit>')],
      ['a note inside a source', doc('<trans-unit id="1"><source>S<note>n</note></source></trans-unit>')],
      ['nested <file>s', doc(`<file original="inner">${unit}</file>`)],
      ['a DOCTYPE', encoder.encode(`<?xml version="1.0"?>\n<!DOCTYPE xliff>\n<xliff version="1.2" ${NS}><file><body>${unit}</body></file></xliff>`)],
      ['no <file>', encoder.encode(`<xliff version="1.2" ${NS}/>`)],
      ['malformed XML', encoder.encode(`<xliff version="1.2" ${NS}><file><body>${unit}</file></xliff>`)],
      ['bytes that are not UTF-8', new Uint8Array([0x3c, 0x78, 0x6c, 0x69, 0x66, 0x66, 0x3e, 0xe9, 0x3c, 0x2f, 0x78, 0x6c, 0x69, 0x66, 0x66, 0x3e])],
    ];
    for (const [what, bytes] of others) {
      expect(streamBilingual(bytes, 'f.xlf', RICH), what).toBeNull();
      expect(streamBilingual(bytes, 'f.xlf', PLAIN), what).toBeNull();
    }
    expect(streamBilingual(doc(unit), 'f.xlf', { rich: false, po: true })).toBeNull();
  });

  it('answers invalid UTF-8 by the tree reader, with its line and column, a multi-byte character before it or not', () => {
    const valid = doc('<trans-unit id="1"><source>Grüße XY</source></trans-unit>');
    const text = new TextDecoder().decode(valid);
    // the line and column of 'X', in characters
    const at = text.indexOf('XY');
    const line = text.slice(0, at).split('\n').length;
    const column = at - text.lastIndexOf('\n', at - 1);
    const byteAt = encoder.encode(text.slice(0, at)).length;
    // a stray continuation byte, a lead byte without its continuation, and a truncated three-byte sequence
    for (const bad of [[0x80], [0xc3, 0x28], [0xe4, 0xb8]]) {
      const bytes = new Uint8Array([...valid.subarray(0, byteAt), ...bad, ...valid.subarray(byteAt + 1)]);
      expect(streamBilingual(bytes, 'f.xlf', PLAIN)).toBeNull();
      const err = thrownBy(FormatParseError, () => readXliff(bytes, 'f.xlf', 'xliff', true));
      expect([err.data.line, err.data.column], String(bad)).toEqual([line, column]);
    }
  });
});
