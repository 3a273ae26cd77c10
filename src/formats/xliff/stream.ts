// Bilingual XLIFF units read straight from the XML scanner's tokens over a file's bytes, without the element tree (the common shape only).
//
// The shape read here: valid UTF-8 without a DOCTYPE, an unprefixed <xliff> root declaring the XLIFF namespace as
// its default (other namespaces it declares bound to prefixes no element uses), no namespace declared elsewhere, <file>s not nested, trans-units not nested,
// context groups not nested, and no trans-unit, note, context group, context or <file> inside the text of a
// <source>, <target>, <note> or <context>. Every element of such a file is in the XLIFF namespace, so the units are
// the tree reader's: the same unit code (`listBilingual`) runs over light elements made only for what it reads (the
// trans-unit's and <file>'s attributes, <source> and <target> with their text, or in rich reading their inline
// elements). Any other file, and every error, is left to the tree reader (`null`), which reads it or raises its error.
import { Buffer, isUtf8 } from 'node:buffer';
import { IdHashTable } from '../../domain/hash.js';
import { asBuffer } from '../text.js';
import { NeedsDecodedText, XmlScanner, XmlToken } from '../xml/scanner.js';
import { XLIFF_NS_PREFIX, type XliffEntry, parsedId } from './document.js';
import { spacedText } from './text.js';
import { COMMENT, NO_ATTRIBUTES, PI, type XElement, append, attr, startElement } from './tree.js';
import { type BilingualList, type EntryAnnotations, type XliffReading, bilingualList, joinNotes, listBilingual } from './units.js';

// the token kinds as constants of this module: read once, not through the import at every token
const EOF = XmlToken.Eof;
const START = XmlToken.StartTag;
const END = XmlToken.EndTag;
const TEXT = XmlToken.Text;
const CDATA = XmlToken.CData;
const COMMENT_TOKEN = XmlToken.Comment;
const PI_TOKEN = XmlToken.ProcessingInstruction;

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Thrown inside the reader where the file has another shape; caught at its entry (one instance: no stack to capture). */
class OtherShape extends Error {}
const OTHER_SHAPE = new OtherShape('not the streamed XLIFF shape');

function otherShape(): never {
  throw OTHER_SHAPE;
}

// What the text element being read is to the unit around it.
const IGNORED = 0;
const SOURCE = 1;
const TARGET = 2;
const NOTE = 3;
const CONTEXT = 4;

/**
 * The units `bilingualUnits(readXliff(bytes))` lists for a file of the shape above, or null for any other file (and
 * for every error: the tree reader raises it with its position).
 * @example streamBilingual(bytes, 'messages.de.xlf', { rich: false, po: false })?.units.length
 */
export function streamBilingual(bytes: Uint8Array, filename: string, reading: XliffReading): BilingualList | null {
  if (reading.po) return null;
  const buffer = asBuffer(bytes);
  if (!isUtf8(buffer)) return null;
  const bom = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
  try {
    return read(XmlScanner.overByteWindows(bom ? buffer.subarray(3) : buffer, filename), reading);
  } catch (e) {
    if (e === OTHER_SHAPE || e instanceof NeedsDecodedText) return null;
    throw e;
  }
}

/** The XLIFF namespace the root declares as its default (prefixes it declares are for attributes: prefixed elements are another shape). */
function rootNamespace(s: XmlScanner): string {
  if (s.name !== 'xliff') otherShape();
  let ns: string | null = null;
  let version = '';
  for (let i = 0; i < s.attrCount; i++) {
    const name = s.attrNames[i]!;
    if (name === 'xmlns') {
      ns = s.attrValues[i]!;
    } else if (name.startsWith('xmlns:')) {
      // a prefix declared for attributes (xsi:schemaLocation); one bound to XLIFF would make prefixed XLIFF elements
      if (s.attrValues[i]!.startsWith(XLIFF_NS_PREFIX)) otherShape();
    } else if (name === 'version') {
      version = s.attrValues[i]!;
    }
  }
  if (ns === null || !ns.startsWith(XLIFF_NS_PREFIX)) otherShape();
  // XLIFF 2 is refused by the tree reader, with its position
  if (version.startsWith('2.') || (version === '' && ns.includes(':2.'))) otherShape();
  return ns;
}

/** A light element for the current start tag: what the unit code reads (attributes, and children once added). */
function element(s: XmlScanner, ns: string, scope: ReadonlyMap<string, string>, parent: XElement | null): XElement {
  const count = s.attrCount;
  let attrs = NO_ATTRIBUTES;
  if (count > 0) {
    if (s.declaresNamespace()) otherShape();
    attrs = new Array<string>(count * 2);
    for (let i = 0; i < count; i++) {
      attrs[2 * i] = s.attrNames[i]!;
      attrs[2 * i + 1] = s.attrValues[i]!;
    }
  }
  return startElement(s, s.name, s.name, ns, attrs, parent, scope);
}

function read(s: XmlScanner, reading: XliffReading): BilingualList {
  const rich = reading.rich;
  // no sites: the units are all a parse keeps (a writer reads the tree), so each unit's light elements die young
  const listing = bilingualList(null);
  const seen = new IdHashTable(256);
  const annotations: EntryAnnotations = { location: '', note: '' };
  const annotate = (): EntryAnnotations => annotations;
  let ns = '';
  let scope: ReadonlyMap<string, string> = new Map();
  let files = 0;
  // the open <file> and trans-unit (light elements) and their depths (0: none open)
  let file: XElement | null = null;
  let fileDepth = 0;
  let unit: XElement | null = null;
  let unitDepth = 0;
  let unitSpace = 'default';
  let source: XElement | null = null;
  let target: XElement | null = null;
  // their plain texts (plain reading: worked out here, where the scanner says whether a text holds whitespace)
  let plainSource: string | null = null;
  let plainTarget: string | null = null;
  const notes: string[] = [];
  let location = '';
  // the open context group of the unit: whether it gives a location, and its first sourcefile and linenumber
  let groupDepth = 0;
  let groupIsLocation = false;
  let groupFile: string | null = null;
  let groupLine: string | null = null;
  // the open text element: its depth (0: none), its role, its own xml:space and context-type, its light element
  let textDepth = 0;
  let role = IGNORED;
  let ownSpace: string | null = null;
  let contextType: string | null = null;
  let textElement: XElement | null = null;
  // its text so far (in a built element: the text not yet added to `current`), and the element being built (rich)
  let text = '';
  let current: XElement | null = null;
  // whether that text may hold whitespace (the scanner says where it holds none: no normalizing to do)
  let textSpace = false;

  for (let kind = s.next(); kind !== EOF; kind = s.next()) {
    if (kind === TEXT || kind === CDATA) {
      if (textDepth !== 0) {
        text += s.textValue();
        if (s.textMayHoldSpace) textSpace = true;
      }
      continue;
    }
    if (kind === START) {
      const name = s.name;
      const depth = s.depth;
      if (textDepth !== 0) {
        // markup inside a text element: inline elements, built as children where the rich text needs them
        if (name === 'trans-unit' || name === 'note' || name === 'context-group' || name === 'context' || name === 'file') otherShape();
        if (name.includes(':')) otherShape();
        if (current !== null) {
          if (text !== '') append(current, text);
          text = '';
          const child = element(s, ns, scope, current);
          append(current, child);
          current = child;
        } else if (s.declaresNamespace()) {
          otherShape();
        }
        continue;
      }
      if (depth === 1) {
        ns = rootNamespace(s);
        scope = new Map([
          ['xml', XML_NS],
          ['', ns],
        ]);
        continue;
      }
      if (name === 'context') {
        textDepth = depth;
        text = '';
        textSpace = false;
        role = groupDepth !== 0 ? CONTEXT : IGNORED;
        // its attributes in one pass (the most frequent element): context-type, xml:space, no namespace declared
        ownSpace = null;
        contextType = null;
        for (let i = 0; i < s.attrCount; i++) {
          const attrName = s.attrNames[i]!;
          if (attrName === 'context-type') contextType = s.attrValues[i]!;
          else if (attrName === 'xml:space') ownSpace = s.attrValues[i]!;
          else if (attrName === 'xmlns' || attrName.startsWith('xmlns:')) otherShape();
        }
      } else if (name === 'source' || name === 'target') {
        textDepth = depth;
        text = '';
        textSpace = false;
        textElement = element(s, ns, scope, null);
        const child = unit !== null && depth === unitDepth + 1;
        role = !child ? IGNORED : name === 'source' ? (source === null ? SOURCE : IGNORED) : target === null ? TARGET : IGNORED;
        current = rich && role !== IGNORED ? textElement : null;
      } else if (name === 'note') {
        if (s.declaresNamespace()) otherShape();
        textDepth = depth;
        text = '';
        textSpace = false;
        role = unit !== null ? NOTE : IGNORED;
        ownSpace = s.attr('xml:space');
      } else if (name === 'context-group') {
        if (s.declaresNamespace()) otherShape();
        if (unit !== null) {
          if (groupDepth !== 0) otherShape();
          groupDepth = depth;
          groupIsLocation = s.attr('purpose') === 'location';
          groupFile = null;
          groupLine = null;
        }
      } else if (name === 'trans-unit') {
        if (unit !== null) otherShape();
        unit = element(s, ns, scope, null);
        unitDepth = depth;
        unitSpace = s.attr('xml:space') ?? 'default';
        source = null;
        target = null;
        plainSource = null;
        plainTarget = null;
        if (notes.length !== 0) notes.length = 0;
        location = '';
      } else if (name === 'file') {
        if (file !== null) otherShape();
        file = element(s, ns, scope, null);
        fileDepth = depth;
        if (depth === 2) files++;
      } else if (name.includes(':') || s.declaresNamespace()) {
        otherShape();
      }
      continue;
    }
    if (kind === END) {
      const depth = s.depth;
      if (textDepth !== 0) {
        if (current !== null) {
          if (text !== '') append(current, text);
          text = '';
          if (!current.selfClosing) {
            current.closeStart = s.start;
            current.end = s.end;
          }
          current = current.parent;
        }
        if (depth !== textDepth) continue;
        textDepth = 0;
        if (role === SOURCE || role === TARGET) {
          const node = textElement!;
          if (!node.selfClosing) {
            node.closeStart = s.start;
            node.end = s.end;
          }
          // plain reading: the text as the unit code's plainText gives it, without its search where no whitespace is
          const plain = rich ? null : textSpace ? spacedText(text, attr(node, 'xml:space') ?? unitSpace) : text;
          if (role === SOURCE) {
            source = node;
            plainSource = plain;
          } else {
            target = node;
            plainTarget = plain;
          }
        } else if (role === NOTE) {
          notes.push(textSpace ? spacedText(text, ownSpace ?? unitSpace) : text);
        } else if (role === CONTEXT) {
          if (contextType === 'sourcefile') {
            if (groupFile === null) groupFile = textSpace ? spacedText(text, ownSpace ?? unitSpace) : text;
          } else if (contextType === 'linenumber') {
            if (groupLine === null) groupLine = textSpace ? spacedText(text, ownSpace ?? unitSpace) : text;
          }
        }
        text = '';
        textElement = null;
        continue;
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
      continue;
    }
    if ((kind === COMMENT_TOKEN || kind === PI_TOKEN) && current !== null) {
      if (text !== '') append(current, text);
      text = '';
      append(current, kind === COMMENT_TOKEN ? COMMENT : PI);
    }
  }
  // no <file> in <xliff>: the tree reader's error
  if (files === 0) otherShape();
  return listing;
}
