// `plainxliff` units of a file of the plain shape Angular writes, read without tokens: `indexOf` to each tag, only the units' names and texts read.
//
// The same units as the streamed reader (`streamBilingual`), whose walk this follows tag by tag; what it cannot be
// sure of it leaves to that reader by answering null. The file's bytes are read as one-byte text in windows of 32 KB
// cut before a '<'. Whole-file preconditions, checked on each window: valid UTF-8 (once), no CR, no `]]>`, no
// character XML forbids, every `&` one of the five predefined entity references. Every '<' after the XML declaration
// (UTF-8, as written) must start a tag with an ASCII name without a prefix (so no comment, CDATA, DOCTYPE or
// processing instruction), attributes quoted and not repeated, no namespace declared below the root, end tags
// matching, only whitespace around the root. The tags Angular writes the same every time (`<context
// context-type="sourcefile">`, `</context>` …) are compared four bytes at a time, the indentation between tags is
// never read. Anything else answers null, and the streamed or tree reader reads the file, with its errors.
import { Buffer, isUtf8 } from 'node:buffer';
import { IdHashTable } from '../../domain/hash.js';
import { XLIFF_NS_PREFIX, type XliffEntry, parsedId } from './document.js';
import { spacedText } from './text.js';
import { NO_ATTRIBUTES, NO_CHILDREN, type XElement } from './tree.js';
import { type BilingualList, type EntryAnnotations, type XliffReading, joinNotes, listBilingual } from './units.js';

type ShapeBuffer = Buffer & { latin1Slice(start: number, end: number): string; utf8Slice(start: number, end: number): string };

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Strings whose presence anywhere sends the file to the general reader (as one-byte text of its UTF-8 bytes). */
const GENERAL: readonly string[] = ['\r', ']]>', '\xef\xbf\xbe', '\xef\xbf\xbf'].concat(
  Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)).filter((c) => c !== '\t' && c !== '\n' && c !== '\r'),
);
const DECLARATION = /<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.0\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])(?:UTF|utf)-8\2)?[ \t\n]*\?>/y;
const ENTITIES: readonly string[] = ['&lt;', '&gt;', '&amp;', '&quot;', '&apos;'];
const ENTITY = /&(lt|gt|amp|quot|apos);/g;
const ENTITY_TEXT: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQ = 0x3d;
const QUOTE = 0x22;
const APOS = 0x27;
const COLON = 0x3a;

// What the text element being read is to the unit around it (as in the streamed reader).
const IGNORED = 0;
const SOURCE = 1;
const TARGET = 2;
const NOTE = 3;
const CONTEXT = 4;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09;
}

/** ASCII name characters (no colon): letters, digits, '.', '-', '_'; the first a letter or '_'. */
function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c === 0x2e;
}

function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

// Names read often, by their length, given as these constants rather than a new slice each time.
const KNOWN_BY_LENGTH: readonly (string | undefined)[] = [];
for (const name of ['x', 'source', 'context', 'context-group', 'trans-unit', 'note', 'xliff']) (KNOWN_BY_LENGTH as string[])[name.length] = name;

/** The characters of bytes [s, e): a slice of the one-byte text, or where a byte is above 0x7f, their UTF-8 decoded. */
function chars(t: string, b: ShapeBuffer, view: DataView, base: number, s: number, e: number): string {
  return isAscii(view, base + s, base + e) ? t.slice(s, e) : b.utf8Slice(base + s, base + e);
}

/** Whether the bytes [s, e) are all below 0x80 (read four at a time). */
function isAscii(view: DataView, s: number, e: number): boolean {
  let k = s;
  for (; k + 4 <= e; k += 4) if ((view.getInt32(k, true) & 0x80808080) !== 0) return false;
  for (; k < e; k++) if (view.getUint8(k) > 0x7f) return false;
  return true;
}

function decodeEntities(s: string): string {
  return s.includes('&') ? s.replace(ENTITY, (_, name: string) => ENTITY_TEXT[name]!) : s;
}

/** A tag read at a '<': its name, attributes (name, value…; values read only where kept), whether self-closing, its end. */
class Tag {
  name = '';
  /** Its end tag where that is one of END_LITERALS. */
  close: Literal | undefined = undefined;
  attrs: string[] = NO_ATTRIBUTES;
  selfClosing = false;
  end = 0;
}

/**
 * The units `streamBilingual` lists for a `plainxliff` file of the shape above, or null (another reading, or anything
 * the shape leaves to the general readers, errors included).
 * @example readPlainShape(bytes, { rich: false, po: false })?.units.length
 */
export function readPlainShape(bytes: Uint8Array, reading: XliffReading): BilingualList | null {
  if (reading.rich || reading.po) return null;
  const b = (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as ShapeBuffer;
  if (!isUtf8(b)) return null;
  try {
    return read(b);
  } catch (e) {
    if (e === OTHER_SHAPE) return null;
    throw e;
  }
}

class OtherShape extends Error {}
const OTHER_SHAPE = new OtherShape('not the plain XLIFF shape');

function otherShape(): never {
  throw OTHER_SHAPE;
}

/**
 * The one-byte text of the bytes from `start` (a '<', or the file's start) to the first '<' at least WINDOW bytes on
 * (or the end): no tag and no text between tags is cut, and the whole-file preconditions are checked on it.
 */
function windowAt(b: ShapeBuffer, start: number): string {
  const cut = start + WINDOW < b.length ? b.indexOf(LT, start + WINDOW) : -1;
  const t = b.latin1Slice(start, cut < 0 ? b.length : cut);
  for (let k = 0; k < GENERAL.length; k++) if (t.indexOf(GENERAL[k]!) >= 0) otherShape();
  for (let a = t.indexOf('&'); a >= 0; a = t.indexOf('&', a + 1)) {
    let known = false;
    for (let k = 0; k < ENTITIES.length && !known; k++) known = holds(t, a, ENTITIES[k]!);
    if (!known) otherShape();
  }
  return t;
}

/** Bytes a window holds at least (a one-byte string of the whole file is a large object, slow to make). */
const WINDOW = 32 * 1024;

/** Reads the start tag at `p` (its '<') into `tag`; `keep`: its attribute values decoded, else only checked. */
function startTag(t: string, b: ShapeBuffer, view: DataView, base: number, p: number, limit: number, tag: Tag, keep: boolean): void {
  let j = p + 1;
  if (!isNameStart(t.charCodeAt(j))) otherShape();
  j++;
  while (isNameChar(t.charCodeAt(j))) j++;
  const length = j - p - 1;
  const known = KNOWN_BY_LENGTH[length];
  tag.name = known !== undefined && holds(t, p + 1, known) ? known : t.slice(p + 1, j);
  tag.attrs = NO_ATTRIBUTES;
  tag.close = END_LITERALS.get(tag.name);
  for (;;) {
    let c = t.charCodeAt(j);
    if (c === GT) {
      tag.selfClosing = false;
      tag.end = j + 1;
      return;
    }
    if (c === SLASH) {
      if (t.charCodeAt(j + 1) !== GT) otherShape();
      tag.selfClosing = true;
      tag.end = j + 2;
      return;
    }
    if (!isSpace(c)) otherShape();
    while (isSpace(c)) c = t.charCodeAt(++j);
    if (c === GT || c === SLASH) continue;
    // an attribute: a name (a prefix only `xml:`, or `xmlns` on the root), '=', a quoted value before the next '<'
    const ns = j;
    if (!isNameStart(c)) otherShape();
    j++;
    let colon = -1;
    for (c = t.charCodeAt(j); isNameChar(c) || c === COLON; c = t.charCodeAt(++j)) if (c === COLON) colon = j;
    const attrName = t.slice(ns, j);
    if (colon >= 0 && !(colon === ns + 3 && t.startsWith('xml', ns))) {
      if (!(keep && colon === ns + 5 && t.startsWith('xmlns', ns))) otherShape();
    }
    while (isSpace(c)) c = t.charCodeAt(++j);
    if (c !== EQ) otherShape();
    c = t.charCodeAt(++j);
    while (isSpace(c)) c = t.charCodeAt(++j);
    if (c !== QUOTE && c !== APOS) otherShape();
    const vs = j + 1;
    const ve = t.indexOf(c === QUOTE ? '"' : "'", vs);
    if (ve < 0 || ve > limit) otherShape();
    const attrs = tag.attrs === NO_ATTRIBUTES ? [] : tag.attrs;
    for (let k = 0; k < attrs.length; k += 2) if (attrs[k] === attrName) otherShape();
    let value = '';
    if (keep) {
      value = chars(t, b, view, base, vs, ve);
      // attribute-value normalization: a literal tab or line feed is a space (no CR in the file)
      if (value.includes('\n') || value.includes('\t')) value = value.replace(/[\t\n]/g, ' ');
      value = decodeEntities(value);
    }
    attrs.push(attrName, value);
    tag.attrs = attrs;
    j = ve + 1;
  }
}

/** A tag as bytes: its little-endian 32-bit words (as `DataView.getInt32(…, true)` reads them), the last masked. */
interface Literal {
  /** A start tag's end tag (END_LITERALS). */
  close: Literal | undefined;
  length: number;
  words: Int32Array;
  mask: number;
  name: string;
  attrs: string[];
}

function literal(text: string, name: string, attrs: string[]): Literal {
  const words = new Int32Array(Math.ceil(text.length / 4));
  for (let k = 0; k < text.length; k++) words[k >> 2]! |= text.charCodeAt(k) << (8 * (k & 3));
  const rest = text.length & 3;
  return { close: END_LITERALS.get(name), length: text.length, words, mask: rest === 0 ? -1 : (1 << (8 * rest)) - 1, name, attrs };
}

/** Whether the bytes at `at` are `lit`'s (compared four at a time). */
function holdsLiteral(view: DataView, at: number, lit: Literal): boolean {
  const words = lit.words;
  const last = words.length - 1;
  if (at + 4 * words.length > view.byteLength) return false;
  for (let k = 0; k < last; k++) if (view.getInt32(at + 4 * k, true) !== words[k]) return false;
  return (view.getInt32(at + 4 * last, true) & lit.mask) === words[last];
}

/** The end tags of the names read most, by name. */
const END_LITERALS: Map<string, Literal> = new Map();
for (const name of ['source', 'target', 'context', 'context-group', 'trans-unit', 'note']) END_LITERALS.set(name, literal(`</${name}>`, name, NO_ATTRIBUTES));

/** Start tags Angular writes the same every time: read by a few comparisons each, their attributes shared (never changed). */
const LITERALS: readonly Literal[] = [
  literal('<context context-type="sourcefile">', 'context', ['context-type', 'sourcefile']),
  literal('<context context-type="linenumber">', 'context', ['context-type', 'linenumber']),
  literal('<context-group purpose="location">', 'context-group', ['purpose', 'location']),
  literal('<source>', 'source', NO_ATTRIBUTES),
  literal('<target state="translated">', 'target', ['state', 'translated']),
  literal('<target state="new">', 'target', ['state', 'new']),
  literal('<target>', 'target', NO_ATTRIBUTES),
];
const LITERALS_BY_CHAR: ReadonlyArray<readonly Literal[] | undefined> = (() => {
  const byChar: Literal[][] = [];
  for (const lit of LITERALS) (byChar[(lit.words[0]! >>> 8) & 0xff] ??= []).push(lit);
  return byChar;
})();

/** Whether `t` holds `s` at `at` (a loop of character codes: `startsWith` at an offset costs more for these short strings). */
function holds(t: string, at: number, s: string): boolean {
  for (let k = 0; k < s.length; k++) if (t.charCodeAt(at + k) !== s.charCodeAt(k)) return false;
  return true;
}

/** Angular's trans-unit start tag, around its id. */
const UNIT_START = literal('<trans-unit id="', 'trans-unit', NO_ATTRIBUTES);
const UNIT_REST = literal('" datatype="html">', 'trans-unit', NO_ATTRIBUTES);

/**
 * Reads the start tag at `p` (`at` in the file, `limit` the next '<') into `tag` where it is one of LITERALS or
 * Angular's trans-unit with an id of ASCII characters other than '&', tab and line feed; false otherwise.
 */
function literalTag(t: string, view: DataView, p: number, at: number, limit: number, tag: Tag): boolean {
  if (holdsLiteral(view, at, UNIT_START)) {
    const s = p + UNIT_START.length;
    const e = t.indexOf('"', s);
    if (e < 0 || e >= limit || !holdsLiteral(view, at + (e - p), UNIT_REST)) return false;
    for (let k = s; k < e; k++) {
      const c = t.charCodeAt(k);
      if (c > 0x7f || c === 0x26 || c === 0x09 || c === 0x0a) return false;
    }
    tag.name = 'trans-unit';
    tag.close = UNIT_START.close;
    tag.attrs = ['id', t.slice(s, e), 'datatype', 'html'];
    tag.selfClosing = false;
    tag.end = e + UNIT_REST.length;
    return true;
  }
  const candidates = LITERALS_BY_CHAR[t.charCodeAt(p + 1)];
  if (candidates === undefined) return false;
  for (let k = 0; k < candidates.length; k++) {
    const lit = candidates[k]!;
    if (holdsLiteral(view, at, lit)) {
      tag.name = lit.name;
      tag.close = lit.close;
      tag.attrs = lit.attrs;
      tag.selfClosing = false;
      tag.end = p + lit.length;
      return true;
    }
  }
  return false;
}

/** `spacedText`, a short text without whitespace (a line number) passed as it is without a regular expression. */
function spaced(text: string, space: string): string {
  if (text.length <= 8) {
    let k = 0;
    while (k < text.length && !isSpace(text.charCodeAt(k))) k++;
    if (k === text.length) return text;
  }
  return spacedText(text, space);
}

function attrOf(attrs: readonly string[], name: string): string | null {
  for (let k = 0; k < attrs.length; k += 2) if (attrs[k] === name) return attrs[k + 1]!;
  return null;
}

function hasNamespaceDeclaration(attrs: readonly string[]): boolean {
  for (let k = 0; k < attrs.length; k += 2) if (attrs[k]!.startsWith('xmlns')) return true;
  return false;
}

function light(tag: Tag, p: number, ns: string, scope: ReadonlyMap<string, string>): XElement {
  return {
    kind: 'element',
    name: tag.name,
    local: tag.name,
    ns,
    attrs: tag.attrs,
    parent: null,
    children: NO_CHILDREN,
    start: p,
    openEnd: tag.end,
    closeStart: tag.end,
    end: tag.end,
    selfClosing: tag.selfClosing,
    scope,
  };
}

function read(b: ShapeBuffer): BilingualList {
  const reading: XliffReading = { rich: false, po: false };
  const listing: BilingualList = { units: [], sites: null };
  const seen = new IdHashTable(256);
  const annotations: EntryAnnotations = { location: '', note: '' };
  const annotate = (): EntryAnnotations => annotations;
  const tag = new Tag();
  const open: string[] = [];
  // the end tags of the open elements where they are END_LITERALS (read by a few comparisons)
  const openEnds: (Literal | undefined)[] = [];
  let ns = '';
  let scope: ReadonlyMap<string, string> = new Map();
  let files = 0;
  let file: XElement | null = null;
  let fileDepth = 0;
  let unit: XElement | null = null;
  let unitDepth = 0;
  let unitSpace = 'default';
  let source: XElement | null = null;
  let target: XElement | null = null;
  // their plain texts, worked out as they are read (as the streamed reader does)
  let plainSource: string | null = null;
  let plainTarget: string | null = null;
  const notes: string[] = [];
  let location = '';
  let groupDepth = 0;
  let groupIsLocation = false;
  let groupFile: string | null = null;
  let groupLine: string | null = null;
  let textDepth = 0;
  let role = IGNORED;
  let ownSpace: string | null = null;
  let contextType: string | null = null;
  let textElement: XElement | null = null;
  let text = '';

  // the prolog: a BOM, the declaration, whitespace (a processing instruction after it is refused as a tag)
  const view = new DataView(b.buffer, b.byteOffset, b.length);
  let t = windowAt(b, 0);
  let ampAt = -1;
  let base = 0;
  let p = t.startsWith('\xef\xbb\xbf') ? 3 : 0;
  DECLARATION.lastIndex = p;
  if (DECLARATION.test(t)) p = DECLARATION.lastIndex;
  while (isSpace(t.charCodeAt(p))) p++;
  if (t.charCodeAt(p) !== LT) otherShape();
  let done = false;
  while (!done) {
    // the next '<': in this window, else the next window's first character (-1: the file's end)
    let next = t.indexOf('<', p + 1);
    if (next < 0 && base + t.length < b.length) next = t.length;
    const limit = next < 0 ? t.length : next;
    let depth: number;
    let closing = true;
    if (t.charCodeAt(p + 1) === SLASH) {
      // an end tag: the open element's name, optional whitespace, '>'
      const name = open.pop();
      if (name === undefined) otherShape();
      const lit = openEnds.pop();
      if (lit !== undefined && holdsLiteral(view, base + p, lit)) {
        p += lit.length;
      } else {
        if (!holds(t, p + 2, name)) otherShape();
        let j = p + 2 + name.length;
        let c = t.charCodeAt(j);
        while (isSpace(c)) c = t.charCodeAt(++j);
        if (c !== GT || j >= limit) otherShape();
        p = j + 1;
      }
      depth = open.length + 1;
      if (depth === 1) done = true;
    } else {
      depth = open.length + 1;
      const keep = textDepth === 0;
      const isLiteral = literalTag(t, view, p, base + p, limit, tag);
      if (!isLiteral) startTag(t, b, view, base, p, limit, tag, keep);
      if (tag.end > limit) otherShape();
      const name = tag.name;
      closing = tag.selfClosing;
      if (!closing) {
        open.push(name);
        openEnds.push(tag.close);
      } else if (depth === 1) done = true;
      if (textDepth !== 0) {
        // inline markup inside a text element
        if (name === 'trans-unit' || name === 'note' || name === 'context-group' || name === 'context' || name === 'file') otherShape();
        if (!isLiteral && hasNamespaceDeclaration(tag.attrs)) otherShape();
      } else if (depth === 1) {
        if (name !== 'xliff') otherShape();
        let declared: string | null = null;
        let version = '';
        const attrs = tag.attrs;
        for (let k = 0; k < attrs.length; k += 2) {
          const an = attrs[k]!;
          if (an === 'xmlns') declared = attrs[k + 1]!;
          else if (an.startsWith('xmlns:')) {
            if (attrs[k + 1]!.startsWith(XLIFF_NS_PREFIX)) otherShape();
          } else if (an === 'version') version = attrs[k + 1]!;
        }
        if (declared === null || !declared.startsWith(XLIFF_NS_PREFIX)) otherShape();
        if (version.startsWith('2.') || (version === '' && declared.includes(':2.'))) otherShape();
        ns = declared;
        scope = new Map([
          ['xml', XML_NS],
          ['', ns],
        ]);
      } else {
        if (!isLiteral && hasNamespaceDeclaration(tag.attrs)) otherShape();
        if (name === 'context') {
          textDepth = depth;
          text = '';
          role = groupDepth !== 0 ? CONTEXT : IGNORED;
          if (role === CONTEXT) {
            ownSpace = attrOf(tag.attrs, 'xml:space');
            contextType = attrOf(tag.attrs, 'context-type');
          }
        } else if (name === 'source' || name === 'target') {
          textDepth = depth;
          text = '';
          textElement = light(tag, base + p, ns, scope);
          const child = unit !== null && depth === unitDepth + 1;
          role = !child ? IGNORED : name === 'source' ? (source === null ? SOURCE : IGNORED) : target === null ? TARGET : IGNORED;
        } else if (name === 'note') {
          textDepth = depth;
          text = '';
          role = unit !== null ? NOTE : IGNORED;
          ownSpace = attrOf(tag.attrs, 'xml:space');
        } else if (name === 'context-group') {
          if (unit !== null) {
            if (groupDepth !== 0) otherShape();
            groupDepth = depth;
            groupIsLocation = attrOf(tag.attrs, 'purpose') === 'location';
            groupFile = null;
            groupLine = null;
          }
        } else if (name === 'trans-unit') {
          if (unit !== null) otherShape();
          unit = light(tag, base + p, ns, scope);
          unitDepth = depth;
          unitSpace = attrOf(tag.attrs, 'xml:space') ?? 'default';
          source = null;
          target = null;
          plainSource = null;
          plainTarget = null;
          if (notes.length !== 0) notes.length = 0;
          location = '';
        } else if (name === 'file') {
          if (file !== null) otherShape();
          file = light(tag, base + p, ns, scope);
          fileDepth = depth;
          if (depth === 2) files++;
        }
      }
      p = tag.end;
    }
    // the end of the element just closed (an end tag, or a self-closing start tag)
    if (closing) closeElement(depth);
    // the text up to the next tag: read inside a text element, else passed over (only whitespace outside the root)
    if (done) {
      // after the root only whitespace: the rest of this window, and no other (each starts with '<')
      if (base + t.length !== b.length) otherShape();
      for (let j = p; j < t.length; j++) if (!isSpace(t.charCodeAt(j))) otherShape();
      break;
    }
    if (next < 0) otherShape();
    if (textDepth !== 0 && next > p) {
      // bytes above 0x7f and references: where the window's next ones are (found again only once passed)
      if (ampAt < p) {
        ampAt = t.indexOf('&', p);
        if (ampAt < 0) ampAt = t.length;
      }
      const piece = isAscii(view, base + p, base + next) ? t.slice(p, next) : b.utf8Slice(base + p, base + next);
      text += ampAt < next ? decodeEntities(piece) : piece;
    }
    p = next;
    if (next === t.length) {
      base += t.length;
      t = windowAt(b, base);
      ampAt = -1;
      p = 0;
    }
  }
  if (files === 0) otherShape();
  return listing;

  function closeElement(depth: number): void {
    if (textDepth !== 0) {
      if (depth !== textDepth) return;
      textDepth = 0;
      if (role === SOURCE || role === TARGET) {
        const node = textElement!;
        const plain = spacedText(text, attrOf(node.attrs, 'xml:space') ?? unitSpace);
        if (role === SOURCE) {
          source = node;
          plainSource = plain;
        } else {
          target = node;
          plainTarget = plain;
        }
      } else if (role === NOTE) {
        notes.push(spaced(text, ownSpace ?? unitSpace));
      } else if (role === CONTEXT) {
        if (contextType === 'sourcefile') {
          if (groupFile === null) groupFile = spaced(text, ownSpace ?? unitSpace);
        } else if (contextType === 'linenumber') {
          if (groupLine === null) groupLine = spaced(text, ownSpace ?? unitSpace);
        }
      }
      text = '';
      textElement = null;
      return;
    }
    if (depth === groupDepth) {
      groupDepth = 0;
      if (groupIsLocation && groupFile !== null) {
        const at = groupLine !== null ? `${groupFile}:${groupLine}` : groupFile;
        location = location === '' ? at : `${location}, ${at}`;
      }
    } else if (depth === unitDepth) {
      const element = unit!;
      const part =
        source !== null
          ? { unit: element, source, target, plainSource, plainTarget }
          : { unit: element, source: target, target: null, plainSource: plainTarget, plainTarget: null };
      const entry: XliffEntry = { element, parts: [part], plural: false, file, id: parsedId(element, file, ns, 'xliff') };
      annotations.location = location;
      annotations.note = notes.length === 0 ? '' : joinNotes(notes);
      listBilingual(listing, seen, entry, reading, false, annotate);
      unit = null;
      unitDepth = 0;
    } else if (depth === fileDepth) {
      file = null;
      fileDepth = 0;
    }
  }
}
