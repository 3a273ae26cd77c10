// An XLIFF 1.x document as Translate Toolkit reads it: the namespace, the <file>s, and the trans-units (or plural groups).
import { FormatParseError } from '../../domain/errors.js';
import { decodeUtf8, lineColumn } from '../text.js';
import { NeedsDecodedText } from '../xml/scanner.js';
import { type XDocument, type XElement, attr, buildTree, buildTreeOfBytes, childElements, descendants, firstChild } from './tree.js';

/** Translate Toolkit's unversioned XLIFF namespace prefix (1.1 and 1.2 both start with it). */
export const XLIFF_NS_PREFIX = 'urn:oasis:names:tc:xliff:document:';
/** The namespace Translate Toolkit's XLIFF unit class starts with, before the store tells it the file's. */
const XLIFF_11 = 'urn:oasis:names:tc:xliff:document:1.1';

/** One XLIFF "unit" as Translate Toolkit lists it: a trans-unit, or (poxliff) a gettext plural group. */
export interface XliffEntry {
  /** The trans-unit, or the `<group restype="x-gettext-plurals">`. */
  element: XElement;
  /** The trans-units holding the text: the entry itself, or the group's trans-units (plural forms). */
  parts: XliffPart[];
  /** True for a poxliff plural group. */
  plural: boolean;
  /** The nearest enclosing `<file>`. */
  file: XElement | null;
  /** The unit id as Translate Toolkit holds it after parsing (see `parsedId`). */
  id: string;
}

/** One trans-unit's language nodes, as Translate Toolkit picks them (first <source>, first <target> child). */
export interface XliffPart {
  unit: XElement;
  /** The source node; a trans-unit with a <target> but no <source> reads its target as the source (TT's getlanguageNodes). */
  source: XElement | null;
  target: XElement | null;
  /**
   * The plain texts of `source` and `target` where the reader that made the part worked them out as it read (the
   * streamed reader), else null: read from the nodes.
   */
  plainSource: string | null;
  plainTarget: string | null;
}

export interface XliffDocument {
  doc: XDocument;
  /** The XLIFF namespace URI the document uses ('' for none). */
  ns: string;
  files: XElement[];
  entries: XliffEntry[];
}

export type XliffDialect = 'xliff' | 'poxliff';

/** The elements whose text Translate Toolkit reads (their inline children included): all other text is layout. */
const TEXT_ELEMENTS: ReadonlySet<string> = new Set(['source', 'target', 'note', 'context']);
/**
 * The elements an XLIFF reading lists while the tree is built (trans-units anywhere, gettext plural groups, and what
 * units read from inside them: notes, context groups and contexts), so that no subtree is walked to find them.
 */
const LISTED_ELEMENTS: ReadonlySet<string> = new Set(['trans-unit', 'group', 'note', 'context-group', 'context']);

/**
 * Index of the first of the listed elements (`doc.found`, in document order) that starts after `el` starts: `el`'s
 * listed descendants follow from there, up to the first that starts at or after `el.closeStart`.
 */
export function firstListedInside(listed: readonly XElement[], el: XElement): number {
  let lo = 0;
  let hi = listed.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (listed[mid]!.start <= el.start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function fail(doc: XDocument, filename: string, offset: number, reason: string): never {
  // byte offsets: the decoded text's reading raises the same error with its line and column
  if (doc.bytes) throw new NeedsDecodedText();
  const { line, column } = lineColumn(doc.text, offset);
  throw new FormatParseError(filename, line, column, reason);
}

/** The namespace Translate Toolkit uses: the first declared on the root that starts with the XLIFF URN, else the default one. */
function xliffNamespace(root: XElement): string {
  for (let i = 0; i < root.attrs.length; i += 2) {
    const name = root.attrs[i]!;
    const value = root.attrs[i + 1]!;
    if ((name === 'xmlns' || name.startsWith('xmlns:')) && value.startsWith(XLIFF_NS_PREFIX)) return value;
  }
  return root.scope.get('') ?? '';
}

export function part(unit: XElement, ns: string): XliffPart {
  const source = firstChild(unit, ns, 'source');
  const target = firstChild(unit, ns, 'target');
  return source ? { unit, source, target, plainSource: null, plainTarget: null } : { unit, source: target, target: null, plainSource: null, plainTarget: null };
}

/**
 * The id Translate Toolkit keeps: `__%04__` stands for U+0004. While parsing, the store splits each unit's getid()
 * at U+0004 and keeps what follows the first part as the id. getid() starts with the <file>'s `original` only when the
 * unit finds its <file>: a poxliff unit always does, an `xliff` unit only in XLIFF 1.1 (it looks in 1.1's namespace
 * until the store tells it the file's). Otherwise an id holding `__%04__` loses everything up to the first one.
 */
export function parsedId(el: XElement, file: XElement | null, ns: string, dialect: XliffDialect): string {
  const raw = attr(el, 'id') ?? '';
  if (!raw.includes('__%04__')) return raw;
  const id = raw.replaceAll('__%04__', '\x04');
  const fileFound = dialect === 'poxliff' || ns === XLIFF_11;
  if (fileFound && file && attr(file, 'original')) return id;
  const cut = id.indexOf('\x04');
  return cut < 0 ? id : id.slice(cut + 1);
}

function isPluralGroup(el: XElement): boolean {
  return el.local === 'group' && attr(el, 'restype') === 'x-gettext-plurals';
}

function fileOf(el: XElement, ns: string): XElement | null {
  for (let p = el.parent; p; p = p.parent) if (p.local === 'file' && p.ns === ns) return p;
  return null;
}

/**
 * Reads an XLIFF 1.x file. `dialect` "poxliff" folds `<group restype="x-gettext-plurals">` into one entry at the
 * place of its first trans-unit (Translate Toolkit's PoXliffFile); "xliff" lists every trans-unit.
 * Throws FormatParseError for malformed XML, XLIFF 2, another root element, or no <file>. `overBytes` (parsing):
 * offsets into the UTF-8 bytes where the file allows it (`doc.bytes`), read faster; writes splice decoded text.
 * @example readXliff(bytes, 'messages.de.xlf', 'xliff').entries.length
 */
export function readXliff(bytes: Uint8Array, filename: string, dialect: XliffDialect, overBytes = false): XliffDocument {
  if (!overBytes) return readTree(buildTree(decodeUtf8(bytes, filename), filename, TEXT_ELEMENTS, LISTED_ELEMENTS), filename, dialect);
  try {
    return readTree(buildTreeOfBytes(bytes, filename, TEXT_ELEMENTS, LISTED_ELEMENTS), filename, dialect);
  } catch (e) {
    if (!(e instanceof NeedsDecodedText)) throw e;
    return readXliff(bytes, filename, dialect);
  }
}

function readTree(doc: XDocument, filename: string, dialect: XliffDialect): XliffDocument {
  const root = doc.root;
  const version = attr(root, 'version') ?? '';
  const ns = xliffNamespace(root);
  if (version.startsWith('2.') || (version === '' && ns.includes(':2.'))) {
    fail(doc, filename, root.start, `this is XLIFF ${version || '2'}; only XLIFF 1.x is read by this format`);
  }
  if (root.local !== 'xliff' || root.ns !== ns) fail(doc, filename, root.start, `root element is <${root.name}>, expected <xliff>`);
  const files = childElements(root).filter((c) => c.local === 'file' && c.ns === ns);
  if (files.length === 0) fail(doc, filename, root.start, 'no <file> element in <xliff>');

  const entries: XliffEntry[] = [];
  const entry = (element: XElement, parts: XliffPart[], plural: boolean): XliffEntry => {
    const file = fileOf(element, ns);
    return { element, parts, plural, file, id: parsedId(element, file, ns, dialect) };
  };
  const units: XElement[] = [];
  for (const el of doc.found) if (el.local === 'trans-unit' && el.ns === ns) units.push(el);
  if (dialect === 'xliff') {
    for (const unit of units) entries.push(entry(unit, [part(unit, ns)], false));
    return { doc, ns, files, entries };
  }
  // poxliff: a plural group stands where its first trans-unit child is; its other trans-units are not entries.
  const groupOf = new Map<XElement, XElement>();
  for (const group of doc.found) {
    if (group.local !== 'group' || group.ns !== ns) continue;
    if (!isPluralGroup(group)) continue;
    const first = childElements(group).find((c) => c.local === 'trans-unit' && c.ns === ns);
    if (first) groupOf.set(first, group);
  }
  for (const unit of units) {
    const parent = unit.parent;
    const group = groupOf.get(unit);
    if (group) {
      const parts = descendants(group, ns, 'trans-unit').map((u) => part(u, ns));
      entries.push(entry(group, parts, true));
    } else if (!(parent && isPluralGroup(parent))) {
      entries.push(entry(unit, [part(unit, ns)], false));
    }
  }
  return { doc, ns, files, entries };
}
