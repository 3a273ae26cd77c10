// XLIFF's element tree over the formats' XML scanner: namespaces resolved, comments kept in place, offsets for splicing.
import { Buffer, isUtf8 } from 'node:buffer';
import { FormatParseError } from '../../domain/errors.js';
import { asBuffer, decodeUtf8 } from '../text.js';
import { NeedsDecodedText, XmlScanner, XmlToken, internalized } from '../xml/scanner.js';

/** A comment or processing instruction: kept as a child because Translate Toolkit's rich text treats it apart. */
export interface XMarker {
  kind: 'comment' | 'pi';
}

/** Element children: elements, text runs (adjacent text and CDATA joined, as lxml's `.text` joins them), markers. */
export type XChild = XElement | string | XMarker;

/** One element with its offsets in the decoded text (BOM excluded). */
export interface XElement {
  kind: 'element';
  /** Qualified name as written (`x`, `xlf:trans-unit`). */
  name: string;
  /** Local part of the name. */
  local: string;
  /** Namespace URI the name resolves to ('' for none). */
  ns: string;
  /** Attributes in document order as name, value, name, value…, names as written (namespace declarations included). */
  attrs: string[];
  parent: XElement | null;
  children: XChild[];
  /** Offset of `<`. */
  start: number;
  /** Offset just past the start tag's `>`. */
  openEnd: number;
  /** Offset of the end tag's `<` (equals `openEnd` for `<x/>`). */
  closeStart: number;
  /** Offset just past the end tag's `>`. */
  end: number;
  selfClosing: boolean;
  /** Namespace bindings in scope (prefix → URI, '' for the default namespace). */
  scope: ReadonlyMap<string, string>;
}

export interface XDocument {
  /** Decoded text without a leading BOM; with `bytes`, the file's UTF-8 bytes after a BOM, one character a byte. */
  text: string;
  /** The offsets are byte offsets into the UTF-8 file after its BOM, and `text` holds those bytes. */
  bytes: boolean;
  bom: boolean;
  root: XElement;
  /** The elements of the local names `buildTree` was asked to collect, in document order. */
  found: XElement[];
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const COMMENT: XMarker = { kind: 'comment' };
export const PI: XMarker = { kind: 'pi' };
const ROOT_SCOPE: ReadonlyMap<string, string> = new Map([['xml', XML_NS]]);

/** The value of attribute `name` (as written), or null. */
export function attr(el: XElement, name: string): string | null {
  const attrs = el.attrs;
  for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === name) return attrs[i + 1]!;
  return null;
}

function scopeOf(parent: ReadonlyMap<string, string>, attrs: string[]): ReadonlyMap<string, string> {
  let scope: Map<string, string> | null = null;
  for (let i = 0; i < attrs.length; i += 2) {
    const n = attrs[i]!;
    if (n === 'xmlns' || n.startsWith('xmlns:')) {
      scope ??= new Map(parent);
      scope.set(n === 'xmlns' ? '' : n.slice(6), attrs[i + 1]!);
    }
  }
  return scope ?? parent;
}

// Shared by every element without attributes or children until one is added (most elements have neither).
export const NO_ATTRIBUTES: string[] = [];
export const NO_CHILDREN: XChild[] = [];

/**
 * The element of the scanner's current start tag, its children added later by `append` (one shape for every element,
 * the tree reader's and the streaming reader's).
 * @example const el = startElement(s, 'trans-unit', 'trans-unit', ns, attrs, parent, scope)
 */
export function startElement(
  s: XmlScanner,
  name: string,
  local: string,
  ns: string,
  attrs: string[],
  parent: XElement | null,
  scope: ReadonlyMap<string, string>,
): XElement {
  return {
    kind: 'element',
    name,
    local,
    ns,
    attrs,
    parent,
    children: NO_CHILDREN,
    start: s.start,
    openEnd: s.end,
    closeStart: s.end,
    end: s.end,
    selfClosing: s.selfClosing,
    scope,
  };
}

/** Adds a child to `parent` (its first replaces the shared empty list). */
export function append(parent: XElement, child: XChild): void {
  if (parent.children === NO_CHILDREN) parent.children = [child];
  else parent.children.push(child);
}

/** What the tree needs of a tag name, worked out once per name. */
interface NameInfo {
  prefix: string;
  local: string;
  /** Text inside it is kept (`textIn`). */
  keeps: boolean;
  /** It is listed in `found` (`collect`). */
  collected: boolean;
}

/**
 * Builds the tree of UTF-8-decoded XML `text` (a leading U+FEFF is dropped and reported), refusing anything not
 * well-formed or using an undeclared prefix with FormatParseError (file, line, column). With `textIn`, text is kept
 * only inside elements of those local names (the rest, mostly indentation, is never read). Elements of the local
 * names in `collect` are listed in `found`, in document order.
 * @example const doc = buildTree('<xliff version="1.2"/>', 'de.xlf'); doc.root.local // 'xliff'
 */
export function buildTree(decoded: string, filename: string, textIn?: ReadonlySet<string>, collect?: ReadonlySet<string>): XDocument {
  const bom = decoded.charCodeAt(0) === 0xfeff;
  const text = bom ? decoded.slice(1) : decoded;
  return treeOf(new XmlScanner(text, filename), bom, false, filename, textIn, collect);
}

/**
 * `buildTree` of a UTF-8 file's bytes, the same tree with byte offsets (`bytes`) where the scan over bytes can read
 * it (the file's markup is not decoded, only the values kept), else over its decoded text (and its errors).
 * @example const doc = buildTreeOfBytes(bytes, 'de.xlf'); doc.bytes // true for valid UTF-8 without a DOCTYPE
 */
export function buildTreeOfBytes(bytes: Uint8Array, filename: string, textIn?: ReadonlySet<string>, collect?: ReadonlySet<string>): XDocument {
  const buffer = asBuffer(bytes);
  if (isUtf8(buffer)) {
    const bom = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
    try {
      return treeOf(XmlScanner.overBytes(bom ? buffer.subarray(3) : buffer, filename), bom, true, filename, textIn, collect);
    } catch (e) {
      if (!(e instanceof NeedsDecodedText)) throw e;
    }
  }
  return buildTree(decodeUtf8(bytes, filename), filename, textIn, collect);
}

function treeOf(s: XmlScanner, bom: boolean, overBytes: boolean, filename: string, textIn?: ReadonlySet<string>, collect?: ReadonlySet<string>): XDocument {
  const names = new Map<string, NameInfo>();
  const found: XElement[] = [];
  let root: XElement | null = null;
  let current: XElement | null = null;
  // Depth of the outermost open element that keeps its text (0: none; every element keeps it without `textIn`).
  let keepFrom = textIn ? 0 : -1;
  // The default namespace of the last scope seen (most elements share their parent's scope).
  let lastScope: ReadonlyMap<string, string> | null = null;
  let lastDefault = '';
  // Text and CDATA tokens in a row become one string child.
  let pending = '';
  for (let kind = s.next(); kind !== XmlToken.Eof; kind = s.next()) {
    if (kind === XmlToken.Text || kind === XmlToken.CData) {
      if (keepFrom !== 0 && current) pending += s.textValue();
      continue;
    }
    if (pending !== '') {
      if (current) append(current, pending);
      pending = '';
    }
    if (kind === XmlToken.StartTag) {
      const name = s.name;
      let info = names.get(name);
      if (info === undefined) {
        const colon = name.indexOf(':');
        const local = colon < 0 ? name : internalized(name.slice(colon + 1));
        info = { prefix: colon < 0 ? '' : name.slice(0, colon), local, keeps: textIn?.has(local) === true, collected: collect?.has(local) === true };
        names.set(name, info);
      }
      const count = s.attrCount;
      let attrs = NO_ATTRIBUTES;
      const parentScope = current ? current.scope : ROOT_SCOPE;
      let scope = parentScope;
      if (count > 0) {
        attrs = new Array<string>(count * 2);
        for (let i = 0; i < count; i++) {
          attrs[2 * i] = s.attrNames[i]!;
          attrs[2 * i + 1] = s.attrValues[i]!;
        }
        scope = scopeOf(parentScope, attrs);
      }
      let ns: string;
      if (info.prefix === '') {
        if (scope !== lastScope) {
          lastScope = scope;
          lastDefault = scope.get('') ?? '';
        }
        ns = lastDefault;
      } else {
        const bound = scope.get(info.prefix);
        if (bound === undefined) s.fail(s.start, `namespace prefix "${info.prefix}" of <${name}> is not declared`);
        ns = bound ?? '';
      }
      const element = startElement(s, name, info.local, ns, attrs, current, scope);
      if (current) append(current, element);
      else root = element;
      current = element;
      if (keepFrom === 0 && info.keeps) keepFrom = s.depth;
      if (info.collected) found.push(element);
    } else if (kind === XmlToken.EndTag) {
      if (!current) continue;
      if (s.depth === keepFrom) keepFrom = 0;
      if (!current.selfClosing) {
        current.closeStart = s.start;
        current.end = s.end;
      }
      current = current.parent;
    } else if ((kind === XmlToken.Comment || kind === XmlToken.ProcessingInstruction) && current) {
      append(current, kind === XmlToken.Comment ? COMMENT : PI);
    }
  }
  if (!root) {
    if (overBytes) throw new NeedsDecodedText();
    throw new FormatParseError(filename, 1, 1, 'no root element');
  }
  return { text: s.text, bytes: overBytes, bom, root, found };
}

/** The source text of `doc` from `start` to `end` (its offsets), decoded. */
export function sourceSlice(doc: XDocument, start: number, end: number): string {
  const raw = doc.text.slice(start, end);
  return doc.bytes ? Buffer.from(raw, 'latin1').toString('utf8') : raw;
}

/** Whether two documents were read from the same text (one may have been read over its bytes, the other decoded). */
export function sameText(a: XDocument, b: XDocument): boolean {
  if (a.bytes === b.bytes) return a.text === b.text;
  return a.bytes ? sourceSlice(a, 0, a.text.length) === b.text : a.text === sourceSlice(b, 0, b.text.length);
}

/** Element children, in order. */
export function childElements(el: XElement): XElement[] {
  const out: XElement[] = [];
  for (const c of el.children) if (typeof c !== 'string' && c.kind === 'element') out.push(c);
  return out;
}

/** The first child element in namespace `ns` named `local`, or null. */
export function firstChild(el: XElement, ns: string, local: string): XElement | null {
  for (const c of el.children) {
    if (typeof c !== 'string' && c.kind === 'element' && c.local === local && c.ns === ns) return c;
  }
  return null;
}

/** Every descendant element in namespace `ns` named `local`, in document order. */
export function descendants(el: XElement, ns: string, local: string, out: XElement[] = []): XElement[] {
  for (const c of el.children) {
    if (typeof c === 'string' || c.kind !== 'element') continue;
    if (c.local === local && c.ns === ns) out.push(c);
    if (c.children.length > 0) descendants(c, ns, local, out);
  }
  return out;
}

/** XPath `string()`: every descendant text run, in order (comments and processing instructions excluded). */
export function stringValue(el: XElement): string {
  const children = el.children;
  if (children.length === 1 && typeof children[0] === 'string') return children[0];
  let out = '';
  for (const c of children) {
    if (typeof c === 'string') out += c;
    else if (c.kind === 'element') out += stringValue(c);
  }
  return out;
}
