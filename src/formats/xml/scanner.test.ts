// The shared XML tokenizer: tokens and offsets, decoding rules, and what it refuses.
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/helpers/errors.js';
import { FormatParseError } from '../../domain/errors.js';
import { XmlScanner, XmlToken, decodeUtf8, escapeAttribute, escapeText, indentAt, lineColumn } from './index.js';
import { NeedsDecodedText } from './scanner.js';

function tokens(text: string): Array<[string, string]> {
  const s = new XmlScanner(text, 'x.xml');
  const out: Array<[string, string]> = [];
  const names = Object.fromEntries(Object.entries(XmlToken).map(([k, v]) => [v, k]));
  for (let k = s.next(); k !== XmlToken.Eof; k = s.next()) {
    const value = k === XmlToken.Text || k === XmlToken.CData ? s.textValue() : s.name;
    out.push([names[k]!, k === XmlToken.StartTag || k === XmlToken.EndTag ? `${s.name}@${s.depth}` : value]);
  }
  return out;
}

function failure(text: string): FormatParseError {
  try {
    tokens(text);
  } catch (e) {
    if (e instanceof FormatParseError) return e;
    throw e;
  }
  throw new Error('accepted');
}

describe('XmlScanner', () => {
  it('yields every token kind with element depths; a self-closing tag is a start and an end', () => {
    const text = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE TS [ <!ELEMENT TS ANY> ]>\n<!-- c -->\n<TS><a/><?pi data?><![CDATA[<raw>]]></TS>\n';
    expect(tokens(text)).toEqual([
      ['ProcessingInstruction', 'xml'],
      ['Text', '\n'],
      ['Doctype', 'TS'],
      ['Text', '\n'],
      ['Comment', 'TS'],
      ['Text', '\n'],
      ['StartTag', 'TS@1'],
      ['StartTag', 'a@2'],
      ['EndTag', 'a@2'],
      ['ProcessingInstruction', 'pi'],
      ['CData', '<raw>'],
      ['EndTag', 'TS@1'],
      ['Text', '\n'],
    ]);
  });

  it('gives exact offsets of tags and attribute values', () => {
    const text = '<r>\n  <item  key = \'a &amp; b\' other="x"/>\n</r>';
    const s = new XmlScanner(text, 'x.xml');
    s.next();
    s.next();
    expect(s.next()).toBe(XmlToken.StartTag);
    expect(text.slice(s.start, s.end)).toBe('<item  key = \'a &amp; b\' other="x"/>');
    expect(s.selfClosing).toBe(true);
    expect(s.attrCount).toBe(2);
    expect(s.attr('key')).toBe('a & b');
    expect(text.slice(s.attrValueStart[0], s.attrValueEnd[0])).toBe('a &amp; b');
    expect(s.attrIndex('other')).toBe(1);
    expect(s.attr('missing')).toBeNull();
  });

  it('decodes the five entities and character references, and normalizes literal line ends only', () => {
    expect(tokens('<r>&lt;&gt;&amp;&quot;&apos;&#65;&#x1F600;&#13;a\r\nb\rc</r>')[1]).toEqual(['Text', '<>&"\'A😀\ra\nb\nc']);
    expect(tokens('<r><![CDATA[x\r\ny]]></r>')[1]).toEqual(['CData', 'x\ny']);
  });

  it('normalizes whitespace in attribute values as XML requires', () => {
    const s = new XmlScanner('<r a="x\r\ny\tz&#10;w"/>', 'x.xml');
    s.next();
    expect(s.attr('a')).toBe('x y z\nw');
    const t = new XmlScanner(`<r a='x\ny' b='p\tq' c='u\rv' d='"' e="'"/>`, 'x.xml');
    t.next();
    expect([t.attr('a'), t.attr('b'), t.attr('c'), t.attr('d'), t.attr('e')]).toEqual(['x y', 'p q', 'u v', '"', "'"]);
  });

  it('gives repeated tag and attribute names as the same strings, and tells apart names that share a slot', () => {
    const names: string[] = [];
    const s = new XmlScanner(`<r>${'<ab cd="1"/><ba dc="2"/>'.repeat(3)}<a${'b'.repeat(600)}/></r>`, 'x.xml');
    for (let k = s.next(); k !== XmlToken.Eof; k = s.next()) if (k === XmlToken.StartTag) names.push(s.name, ...s.attrNames.slice(0, s.attrCount));
    expect(names).toEqual(['r', ...Array(3).fill(['ab', 'cd', 'ba', 'dc']).flat(), `a${'b'.repeat(600)}`]);
  });

  it('closes an element only by its own name, whether the name table holds it or not (long, non-ASCII)', () => {
    const long = `a${'b'.repeat(600)}`;
    for (const name of ['abc', 'é', 'aé', long]) {
      expect(tokens(`<r><${name}>x</${name} ></r>`).map(([, v]) => v)).toEqual(['r@1', `${name}@2`, 'x', `${name}@2`, 'r@1']);
      for (const other of [`${name}d`, name.slice(0, -1) || 'x', `${name.slice(0, -1)}${name.endsWith('b') ? 'c' : 'b'}`]) {
        expect(failure(`<r><${name}></${other}></r>`).data.reason, other).toBe(`mismatched end tag: expected </${name}>, found </${other}>`);
      }
    }
  });

  it('skips a byte order mark before the declaration', () => {
    expect(tokens('\ufeff<?xml version="1.0"?><r/>').map((t) => t[0])).toEqual(['ProcessingInstruction', 'StartTag', 'EndTag']);
  });

  it.each([
    ['text', '<r>\nab\u0001</r>', 2, 3],
    ['text before the root', ' \u000b<r/>', 1, 2],
    ['text after the root', '<r/>\n\u0000', 2, 1],
    ['text with a reference', '<r>&amp;\uffff</r>', 1, 9],
    ['an attribute value', '<r a="x\u0002y"/>', 1, 8],
    ['an attribute value with a reference', '<r a="&lt;\ufffe"/>', 1, 11],
    ['a tag name', '<r\u0003/>', 1, 3],
    ['between attributes', '<r a="1"\u0004b="2"/>', 1, 9],
    ['an end tag', '<r></r\u0005>', 1, 7],
    ['a comment', '<r><!-- \u0006 --></r>', 1, 9],
    ['a CDATA section', '<r><![CDATA[\u0007]]></r>', 1, 13],
    ['a processing instruction', '<r><?pi \u0008?></r>', 1, 9],
    ['a DOCTYPE', '<!DOCTYPE r [\u000c]><r/>', 1, 14],
    ['the XML declaration', '<?xml version="1.0"\u000e?><r/>', 1, 20],
  ])('refuses a character XML forbids in %s, where it is', (_where, text, line, column) => {
    const err = failure(text);
    expect([err.data.line, err.data.column]).toEqual([line, column]);
    expect(err.data.reason).toMatch(/^character U\+[0-9a-f]{4} is not allowed in XML$/);
  });

  it.each([
    ['<r>&nbsp;</r>', 1, 4, 'undefined entity &nbsp;'],
    ['<r>\n<a></b></r>', 2, 4, 'mismatched end tag: expected </a>, found </b>'],
    ['<r>\n<a>', 2, 4, 'unexpected end of file: <a> is not closed'],
    ['<r a="1" a="2"/>', 1, 10, 'attribute a is repeated in <r>'],
    ['<r>\n <a b="x<y"/></r>', 2, 9, "'<' is not allowed in the value of attribute b"],
    ['<r a="1" b="x', 1, 13, 'unterminated value of attribute b in <r>'],
    ['<r a=1/>', 1, 6, 'attribute a in <r> needs a quoted value'],
    ['<r a "1"/>', 1, 6, "expected '=' after attribute a in <r>"],
    ['<r a="1" -b="2"/>', 1, 10, "invalid character '-' in <r>"],
    ['<r a="&bogus;"/>', 1, 7, 'undefined entity &bogus;'],
    ['<r a="1"b="2"/>', 1, 9, 'expected whitespace before an attribute in <r>'],
    ['<r>&#xD800;</r>', 1, 4, 'character reference &#xD800; is not a valid XML character'],
    ['<r>a & b</r>', 1, 6, "'&' must start an entity reference (write &amp;)"],
    ['<r>&amp</r>', 1, 4, "entity reference is missing its ';'"],
    ['<r/>x', 1, 5, 'text after the root element'],
    ['x<r/>', 1, 1, 'text before the root element'],
    ['<r/><!DOCTYPE r>', 1, 5, 'DOCTYPE after the root element'],
    ['<![CDATA[x]]><r/>', 1, 1, 'CDATA section outside the root element'],
    ['<r><!DOCTYPE r></r>', 1, 4, 'DOCTYPE after the root element'],
    ['<r><?xml version="1.0"?></r>', 1, 4, 'the XML declaration is allowed only at the very start of the file'],
    ['<?xml encoding="utf-8"?><r/>', 1, 6, 'the XML declaration needs version="1.x"'],
    ['<r><!foo></r>', 1, 4, "invalid markup after '<!'"],
    ['<r>< a/></r>', 1, 5, "invalid character ' ' in a start tag"],
    ['</r>', 1, 1, 'unexpected end tag </r>'],
    ['', 1, 1, 'no root element'],
  ])('refuses %j at %i:%i', (text, line, column, reason) => {
    const err = failure(text);
    expect(err.data).toEqual({ filename: 'x.xml', line, column, reason });
  });
});

describe('XML helpers', () => {
  it('counts lines and code-point columns from 1', () => {
    expect(lineColumn('ab\n😀cd', 6)).toEqual({ line: 2, column: 3 });
    expect(lineColumn('abc', 0)).toEqual({ line: 1, column: 1 });
  });

  it('finds indentation only when nothing else precedes on the line', () => {
    expect(indentAt('x\n    <a>', 6)).toBe('    ');
    expect(indentAt('x\n  y <a>', 6)).toBeNull();
  });

  it('decodes UTF-8 strictly, keeping a BOM', () => {
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]), 'f')).toBe('\ufeffa');
    expect(() => decodeUtf8(Uint8Array.from([0x61, 0xc3, 0x28]), 'f')).toThrow(FormatParseError);
    expect(thrownBy(FormatParseError, () => decodeUtf8(Uint8Array.from([0xed, 0xa0, 0x80]), 'f')).data.reason).toContain('0xed');
  });

  it('escapes text and attribute values', () => {
    expect(escapeText('a<b>&c"\'\r\u0001')).toBe('a&lt;b&gt;&amp;c"\'&#13;');
    expect(escapeAttribute('a"b\nc<&')).toBe('a&quot;b&#10;c&lt;&amp;');
  });
});

describe('entities of the internal DTD subset', () => {
  const texts = (xml: string) => {
    const s = new XmlScanner(xml, 'f.xml');
    const out: string[] = [];
    for (let k = s.next(); k !== XmlToken.Eof; k = s.next()) if (k === XmlToken.Text) out.push(s.textValue());
    return out;
  };

  it('reads general entities declared in the DOCTYPE, the first declaration winning', () => {
    expect(texts('<!DOCTYPE a [<!ENTITY app "Weblate"><!ENTITY app "other">]><a>&app; &amp; &lt;</a>')).toEqual(['Weblate & <']);
  });

  it('refuses entity declarations that name other entities (entity bombs, found by campaign:hostile-repos) and knows no names from Object.prototype', () => {
    const bomb = '<!DOCTYPE a [<!ENTITY a "x"><!ENTITY b "&a;&a;&a;">]><a>&b;</a>';
    expect(thrownBy(FormatParseError, () => texts(bomb)).data.reason).toMatch(/entity "b" refers to entity "a": nested entity declarations are refused/);
    // the predefined entities and character references stay allowed in a value (kept as written, not expanded again)
    expect(texts('<!DOCTYPE a [<!ENTITY b "x &amp; &#65;">]><a>&b;</a>')).toEqual(['x &amp; &#65;']);
    expect(thrownBy(FormatParseError, () => texts('<a>&constructor;</a>')).data.reason).toContain('undefined entity &constructor;');
    expect(thrownBy(FormatParseError, () => texts('<!DOCTYPE a [<!ENTITY x "1">]><a>&toString;</a>')).data.reason).toContain('undefined entity &toString;');
  });

  it('refuses external entities (general and parameter) where they are declared, used or not, and fetches nothing', () => {
    const xxe = '<?xml version="1.0"?>\n<!DOCTYPE a [\n  <!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n<a>&xxe;</a>';
    expect(() => texts(xxe)).toThrow(/^f\.xml:3:3: external entity "xxe" \(SYSTEM\) is refused/);
    expect(() => texts('<!DOCTYPE a [<!ENTITY % p PUBLIC "-//x//y" "http://example.com/p.dtd"> %p;]><a/>')).toThrow(
      /external parameter entity "p" \(PUBLIC\) is refused/,
    );
    // an external DTD for the document itself names no entity and is only kept, never read
    expect(texts('<!DOCTYPE a SYSTEM "a.dtd"><a>x</a>')).toEqual(['x']);
  });

  it('refuses quadratic blow-up: references that would add more than a million characters beyond the file size', () => {
    const big = 'x'.repeat(10_000);
    const refs = (n: number) => `<!DOCTYPE a [<!ENTITY b "${big}">]><a>${'&b;'.repeat(n)}</a>`;
    expect(texts(refs(90))[0]).toHaveLength(900_000);
    expect(() => texts(refs(200))).toThrow(/entity &b; expands the document beyond 1000000 characters more than its size \(an entity expansion bomb\)/);
  });
});

describe('XmlScanner over bytes', () => {
  /** Every token as kind, name, text or attribute values, and its span as the decoded text's characters. */
  function reading(s: XmlScanner, spanText: (start: number, end: number) => string): string[] {
    const out: string[] = [];
    for (let k = s.next(); k !== XmlToken.Eof; k = s.next()) {
      const values = Array.from(
        { length: s.attrCount },
        (_, i) => `${s.attrNames[i]}=${s.attrValues[i]}@${spanText(s.attrValueStart[i]!, s.attrValueEnd[i]!)}`,
      );
      const value = k === XmlToken.Text || k === XmlToken.CData ? s.textValue() : s.name;
      out.push(`${k}:${value}:${values.join(',')}:${spanText(s.start, s.end)}`);
    }
    return out;
  }

  function bothWays(text: string, doctype = false): [string[], string[]] {
    const bytes = Buffer.from(text, 'utf8');
    const decoded = reading(new XmlScanner(text, 'f.xml'), (a, b) => text.slice(a, b));
    const overBytes = reading(XmlScanner.overBytes(bytes, 'f.xml', doctype), (a, b) => bytes.toString('utf8', a, b));
    return [overBytes, decoded];
  }

  it('reads the same tokens, values and spans as over the decoded text, its offsets being byte offsets', () => {
    const text =
      '<?xml version="1.0" encoding="UTF-8"?>\r\n<xliff a="Grüße &amp; 😀" b="x\ty"><!-- é --><source>Börse &lt;&#xe9;&gt; 中文\r\n😀</source>' +
      '<![CDATA[ü<]]><x id="ä"/>plain</xliff>';
    const [overBytes, decoded] = bothWays(text);
    expect(overBytes).toEqual(decoded);
    expect(overBytes.join('|')).toContain('Börse <é> 中文\n😀');
    // an ASCII file too
    const [ascii, asciiDecoded] = bothWays('<a b="c &quot;d&quot;">e &amp; f</a>');
    expect(ascii).toEqual(asciiDecoded);
  });

  it('reads a name where the last name at the same place was another: a prefix of it, longer, the same first letter', () => {
    const text =
      '<r><ab/><abc/><ab/><a/><abc x="1" xy="2"/><ab xy="1" x="2"/><ab x:y="1" xyz="2"/>' +
      '<ab><ab/></ab><abc><a-/></abc><ab><a.b/></ab><ab><a/></ab><a><a:b/></a><a><abc/></a></r>';
    const [overBytes, decoded] = bothWays(text);
    expect(overBytes).toEqual(decoded);
    const names: string[] = [];
    const s = XmlScanner.overBytes(Buffer.from(text, 'utf8'), 'f.xml');
    for (let k = s.next(); k !== XmlToken.Eof; k = s.next()) if (k === XmlToken.StartTag) names.push([s.name, ...s.attrNames.slice(0, s.attrCount)].join(' '));
    expect(names).toEqual([
      'r',
      'ab',
      'abc',
      'ab',
      'a',
      'abc x xy',
      'ab xy x',
      'ab x:y xyz',
      'ab',
      'ab',
      'abc',
      'a-',
      'ab',
      'a.b',
      'ab',
      'a',
      'a',
      'a:b',
      'a',
      'abc',
    ]);
  });

  /** Scans all of `text` over its bytes, whole or in windows. */
  const scanAll = (text: string, windows: boolean) => () => {
    const bytes = Buffer.from(text, 'utf8');
    const s = windows ? XmlScanner.overByteWindows(bytes, 'f.xml') : XmlScanner.overBytes(bytes, 'f.xml');
    while (s.next() !== XmlToken.Eof);
  };

  it('reads a start tag whose bytes repeat an earlier one as that one (its strings kept), and one that differs in any byte anew', () => {
    // tags sharing their first bytes with a kept one: a different last, middle or first value byte, more attributes,
    // other spacing, a reference, a multi-byte character, self-closing or not; at several depths, each many times
    const tags = [
      '<u id="1" k="value">',
      '<u id="1" k="valuf">',
      '<u id="1" k="walue">',
      '<u id="1" k="vaLue">',
      '<u id="1" k="value" l="x">',
      '<u k="value" id="1">',
      '<u id="1"  k="value">',
      '<u id="1" k="va&amp;ue">',
      '<u id="1" k="vä">',
      '<u id="1" k="value"/>',
      '<u id="1" k="value" />',
      '<u id="1" k="v\tlue">',
      '<u>',
      '<u/>',
      '<uv>',
      '<uvwx y="1">',
    ];
    let body = '';
    for (let i = 0; i < 600; i++) {
      // each tag several times in a row, at three depths in turn: read again where it is kept
      const tag = tags[(Math.floor(i / 6) * 7) % tags.length]!;
      const name = /^<(\w+)/.exec(tag)![1]!;
      const element = tag.endsWith('/>') ? tag : `${tag}t${i}</${name}>`;
      body += i % 3 === 0 ? `<w>${element}</w>` : i % 3 === 1 ? `<w><w>${element}</w></w>\n` : element;
    }
    // tags that differ from a kept one in a single byte, first, in the middle or last, in turns at the same place
    for (const other of tags.slice(1, 5)) {
      for (let i = 0; i < 4; i++) body += `<w>${tags[0]}a</u>${other}b</u></w>`;
    }
    const text = `<r>${body}</r>`;
    const [overBytes, decoded] = bothWays(text);
    expect(overBytes).toEqual(decoded);
    // in windows too (offsets into a window: compared without them)
    const bytes = Buffer.from(`<r>${body.repeat(40)}</r>`, 'utf8');
    expect(bytes.length).toBeGreaterThan(300_000);
    expect(values(XmlScanner.overByteWindows(bytes, 'f.xml'))).toEqual(values(new XmlScanner(bytes.toString('utf8'), 'f.xml')));
    // after the root closed, a repeated tag is an error as the first was not
    expect(scanAll('<a x="1"/><a x="1"/>', false)).toThrow(NeedsDecodedText);
    // a file ending inside what would be a repeated tag: not read past its end
    expect(scanAll('<r><ab x="12345"/><ab x="1234', false)).toThrow(NeedsDecodedText);
  });

  it('closes an element by comparing its name four bytes at a time: a name of four or more bytes wrong in any byte is left to the decoded text', () => {
    const filler = '<b>x</b>\n'.repeat(5000);
    for (const name of ['abcd', 'abcde', 'abcdefgh', 'abcdefghi']) {
      for (let at = 0; at < name.length; at++) {
        const wrong = `${name.slice(0, at)}Z${name.slice(at + 1)}`;
        for (const windows of [false, true]) {
          expect(scanAll(`<${name}>x</${wrong}>`, windows), wrong).toThrow(NeedsDecodedText);
          expect(scanAll(`<${name}>${filler}</${wrong}>`, windows), wrong).toThrow(NeedsDecodedText);
        }
      }
      const [overBytes, decoded] = bothWays(`<${name}><${name}>${filler}</${name}></${name} >`);
      expect(overBytes).toEqual(decoded);
    }
  });

  it('reads, when asked (`doctype`), an ASCII DOCTYPE without an internal subset (as a plist has) as the decoded text does', () => {
    for (const text of [
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict><key>é</key><string>a &amp; b</string></dict></plist>\n',
      '<!DOCTYPE a SYSTEM "a.dtd"><a>x &lt; ü</a>',
      '<!DOCTYPE a><a/>',
    ]) {
      const [overBytes, decoded] = bothWays(text, true);
      expect(overBytes, text).toEqual(decoded);
      // not asked, it leaves every DOCTYPE to the decoded text
      expect(() => bothWays(text), text).toThrow(NeedsDecodedText);
    }
  });

  it('leaves to the decoded text what it cannot answer alike: errors, non-ASCII names, a DOCTYPE (with `doctype`: one with a subset or non-ASCII), U+FFFE and U+FFFF', () => {
    for (const text of [
      '<a>é</b>',
      '<a>\u0001</a>',
      '<a>x\ufffe</a>',
      '<a>x\uffff</a>',
      '<é/>',
      '<aé/>',
      '<a bé="1"/>',
      '<a>x</aé>',
      // a character above U+007F inside a name, whose bytes (0xC6 0xB7) are each a name character as Latin-1
      '<aƷb/>',
      '<a><bƷc x="1"></bƷc></a>',
      '<a x·="1"/>',
      '<a><?pƷq x?></a>',
      '<a>&é;</a>',
      '<!DOCTYPE a [<!ENTITY e "é">]><a>&e;</a>',
      '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>',
      '<!DOCTYPE a [<!ELEMENT a ANY>]><a/>',
      '<!DOCTYPE a SYSTEM "é.dtd"><a/>',
      '<!DOCTYPE a SYSTEM "\u0001"><a/>',
      '<!DOCTYPE é><é/>',
      '<!DOCTYPE a><!DOCTYPE a><a/>',
      '<a/><!DOCTYPE a>',
    ]) {
      for (const doctype of [false, true]) {
        expect(() => {
          const s = XmlScanner.overBytes(Buffer.from(text, 'utf8'), 'f.xml', doctype);
          while (s.next() !== XmlToken.Eof);
        }, text).toThrow(NeedsDecodedText);
      }
    }
  });

  it('decodes each value by its own bytes: multi-byte characters next to markup, after and before ASCII values', () => {
    for (const text of [
      '<a x="é" y="plain">中<b z="😀"/>ascii<c>&amp;ü</c>x&lt;<d>ß</d>plain</a>',
      '<a>é</a>',
      '<a x="ü"><![CDATA[中]]>after<![CDATA[ascii]]>ß</a>',
      '<a>x<![CDATA[中]]></a>',
      '<a><b x="a&#xe9;é">&#x4e2d;中&amp;</b>\u00a0<c/>😀</a>',
      // U+FF0C and U+FFFD begin with 0xEF, as U+FFFE and U+FFFF do: allowed
      '<a x="，\ufffd">，\ufffd<!-- ， --><![CDATA[，]]><?p ，?></a>',
      // ']' that does not end a CDATA, and multi-byte text around a comment
      '<a>]] ]>é<!--é-->ü]</a>',
      '<a>\r\nü\r</a>',
    ]) {
      const [overBytes, decoded] = bothWays(text);
      expect(overBytes, text).toEqual(decoded);
    }
  });

  it('leaves every character XML forbids to the decoded text, in text, attribute values, comments, CDATA and PIs', () => {
    for (const bad of ['\u0001', '\u001f', '\u000b', '\ufffe', '\uffff']) {
      for (const text of [
        `<a>x${bad}</a>`,
        `<a>é${bad}ü</a>`,
        `<a x="y${bad}"/>`,
        `<a x="é${bad}"/>`,
        `<a><!-- ${bad} --></a>`,
        `<a><![CDATA[${bad}]]></a>`,
        `<a><?p ${bad}?></a>`,
        `<a/>${bad}`,
      ]) {
        expect(() => {
          const s = XmlScanner.overBytes(Buffer.from(text, 'utf8'), 'f.xml');
          while (s.next() !== XmlToken.Eof);
        }, JSON.stringify(text)).toThrow(NeedsDecodedText);
        // the decoded text's scan names the character where it is
        const at = text.indexOf(bad);
        const e = failure(text);
        expect([e.data.line, e.data.column], JSON.stringify(text)).toEqual([1, at + 1]);
      }
    }
  });

  /** Every token as kind, name, text or attribute values (no offsets: a windowed scan's are into its window). */
  function values(s: XmlScanner): string[] {
    const out: string[] = [];
    for (let k = s.next(); k !== XmlToken.Eof; k = s.next()) {
      const attrs = Array.from({ length: s.attrCount }, (_, i) => `${s.attrNames[i]}=${s.attrValues[i]}`);
      out.push(`${k}:${k === XmlToken.Text || k === XmlToken.CData ? s.textValue() : s.name}:${attrs.join(',')}:${s.depth}`);
    }
    return out;
  }

  /** A document of several windows: texts with '>' before their end tag (a window may end in them), long and multi-byte texts. */
  function manyWindows(lineEnd: string): string {
    let body = '';
    for (let i = 0; i < 3000; i++) {
      const pad = 'x'.repeat(i % 37);
      body += `  <u id="${i}" k="é${pad}">${lineEnd}    <t>a ${pad} &gt; b > </t><v>${i % 5 === 0 ? 'Grüße 中文' : pad}</v><w/>${lineEnd}  </u>${lineEnd}`;
      if (i === 1500) body += `<long>${'word > '.repeat(12000)}é</long>${lineEnd}`;
    }
    return `<?xml version="1.0" encoding="UTF-8"?>${lineEnd}<root>${lineEnd}${body}</root>${lineEnd}`;
  }

  it('reads a file in windows (`overByteWindows`) to the same tokens and values as over the whole file', () => {
    for (const lineEnd of ['\n', '\r\n']) {
      const bytes = Buffer.from(manyWindows(lineEnd), 'utf8');
      expect(bytes.length).toBeGreaterThan(300_000);
      expect(values(XmlScanner.overByteWindows(bytes, 'f.xml'))).toEqual(values(XmlScanner.overBytes(bytes, 'f.xml')));
    }
    // a small file is one window
    const small = Buffer.from('<a x="é">b &amp; c<![CDATA[d]]></a>', 'utf8');
    expect(values(XmlScanner.overByteWindows(small, 'f.xml'))).toEqual(values(XmlScanner.overBytes(small, 'f.xml')));
  });

  it('leaves to the decoded text, in windows too, what it cannot answer, and a token a window cuts', () => {
    const read = (text: string) => () => {
      const s = XmlScanner.overByteWindows(Buffer.from(text, 'utf8'), 'f.xml');
      while (s.next() !== XmlToken.Eof);
    };
    const filler = '<b>x</b>\n'.repeat(5000);
    expect(read(`<a>${filler}<c>é</d></a>`)).toThrow(NeedsDecodedText);
    expect(read(`<a>${filler}<c>\u0001</c></a>`)).toThrow(NeedsDecodedText);
    expect(read(`<a>${filler}</a><extra/>`)).toThrow(NeedsDecodedText);
    expect(read(`<a>${filler}`)).toThrow(NeedsDecodedText);
    // an end tag windows after its start tag: compared with the start tag's name, wrong in its last byte, short or long
    for (const end of ['</abd>', '</ab>', '</abcd>', '</abc x>', '</abc']) {
      expect(read(`<abc>${filler}${end}`), end).toThrow(NeedsDecodedText);
    }
    expect(read(`<abc>${filler}</abc \n>`)).not.toThrow();
    // a comment holding '> <' throughout: some window ends inside it
    expect(read(`<a>${filler}<!--${'> < '.repeat(20000)}--></a>`)).toThrow(NeedsDecodedText);
    expect(read(`<a>${filler}</a>\n  \n`)).not.toThrow();
  });

  it('says where a text holds no whitespace (`textMayHoldSpace`) and where a start tag declares a namespace', () => {
    const s = XmlScanner.overBytes(
      Buffer.from('<a xmlns:p="urn:p">abc<b x="1">中文</b>a b<c xmlns="urn:c">a\tb</c>&#32;<![CDATA[x]]><![CDATA[ ]]></a>', 'utf8'),
      'f.xml',
    );
    const seen: string[] = [];
    for (let k = s.next(); k !== XmlToken.Eof; k = s.next()) {
      if (k === XmlToken.Text || k === XmlToken.CData) seen.push(`${JSON.stringify(s.textValue())}:${s.textMayHoldSpace}`);
      if (k === XmlToken.StartTag) seen.push(`<${s.name}>:${s.declaresNamespace()}`);
      if (k === XmlToken.EndTag) expect(s.declaresNamespace()).toBe(false);
    }
    expect(seen).toEqual([
      '<a>:true',
      '"abc":false',
      '<b>:false',
      '"中文":false',
      '"a b":true',
      '<c>:true',
      '"a\\tb":true',
      '" ":true',
      '"x":false',
      '" ":true',
    ]);
    // over decoded text it is not known
    const d = new XmlScanner('<a>abc</a>', 'f.xml');
    d.next();
    d.next();
    expect(d.textMayHoldSpace).toBe(true);
  });

  it('reads a streamed document the same whichever byte a piece ends at, inside a multi-byte character too', () => {
    const text = '<a x="é中">Grüße 😀<b>中文</b>&amp;ü<![CDATA[😀]]></a>';
    const bytes = Buffer.from(text, 'utf8');
    const whole = tokens(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const decoder = new TextDecoder('utf-8', { fatal: true });
      const s = XmlScanner.streaming('f.xml');
      const out: Array<[string, string]> = [];
      const names = Object.fromEntries(Object.entries(XmlToken).map(([k, v]) => [v, k]));
      const drain = () => {
        for (let k = s.next(); k !== XmlToken.Eof && k !== XmlToken.NeedMore; k = s.next()) {
          const value = k === XmlToken.Text || k === XmlToken.CData ? s.textValue() : s.name;
          out.push([names[k]!, k === XmlToken.StartTag || k === XmlToken.EndTag ? `${s.name}@${s.depth}` : value]);
        }
      };
      s.feed(decoder.decode(bytes.subarray(0, cut), { stream: true }));
      drain();
      s.feed(decoder.decode(bytes.subarray(cut)));
      s.endOfInput();
      drain();
      expect(out, `cut at byte ${cut}`).toEqual(whole);
    }
  });
});
