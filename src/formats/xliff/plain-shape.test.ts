// The plain-shape XLIFF reader: the streamed reader's units for every file it answers, and no answer (the general readers' turn) for any other.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCorpus } from '../../../test/helpers/corpus.js';
import { FormatParseError } from '../../domain/errors.js';
import { readXliff } from './document.js';
import { plainXliffFormat } from './index.js';
import { readPlainShape } from './plain-shape.js';
import { streamBilingual } from './stream.js';
import { type XliffReading, bilingualUnits } from './units.js';

const encoder = new TextEncoder();
const PLAIN: XliffReading = { rich: false, po: false };
const NS = 'xmlns="urn:oasis:names:tc:xliff:document:1.2"';

/** An Angular-shaped file (`head`: what stands before the root, `root`: its start tag) around `body`. */
function doc(body: string, head = '<?xml version="1.0" encoding="UTF-8" ?>\n', root = `<xliff version="1.2" ${NS}>`): string {
  return `${head}${root}\n  <file source-language="en" target-language="de" datatype="plaintext" original="ng2.template">\n    <body>\n${body}\n    </body>\n  </file>\n</xliff>\n`;
}

const UNIT = `      <trans-unit id="6520527101711682677" datatype="html">
        <source>Details for <x id="INTERPOLATION" equiv-text="{{ data.symbol &amp; &quot;x&quot; }}"/> now</source>
        <target state="translated">Details für <x id="INTERPOLATION" equiv-text="{{ data.symbol }}"/> jetzt</target>
        <context-group purpose="location">
          <context context-type="sourcefile">apps/client/src/app/app.component.html</context>
          <context context-type="linenumber">13</context>
        </context-group>
        <context-group purpose="location">
          <context context-type="sourcefile">apps/client/src/app/other.html</context>
          <context context-type="linenumber">28</context>
        </context-group>
        <note priority="1" from="description">kebab-case</note>
      </trans-unit>`;

/** The units the streamed reader lists for `text` (what the plain-shape reader must equal). */
function streamed(text: string) {
  return streamBilingual(encoder.encode(text), 'f.xlf', PLAIN)?.units ?? null;
}

/** Today's reading of `text` without the plain-shape reader: the streamed reader's units, else the tree's, or the error. */
function general(text: string) {
  const bytes = encoder.encode(text);
  try {
    return { units: streamBilingual(bytes, 'f.xlf', PLAIN)?.units ?? bilingualUnits(readXliff(bytes, 'f.xlf', 'xliff', true), PLAIN).units };
  } catch (e) {
    if (!(e instanceof FormatParseError)) throw e;
    return { error: e.data };
  }
}

function parsed(text: string) {
  try {
    return { units: plainXliffFormat.parse(encoder.encode(text), { filename: 'f.xlf', language: 'de', sourceLanguage: 'en' }).units };
  } catch (e) {
    if (!(e instanceof FormatParseError)) throw e;
    return { error: e.data };
  }
}

// Files the plain-shape reader answers, each with what it exercises.
const ANSWERED: Array<[string, string]> = [
  ['the Angular shape: placeholders, locations, a note, references in attributes', doc(UNIT)],
  [
    'states, a unit without target, a target without source, an empty source, a duplicate, non-ASCII text',
    doc(`${UNIT}
      <trans-unit id="2" datatype="html"><source>Cancel</source><target state="new">Abbrechen</target></trans-unit>
      <trans-unit id="3" datatype="html"><source>No target</source></trans-unit>
      <trans-unit id="4"><target>Only target</target></trans-unit>
      <trans-unit id="5"><source></source><target>dropped</target></trans-unit>
      <trans-unit id="6" datatype="html"><source>Cancel</source><target>Again</target></trans-unit>
      <trans-unit id="7" datatype="html"><source>漢字 &lt;b&gt; &amp; ü</source><target state="needs-translation">文字  text</target></trans-unit>`),
  ],
  [
    'xml:space, notes repeated, context groups of other purposes, inline g elements, attributes on tags Angular writes bare',
    doc(`      <trans-unit id="8" xml:space="preserve" resname="named" translate="no" approved="yes" maxwidth="10">
        <source xml:space="default">  Two  spaces <g id="1">bold <x id="2"/> text</g> </source>
        <target state='translated' xml:lang="de">  Zwei  Leer </target>
        <note>first  note</note><note xml:space="default"> second  note </note><note>first  note</note>
        <context-group purpose="information"><context context-type="sourcefile">not.html</context></context-group>
        <context-group purpose="location"><context context-type="sourcefile" xml:space="default"> a.html </context></context-group>
        <context-group purpose="location"><context context-type="linenumber">9</context></context-group>
        <context-group purpose="location"><context context-type="sourcefile"/></context-group>
      </trans-unit>
      <trans-unit id="a__%04__b" weblate-flags="max-length:5
	read-only"><source>Flags</source><target/></trans-unit>`),
  ],
  ['a BOM, no declaration, an end tag with whitespace', `\ufeff${doc(UNIT, '').replace('</source>', '</source  >')}`],
  ['a declaration in single quotes, no encoding', doc(UNIT, "<?xml version='1.0'?>\n")],
  ['many units (the file read in several windows)', doc(Array.from({ length: 400 }, (_, k) => UNIT.replace('6520527101711682677', String(k))).join('\n'))],
];

// Files the plain-shape reader leaves to the general readers (units or errors), each with what sends it there.
const LEFT: Array<[string, string]> = [
  ['a comment', doc(`<!-- c -->${UNIT}`)],
  ['CDATA', doc(UNIT.replace('now</source>', 'now <![CDATA[<raw>]]></source>'))],
  ['a DOCTYPE', doc(UNIT, '<?xml version="1.0"?>\n<!DOCTYPE xliff>\n')],
  ['a processing instruction', doc(UNIT.replace('now</source>', 'now<?pi x?></source>'))],
  ['a CR (CRLF line ends)', doc(UNIT).replaceAll('\n', '\r\n')],
  ['a character reference', doc(UNIT.replace('now</source>', 'now &#x263A;</source>'))],
  ['an undefined entity (an error)', doc(UNIT.replace('now</source>', 'now &nbsp;</source>'))],
  ['a bare ampersand (an error)', doc(UNIT.replace('now</source>', 'now & then</source>'))],
  ['a forbidden control character (an error)', doc(UNIT.replace('now</source>', 'now \u0001</source>'))],
  ['U+FFFE (an error)', doc(UNIT.replace('now</source>', 'now \ufffe</source>'))],
  ['another encoding declared', doc(UNIT, '<?xml version="1.0" encoding="ISO-8859-1"?>\n')],
  ['a namespace declared below the root', doc(UNIT.replace('<note priority', `<note xmlns:a="urn:a" priority`))],
  ['a prefixed element', `<xliff version="1.2" ${NS} xmlns:a="urn:a"><file original="f"><body><a:b/>${UNIT}</body></file></xliff>`],
  ['a prefixed attribute', doc(UNIT.replace('<note priority', '<note a:b="c" priority'))],
  ['mismatched end tags (an error)', doc(UNIT.replace('</target>', '</source>'))],
  ['an unquoted attribute (an error)', doc(UNIT.replace('datatype="html"', 'datatype=html'))],
  ['a repeated attribute (an error)', doc(UNIT.replace('datatype="html"', 'datatype="html" datatype="x"'))],
  ["'<' in an attribute value (an error)", doc(UNIT.replace('{{ data.symbol }}', '{{ a < b }}'))],
  ['text after the root (an error)', `${doc(UNIT)}tail`],
  ['an unclosed element (an error)', doc(UNIT).replace('</xliff>', '')],
  ['no <file>', `<xliff version="1.2" ${NS}><body/></xliff>`],
  ['XLIFF 2 (an error)', doc(UNIT, '', '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0">')],
  ['nested trans-units', doc(UNIT.replace('<note priority', `<trans-unit id="in"><source>x</source></trans-unit><note priority`))],
  ['a context inside a source', doc(UNIT.replace('now</source>', '<context context-type="x">c</context></source>'))],
  ['a non-ASCII element name', doc(UNIT.replace('<note priority="1" from="description">kebab-case</note>', '<nöte/>'))],
];

describe('readPlainShape', () => {
  it.each(ANSWERED)('lists the streamed units: %s', (_, text) => {
    const units = readPlainShape(encoder.encode(text), PLAIN)?.units ?? null;
    expect(units).not.toBeNull();
    expect(units).toEqual(streamed(text));
    expect(units!.length).toBeGreaterThan(0);
  });

  it.each(LEFT)('leaves the file to the general readers: %s', (_, text) => {
    expect(readPlainShape(encoder.encode(text), PLAIN)).toBeNull();
    expect(parsed(text)).toEqual(general(text));
  });

  it('answers only plainxliff (the rich and gettext readings are the general readers)', () => {
    const bytes = encoder.encode(doc(UNIT));
    expect(readPlainShape(bytes, { rich: true, po: false })).toBeNull();
    expect(readPlainShape(bytes, { rich: false, po: true })).toBeNull();
  });

  it('leaves invalid UTF-8 to the general readers (its error)', () => {
    const text = encoder.encode(doc(UNIT));
    const bytes = new Uint8Array(text.length + 1);
    const at = text.indexOf(0x6e); // the first 'n'
    bytes.set(text.subarray(0, at));
    bytes.set([0xc3, 0x28], at);
    bytes.set(text.subarray(at + 1), at + 2);
    expect(readPlainShape(bytes, PLAIN)).toBeNull();
    expect(() => plainXliffFormat.parse(bytes, { filename: 'f.xlf', language: 'de', sourceLanguage: 'en' })).toThrow(FormatParseError);
  });
});

describeCorpus('readPlainShape over the corpus', (corpus) => {
  const dir = path.join(corpus, 'ghostfolio-ghostfolio/apps/client/src/locales');
  it.each(readdirSync(dir).filter((n) => n.endsWith('.xlf')))('Ghostfolio %s: read by the plain-shape reader, the streamed units', (name) => {
    const bytes = readFileSync(path.join(dir, name));
    const units = readPlainShape(bytes, PLAIN)?.units ?? null;
    expect(units).not.toBeNull();
    expect(units).toEqual(streamBilingual(bytes, name, PLAIN)?.units);
  });
});
