// TBX's XML reading: UTF-8 bytes to a light element tree that remembers where each element sits in the text.
import { SaxesParser } from 'saxes';
import { FormatParseError } from '../../domain/errors.js';
import { firstInvalidUtf8 } from '../utf8.js';

/** One element with its offsets (JS string indexes into the decoded text, BOM excluded). */
export interface XmlElement {
  /** Qualified name as written (`termEntry`, `xml:lang` stays an attribute). */
  name: string;
  attrs: Readonly<Record<string, string>>;
  parent: XmlElement | null;
  /** Elements and decoded text runs (CDATA included), in document order. */
  children: Array<XmlElement | string>;
  /** Offset of `<`. */
  start: number;
  /** Offset just past the start tag's `>`. */
  openEnd: number;
  /** Offset of the end tag's `<` (equals `openEnd` for `<x/>`). */
  closeStart: number;
  /** Offset just past the end tag's `>`. */
  end: number;
  selfClosing: boolean;
}

export interface XmlDocument {
  /** The decoded text without a leading BOM. */
  text: string;
  /** True when the bytes began with a UTF-8 BOM (kept on write). */
  bom: boolean;
  root: XmlElement;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const ACCEPTED_ENCODINGS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);
const ENTITY_DECL = /<!ENTITY\s+([^\s%"'>]+)\s+(?:"([^"]*)"|'([^']*)')\s*>/g;

/** 1-based line and column (in code points) of a string offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  let column = 1;
  for (const _ of text.slice(lineStart, offset)) column++;
  return { line, column };
}

/** Decodes strict UTF-8; a bad byte becomes a FormatParseError at its line and column. */
export function decodeUtf8(bytes: Uint8Array, filename: string): { text: string; bom: boolean } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    // TextDecoder drops a leading BOM by default; `bom` remembers it for writing.
    return { text: decoder.decode(bytes), bom };
  } catch {
    const at = firstInvalidUtf8(bytes);
    const prefix = new TextDecoder('utf-8').decode(bytes.subarray(bom ? 3 : 0, Math.max(at, 0)));
    const { line, column } = lineColumn(prefix, prefix.length);
    const byte = at >= 0 ? bytes[at]!.toString(16).padStart(2, '0') : '??';
    throw new FormatParseError(filename, line, column, `invalid UTF-8 byte 0x${byte} (TBX files must be UTF-8)`);
  }
}

class StopParse extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Parses UTF-8 XML into an element tree, refusing anything not well-formed.
 * `checkRoot` may reject the root element by returning a reason.
 * @example const doc = parseXml(bytes, 'glossary/cs.tbx', (name) => name === 'martif' ? null : 'not TBX');
 */
export function parseXml(bytes: Uint8Array, filename: string, checkRoot: (root: XmlElement) => string | null): XmlDocument {
  const { text, bom } = decodeUtf8(bytes, filename);
  const parser = new SaxesParser({ position: true, fileName: '' });
  let root: XmlElement | null = null;
  let current: XmlElement | null = null;

  const fail = (reason: string, offset?: number): never => {
    if (offset !== undefined) {
      const { line, column } = lineColumn(text, offset);
      throw new StopParse(line, column, reason);
    }
    throw new StopParse(parser.line, Math.max(parser.column, 1), reason);
  };

  parser.on('error', (err) => {
    // saxes prefixes "file:line:column: "; keep only its reason.
    fail(
      err.message
        .replace(/^(?:[^:]*:)?\d+:\d+: /, '')
        .replace(/\.$/, '')
        .replace(/\s+/g, ' '),
    );
  });
  parser.on('xmldecl', (decl) => {
    const encoding = decl.encoding?.toLowerCase();
    if (encoding !== undefined && !ACCEPTED_ENCODINGS.has(encoding)) {
      fail(`encoding "${decl.encoding}" is not supported (TBX files must be UTF-8)`);
    }
  });
  parser.on('doctype', (doctype) => {
    // Entities declared in the internal subset are real; anything else stays an undefined entity.
    for (const m of doctype.matchAll(ENTITY_DECL)) parser.ENTITIES[m[1]!] = m[2] ?? m[3] ?? '';
  });
  parser.on('opentag', (tag) => {
    const openEnd = parser.position;
    const start = text.lastIndexOf('<', openEnd - 1);
    const element: XmlElement = {
      name: tag.name,
      attrs: tag.attributes as Record<string, string>,
      parent: current,
      children: [],
      start,
      openEnd,
      closeStart: openEnd,
      end: openEnd,
      selfClosing: tag.isSelfClosing,
    };
    if (current) {
      current.children.push(element);
    } else {
      root = element;
      const reason = checkRoot(element);
      if (reason) fail(reason, start);
    }
    current = element;
  });
  parser.on('closetag', () => {
    if (!current) return;
    const end = parser.position;
    if (!current.selfClosing) {
      current.closeStart = text.lastIndexOf('<', end - 1);
      current.end = end;
    }
    current = current.parent;
  });
  const addText = (t: string) => {
    if (current) current.children.push(t);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);

  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof StopParse) throw new FormatParseError(filename, e.line, e.column, e.reason);
    throw e;
  }
  if (!root) throw new FormatParseError(filename, 1, 1, 'no root element');
  return { text, bom, root };
}

/** XPath `string()`: the text of every descendant, in order. */
export function textOf(element: XmlElement): string {
  if (element.children.length === 1 && typeof element.children[0] === 'string') return element.children[0];
  let out = '';
  for (const child of element.children) out += typeof child === 'string' ? child : textOf(child);
  return out;
}

/** Element children, in order. */
export function elementChildren(element: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of element.children) if (typeof child !== 'string') out.push(child);
  return out;
}

/** Every descendant element (document order) whose name is in `names`. */
export function descendants(element: XmlElement, names: ReadonlySet<string>, out: XmlElement[] = []): XmlElement[] {
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (names.has(child.name)) out.push(child);
    descendants(child, names, out);
  }
  return out;
}

/** The first descendant element named `name`, or null. */
export function firstDescendant(element: XmlElement, name: string): XmlElement | null {
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.name === name) return child;
    const found = firstDescendant(child, name);
    if (found) return found;
  }
  return null;
}

/** Escapes element text as lxml writes it. */
export function escapeText(value: string): string {
  return value.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

/** Escapes a double-quoted attribute value as lxml writes it. */
export function escapeAttr(value: string): string {
  return value.replace(/[&<>"\n\r\t]/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case '\n':
        return '&#10;';
      case '\r':
        return '&#13;';
      default:
        return '&#9;';
    }
  });
}
