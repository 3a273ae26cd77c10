// TMX (translation memory exchange) files, read (in pieces, one unit at a time) and written: bytes in, language-pair entries out, and back.
import { FormatParseError } from '../../domain/errors.js';
import { Utf8Pieces } from '../text.js';
import { escapeAttribute, escapeText } from '../xml/escape.js';
import { XmlScanner, XmlToken } from '../xml/scanner.js';

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

/** A memory file read in pieces: each `push` gives the entries its text completed, `end` the rest. */
export interface MemoryFileReader {
  push(bytes: Uint8Array): MemoryFileEntry[];
  end(): MemoryFileEntry[];
}

interface Variant {
  lang: string;
  text: string | null;
}

/** The text pieces of a TMX file: UTF-16 files (with their BOM) are decoded and declared UTF-8; UTF-8 strictly. */
class TmxText {
  private head = new Uint8Array(0);
  private decode: ((bytes: Uint8Array, last: boolean) => string) | null = null;
  private utf16 = false;
  /** UTF-16 text before its XML declaration is whole (it is rewritten to say UTF-8). */
  private start: string | null = '';

  constructor(private readonly filename: string) {}

  piece(bytes: Uint8Array, last: boolean): string {
    if (!this.decode) {
      const head = new Uint8Array(this.head.length + bytes.length);
      head.set(this.head);
      head.set(bytes, this.head.length);
      if (head.length < 2 && !last) {
        this.head = head;
        return '';
      }
      bytes = head;
      this.utf16 = head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
      if (this.utf16) {
        const decoder = new TextDecoder(head[0] === 0xff ? 'utf-16le' : 'utf-16be');
        this.decode = (b, end) => decoder.decode(b, { stream: !end });
      } else {
        const utf8 = new Utf8Pieces(this.filename);
        this.decode = (b, end) => utf8.decode(b, end);
      }
    }
    const text = this.decode(bytes, last);
    if (!this.utf16 || this.start === null) return text;
    this.start += text;
    if (!last && !this.start.includes('>') && this.start.length < 4096) return '';
    const whole = this.start.replace(/^(<\?xml[^>]*?)encoding=["'][^"']*["']/, '$1encoding="UTF-8"');
    this.start = null;
    return whole;
  }
}

/**
 * Reads a TMX file in pieces, with memory bounded by the largest unit: every `<tu>` gives one entry per target
 * language, from the header's `srclang` (or the unit's own `srclang`, or its first variant when the header says
 * `*all*`) to each other language. A `<seg>`'s text is all the text inside it: inline codes (`<ph>&lt;br/&gt;</ph>`)
 * give back their original markup, `<hi>` and `<sub>` their text.
 * @example const reader = createTmxReader('memory.tmx'); const entries = [...reader.push(bytes), ...reader.end()];
 */
export function createTmxReader(filename: string): MemoryFileReader {
  const text = new TmxText(filename);
  const s = XmlScanner.streaming(filename);
  let headerSource: string | null = null;
  let body: 'before' | 'in' | 'after' = 'before';
  let unitSource: string | null = null;
  let variants: Variant[] = [];
  let variant: Variant | null = null;
  let seg: string | null = null;

  function unitEntries(out: MemoryFileEntry[]): void {
    const found = variants.filter((v): v is { lang: string; text: string } => v.lang !== '' && v.text !== null);
    if (found.length < 2) return;
    let sourceLang = unitSource || headerSource || '';
    if (sourceLang === '' || sourceLang === '*all*') sourceLang = found[0]!.lang;
    const source = found.find((v) => v.lang.toLowerCase() === sourceLang.toLowerCase());
    if (!source || source.text === '') return;
    for (const v of found) {
      if (v === source || v.text === '') continue;
      out.push({ source: source.text, target: v.text, sourceLanguage: source.lang, targetLanguage: v.lang });
    }
  }

  function scan(out: MemoryFileEntry[]): void {
    for (let kind = s.next(); kind !== XmlToken.NeedMore && kind !== XmlToken.Eof; kind = s.next()) {
      if (kind === XmlToken.Text || kind === XmlToken.CData) {
        if (seg !== null) seg += s.textValue();
      } else if (kind === XmlToken.StartTag) {
        const depth = s.depth;
        if (depth === 1) {
          if (s.name !== 'tmx') s.fail(s.start, 'not a TMX file (the root element is not <tmx>)');
        } else if (depth === 2) {
          if (s.name === 'header' && headerSource === null) headerSource = s.attr('srclang')?.trim() ?? '';
          else if (s.name === 'body' && body === 'before') body = 'in';
        } else if (body !== 'in' || depth > 5) {
          // outside the body, or inside a segment
        } else if (depth === 3 && s.name === 'tu') {
          unitSource = s.attr('srclang')?.trim() ?? '';
          variants = [];
        } else if (depth === 4 && unitSource !== null && s.name === 'tuv') {
          variant = { lang: (s.attr('xml:lang') ?? s.attr('lang') ?? '').trim(), text: null };
        } else if (depth === 5 && variant !== null && variant.text === null && s.name === 'seg') {
          seg = '';
        }
      } else if (kind === XmlToken.EndTag) {
        const depth = s.depth;
        if (depth === 5 && seg !== null && s.name === 'seg') {
          variant!.text = seg;
          seg = null;
        } else if (depth === 4 && variant !== null) {
          variants.push(variant);
          variant = null;
        } else if (depth === 3 && unitSource !== null) {
          unitEntries(out);
          unitSource = null;
        } else if (depth === 2 && body === 'in' && s.name === 'body') {
          body = 'after';
        }
      }
    }
  }

  return {
    push(bytes) {
      const out: MemoryFileEntry[] = [];
      const piece = text.piece(bytes, false);
      if (piece === '') return out;
      s.feed(piece);
      scan(out);
      return out;
    },
    end() {
      const out: MemoryFileEntry[] = [];
      s.feed(text.piece(new Uint8Array(0), true));
      s.endOfInput();
      scan(out);
      if (body === 'before') throw new FormatParseError(filename, 1, 1, 'a TMX file needs a <body>');
      return out;
    },
  };
}

/**
 * Reads a whole TMX file (see createTmxReader).
 * @example parseTmx(bytes, 'memory.tmx') // [{ source: 'Open', target: 'Öffnen', sourceLanguage: 'en', targetLanguage: 'de' }]
 */
export function parseTmx(bytes: Uint8Array, filename: string): MemoryFileEntry[] {
  const reader = createTmxReader(filename);
  const out = reader.push(bytes);
  for (const e of reader.end()) out.push(e);
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
