// Apple .stringsdict (`stringsdict`): plist plural rules as Weblate's units (format keys and plural variables with
// CLDR categories, `zero` first), minimal-diff writes of the edited <string> elements, new files.
import { Buffer, isAscii, isUtf8 } from 'node:buffer';
import { FormatParseError, FormatWriteError } from '../../domain/errors.js';
import { calculateHash, unitContentHash, wordsOfLastHashed } from '../../domain/hash.js';
import { type ParsedUnit, State } from '../../domain/unit.js';
import { UNUSED_PLURAL, countWords } from '../../domain/words.js';
import type { Format, FormatContext, ParsedFile, UnitWrite } from '../format.js';
import { CLDR_CATEGORIES, stringsdictTags } from '../plural-tags.js';
import { type XmlDocument, type XmlElement, elementChildren, parseXml, textOf } from '../tbx/xml-tree.js';
import { TemplateKeys } from '../template-keys.js';
import { asBuffer, decodeUtf8, lineColumn } from '../text.js';
import { escapeText } from '../xml/escape.js';
import { indentAt, lineEnding, lineStart } from '../xml/position.js';
import { NeedsDecodedText, type SlicedBuffer, XmlScanner, XmlToken } from '../xml/scanner.js';

/** Weblate's new, empty .stringsdict. */
export const STRINGSDICT_SKELETON = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
    <dict>
    </dict>
</plist>
`;

const FORMAT_KEY = 'NSStringLocalizedFormatKey';
const NO_FORMS: readonly Pair[] = [];
const NO_KEYS: readonly Form[] = [];
const SPEC_TYPE_KEY = 'NSStringFormatSpecTypeKey';
const VALUE_TYPE_KEY = 'NSStringFormatValueTypeKey';
const encoder = new TextEncoder();

/**
 * The plist elements whose text is read (`<key>` and the scalars): `<plist>`, `<dict>` and `<array>` hold elements
 * only, and text among them (indentation) is dropped unread, as plistlib drops it.
 */
const PLIST_TEXT: ReadonlySet<string> = new Set(['key', 'string', 'integer', 'real', 'date', 'data', 'true', 'false']);

/** One `<key>` of a plist `<dict>` and its value's text as plistlib gives it (`scalarText`). */
interface Form {
  key: string;
  text: string;
}

/** One `<key>`/value pair of a plist `<dict>`, with its elements. */
interface Pair extends Form {
  keyElement: XmlElement;
  value: XmlElement;
}

/** What a parse reads of one unit of the file: a format string (`key`) or a plural variable (`key:variable`). */
export interface DictUnit {
  id: string;
  plural: boolean;
  /** A format string's text (`scalarText` of its value); '' for a plural variable. */
  text: string;
  /** Plural variables: the variable dict's keys and texts, categories among them (none for a format string); see `pairOf`. */
  forms: readonly Form[];
  format: string;
}

/** A unit with where it sits, for writing. */
export interface DictEntry extends DictUnit {
  /** The outer key's dict. */
  outer: XmlElement;
  /** The format string's <string>, or the variable's <dict>. */
  value: XmlElement;
  forms: readonly Pair[];
}

export interface StringsdictDocument {
  xml: XmlDocument;
  root: XmlElement;
  entries: DictEntry[];
}

function fail(xml: XmlDocument, filename: string, element: XmlElement, reason: string): never {
  const { line, column } = lineColumn(xml.text, element.start);
  throw new FormatParseError(filename, line, column, reason);
}

/** The pairs of a `<dict>`: each `<key>` with the element after it. */
function pairs(xml: XmlDocument, filename: string, dict: XmlElement): Pair[] {
  const children = elementChildren(dict);
  const out: Pair[] = [];
  for (let i = 0; i < children.length; i += 2) {
    const keyElement = children[i]!;
    const value = children[i + 1];
    if (keyElement.name !== 'key') fail(xml, filename, keyElement, `expected <key> in <dict>, found <${keyElement.name}>`);
    if (!value) fail(xml, filename, keyElement, `<key>${textOf(keyElement)}</key> has no value`);
    out.push({ key: textOf(keyElement), text: scalarText(value), keyElement, value });
  }
  return out;
}

/** A plist scalar as Python's `str()` of what plistlib reads. */
function scalarText(element: XmlElement): string {
  if (element.name === 'true') return 'True';
  if (element.name === 'false') return 'False';
  return textOf(element);
}

/**
 * Reads a .stringsdict: every top-level key must hold a dict whose keys are `NSStringLocalizedFormatKey` or plural
 * variables (dicts of spec type `NSStringPluralRuleType`), as Translate Toolkit requires.
 */
export function readStringsdict(bytes: Uint8Array, filename: string): StringsdictDocument {
  const xml = parseXml(bytes, filename, (root) => (root.name === 'plist' ? null : `the root element must be <plist>, not <${root.name}>`), PLIST_TEXT);
  const top = elementChildren(xml.root)[0];
  const entries: DictEntry[] = [];
  if (!top) return { xml, root: xml.root, entries };
  if (top.name !== 'dict') fail(xml, filename, top, `the plist must hold a <dict>, not <${top.name}>`);
  for (const { key, keyElement, value: outer } of pairs(xml, filename, top)) {
    if (outer.name !== 'dict') fail(xml, filename, keyElement, `${key} is not a dict`);
    for (const { key: inner, keyElement: innerKey, value } of pairs(xml, filename, outer)) {
      if (inner === FORMAT_KEY) {
        entries.push({ id: key, outer, value, plural: false, text: scalarText(value), forms: NO_FORMS, format: '' });
      } else if (value.name === 'dict') {
        const variable = pairs(xml, filename, value);
        const spec = variable.find((p) => p.key === SPEC_TYPE_KEY);
        if (spec && textOf(spec.value) !== '' && textOf(spec.value) !== 'NSStringPluralRuleType') {
          fail(xml, filename, innerKey, `${inner} in ${key} is not of NSStringPluralRuleType`);
        }
        const format = variable.find((p) => p.key === VALUE_TYPE_KEY);
        entries.push({ id: `${key}:${inner}`, outer, value, plural: true, text: '', forms: variable, format: format ? textOf(format.value) : '' });
      } else {
        fail(xml, filename, innerKey, `unexpected key ${inner} in ${key}`);
      }
    }
  }
  return { xml, root: top, entries };
}

/**
 * The pair of `key` in a dict's pairs, the last when it is repeated (as plistlib reads it), or undefined. A search:
 * a variable holds a handful of pairs, and a map of them (its keys fresh strings, hashed in full) cost more.
 */
function pairOf<P extends Form>(pairs: readonly P[], key: string): P | undefined {
  for (let i = pairs.length - 1; i >= 0; i--) if (pairs[i]!.key === key) return pairs[i];
  return undefined;
}

function entryForms(entry: DictUnit, tags: readonly string[]): string[] {
  if (!entry.plural) return [entry.text];
  const forms: string[] = [];
  for (let i = 0; i < tags.length; i++) forms.push(pairOf(entry.forms, tags[i]!)?.text ?? '');
  return forms;
}

/** The start or end tag after the current token: text, comments and PIs between elements are dropped, as the tree drops them. */
function nextTag(s: XmlScanner): number {
  for (;;) {
    const kind = s.next();
    if (kind === XmlToken.StartTag || kind === XmlToken.EndTag || kind === XmlToken.Eof) return kind;
  }
}

/** Whether the current tag is named `name` (a call: the reader's tests of the same field must not narrow its type). */
function named(s: XmlScanner, name: string): boolean {
  return s.name === name;
}

/** Whether the next tag is a start tag named `name`. */
function startsNext(s: XmlScanner, name: string): boolean {
  return nextTag(s) === XmlToken.StartTag && named(s, name);
}

/** `scalarText` of the element whose start tag the scanner is on, read up to its end tag; null if it is not a plain scalar. */
function scalarOf(s: XmlScanner): string | null {
  const name = s.name;
  // <string> and <key> first: names are the scanner's one copy of each, so these are pointer tests, not a set's hashing
  if (name !== 'string' && name !== 'key' && !PLIST_TEXT.has(name)) return null;
  let kind = s.next();
  // most values are one text token
  let text = '';
  if (kind === XmlToken.Text) {
    text = s.textValue();
    kind = s.next();
  }
  for (; kind !== XmlToken.EndTag; kind = s.next()) {
    if (kind === XmlToken.Text || kind === XmlToken.CData) text += s.textValue();
    else if (kind === XmlToken.StartTag || kind === XmlToken.Eof) return null;
  }
  return name === 'true' ? 'True' : name === 'false' ? 'False' : text;
}

/** The text of the `<key>` the scanner is on, or null if it is on another element. */
function keyOf(s: XmlScanner): string | null {
  return named(s, 'key') ? scalarOf(s) : null;
}

/**
 * A parse's reading of a .stringsdict: its units straight from the scanner's tokens, without an element tree, for
 * a file of the plain shape (a dict of dicts holding format strings and variable dicts of scalars); null for any
 * other shape, which `readStringsdict` reads (its tree, its errors). Valid UTF-8 is scanned over its bytes (as XLIFF's
 * stream reader does); what that scan cannot answer, errors included, is read again as decoded text, so malformed XML
 * and invalid UTF-8 fail here as they fail there, with the same scanner over the same text.
 */
export function readPlainUnits(bytes: Uint8Array, filename: string): DictUnit[] | null {
  const buffer = asBuffer(bytes);
  if (isUtf8(buffer)) {
    const bom = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
    try {
      return plainUnits(XmlScanner.overBytes(bom ? buffer.subarray(3) : buffer, filename, true));
    } catch (e) {
      if (!(e instanceof NeedsDecodedText)) throw e;
    }
  }
  const decoded = decodeUtf8(bytes, filename);
  return plainUnits(new XmlScanner(decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded, filename));
}

/** `readPlainUnits` over a scanner (of the bytes or of the decoded text). */
function plainUnits(s: XmlScanner): DictUnit[] | null {
  const entries: DictUnit[] = [];
  if (!startsNext(s, 'plist')) return null;
  if (nextTag(s) === XmlToken.StartTag) {
    if (!named(s, 'dict')) return null;
    while (nextTag(s) === XmlToken.StartTag) {
      const key = keyOf(s);
      if (key === null || !startsNext(s, 'dict')) return null;
      while (nextTag(s) === XmlToken.StartTag) {
        const inner = keyOf(s);
        if (inner === null || nextTag(s) !== XmlToken.StartTag) return null;
        if (inner === FORMAT_KEY) {
          const text = scalarOf(s);
          if (text === null) return null;
          entries.push({ id: key, plural: false, text, forms: NO_KEYS, format: '' });
          continue;
        }
        if (!named(s, 'dict')) return null;
        const forms: Form[] = [];
        // the first of a repeated spec type and value type, as the tree reader takes them
        let spec: string | null = null;
        let format: string | null = null;
        while (nextTag(s) === XmlToken.StartTag) {
          const formKey = keyOf(s);
          if (formKey === null || nextTag(s) !== XmlToken.StartTag) return null;
          const text = scalarOf(s);
          if (text === null) return null;
          forms.push({ key: formKey, text });
          // the two long keys told apart by length first: most keys are categories
          if (formKey.length === SPEC_TYPE_KEY.length && formKey === SPEC_TYPE_KEY) spec ??= text;
          else if (formKey.length === VALUE_TYPE_KEY.length && formKey === VALUE_TYPE_KEY) format ??= text;
        }
        // another rule type is the tree reader's error
        if (spec !== null && spec !== '' && spec !== 'NSStringPluralRuleType') return null;
        entries.push({ id: `${key}:${inner}`, plural: true, text: '', forms, format: format ?? '' });
      }
    }
    // a second element in <plist>, which the tree reader ignores: left to it
    if (nextTag(s) !== XmlToken.EndTag) return null;
  }
  while (s.next() !== XmlToken.Eof);
  return entries;
}

/**
 * What the plain-shape reader leaves to the general path wherever it is in the file, each found by one `indexOf`
 * over the one-byte text (a search of a few native calls, where a loop over the characters costs more than the rest
 * of the reading): a reference's '&', a CR (whose line ends the scanner normalizes), ']]>', U+FFFE and U+FFFF (their
 * UTF-8 bytes), and the control characters XML forbids.
 */
const SHAPE_GENERAL: readonly string[] = ['&', '\r', ']]>', '\xef\xbf\xbe', '\xef\xbf\xbf'].concat(
  Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)).filter((c) => c !== '\t' && c !== '\n' && c !== '\r'),
);
const SHAPE_DECLARATION = /<\?xml version="1\.0"(?: encoding="(?:UTF|utf)-8")?\?>/y;
const SHAPE_DOCTYPE = '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">';
/** The first four bytes of a tag (little-endian, as `DataView.getInt32(…, true)` reads them), and the two after. */
const tagBytes = (tag: string, at: number, length: number) => {
  let word = 0;
  for (let k = length - 1; k >= 0; k--) word = (word << 8) | tag.charCodeAt(at + k);
  return word;
};
const KEY_OPEN = tagBytes('<key>', 0, 4);
const KEY_CLOSE = tagBytes('</key>', 0, 4);
const KEY_CLOSE_END = tagBytes('</key>', 4, 2);
const STRING_OPEN = tagBytes('<string>', 0, 4);
const STRING_OPEN_END = tagBytes('<string>', 4, 4);
const STRING_CLOSE = tagBytes('</string>', 0, 4);
const STRING_CLOSE_END = tagBytes('</string>', 4, 4);
const DICT_OPEN = tagBytes('<dict>', 0, 4);
const DICT_OPEN_END = tagBytes('<dict>', 4, 2);
const DICT_CLOSE = tagBytes('</dict>', 0, 4);
const DICT_CLOSE_END = tagBytes('</dict>', 4, 2);
const GT = 0x3e;
/** Bytes a tag test may read past a '<' (`</string>`): a '<' nearer the end than this is left to the general path. */
const TAG_REACH = 9;

/**
 * The plain-shape reader's place in a file: its bytes, the same bytes as a one-byte string (searched with `indexOf`),
 * a view that reads a tag's bytes four at a time, and the offset. Text between tags is passed over unread (what is
 * there is text among elements, which both general readers drop; what they would refuse in it, the file-wide searches
 * have ruled out).
 */
class PlistShape {
  i = 0;
  private readonly view: DataView;
  private readonly limit: number;

  constructor(
    private readonly text: string,
    private readonly bytes: SlicedBuffer,
    /** Whether the file is ASCII (no text is decoded). */
    private readonly ascii: boolean,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.limit = bytes.length - TAG_REACH;
  }

  /** The next '<' from the offset (set to it), or -1 where there is none far enough from the end. */
  private tag(): number {
    const p = this.text.indexOf('<', this.i);
    if (p < 0 || p > this.limit) return -1;
    this.i = p;
    return p;
  }

  /** Whether the next tag is `<dict>` (then passed). */
  dict(): boolean {
    const p = this.tag();
    if (p < 0 || this.view.getInt32(p, true) !== DICT_OPEN || this.view.getUint16(p + 4, true) !== DICT_OPEN_END) return false;
    this.i = p + 6;
    return true;
  }

  /** Whether the next tag is `</dict>` (then passed); null where it is neither that nor a start tag's '<' to read on from. */
  dictEnd(): boolean | null {
    const p = this.tag();
    if (p < 0) return null;
    if (this.view.getInt32(p, true) !== DICT_CLOSE) return false;
    if (this.view.getUint16(p + 4, true) !== DICT_CLOSE_END || this.bytes[p + 6] !== GT) return null;
    this.i = p + 7;
    return true;
  }

  /** The text of the `<key>` that is the next tag, or null. */
  key(): string | null {
    const p = this.tag();
    if (p < 0 || this.view.getInt32(p, true) !== KEY_OPEN || this.bytes[p + 4] !== GT) return null;
    const e = this.text.indexOf('<', p + 5);
    if (e < 0 || e > this.limit || this.view.getInt32(e, true) !== KEY_CLOSE || this.view.getUint16(e + 4, true) !== KEY_CLOSE_END) return null;
    this.i = e + 6;
    return this.slice(p + 5, e);
  }

  /** The text of the `<string>` that is the next tag, or null. */
  string(): string | null {
    const p = this.tag();
    if (p < 0 || this.view.getInt32(p, true) !== STRING_OPEN || this.view.getInt32(p + 4, true) !== STRING_OPEN_END) return null;
    const e = this.text.indexOf('<', p + 8);
    if (e < 0 || e > this.limit || this.view.getInt32(e, true) !== STRING_CLOSE || this.view.getInt32(e + 4, true) !== STRING_CLOSE_END) return null;
    if (this.bytes[e + 8] !== GT) return null;
    this.i = e + 9;
    return this.slice(p + 8, e);
  }

  /** The characters of bytes [s, e): a slice of the one-byte text, or where a byte is above 0x7f, their UTF-8 decoded. */
  private slice(s: number, e: number): string {
    if (!this.ascii) {
      const view = this.view;
      let k = s;
      for (; k + 4 <= e; k += 4) if ((view.getInt32(k, true) & 0x80808080) !== 0) return this.bytes.utf8Slice(s, e);
      for (; k < e; k++) if (this.bytes[k]! > 0x7f) return this.bytes.utf8Slice(s, e);
    }
    return this.text.slice(s, e);
  }
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09;
}

/**
 * A parse's reading of a .stringsdict of the plain shape Xcode and Weblate write, without tokenizing it: the prolog
 * as they write it (a BOM, the XML declaration, the plist DOCTYPE), `<plist>` holding one `<dict>` of `<key>`s, each
 * with a `<dict>` of `NSStringLocalizedFormatKey`'s `<string>` and variable dicts of `<key>`s and `<string>`s, plain
 * text in `<key>` and `<string>`; the same units as `readPlainUnits`. Null for anything else (comments, CDATA, PIs
 * past the prolog, references, attributes, `<string/>`, other scalars, a CR anywhere, invalid UTF-8, malformed
 * XML…): `readPlainUnits` then reads the file whole, so its units and errors are the general path's own.
 */
export function readPlainShape(bytes: Uint8Array): DictUnit[] | null {
  const b = asBuffer(bytes) as SlicedBuffer;
  if (!isUtf8(b)) return null;
  const t = b.latin1Slice(0, b.length);
  for (let k = 0; k < SHAPE_GENERAL.length; k++) if (t.indexOf(SHAPE_GENERAL[k]!) >= 0) return null;
  // the prolog: a BOM, the declaration, whitespace, the DOCTYPE, whitespace
  let i = t.startsWith('\xef\xbb\xbf') ? 3 : 0;
  SHAPE_DECLARATION.lastIndex = i;
  if (SHAPE_DECLARATION.test(t)) i = SHAPE_DECLARATION.lastIndex;
  while (isBlank(t.charCodeAt(i))) i++;
  if (t.startsWith(SHAPE_DOCTYPE, i)) i += SHAPE_DOCTYPE.length;
  while (isBlank(t.charCodeAt(i))) i++;
  if (t.startsWith('<plist version="1.0">', i)) i += 21;
  else if (t.startsWith('<plist>', i)) i += 7;
  else return null;
  const r = new PlistShape(t, b, isAscii(b));
  r.i = i;
  if (!r.dict()) return null;
  const entries: DictUnit[] = [];
  for (let end = r.dictEnd(); end !== true; end = r.dictEnd()) {
    const key = end === null ? null : r.key();
    if (key === null || !r.dict()) return null;
    for (let innerEnd = r.dictEnd(); innerEnd !== true; innerEnd = r.dictEnd()) {
      const inner = innerEnd === null ? null : r.key();
      if (inner === null) return null;
      if (inner === FORMAT_KEY) {
        const text = r.string();
        if (text === null) return null;
        entries.push({ id: key, plural: false, text, forms: NO_KEYS, format: '' });
        continue;
      }
      if (!r.dict()) return null;
      const forms: Form[] = [];
      // the first of a repeated spec type and value type, as the tree reader takes them
      let spec: string | null = null;
      let format: string | null = null;
      for (let formsEnd = r.dictEnd(); formsEnd !== true; formsEnd = r.dictEnd()) {
        const formKey = formsEnd === null ? null : r.key();
        const text = formKey === null ? null : r.string();
        if (formKey === null || text === null) return null;
        forms.push({ key: formKey, text });
        if (formKey.length === SPEC_TYPE_KEY.length && formKey === SPEC_TYPE_KEY) spec ??= text;
        else if (formKey.length === VALUE_TYPE_KEY.length && formKey === VALUE_TYPE_KEY) format ??= text;
      }
      // another rule type is the tree reader's error
      if (spec !== null && spec !== '' && spec !== 'NSStringPluralRuleType') return null;
      entries.push({ id: `${key}:${inner}`, plural: true, text: '', forms, format: format ?? '' });
    }
  }
  // `</plist>` next, and only whitespace after it
  i = t.indexOf('<', r.i);
  if (i < 0 || !t.startsWith('</plist>', i)) return null;
  for (i += 8; isBlank(t.charCodeAt(i)); ) i++;
  return i === t.length ? entries : null;
}

type Identity = Pick<ParsedUnit, 'source' | 'idHash' | 'contentHash' | 'numWords'>;

/** A template's listing: each id once (the first), their places, and their identities per tag set. */
interface TemplateListing {
  entries: DictUnit[];
  /** Whether the template repeats no id (its listing is its entries). */
  unique: boolean;
  /** The entries' ids and their places. */
  keys: TemplateKeys;
  /** By the tag set (`stringsdictTags` gives one array per language). */
  identities: Map<readonly string[], Identity[]>;
}

/** A template's listing, worked out once: the template is listed against every translation file. */
function templateListing(template: StringsdictUnits): TemplateListing {
  let listing = template.listing;
  if (!listing) {
    const listed = new Set<string>();
    const entries: DictUnit[] = [];
    for (const t of template.entries) {
      if (listed.has(t.id)) continue;
      listed.add(t.id);
      entries.push(t);
    }
    const keys = new TemplateKeys(entries.map((t) => t.id));
    listing = { entries, unique: entries.length === template.entries.length, keys, identities: new Map() };
    template.listing = listing;
  }
  return listing;
}

function identitiesOf(listing: TemplateListing, tags: readonly string[]): Identity[] {
  let identities = listing.identities.get(tags);
  if (!identities) {
    identities = listing.entries.map((t) => {
      const source = entryForms(t, tags);
      const idHash = calculateHash(t.id);
      const contentHash = unitContentHash(source, t.id);
      // the words of the source the content hash just read
      const numWords = source.some((form) => form.startsWith(UNUSED_PLURAL)) ? countWords(source) : wordsOfLastHashed();
      return { source, idHash, contentHash, numWords };
    });
    listing.identities.set(tags, identities);
  }
  return identities;
}

function hasText(forms: readonly string[]): boolean {
  for (let i = 0; i < forms.length; i++) if (forms[i] !== '') return true;
  return false;
}

function unit(context: string, source: string[], target: string[], position: number, identity: Omit<Identity, 'source'>): ParsedUnit {
  return {
    context,
    source,
    target,
    location: '',
    note: '',
    flags: '',
    explanation: '',
    sourceExplanation: '',
    previousSource: '',
    state: hasText(target) ? State.TRANSLATED : State.EMPTY,
    position,
    idHash: identity.idHash,
    contentHash: identity.contentHash,
    numWords: identity.numWords,
  };
}

/** A parse's reading of a file: its units in file order. */
export interface StringsdictUnits {
  entries: readonly DictUnit[];
  /**
   * As a template: its listing, once worked out (a field, not a WeakMap keyed by the reading: a sync makes one reading
   * a template, and a WeakMap's entries cost the garbage collector more than the rest of the template's reading).
   */
  listing?: TemplateListing;
}

export interface StringsdictInternal {
  stringsdict: StringsdictUnits;
}

/**
 * The units of a .stringsdict: read without tokens where the file has the plain shape as Xcode writes it, else from
 * its tokens where the file has the plain shape, else from its tree.
 */
function readUnits(bytes: Uint8Array, filename: string): StringsdictUnits {
  const entries = readPlainShape(bytes) ?? readPlainUnits(bytes, filename) ?? readStringsdict(bytes, filename).entries;
  return { entries, listing: undefined };
}

/**
 * Reads a .stringsdict. With a template, the template's entries keyed by id (`key`, `key:variable`), source in
 * the source language's categories, target in this file's; without one, each entry with its id as source.
 */
export function parseStringsdict(bytes: Uint8Array, ctx: FormatContext): ParsedFile {
  const doc = readUnits(bytes, ctx.filename);
  const internal: StringsdictInternal = { stringsdict: doc };
  const tags = stringsdictTags(ctx.language);
  if (ctx.template) {
    const template = (ctx.template.internal as StringsdictInternal | undefined)?.stringsdict;
    if (!template) throw new FormatParseError(ctx.filename, 1, 1, 'the template store was not read by the stringsdict format');
    return { units: monolingualUnits(doc, template, ctx), monolingual: true, internal };
  }
  const units: ParsedUnit[] = [];
  const seen = new Set<string>();
  for (const e of doc.entries) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    const forms = entryForms(e, tags);
    const identity = { idHash: calculateHash(e.id), contentHash: unitContentHash(forms, e.id), numWords: countWords(forms) };
    units.push(unit(e.id, forms, forms.slice(), units.length + 1, identity));
  }
  return { units, monolingual: false, internal };
}

/** Reads a template for its listing and, with `own`, its units as a translation of itself (see `Format.parseTemplate`). */
export function parseStringsdictTemplate(bytes: Uint8Array, ctx: FormatContext, own: boolean): ParsedFile {
  const doc = readUnits(bytes, ctx.filename);
  return { units: own ? monolingualUnits(doc, doc, ctx) : [], monolingual: true, internal: { stringsdict: doc } satisfies StringsdictInternal };
}

/** The template's ids in its order, source in the source language's categories, target in this file's (`ctx.language`). */
function monolingualUnits(doc: StringsdictUnits, template: StringsdictUnits, ctx: FormatContext): ParsedUnit[] {
  const tags = stringsdictTags(ctx.language);
  const listing = templateListing(template);
  const identities = identitiesOf(listing, stringsdictTags(ctx.sourceLanguage));
  const entries = listing.entries;
  // each template id's entry in this file: the last of that id (a lookup of the file's ids in the template's); the
  // template read as its own translation is its listing when it repeats no id
  let found: readonly (DictUnit | undefined)[] = entries;
  if (doc !== template || !listing.unique) {
    const inFile = new Array<DictUnit | undefined>(entries.length);
    let previous = -1;
    for (const e of doc.entries) {
      const k = listing.keys.placeOf(e.id, previous);
      if (k === undefined) continue;
      inFile[k] = e;
      previous = k;
    }
    found = inFile;
  }
  const units: ParsedUnit[] = [];
  for (let k = 0; k < entries.length; k++) {
    const e = found[k];
    const identity = identities[k]!;
    units.push(unit(entries[k]!.id, identity.source.slice(), e ? entryForms(e, tags) : [''], k + 1, identity));
  }
  return units;
}

interface Layout {
  nl: string;
  step: string;
}

function layoutOf(doc: StringsdictDocument): Layout {
  const text = doc.xml.text;
  const nl = lineEnding(text);
  const first = elementChildren(doc.root)[0];
  const outer = first ? indentAt(text, first.start) : null;
  const root = indentAt(text, doc.root.start) ?? '';
  const step = outer !== null && outer.length > root.length ? outer.slice(root.length) : '\t';
  return { nl, step };
}

/** The indentation of an element's children: that of its first child, else its own plus one step. */
function childIndent(text: string, element: XmlElement, layout: Layout): string {
  const first = elementChildren(element)[0];
  const own = first ? indentAt(text, first.start) : null;
  return own ?? `${indentAt(text, element.start) ?? ''}${layout.step}`;
}

function stringElement(value: string): string {
  return `<string>${escapeText(value)}</string>`;
}

/** Inserts `lines` (already indented) as the last children of `element`, before its end tag's line. */
function appendChildren(edits: Edit[], text: string, element: XmlElement, lines: string[], layout: Layout): void {
  if (lines.length === 0) return;
  const at = element.closeStart;
  const body = lines.map((l) => `${l}${layout.nl}`).join('');
  if (element.selfClosing) {
    const indent = indentAt(text, element.start) ?? '';
    edits.push({ start: element.start, end: element.end, text: `<${element.name}>${layout.nl}${body}${indent}</${element.name}>` });
  } else if (indentAt(text, at) !== null && lineStart(text, at) > element.openEnd) {
    edits.push({ start: lineStart(text, at), end: lineStart(text, at), text: body });
  } else {
    edits.push({ start: at, end: at, text: `${layout.nl}${body}${indentAt(text, element.start) ?? ''}` });
  }
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The start of a pair's first line and the end of its last (its line break included), or the pair's own span. */
function pairSpan(text: string, pair: Pair): { start: number; end: number } {
  let start = pair.keyElement.start;
  if (indentAt(text, start) !== null) start = lineStart(text, start);
  let end = pair.value.end;
  const rest = /^[ \t]*\r?\n/.exec(text.slice(end));
  if (rest) end += rest[0].length;
  return { start, end };
}

/** The edits that give a plural variable these forms: changed strings replaced, emptied forms removed, new ones added in CLDR order. */
function setForms(edits: Edit[], text: string, entry: DictEntry, forms: readonly string[], tags: readonly string[], layout: Layout): void {
  const indent = childIndent(text, entry.value, layout);
  const order = (tag: string) => (CLDR_CATEGORIES as readonly string[]).indexOf(tag);
  let anchor: Pair | null = pairOf(entry.forms, VALUE_TYPE_KEY) ?? pairOf(entry.forms, SPEC_TYPE_KEY) ?? null;
  const pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    if (!anchor) {
      appendChildren(edits, text, entry.value, [...pending], layout);
    } else {
      const span = pairSpan(text, anchor);
      // after the anchor's line, or right after its value when the dict is written on one line
      if (text.slice(anchor.value.end, span.end).includes('\n'))
        edits.push({ start: span.end, end: span.end, text: pending.map((l) => `${l}${layout.nl}`).join('') });
      else edits.push({ start: anchor.value.end, end: anchor.value.end, text: pending.map((l) => `${layout.nl}${l}`).join('') });
    }
    pending.length = 0;
  };
  const sorted = tags.map((tag, i) => ({ tag, form: forms[i] ?? '' })).sort((a, b) => order(a.tag) - order(b.tag));
  for (const { tag, form } of sorted) {
    const pair = pairOf(entry.forms, tag);
    if (pair) {
      flush();
      if (form === '') edits.push({ ...pairSpan(text, pair), text: '' });
      else if (pair.text !== form) edits.push({ start: pair.value.start, end: pair.value.end, text: stringElement(form) });
      anchor = pair;
    } else if (form !== '') {
      pending.push(`${indent}<key>${tag}</key>${layout.nl}${indent}${stringElement(form)}`);
    }
  }
  flush();
}

/** A new variable dict (or format key) for a template entry, as lines at `indent`. */
function newPairs(template: DictUnit, forms: readonly string[], tags: readonly string[], indent: string, layout: Layout): string[] {
  const key = template.id.includes(':') ? template.id.slice(template.id.lastIndexOf(':') + 1) : FORMAT_KEY;
  if (!template.plural) return [`${indent}<key>${escapeText(key)}</key>`, `${indent}${stringElement(forms[0] ?? '')}`];
  const inner = `${indent}${layout.step}`;
  const lines = [
    `${indent}<key>${escapeText(key)}</key>`,
    `${indent}<dict>`,
    `${inner}<key>${SPEC_TYPE_KEY}</key>`,
    `${inner}<string>NSStringPluralRuleType</string>`,
  ];
  lines.push(`${inner}<key>${VALUE_TYPE_KEY}</key>`, `${inner}${stringElement(template.format)}`);
  tags.forEach((tag, i) => {
    if (forms[i]) lines.push(`${inner}<key>${tag}</key>`, `${inner}${stringElement(forms[i]!)}`);
  });
  lines.push(`${indent}</dict>`);
  return lines;
}

function outerKeyOf(id: string): string {
  const colon = id.lastIndexOf(':');
  return colon > 0 ? id.slice(0, colon) : id;
}

/**
 * Applies edits: a changed format string or plural form replaces that <string>; emptied forms lose their pair,
 * new ones are inserted in CLDR order; entries missing from the file are added from the template. No edits: the
 * same bytes.
 */
export function writeStringsdict(bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array {
  if (edits.length === 0) return bytes.slice();
  const doc = readStringsdict(bytes, ctx.filename);
  const text = doc.xml.text;
  const layout = layoutOf(doc);
  const tags = stringsdictTags(ctx.language);
  const index = new Map<string, DictEntry>();
  for (const e of doc.entries) index.set(e.id, e);
  const template = new Map<string, DictUnit>();
  for (const e of (ctx.template?.internal as StringsdictInternal | undefined)?.stringsdict.entries ?? []) if (!template.has(e.id)) template.set(e.id, e);
  const outers = new Map<string, XmlElement>();
  for (const e of doc.entries) outers.set(outerKeyOf(e.id), e.outer);
  const out: Edit[] = [];
  const newOuter = new Map<string, string[]>();
  const last = new Map<string, UnitWrite>();
  for (const e of edits) last.set(e.context, e);
  for (const [id, edit] of last) {
    const entry = index.get(id);
    const forms = edit.target.length > 0 ? edit.target : [''];
    if (edit.remove) {
      // every category goes, those the language does not use too
      if (entry?.plural) setForms(out, text, entry, [], CLDR_CATEGORIES, layout);
      else if (entry) out.push({ start: entry.value.start, end: entry.value.end, text: stringElement('') });
      continue;
    }
    if (entry) {
      if (!entry.plural) {
        if (entry.text !== forms[0]) out.push({ start: entry.value.start, end: entry.value.end, text: stringElement(forms[0] ?? '') });
      } else {
        setForms(out, text, entry, forms, tags, layout);
      }
      continue;
    }
    if (forms.every((f) => f === '')) continue;
    const t = template.get(id);
    if (!t) throw new FormatWriteError(ctx.filename, `cannot add ${id}: the template has no such entry`);
    const outerKey = outerKeyOf(id);
    const outer = outers.get(outerKey);
    if (outer) {
      appendChildren(out, text, outer, newPairs(t, forms, tags, childIndent(text, outer, layout), layout), layout);
    } else {
      const list = newOuter.get(outerKey) ?? [];
      list.push(...newPairs(t, forms, tags, `${childIndent(text, doc.root, layout)}${layout.step}`, layout));
      newOuter.set(outerKey, list);
    }
  }
  const indent = childIndent(text, doc.root, layout);
  const blocks: string[] = [];
  for (const [key, lines] of newOuter) blocks.push(`${indent}<key>${escapeText(key)}</key>`, `${indent}<dict>`, ...lines, `${indent}</dict>`);
  appendChildren(out, text, doc.root, blocks, layout);
  let result = text;
  for (const e of out.sort((a, b) => b.start - a.start || b.end - a.end)) result = result.slice(0, e.start) + e.text + result.slice(e.end);
  if (result === text) return bytes.slice();
  return encoder.encode(doc.xml.bom ? `\ufeff${result}` : result);
}

export const stringsdictFormat: Format = {
  id: 'stringsdict',
  name: 'Stringsdict file',
  monolingual: null,
  extension: 'stringsdict',
  mimeType: 'application/xml',
  parse: parseStringsdict,
  parseTemplate: parseStringsdictTemplate,
  write: writeStringsdict,
  create(base: Uint8Array | null, ctx: FormatContext): Uint8Array {
    if (base === null) return encoder.encode(STRINGSDICT_SKELETON);
    // a copy of the base with every form and format string emptied, as Weblate's untranslate leaves it
    const doc = readStringsdict(base, ctx.filename);
    const edits: UnitWrite[] = doc.entries.map((e) => ({ context: e.id, source: [], target: [''], state: State.EMPTY, remove: true }));
    return writeStringsdict(base, edits, ctx);
  },
};
