// TMX (translation memory exchange) files, read and written: bytes in, language-pair entries out, and back.
import { FormatParseError } from '../../domain/errors.js';
import { type XmlElement, elementChildren, parseXml } from '../tbx/xml-tree.js';
import { escapeAttribute, escapeText } from '../xml/escape.js';

/** One translation pair of a memory file. */
export interface MemoryFileEntry {
  source: string;
  target: string;
  sourceLanguage: string;
  targetLanguage: string;
  origin?: string;
  /** A note on the pair (written as the unit's `<note>`). */
  note?: string;
}

// Inline markup whose content is the original code (`<ph>&lt;br/&gt;</ph>` stands for `<br/>`), and markup that only wraps text.
const NATIVE_CODE = new Set(['bpt', 'ept', 'ph', 'it', 'ut']);

/** The text of a `<seg>`: inline codes give back their original markup; `<hi>` and `<sub>` keep their text. */
function segText(element: XmlElement): string {
  let out = '';
  for (const child of element.children) {
    if (typeof child === 'string') out += child;
    else if (NATIVE_CODE.has(child.name)) out += nativeText(child);
    else out += segText(child);
  }
  return out;
}

function nativeText(element: XmlElement): string {
  let out = '';
  // a <sub> inside a code holds translatable text; the rest is the code itself
  for (const child of element.children) out += typeof child === 'string' ? child : segText(child);
  return out;
}

/** UTF-16 files (with their BOM) become UTF-8 bytes; UTF-8 passes as it is (a BOM is dropped by the XML reader). */
function toUtf8(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    const text = new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes.subarray(2));
    return new TextEncoder().encode(text.replace(/^(<\?xml[^>]*?)encoding=["'][^"']*["']/, '$1encoding="UTF-8"'));
  }
  return bytes;
}

function langOf(element: XmlElement): string {
  return (element.attrs['xml:lang'] ?? element.attrs.lang ?? '').trim();
}

/**
 * Reads a TMX file: every `<tu>` gives one entry per target language, from the header's `srclang` (or the
 * unit's own `srclang`, or its first variant when the header says `*all*`) to each other language.
 * @example parseTmx(bytes, 'memory.tmx') // [{ source: 'Open', target: 'Öffnen', sourceLanguage: 'en', targetLanguage: 'de' }]
 */
export function parseTmx(bytes: Uint8Array, filename: string): MemoryFileEntry[] {
  const doc = parseXml(toUtf8(bytes), filename, (root) => (root.name === 'tmx' ? null : 'not a TMX file (the root element is not <tmx>)'));
  const children = elementChildren(doc.root);
  const header = children.find((c) => c.name === 'header');
  const body = children.find((c) => c.name === 'body');
  if (!body) throw new FormatParseError(filename, 1, 1, 'a TMX file needs a <body>');
  const headerSource = header?.attrs.srclang?.trim() ?? '';
  const out: MemoryFileEntry[] = [];
  for (const tu of elementChildren(body)) {
    if (tu.name !== 'tu') continue;
    const variants = elementChildren(tu)
      .filter((c) => c.name === 'tuv')
      .map((tuv) => {
        const seg = elementChildren(tuv).find((c) => c.name === 'seg');
        return { lang: langOf(tuv), text: seg ? segText(seg) : null };
      })
      .filter((v): v is { lang: string; text: string } => v.lang !== '' && v.text !== null);
    if (variants.length < 2) continue;
    let sourceLang = tu.attrs.srclang?.trim() || headerSource;
    if (sourceLang === '' || sourceLang === '*all*') sourceLang = variants[0]!.lang;
    const source = variants.find((v) => v.lang.toLowerCase() === sourceLang.toLowerCase());
    if (!source || source.text === '') continue;
    for (const v of variants) {
      if (v === source || v.text === '') continue;
      out.push({ source: source.text, target: v.text, sourceLanguage: source.lang, targetLanguage: v.lang });
    }
  }
  return out;
}

/**
 * Writes entries as TMX 1.4 (UTF-8): one `<tu>` per entry, the origin as a `<prop type="x-origin">`.
 * @example writeTmx([{ source: 'Open', target: 'Öffnen', sourceLanguage: 'en', targetLanguage: 'de' }])
 */
export function writeTmx(entries: readonly MemoryFileEntry[], tool = 'tms'): Uint8Array {
  const srclang = new Set(entries.map((e) => e.sourceLanguage)).size === 1 ? entries[0]!.sourceLanguage : '*all*';
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    `  <header creationtool="${escapeAttribute(tool)}" creationtoolversion="1" datatype="plaintext" segtype="sentence" adminlang="en" srclang="${escapeAttribute(srclang || 'en')}" o-tmf="${escapeAttribute(tool)}"/>`,
    '  <body>',
  ];
  for (const e of entries) {
    lines.push(`    <tu srclang="${escapeAttribute(e.sourceLanguage)}">`);
    // TMX 1.4 puts notes and props before the variants
    if (e.note) lines.push(`      <note>${escapeText(e.note)}</note>`);
    if (e.origin) lines.push(`      <prop type="x-origin">${escapeText(e.origin)}</prop>`);
    lines.push(`      <tuv xml:lang="${escapeAttribute(e.sourceLanguage)}"><seg>${escapeText(e.source)}</seg></tuv>`);
    lines.push(`      <tuv xml:lang="${escapeAttribute(e.targetLanguage)}"><seg>${escapeText(e.target)}</seg></tuv>`);
    lines.push('    </tu>');
  }
  lines.push('  </body>', '</tmx>', '');
  return new TextEncoder().encode(lines.join('\n'));
}
