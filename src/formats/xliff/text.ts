// The text of XLIFF's <source> and <target> as Weblate shows it: plain (tags dropped) or rich (inline elements kept as XML).
//
// Plain text is XPath's string(), space-normalized unless xml:space says "preserve" (Translate Toolkit's getText).
// Rich text follows Translate Toolkit's placeables round trip that Weblate's `xliff` format shows: whitespace
// normalized in two passes (xml_helpers.normalize_xml_space, quirks included), comments dropped with the text after
// them, <x>/<bx>/<ex>/<g> rebuilt with `id` (then `xid`, `rid`) first, other elements kept with their attributes, and
// the result serialized the way lxml does (`&amp; &lt; &gt;` in text, double-quoted attributes).
import { escapeParsedAttribute, escapeParsedText } from '../xml/escape.js';
import { type XElement, attr, stringValue } from './tree.js';

const XML_WHITESPACE_RUN = /[\t\n\r ]+/g;

/** Whether normalize-space() changes a string: a tab or line end, two spaces in a row, or a space at either end. */
const NEEDS_NORMALIZING = /[\t\n\r]| {2}|^ | $/;

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** XPath normalize-space(): XML whitespace trimmed and each run collapsed to one space. */
export function normalizeSpace(s: string): string {
  if (!NEEDS_NORMALIZING.test(s)) return s;
  // the text between its first and last non-whitespace characters, cut only where a run inside it is not one space
  // (most often a space at an end, or two where an inline element was): a few slices, not two global replaces
  let end = s.length;
  while (end > 0 && isXmlSpace(s.charCodeAt(end - 1))) end--;
  let i = 0;
  while (i < end && isXmlSpace(s.charCodeAt(i))) i++;
  let out = '';
  let from = i;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (!isXmlSpace(c)) {
      i++;
      continue;
    }
    // a run of whitespace, which ends before `end` (a character that is none)
    let j = i + 1;
    while (isXmlSpace(s.charCodeAt(j))) j++;
    if (j > i + 1 || c !== 0x20) {
      out += `${s.slice(from, i)} `;
      from = j;
    }
    i = j;
  }
  return out + s.slice(from, end);
}

/**
 * Plain text of a language node: `string()`, normalized when the node's own xml:space (else `unitSpace`, the
 * trans-unit's, else "default") is "default".
 */
export function plainText(node: XElement, unitSpace: string): string {
  return spacedText(stringValue(node), attr(node, 'xml:space') ?? unitSpace);
}

/** A node's `string()` as plain text under the xml:space in force: normalized for "default", else as it is. */
export function spacedText(text: string, space: string): string {
  return space === 'default' ? normalizeSpace(text) : text;
}

// Python's str.isspace() characters, which lstrip()/rstrip() remove (JS trim() differs: U+FEFF in, U+001C–U+001F and U+0085 out).
const PY_SPACE =
  '\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

function pyLstrip(s: string): string {
  let i = 0;
  while (i < s.length && PY_SPACE.includes(s[i]!)) i++;
  return s.slice(i);
}

function pyRstrip(s: string): string {
  let i = s.length;
  while (i > 0 && PY_SPACE.includes(s[i - 1]!)) i--;
  return s.slice(0, i);
}

function collapse(s: string): string {
  return s.replace(XML_WHITESPACE_RUN, ' ');
}

/** An lxml-shaped node: text before the first child, children with the text after each (their tail). */
interface LNode {
  el: XElement | null;
  text: string | null;
  kids: LNode[];
  tail: string | null;
}

function lift(el: XElement): LNode {
  const node: LNode = { el, text: null, kids: [], tail: null };
  let last: LNode | null = null;
  for (const c of el.children) {
    if (typeof c === 'string') {
      if (last) last.tail = (last.tail ?? '') + c;
      else node.text = (node.text ?? '') + c;
      continue;
    }
    last = c.kind === 'element' ? lift(c) : { el: null, text: null, kids: [], tail: null };
    node.kids.push(last);
  }
  return node;
}

/** Translate Toolkit's normalize_xml_space, including passing `removeStart` down as the children's xml:space. */
function normalize(node: LNode, xmlSpace: string | boolean, removeStart: boolean): void {
  const own = node.el ? attr(node.el, 'xml:space') : null;
  const space = own ?? xmlSpace;
  if (space === 'preserve') return;
  if (node.text) {
    let text = collapse(node.text);
    if (removeStart && text[0] === ' ') {
      text = pyLstrip(text);
      removeStart = false;
    }
    if (text.length > 0 && text.endsWith(' ')) removeStart = true;
    if (node.kids.length === 0) text = pyRstrip(text);
    node.text = text;
  }
  if (node.tail) node.tail = collapse(node.tail);
  for (const kid of node.kids) normalize(kid, removeStart, false);
}

/** A rebuilt inline element: tag, attributes in output order, and content. */
interface Placeable {
  tag: string;
  attrs: Array<[string, string]>;
  sub: RichPart[];
  /** A namespace declaration lxml writes on an element copied from below the top level. */
  xmlns: [string, string] | null;
}
type RichPart = string | Placeable;

const EMPTY_REPLACEMENTS = new Set(['x', 'bx', 'ex']);

function ownAttributes(el: XElement): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < el.attrs.length; i += 2) {
    const name = el.attrs[i]!;
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    out.push([name, el.attrs[i + 1]!]);
  }
  return out;
}

/** Attributes with the named ones first (in that order, when present), the rest as written. */
function leading(attrs: Array<[string, string]>, first: readonly string[]): Array<[string, string]> {
  const head: Array<[string, string]> = [];
  for (const name of first) {
    const found = attrs.find(([n]) => n === name);
    if (found) head.push(found);
  }
  return head.concat(attrs.filter(([n]) => !first.includes(n)));
}

function placeable(node: LNode, xmlSpace: string, nested: boolean): Placeable {
  const el = node.el!;
  const attrs = ownAttributes(el);
  const hasId = attr(el, 'id') !== null;
  if (EMPTY_REPLACEMENTS.has(el.local)) {
    return { tag: el.local, attrs: hasId ? leading(attrs, ['id', 'xid', 'rid']) : [], sub: [], xmlns: null };
  }
  const sub = richParts(node, xmlSpace);
  if (el.local === 'g' && hasId) return { tag: 'g', attrs: leading(attrs, ['id']), sub, xmlns: null };
  // Any other element is copied: at the top level Weblate strips its namespace, below it lxml declares it.
  if (!nested || el.ns === '') return { tag: nested ? el.name : el.local, attrs, sub, xmlns: null };
  const colon = el.name.indexOf(':');
  return { tag: el.name, attrs, sub, xmlns: [colon < 0 ? 'xmlns' : `xmlns:${el.name.slice(0, colon)}`, el.ns] };
}

/** Translate Toolkit's xml_to_strelem: the node's content as text runs and placeables. */
function richParts(node: LNode, xmlSpace: string, nested = true): RichPart[] {
  const space = (node.el ? attr(node.el, 'xml:space') : null) ?? xmlSpace;
  normalize(node, space, true);
  const parts: RichPart[] = [];
  if (node.text) parts.push(node.text);
  for (const kid of node.kids) {
    // a comment (or processing instruction) is skipped together with the text that follows it
    if (!kid.el) continue;
    parts.push(placeable(kid, space, nested));
    if (kid.tail) parts.push(kid.tail);
  }
  return parts;
}

function serialize(parts: readonly RichPart[]): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') {
      out += escapeParsedText(p);
      continue;
    }
    out += `<${p.tag}`;
    if (p.xmlns) out += ` ${p.xmlns[0]}="${escapeParsedAttribute(p.xmlns[1])}"`;
    for (const [name, value] of p.attrs) out += ` ${name}="${escapeParsedAttribute(value)}"`;
    const inner = serialize(p.sub);
    out += inner === '' ? '/>' : `>${inner}</${p.tag}>`;
  }
  return out;
}

/**
 * Rich text of a language node as Weblate's `xliff` format shows it (`rich_to_xliff_string`): the inner XML
 * with inline elements kept. `unitSpace` is the trans-unit's xml:space, else "default".
 * @example richText(source, 'default') // 'Save <x id="1"/>now'
 */
export function richText(node: XElement, unitSpace: string): string {
  const children = node.children;
  // Text alone (most units): collapsed, trimmed as normalize_xml_space trims a node without children, escaped.
  if (children.length <= 1 && (children.length === 0 || typeof children[0] === 'string')) {
    const text = (children[0] as string | undefined) ?? '';
    if ((attr(node, 'xml:space') ?? unitSpace) === 'preserve' || text === '') return escapeParsedText(text);
    if (!NEEDS_NORMALIZING.test(text) && !PY_SPACE.includes(text[text.length - 1]!)) return escapeParsedText(text);
    let t = collapse(text);
    if (t[0] === ' ') t = pyLstrip(t);
    return escapeParsedText(pyRstrip(t));
  }
  // Only the outermost inline elements are "top level"; the ones below them are nested.
  return serialize(richParts(lift(node), unitSpace, false));
}
