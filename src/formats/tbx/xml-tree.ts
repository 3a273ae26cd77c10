// TBX's XML reading: UTF-8 bytes to a light element tree (through the XML scanner TS uses) that remembers where each element sits in the text.
import { FormatParseError } from '../../domain/errors.js';
import { decodeUtf8 } from '../text.js';
import { XmlScanner, XmlToken } from '../xml/scanner.js';

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

/** Shared by every element without attributes (most plist and many TBX elements): never written to. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Decodes strict UTF-8 (the formats' one decoder); a leading BOM is taken off the text and remembered for writing. */
function decodeTbx(bytes: Uint8Array, filename: string): { text: string; bom: boolean } {
  const text = decodeUtf8(bytes, filename);
  return text.charCodeAt(0) === 0xfeff ? { text: text.slice(1), bom: true } : { text, bom: false };
}

/**
 * Parses UTF-8 XML into an element tree through the formats' one XML scanner, refusing anything not well-formed.
 * `checkRoot` may reject the root element by returning a reason. With `textIn`, text is kept only inside elements
 * of those names (and their descendants): the rest, indentation in a format without mixed content, is never sliced.
 * @example const doc = parseXml(bytes, 'glossary/cs.tbx', (root) => root.name === 'martif' ? null : 'not TBX');
 */
export function parseXml(bytes: Uint8Array, filename: string, checkRoot: (root: XmlElement) => string | null, textIn?: ReadonlySet<string>): XmlDocument {
  const { text, bom } = decodeTbx(bytes, filename);
  const s = new XmlScanner(text, filename);
  let root: XmlElement | null = null;
  let current: XmlElement | null = null;
  // Depth of the outermost open element whose text is kept (0: none open; -1: text is kept everywhere).
  let keepFrom = textIn ? 0 : -1;
  for (let kind = s.next(); kind !== XmlToken.Eof; kind = s.next()) {
    if (kind === XmlToken.StartTag) {
      if (keepFrom === 0 && textIn!.has(s.name)) keepFrom = s.depth;
      let attrs = NO_ATTRIBUTES;
      if (s.attrCount > 0) {
        attrs = {};
        for (let i = 0; i < s.attrCount; i++) attrs[s.attrNames[i]!] = s.attrValues[i]!;
      }
      const element: XmlElement = {
        name: s.name,
        attrs,
        parent: current,
        children: [],
        start: s.start,
        openEnd: s.end,
        closeStart: s.end,
        end: s.end,
        selfClosing: s.selfClosing,
      };
      if (current) {
        current.children.push(element);
      } else {
        root = element;
        const reason = checkRoot(element);
        if (reason) s.fail(s.start, reason);
      }
      current = element;
    } else if (kind === XmlToken.EndTag) {
      if (!current) continue;
      if (s.depth === keepFrom) keepFrom = 0;
      if (!current.selfClosing) {
        current.closeStart = s.start;
        current.end = s.end;
      }
      current = current.parent;
    } else if ((kind === XmlToken.Text || kind === XmlToken.CData) && current && keepFrom !== 0) {
      current.children.push(s.textValue());
    }
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
