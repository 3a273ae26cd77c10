// Reads an Android resource file into its <string> and <plurals> entries: decoded values, notes and the offsets the writer splices.
import { FormatParseError } from '../../domain/errors.js';
import { pyLstrip, pyRstrip } from '../python-text.js';
import { decodeUtf8 } from '../text.js';
import { escapeText } from '../xml/escape.js';
import { XmlScanner, XmlToken } from '../xml/scanner.js';
import { AndroidDecoder, decodeEscapes, decodeText, plainText } from './escape.js';

/**
 * How a value was written, which decides how a new value is written in its place (Translate Toolkit's markup
 * modes): `xml` with child elements, `cdata` in a CDATA section, `escaped` markup written as `&lt;b&gt;`, `plain`
 * text holding a literal `<` and `>`, `text` anything else.
 */
export type MarkupMode = 'text' | 'plain' | 'cdata' | 'xml' | 'escaped';

/** The text of one `<string>` or `<item>`: its decoded value and where its content sits. */
export interface AndroidText {
  value: string;
  /** Offsets of the content (after the start tag's `>`, at the end tag's `<`); equal for `<x/>`. */
  contentStart: number;
  contentEnd: number;
  /** Offsets of the whole element. */
  start: number;
  end: number;
  selfClosing: boolean;
  mode: MarkupMode;
}

export interface AndroidItem extends AndroidText {
  quantity: string;
}

/** One `<string>` or `<plurals>` child of `<resources>`. */
export interface AndroidEntry {
  kind: 'string' | 'plurals';
  /** The `name` attribute; null for an element without one (Translate Toolkit's blank unit, never listed). */
  name: string | null;
  /** False for `translatable="false"`. */
  translatable: boolean;
  /** The comments right before the element (no element in between), oldest first, as written. */
  notes: string[];
  /** Offset of the first of those comments, or of the element when it has none. */
  notesStart: number;
  /** The element itself (for `<string>`), or the `<plurals>` element with its items. */
  text: AndroidText;
  items: AndroidItem[];
  /** Offset of the end of the start tag (`>` included) and of the `translatable` attribute's value, if any. */
  startTagEnd: number;
  translatableValue: { start: number; end: number } | null;
  /**
   * The attributes Weblate reads as flags (`maxwidth`, `size-unit`, `font`, `weblate-flags`), null when the element
   * has none of them (most have none).
   */
  flagAttributes: Readonly<Record<string, string>> | null;
}

const FLAG_ATTRIBUTES = ['maxwidth', 'size-unit', 'font', 'weblate-flags'] as const;

/** The flag attributes of the start tag the scanner is on, or null when it has none. */
function flagAttributesOf(s: XmlScanner): Record<string, string> | null {
  let found: Record<string, string> | null = null;
  for (const name of FLAG_ATTRIBUTES) {
    const value = s.attr(name);
    if (value === null) continue;
    found ??= {};
    found[name] = value;
  }
  return found;
}

export interface AndroidDocument {
  text: string;
  entries: AndroidEntry[];
  /** Offsets of `</resources>` (or of `/>` of `<resources/>`) and just past the root's start tag. */
  rootStartTagEnd: number;
  rootCloseStart: number;
  rootSelfClosing: boolean;
}

/** A piece of an element's content as the decoder sees it: character data (decoded) or markup kept as written. */
type Segment = { text: string } | { raw: string };

/** Collects the content of one `<string>` or `<item>` while scanning. */
class ContentCollector {
  /** Every piece, kept only once a child or CDATA shows the content is more than text. */
  segments: Segment[] | null = null;
  children = false;
  cdata = false;
  /** The element's own text (lxml's `.text`): character data and CDATA before the first child. */
  leading = '';
  cdataText = '';

  /** Ready for the next element's content (one collector serves a whole document). */
  reset(): void {
    this.segments = null;
    this.children = false;
    this.cdata = false;
    this.leading = '';
    this.cdataText = '';
  }

  private pieces(): Segment[] {
    if (!this.segments) this.segments = this.leading === '' ? [] : [{ text: this.leading }];
    return this.segments;
  }

  push(kind: number, s: XmlScanner): void {
    if (kind === XmlToken.Text) {
      const value = s.textValue();
      if (!this.children) this.leading += value;
      if (this.segments) this.segments.push({ text: value });
    } else if (kind === XmlToken.CData) {
      const segments = this.pieces();
      this.cdata = true;
      const value = s.text.slice(s.contentStart, s.contentEnd);
      if (!this.children) {
        this.leading += value;
        this.cdataText += value;
      }
      segments.push({ raw: s.text.slice(s.start, s.end).replace(/\r\n?/g, '\n') });
    } else {
      const segments = this.pieces();
      this.children = true;
      segments.push({ raw: s.text.slice(s.start, s.end).replace(/\r\n?/g, '\n') });
    }
  }
}

const CDATA_ONLY = /^(?:<!\[CDATA\[[\s\S]*?\]\]>)+$/;
const XML_NAME = '[A-Za-z_][A-Za-z0-9_.:-]*';
const XML_ATTRIBUTE = `\\s+${XML_NAME}\\s*=\\s*(?:"[^"]*"|'[^']*')`;
const MARKUP_TAG = new RegExp(`</?${XML_NAME}(?:${XML_ATTRIBUTE})*\\s*/?>`);
const ESCAPED_MARKUP_TAG = new RegExp(`&lt;/?${XML_NAME}(?:${XML_ATTRIBUTE})*\\s*/?&gt;`);

/** Translate Toolkit's value of a content with child elements, comments or mixed CDATA: markup kept, text runs decoded. */
function decodeMarkup(segments: readonly Segment[]): string {
  const decoder = new AndroidDecoder();
  const out: string[] = [];
  let cleanupEnd = false;
  for (const seg of segments) {
    if ('raw' in seg) {
      out.push(seg.raw);
      cleanupEnd = false;
      continue;
    }
    // lxml serializes the text again before the decoder reads it: &, < and > as entities
    const run = decoder.run(escapeText(seg.text));
    out.push(run.cleanupStart && out.length === 0 ? pyLstrip(run.text) : run.text);
    cleanupEnd = run.cleanupEnd;
  }
  if (cleanupEnd && out.length > 0) out[out.length - 1] = pyRstrip(out[out.length - 1]!);
  return out.join('');
}

/**
 * Sets `target`'s value and markup mode from the content collected. The content as written (`text` from the
 * target's `contentStart` to `contentEnd`) is sliced only for CDATA without child elements, the one case that reads it.
 */
function decodeContent(c: ContentCollector, target: AndroidText, text: string): void {
  if (!c.children && !c.cdata) {
    const leading = c.leading;
    const plain = plainText(leading);
    if (plain !== null) {
      target.value = plain;
      target.mode = 'text';
      return;
    }
    target.value = decodeText(leading);
    target.mode = leading.includes('<') ? textMode(leading) : 'text';
    return;
  }
  if (!c.children && CDATA_ONLY.test(text.slice(target.contentStart, target.contentEnd))) {
    const cdataText = c.cdataText;
    target.value = MARKUP_TAG.test(cdataText) ? decodeEscapes(cdataText) : decodeText(cdataText);
    target.mode = 'cdata';
    return;
  }
  target.value = decodeMarkup(c.segments ?? []);
  target.mode = c.children ? 'xml' : 'cdata';
}

/** The mode of a text-only content that holds a `<`. */
function textMode(leading: string): MarkupMode {
  // text that reads as escaped markup (&lt;b&gt;) keeps being written escaped
  if (ESCAPED_MARKUP_TAG.test(escapeText(leading))) return 'escaped';
  return leading.includes('>') ? 'plain' : 'text';
}

const NO_NOTES: string[] = [];

/**
 * Reads a decoded Android resource file. Throws FormatParseError on malformed XML (entity declarations that
 * nest are refused by the scanner) or a root other than `<resources>`.
 * @example readAndroidDocument('<resources><string name="a">A</string></resources>', 'values/strings.xml').entries[0].text.value
 */
export function readAndroidDocument(text: string, filename: string): AndroidDocument {
  const s = new XmlScanner(text, filename);
  const entries: AndroidEntry[] = [];
  let rootStartTagEnd = -1;
  let rootCloseStart = -1;
  let rootSelfClosing = false;
  // shared by every element without comments before it (most of them) until a comment starts a list of its own
  let notes: string[] = NO_NOTES;
  let notesStart = -1;

  let entry: AndroidEntry | null = null;
  let item: AndroidItem | null = null;
  // one collector for every element's content; `contentDepth` is 0 outside a <string> or <item>
  const content = new ContentCollector();
  let contentDepth = 0;
  // open elements after the current token (the scanner's depth describes tags only)
  let level = 0;

  for (let kind = s.next(); kind !== XmlToken.Eof; kind = s.next()) {
    const levelBefore = level;
    if (kind === XmlToken.StartTag) level = s.depth;
    else if (kind === XmlToken.EndTag) level = s.depth - 1;
    if (kind === XmlToken.StartTag && s.depth === 1) {
      if (s.name !== 'resources') s.fail(s.start, `the root element must be <resources>, not <${s.name}>`);
      rootStartTagEnd = s.end;
      rootSelfClosing = s.selfClosing;
      continue;
    }
    if (contentDepth !== 0) {
      if (kind === XmlToken.EndTag && s.depth === contentDepth) {
        const target = item ?? entry!.text;
        target.contentEnd = s.selfClosing ? target.contentStart : s.start;
        decodeContent(content, target, s.text);
        target.end = s.end;
        contentDepth = 0;
        if (item) {
          entry!.items.push(item);
          item = null;
        } else {
          entry!.text.end = s.end;
          entry = null;
        }
      } else {
        content.push(kind, s);
      }
      continue;
    }
    if (entry && entry.kind === 'plurals') {
      if (kind === XmlToken.EndTag && s.depth === 2) {
        entry.text.contentEnd = s.selfClosing ? entry.text.contentStart : s.start;
        entry.text.end = s.end;
        entry = null;
      } else if (kind === XmlToken.StartTag && s.depth === 3 && s.name === 'item') {
        item = {
          quantity: s.attr('quantity') ?? '',
          value: '',
          contentStart: s.end,
          contentEnd: s.end,
          start: s.start,
          end: s.end,
          selfClosing: s.selfClosing,
          mode: 'text',
        };
        content.reset();
        contentDepth = 3;
      }
      continue;
    }
    if (kind === XmlToken.EndTag && s.depth === 1) {
      rootCloseStart = s.selfClosing ? rootStartTagEnd : s.start;
      continue;
    }
    if (levelBefore !== 1) continue;
    if (kind === XmlToken.Comment) {
      if (notesStart < 0) notesStart = s.start;
      if (notes === NO_NOTES) notes = [];
      notes.push(s.text.slice(s.contentStart, s.contentEnd).replace(/\r\n?/g, '\n'));
      continue;
    }
    if (kind === XmlToken.Text || kind === XmlToken.CData) continue;
    if (kind === XmlToken.StartTag && (s.name === 'string' || s.name === 'plurals')) {
      let name: string | null = null;
      let t = -1;
      let flags = false;
      // one look at the attributes (the first of a name, as `attr` finds it)
      for (let i = s.attrCount - 1; i >= 0; i--) {
        const attribute = s.attrNames[i];
        if (attribute === 'name') name = s.attrValues[i]!;
        else if (attribute === 'translatable') t = i;
        else flags = true;
      }
      entry = {
        kind: s.name,
        name: name || null,
        translatable: t < 0 || s.attrValues[t] !== 'false',
        notes,
        notesStart: notesStart < 0 ? s.start : notesStart,
        text: { value: '', contentStart: s.end, contentEnd: s.end, start: s.start, end: s.end, selfClosing: s.selfClosing, mode: 'text' },
        items: [],
        startTagEnd: s.end,
        translatableValue: t < 0 ? null : { start: s.attrValueStart[t]!, end: s.attrValueEnd[t]! },
        flagAttributes: flags ? flagAttributesOf(s) : null,
      };
      entries.push(entry);
      if (s.name === 'string') {
        content.reset();
        contentDepth = 2;
      }
    }
    // any element or processing instruction ends a run of comments
    notes = NO_NOTES;
    notesStart = -1;
  }
  if (rootStartTagEnd < 0) throw new FormatParseError(filename, 1, 1, 'no <resources> element');
  return { text, entries, rootStartTagEnd, rootCloseStart, rootSelfClosing };
}

/** Decodes UTF-8 bytes (a BOM kept as U+FEFF so offsets stay exact) and reads the document. */
export function readAndroidBytes(bytes: Uint8Array, filename: string): AndroidDocument {
  return readAndroidDocument(decodeUtf8(bytes, filename), filename);
}
