// A small strict XML tokenizer over decoded text (whole, or fed in pieces): tokens with source offsets and well-formedness checks.
//
// It covers what translation files contain: elements and attributes (either quote), text with
// character and the five predefined entity references, CDATA, comments, processing instructions,
// the XML declaration (UTF-8 only) and a DOCTYPE (only its internal subset's general entities with literal
// values are read; nothing is fetched, and entity values are never expanded again). Anything malformed
// raises FormatParseError with a 1-based line and column. Namespaces are not interpreted: names
// are reported as written (`x:tag`).
import type { Buffer } from 'node:buffer';
import { FormatParseError } from '../../domain/errors.js';
import { lineColumn } from '../text.js';

/** Token kinds returned by `XmlScanner.next()`. */
export const XmlToken = {
  Eof: 0,
  StartTag: 1,
  EndTag: 2,
  Text: 3,
  CData: 4,
  Comment: 5,
  ProcessingInstruction: 6,
  Doctype: 7,
  /** A streaming scanner's text so far ends inside the next token: `feed` more (or `endOfInput`) and call `next` again. */
  NeedMore: 8,
} as const;
export type XmlTokenKind = (typeof XmlToken)[keyof typeof XmlToken];

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const SEMI = 0x3b;
const EQ = 0x3d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const HASH = 0x23;

const NAME_START = new Uint8Array(128);
const NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a;
  NAME_START[c] = letter ? 1 : 0;
  NAME_CHAR[c] = letter || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e ? 1 : 0;
}

function isNameStart(c: number): boolean {
  if (c < 128) return NAME_START[c] === 1;
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xdbff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd)
  );
}

function isNameChar(c: number): boolean {
  if (c < 128) return NAME_CHAR[c] === 1;
  return isNameStart(c) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040 || (c >= 0xdc00 && c <= 0xdfff);
}

/** Whether `text` holds `name` at `at` (a loop: faster than startsWith for short names in a long two-byte text). */
function holdsAt(text: string, name: string, at: number): boolean {
  const n = name.length;
  if (at + n > text.length) return false;
  for (let k = 0; k < n; k++) if (text.charCodeAt(at + k) !== name.charCodeAt(k)) return false;
  return true;
}

/**
 * The engine's one copy of `name` (V8 keeps one per distinct property name): comparing two such copies is one
 * pointer test, so the readers' `name === 'trans-unit'` tests against literals stay cheap. Names cannot be array
 * indices (they start with a letter, `_` or `:`), and the object has no prototype, so `__proto__` is a name too.
 */
export function internalized(name: string): string {
  const holder: Record<string, true> = Object.create(null);
  holder[name] = true;
  return Object.keys(holder)[0] ?? name;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

const AMPERSAND = /&/g;

/**
 * Characters XML 1.0 forbids anywhere in a document (surrogates cannot occur after strict UTF-8 decoding), searched
 * for in decoded text as it is given; over bytes the scanning loops check each byte they pass (BYTE_CLASS).
 */
const FORBIDDEN_CHAR = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g;
/**
 * What a byte of text or of an attribute value says (over bytes, where the scanning loops look at every byte once):
 * '<', '&', ']' (of a ']]>'), a byte of a multi-byte sequence, and one to look at again (a control character XML
 * forbids, or 0xEF, which begins U+FFFE and U+FFFF as well as allowed characters). The value bits are VALUE_SPECIAL's.
 */
const B_LT = 1;
const B_AMP = 2;
const B_SPACE = 4;
const B_HIGH = 8;
const B_CHECK = 16;
const B_BRACKET = 32;
const B_BLANK = 64;
const BYTE_CLASS = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) BYTE_CLASS[c] = B_CHECK;
BYTE_CLASS[0x09] = BYTE_CLASS[0x0a] = BYTE_CLASS[0x0d] = B_SPACE;
BYTE_CLASS[0x3c] = B_LT;
BYTE_CLASS[0x26] = B_AMP;
BYTE_CLASS[0x5d] = B_BRACKET;
BYTE_CLASS[0x20] = B_BLANK;
for (let c = 0x80; c < 0x100; c++) BYTE_CLASS[c] = B_HIGH;
BYTE_CLASS[0xef] = B_HIGH | B_CHECK;

/**
 * Node's Buffer methods behind `toString(encoding, start, end)`, without its checks of the arguments (a measurable
 * share of the time on short values); the offsets passed are always within the buffer.
 */
export interface SlicedBuffer extends Buffer {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/**
 * Raised by a scanner over bytes (`XmlScanner.overBytes`) where it cannot answer as the scanner over decoded text
 * would: any error (its line and column are counted in characters), a non-ASCII name, a DOCTYPE. The caller reads
 * the file again as decoded text, which gives the answer (or the error) exactly.
 */
export class NeedsDecodedText extends Error {}

const PREDEFINED: ReadonlyMap<string, string> = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** `<!ENTITY name "value">` in a DOCTYPE's internal subset (parameter entities and external ones are not read). */
const ENTITY_DECL = /<!ENTITY\s+([^\s%"'>]+)\s+(?:"([^"]*)"|'([^']*)')\s*>/g;
/** An entity whose value would come from elsewhere (`SYSTEM`/`PUBLIC`), general or parameter: refused, never fetched. */
const EXTERNAL_ENTITY_DECL = /<!ENTITY\s+(%\s+)?([^\s"'>]+)\s+(SYSTEM|PUBLIC)\b/;
/** Characters that references to declared entities may add to a document beyond its own size (quadratic blow-up). */
const ENTITY_EXPANSION_BUDGET = 1_000_000;
/** What an attribute value's characters up to '<' say about it: a '<' (refused), a reference, whitespace to normalize. */
const HAS_LT = 1;
const HAS_AMP = 2;
const HAS_SPACE = 4;
const HAS_HIGH = 8;
const VALUE_SPECIAL = new Uint8Array(LT + 1);
VALUE_SPECIAL[LT] = HAS_LT;
VALUE_SPECIAL[0x26] = HAS_AMP;
VALUE_SPECIAL[0x09] = VALUE_SPECIAL[0x0a] = VALUE_SPECIAL[0x0d] = HAS_SPACE;
/** Bytes a window of `XmlScanner.overByteWindows` adds: a string well below the engine's large-object size. */
const BYTE_WINDOW = 32 * 1024;
/**
 * Names seen by any scanner (tags and attributes), by hash, so repeated names are not sliced again: shared, since
 * the same few dozen names recur in every file of a format. A slot keeps the first name that lands in it (a name
 * whose slot is taken is sliced each time: slower, never wrong); long names are not kept.
 */
const NAME_TABLE_SIZE = 4096;
const NAME_TABLE_MAX_LENGTH = 64;
const nameTable: string[] = new Array<string>(NAME_TABLE_SIZE).fill('');
const nameHashes = new Int32Array(NAME_TABLE_SIZE);
/**
 * The bytes of the table's ASCII names, each at its slot's offset (-1: a name with a character above 0x7f, which no
 * name read over bytes equals): over bytes a name is compared with these, a typed array's loads, not `charCodeAt`.
 */
const nameOffsets = new Int32Array(NAME_TABLE_SIZE).fill(-1);
let nameBytes = new Uint8Array(4096);
let nameBytesUsed = 0;

/**
 * Over bytes: the slot of the name read last where a key says (an element's depth and first byte, an attribute's
 * place in its tag and first byte), tried first where the same key recurs: a file's tags repeat in the same shapes.
 */
const NAME_GUESSES = 32 * 128 + 16 * 128;
const nameGuess = new Int32Array(NAME_GUESSES).fill(-1);

/**
 * Over bytes: a start tag read before, where it stands in the file, and what it gave (attribute offsets from its '<').
 * A tag whose bytes are the same gives the same token: its bytes are compared four at a time, and its strings reused.
 */
interface SeenTag {
  at: number;
  length: number;
  name: string;
  count: number;
  selfClosing: boolean;
  names: string[];
  values: string[];
  starts: number[];
  ends: number[];
}
/**
 * Keys of the start tags kept (the depth and four bits of the name's first byte), two tags each (`SEEN_WAYS`): most
 * tags of a file repeat. A key whose tags are seldom read again (a trans-unit's, with its id) is given up after
 * `SEEN_MISSES` more misses than hits: such tags are then read without looking for them or keeping them.
 */
const SEEN_KEYS = 16 * 16;
const SEEN_WAYS = 2;
const SEEN_MISSES = 8;
/** Tags longer than this are not kept (an element's long attribute values seldom repeat). */
const SEEN_MAX_LENGTH = 256;

/** Keeps `name` in the table's slot (a name of at most NAME_TABLE_MAX_LENGTH characters, its slot free). */
function keepName(slot: number, hash: number, name: string): void {
  nameTable[slot] = name;
  nameHashes[slot] = hash;
  const n = name.length;
  for (let k = 0; k < n; k++) if (name.charCodeAt(k) >= 128) return;
  if (nameBytesUsed + n > nameBytes.length) {
    const grown = new Uint8Array(nameBytes.length * 2);
    grown.set(nameBytes);
    nameBytes = grown;
  }
  for (let k = 0; k < n; k++) nameBytes[nameBytesUsed + k] = name.charCodeAt(k);
  nameOffsets[slot] = nameBytesUsed;
  nameBytesUsed += n;
}

/** The XML declarations most files have (what follows `<?xml`), and the encoding each names. */
const COMMON_DECLARATIONS: ReadonlyMap<string, string | null> = new Map([
  [' version="1.0" encoding="UTF-8"', 'UTF-8'],
  [' version="1.0" encoding="utf-8"', 'utf-8'],
  [' version="1.0" ', null],
  [' version="1.0"', null],
]);

function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/**
 * Pull tokenizer: call `next()` until it returns `XmlToken.Eof`; the fields describe the current token.
 * A self-closing tag yields a StartTag (with `selfClosing`) followed by an EndTag at the same offsets.
 * @example
 * const s = new XmlScanner('<a x="1">hi</a>', 'f.xml');
 * while (s.next() !== XmlToken.Eof) if (s.kind === XmlToken.Text) console.log(s.textValue());
 */
export class XmlScanner {
  /** The text scanned (a streaming scanner's: what is buffered, from the current token on). */
  text: string;
  readonly filename: string;
  /** Current token kind. */
  kind: XmlTokenKind = XmlToken.Eof;
  /** Offsets of the whole token in `text` (`<` … `>` for tags). */
  start = 0;
  end = 0;
  /** Element name (tags), PI target, DOCTYPE root name. */
  name = '';
  /** Start tag written as `<x/>`; also set on the EndTag that follows it. */
  selfClosing = false;
  /** Depth of the element a StartTag opens or an EndTag closes; the root element is at depth 1. */
  depth = 0;
  /** Attributes of the current start tag (decoded and normalized values), with the raw value offsets. */
  attrCount = 0;
  readonly attrNames: string[] = [];
  readonly attrValues: string[] = [];
  readonly attrValueStart: number[] = [];
  readonly attrValueEnd: number[] = [];
  /** Content offsets of Text, CData, Comment and PI tokens. */
  contentStart = 0;
  contentEnd = 0;
  /**
   * Whether the current Text or CData token's value may hold whitespace. Over bytes it is false where the token has
   * no whitespace and no reference (normalizing its spaces would change nothing); over decoded text always true.
   */
  textMayHoldSpace = true;
  /** Encoding named by the XML declaration, or null without one. */
  declaredEncoding: string | null = null;
  hasDeclaration = false;

  private pos = 0;
  private length: number;
  private readonly stack: string[] = [];
  private open = 0;
  private rootSeen = false;
  private doctypeSeen = false;
  private pendingEnd = false;
  private decoded: string | null = null;
  // Decoded text: positions of the next '&' and ']]>' at or after the last search (-1: search again), so each is
  // looked for once per occurrence rather than once per token.
  private nextAmp = -1;
  private nextCdataEnd = -1;
  /** Hash of the name `scanName` last read, for `intern`. */
  private nameHash = 0;
  /** Where the bytes of the name `intern` returned last are in the name table's (-1: not there). */
  private internedAt = -1;
  private referenceEnd = 0;
  private hasCR: boolean;
  private bomOffset: number;
  /** Entities a reference may name: the predefined five, and those the DOCTYPE declares. */
  private entities: ReadonlyMap<string, string> = PREDEFINED;
  /** Characters declared entities may still add (a document's own size plus a fixed allowance). */
  private expansionLeft = 0;
  /** Streaming: more text may follow (until `end`); what was scanned is dropped from `text` as text is fed. */
  private streaming = false;
  private started = false;
  /** Streaming: characters dropped before `text`, and the lines and columns they held (for error positions). */
  private dropped = 0;
  private droppedLines = 0;
  private droppedColumns = 0;
  /**
   * Over bytes (`overBytes`): the valid UTF-8 the text holds one byte a character (Latin-1), offsets are byte
   * offsets, and only the values handed out (text, attribute values) are decoded, where they hold a non-ASCII byte.
   */
  private bytes: SlicedBuffer | null;
  /** Over bytes: the whole file (`bytes` over byte windows is the file from the current window on). */
  private fileBytes: Uint8Array | null;
  /**
   * Where the bytes of each open element's name (`stack`'s) are, which its end tag is compared with: over bytes its
   * offset in `fileBytes`; over decoded text its offset in the name table's bytes (-1: not there).
   */
  private readonly nameAt: number[] = [];
  /** Over bytes in windows (`overByteWindows`): the whole file, and where its next window starts. */
  private windowSource: SlicedBuffer | null = null;
  private windowNext = 0;
  /** Over bytes: whether the text, CDATA or attribute value at hand holds a byte above 0x7f (is decoded as UTF-8). */
  private high = false;
  /** Over bytes: whether an ASCII DOCTYPE without an internal subset is read here (it declares no entities) rather than left to the decoded text. */
  private bytesDoctype = false;
  /** Over bytes: the whole file (`fileBytes`) as a view that reads four bytes at once. */
  private fileView: DataView | null = null;
  /** Over bytes: start tags read before (`SeenTag`), by key and way; made with the first start tag. */
  private seenTags: (SeenTag | null)[] | null = null;
  /** Over bytes: by key, the misses less the hits of `seenTags` (see `SEEN_MISSES`). */
  private seenMisses: Int8Array | null = null;

  constructor(text: string, filename: string, bytes: SlicedBuffer | null = null) {
    this.text = text;
    this.filename = filename;
    this.bytes = bytes;
    this.fileBytes = bytes;
    if (bytes !== null) this.fileView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.length = text.length;
    this.hasCR = text.indexOf('\r') >= 0;
    this.bomOffset = bytes === null && text.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.pos = this.bomOffset;
    // over bytes, the scanning loops check every byte as they pass it
    if (bytes === null) this.checkChars(0);
  }

  /**
   * A scanner over valid UTF-8 `bytes` without a BOM (the caller checks both): offsets are byte offsets, names and
   * values the same strings as over the decoded text. Anything it cannot answer that way (errors included) raises
   * NeedsDecodedText: read the decoded text then. Faster on files that are mostly ASCII markup: no whole-file decoding,
   * a one-byte string to search. A DOCTYPE raises it too, but with `doctype` one in ASCII without an internal subset.
   */
  static overBytes(bytes: Buffer, filename: string, doctype = false): XmlScanner {
    const sliced = bytes as SlicedBuffer;
    const s = new XmlScanner(sliced.latin1Slice(0, bytes.length), filename, sliced);
    s.bytesDoctype = doctype;
    return s;
  }

  /**
   * `overBytes`, with the file's one-byte text made a window at a time as the scan reaches it (offsets are then into
   * the window, not the file): for a reader that needs no offsets and no `text`, only tokens, names and values. One
   * string of a whole file of a few hundred kilobytes is a large object for the engine to allocate, several times the
   * cost of the same bytes in windows of the ordinary heap's size.
   */
  static overByteWindows(bytes: Buffer, filename: string): XmlScanner {
    const sliced = bytes as SlicedBuffer;
    const s = new XmlScanner('', filename, sliced);
    s.windowSource = sliced;
    s.hasCR = sliced.indexOf(0x0d) >= 0;
    s.nextWindow();
    return s;
  }

  /** Over byte windows: whether a window follows the current one. */
  private moreWindows(): boolean {
    return this.windowSource !== null && this.windowNext < this.windowSource.length;
  }

  /**
   * Over byte windows: the text from the current token on (`pos`) and the file's next window after it. A window ends
   * before a '<' that follows a '>' and whitespace (between two tags, most often), so that tokens are whole in it:
   * the scan takes the next window where text or whitespace reaches a window's end, and a token cut by it anyway (a
   * comment or CDATA holding '> <') fails as NeedsDecodedText, which reads the file again as decoded text.
   */
  private nextWindow(): void {
    const source = this.windowSource!;
    const from = this.windowNext;
    let to = source.length;
    if (from + BYTE_WINDOW < to) {
      to = from + BYTE_WINDOW;
      for (let lt = source.lastIndexOf(LT, to - 1); lt > from; lt = source.lastIndexOf(LT, lt - 1)) {
        let k = lt - 1;
        while (k > from && isSpace(source[k]!)) k--;
        if (source[k] === GT) {
          to = lt;
          break;
        }
      }
    }
    this.dropped += this.pos;
    // one slice of the bytes from the current token on (a concatenation would be read through its parts)
    this.text = source.latin1Slice(this.dropped, to);
    this.length = this.text.length;
    this.pos = 0;
    this.windowNext = to;
    // the bytes from the window's start to the file's end: offsets into the text are offsets into them
    this.bytes = source.subarray(this.dropped) as SlicedBuffer;
  }

  /** The characters of text[s, e): a slice, or over bytes where the value at hand holds a non-ASCII byte, its UTF-8 decoded. */
  private chars(s: number, e: number): string {
    if (this.bytes !== null && this.high) return this.bytes.utf8Slice(s, e);
    return this.text.slice(s, e);
  }

  /**
   * Over bytes: what BYTE_CLASS says of the bytes in [s, e), and that none is a character XML forbids (if one is,
   * NeedsDecodedText: the decoded text's scan names it with its line and column).
   */
  private byteFlags(s: number, e: number): number {
    const b = this.bytes!;
    let flags = 0;
    for (let i = s; i < e; i++) flags |= BYTE_CLASS[b[i]!]!;
    if ((flags & B_CHECK) !== 0) this.checkBytes(s, e);
    return flags;
  }

  /** Over bytes: NeedsDecodedText where [s, e) holds a control character XML forbids, U+FFFE or U+FFFF (valid UTF-8). */
  private checkBytes(s: number, e: number): void {
    const b = this.bytes!;
    for (let i = s; i < e; i++) {
      const c = b[i]!;
      if (c < 0x20 ? BYTE_CLASS[c] === B_CHECK : c === 0xef && b[i + 1] === 0xbf && (b[i + 2]! | 1) === 0xbf) {
        throw new NeedsDecodedText();
      }
    }
  }

  /** A name character at or above U+0080: over bytes that is a byte of a sequence, which only the decoded text can judge. */
  private wide(): never {
    throw new NeedsDecodedText();
  }

  /**
   * A scanner over text that arrives in pieces: `feed` each, `endOfInput` after the last. `next` answers
   * `XmlToken.NeedMore` where the text so far ends inside a token; a token's offsets hold until the next `feed`.
   * @example const s = XmlScanner.streaming('big.tmx'); s.feed(piece); while (s.next() !== XmlToken.NeedMore) …
   */
  static streaming(filename: string): XmlScanner {
    const s = new XmlScanner('', filename);
    s.streaming = true;
    return s;
  }

  /** Appends text (streaming): what earlier tokens used is dropped first. */
  feed(text: string): void {
    if (!this.streaming) throw new Error('feed() needs a streaming scanner');
    const kept = this.pos;
    if (kept > 0) {
      const { line, column } = lineColumn(this.text, kept);
      this.droppedColumns = line > 1 ? column - 1 : this.droppedColumns + column - 1;
      this.droppedLines += line - 1;
      this.dropped += kept;
    }
    const from = this.length - kept;
    this.text = this.text.slice(kept) + text;
    this.length = this.text.length;
    this.pos -= kept;
    if (!this.started && this.length > 0) {
      this.started = true;
      this.bomOffset = this.text.charCodeAt(0) === 0xfeff ? 1 : 0;
      this.pos = this.bomOffset;
    }
    this.nextAmp = -1;
    this.nextCdataEnd = -1;
    this.hasCR ||= text.indexOf('\r') >= 0;
    this.checkChars(from);
  }

  /** No more text follows (streaming): the rest is scanned as a whole document's end. */
  endOfInput(): void {
    this.streaming = false;
  }

  private checkChars(from: number): void {
    FORBIDDEN_CHAR.lastIndex = from;
    const bad = FORBIDDEN_CHAR.exec(this.text);
    if (bad) this.fail(bad.index, `character U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} is not allowed in XML`);
  }

  /** Raises FormatParseError at `offset` with a one-line reason. */
  fail(offset: number, reason: string): never {
    if (this.bytes !== null) throw new NeedsDecodedText();
    const { line, column } = this.lineColumnAt(offset);
    throw new FormatParseError(this.filename, line, column, reason.replace(/[\r\n]+/g, ' '));
  }

  /** 1-based line and column of an offset into `text`, counting what a streaming scanner dropped. */
  lineColumnAt(offset: number): { line: number; column: number } {
    const { line, column } = lineColumn(this.text, offset);
    return { line: line + this.droppedLines, column: line === 1 ? column + this.droppedColumns : column };
  }

  /** Name of the open element at `depth` (1 = root) while scanning. */
  elementAt(depth: number): string {
    return this.stack[depth - 1] ?? '';
  }

  /** Value of the attribute `name` on the current start tag, or null. */
  attr(name: string): string | null {
    for (let i = 0; i < this.attrCount; i++) if (this.attrNames[i] === name) return this.attrValues[i]!;
    return null;
  }

  /** Whether the current start tag declares a namespace (an attribute `xmlns` or `xmlns:p`). */
  declaresNamespace(): boolean {
    for (let i = 0; i < this.attrCount; i++) {
      const name = this.attrNames[i]!;
      if (name === 'xmlns' || name.startsWith('xmlns:')) return true;
    }
    return false;
  }

  /** Index of the attribute `name` on the current start tag, or -1. */
  attrIndex(name: string): number {
    for (let i = 0; i < this.attrCount; i++) if (this.attrNames[i] === name) return i;
    return -1;
  }

  /** Decoded character data of the current Text or CData token (entities resolved, line ends normalized). */
  textValue(): string {
    if (this.decoded !== null) return this.decoded;
    const raw = this.chars(this.contentStart, this.contentEnd);
    return this.hasCR ? normalizeLineEnds(raw) : raw;
  }

  /** Advances to the next token and returns its kind. */
  next(): XmlTokenKind {
    if (!this.streaming || this.pendingEnd) return this.scan();
    // Streaming: a token is scanned only whole. One that fails may just be cut off by the end of the text so far:
    // it is scanned again with more (an error in the text itself is raised once no more text follows).
    const p = this.pos;
    if (p >= this.length) return this.needMore(p);
    const doctypeSeen = this.doctypeSeen;
    let kind: XmlTokenKind;
    try {
      kind = this.scan();
    } catch (e) {
      if (!(e instanceof FormatParseError)) throw e;
      this.doctypeSeen = doctypeSeen;
      return this.needMore(p);
    }
    // text that reaches the end of what is there may go on
    return kind === XmlToken.Text && this.end >= this.length ? this.needMore(p) : kind;
  }

  private needMore(p: number): XmlTokenKind {
    this.pos = p;
    this.decoded = null;
    this.kind = XmlToken.NeedMore;
    return this.kind;
  }

  private scan(): XmlTokenKind {
    if (this.pendingEnd) {
      this.pendingEnd = false;
      this.depth = this.open;
      this.open--;
      this.kind = XmlToken.EndTag;
      this.start = this.end;
      this.attrCount = 0;
      return this.kind;
    }
    const p = this.pos;
    if (p >= this.length) return this.finish();
    this.selfClosing = false;
    const b = this.bytes;
    if (b !== null) {
      if (b[p] !== LT) return this.scanTextBytes(p, b);
      const c1 = b[p + 1];
      if (c1 === SLASH) return this.scanEndTagBytes(p, b);
      if (c1 === BANG) return this.scanBang(p);
      if (c1 === QUESTION) return this.scanPI(p);
      return this.scanStartTagBytes(p, b);
    }
    if (this.text.charCodeAt(p) !== LT) return this.scanText(p);
    const c1 = this.text.charCodeAt(p + 1);
    if (c1 === SLASH) return this.scanEndTag(p);
    if (c1 === BANG) return this.scanBang(p);
    if (c1 === QUESTION) return this.scanPI(p);
    return this.scanStartTag(p);
  }

  private finish(): XmlTokenKind {
    if (this.moreWindows()) {
      this.nextWindow();
      return this.scan();
    }
    if (this.open > 0) this.fail(this.length, `unexpected end of file: <${this.stack[this.open - 1]}> is not closed`);
    if (!this.rootSeen) this.fail(this.length, 'no root element');
    this.kind = XmlToken.Eof;
    this.start = this.end = this.length;
    return this.kind;
  }

  private scanText(p: number): XmlTokenKind {
    const t = this.text;
    let e = t.indexOf('<', p);
    if (e < 0) e = this.length;
    this.kind = XmlToken.Text;
    this.start = this.contentStart = p;
    this.end = this.contentEnd = this.pos = e;
    this.decoded = null;
    if (this.open === 0) {
      for (let i = p; i < e; i++) {
        if (!isSpace(t.charCodeAt(i))) this.fail(i, this.rootSeen ? 'text after the root element' : 'text before the root element');
      }
      return this.kind;
    }
    if (this.nextAmp < p) {
      // a regular expression, not indexOf: V8's indexOf of one character in a two-byte string sometimes takes a slow
      // path for the whole process (seen as 2.5x slower scans of XLIFF files in about half the runs)
      AMPERSAND.lastIndex = p;
      this.nextAmp = AMPERSAND.exec(t)?.index ?? this.length;
    }
    if (this.nextAmp < e) {
      this.decoded = this.decodeReferences(p, e);
      this.nextAmp = -1;
    }
    if (this.nextCdataEnd < p) {
      this.nextCdataEnd = t.indexOf(']]>', p);
      if (this.nextCdataEnd < 0) this.nextCdataEnd = this.length;
    }
    if (this.nextCdataEnd < e) this.fail(this.nextCdataEnd, "']]>' is not allowed in text");
    return this.kind;
  }

  /**
   * `scanText` over bytes: one loop finds the text's end and what it holds ('&', ']', a non-ASCII byte, a byte to
   * check for the characters XML forbids), in place of the searches over the whole file that decoded text takes.
   */
  private scanTextBytes(p: number, b: Uint8Array): XmlTokenKind {
    const n = this.length;
    let flags = 0;
    let e = p;
    for (; e < n; e++) {
      const k = BYTE_CLASS[b[e]!]!;
      if (k === B_LT) break;
      flags |= k;
    }
    // over byte windows, text that reaches a window's end is read again with the next window
    if (e === n && this.moreWindows()) {
      this.nextWindow();
      return this.scanTextBytes(0, this.bytes!);
    }
    if ((flags & B_CHECK) !== 0) this.checkBytes(p, e);
    this.kind = XmlToken.Text;
    this.start = this.contentStart = p;
    this.end = this.contentEnd = this.pos = e;
    this.decoded = null;
    this.high = (flags & B_HIGH) !== 0;
    this.textMayHoldSpace = (flags & (B_SPACE | B_BLANK | B_AMP)) !== 0;
    // outside the root only whitespace (the decoded text's scan names anything else)
    if (this.open === 0) {
      for (let i = p; i < e; i++) if (!isSpace(b[i]!)) throw new NeedsDecodedText();
      return this.kind;
    }
    if ((flags & B_AMP) !== 0) this.decoded = this.decodeReferences(p, e);
    if ((flags & B_BRACKET) !== 0) {
      const cdataEnd = this.text.indexOf(']]>', p);
      if (cdataEnd >= 0 && cdataEnd < e) this.fail(cdataEnd, "']]>' is not allowed in text");
    }
    return this.kind;
  }

  /** Resolves entity and character references in text[s, e), normalizing literal line ends. */
  private decodeReferences(s: number, e: number): string {
    const t = this.text;
    let out = '';
    let last = s;
    let i = t.indexOf('&', s);
    while (i >= 0 && i < e) {
      if (i > last) out += this.literal(last, i);
      out += this.reference(i, e);
      last = this.referenceEnd;
      i = t.indexOf('&', last);
    }
    if (last < e) out += this.literal(last, e);
    return out;
  }

  private literal(s: number, e: number): string {
    const raw = this.chars(s, e);
    return this.hasCR ? normalizeLineEnds(raw) : raw;
  }

  /** The value of one reference starting at `&` (offset i) before `limit`; sets `referenceEnd`. */
  private reference(i: number, limit: number): string {
    const t = this.text;
    let j = i + 1;
    if (t.charCodeAt(j) === HASH) {
      j++;
      const hex = t.charCodeAt(j) === 0x78;
      if (hex) j++;
      const digitsStart = j;
      let cp = 0;
      for (; j < limit; j++) {
        const c = t.charCodeAt(j);
        let d: number;
        if (c >= 0x30 && c <= 0x39) d = c - 0x30;
        else if (hex && c >= 0x61 && c <= 0x66) d = c - 0x57;
        else if (hex && c >= 0x41 && c <= 0x46) d = c - 0x37;
        else break;
        cp = cp * (hex ? 16 : 10) + d;
        if (cp > 0x10ffff) cp = 0x110000;
      }
      if (j === digitsStart || t.charCodeAt(j) !== SEMI || j >= limit) this.fail(i, 'malformed character reference');
      if (!isXmlChar(cp)) this.fail(i, `character reference ${t.slice(i, j + 1)} is not a valid XML character`);
      this.referenceEnd = j + 1;
      return String.fromCodePoint(cp);
    }
    if (this.bytes !== null && t.charCodeAt(j) >= 128) this.wide();
    if (!isNameStart(t.charCodeAt(j))) this.fail(i, "'&' must start an entity reference (write &amp;)");
    while (j < limit && isNameChar(t.charCodeAt(j))) j++;
    if (this.bytes !== null && j < limit && t.charCodeAt(j) >= 128) this.wide();
    if (j >= limit || t.charCodeAt(j) !== SEMI) this.fail(i, "entity reference is missing its ';'");
    const name = t.slice(i + 1, j);
    const value = this.entities.get(name);
    if (value === undefined) this.fail(i, `undefined entity &${name};`);
    if (value.length > 1 && !PREDEFINED.has(name)) {
      this.expansionLeft -= value.length;
      if (this.expansionLeft < 0)
        this.fail(i, `entity &${name}; expands the document beyond ${ENTITY_EXPANSION_BUDGET} characters more than its size (an entity expansion bomb)`);
    }
    this.referenceEnd = j + 1;
    return value;
  }

  /** The name text[start, end) that `scanName` just read, the same string each time it recurs. */
  private intern(start: number, end: number): string {
    const h = this.nameHash;
    const slot = h & (NAME_TABLE_SIZE - 1);
    const known = nameTable[slot]!;
    const n = end - start;
    if (nameHashes[slot] === h && known.length === n) {
      const at = nameOffsets[slot]!;
      if (at >= 0) {
        // compared with the table's bytes: one charCodeAt a character, not two
        const t = this.text;
        let k = 0;
        while (k < n && t.charCodeAt(start + k) === nameBytes[at + k]) k++;
        if (k === n) {
          this.internedAt = at;
          return known;
        }
      } else if (holdsAt(this.text, known, start)) {
        this.internedAt = -1;
        return known;
      }
    }
    return this.newName(start, end);
  }

  /** A name not in the table: sliced, and kept where its slot is free. */
  private newName(start: number, end: number): string {
    const h = this.nameHash;
    const slot = h & (NAME_TABLE_SIZE - 1);
    const name = this.text.slice(start, end);
    this.internedAt = -1;
    if (nameTable[slot] !== '' || name.length > NAME_TABLE_MAX_LENGTH) return name;
    const unique = internalized(name);
    keepName(slot, h, unique);
    this.internedAt = nameOffsets[slot]!;
    return unique;
  }

  /** `intern` over bytes (the name is ASCII). */
  private internBytes(start: number, end: number, b: Uint8Array): string {
    const h = this.nameHash;
    const slot = h & (NAME_TABLE_SIZE - 1);
    const known = nameTable[slot]!;
    const n = end - start;
    const at = nameOffsets[slot]!;
    if (nameHashes[slot] === h && known.length === n && at >= 0) {
      let k = 0;
      while (k < n && b[start + k] === nameBytes[at + k]) k++;
      if (k === n) return known;
    }
    return this.newName(start, end);
  }

  /**
   * Reads a name from `i` (setting `nameHash`) and returns where it ends; anything else there fails as `what` (or,
   * given `element`, as `<element>`: the message is built only when it is needed).
   */
  private scanName(i: number, what: string, element?: string): number {
    const t = this.text;
    let c = t.charCodeAt(i);
    if (c >= 128 && this.bytes !== null) this.wide();
    if (!(c < 128 ? NAME_START[c] === 1 : isNameStart(c))) {
      const where = element === undefined ? what : `<${element}>`;
      if (i >= this.length) this.fail(i, `unexpected end of file in ${where}`);
      this.fail(i, `invalid character '${t[i]}' in ${where}`);
    }
    let h = c;
    c = t.charCodeAt(++i);
    // over bytes a byte above 0x7f ends the loop (it is judged below): a sequence's bytes are not characters
    while (c < 128 ? NAME_CHAR[c] === 1 : this.bytes === null && isNameChar(c)) {
      h = (Math.imul(h, 31) + c) | 0;
      c = t.charCodeAt(++i);
    }
    if (c >= 128 && this.bytes !== null) this.wide();
    this.nameHash = h;
    return i;
  }

  private scanStartTag(p: number): XmlTokenKind {
    const t = this.text;
    if (this.open === 0 && this.rootSeen) this.fail(p, 'extra content after the root element');
    let i = this.scanName(p + 1, 'a start tag');
    const name = this.intern(p + 1, i);
    const nameAt = this.internedAt;
    let count = 0;
    for (;;) {
      let c = t.charCodeAt(i);
      const spaced = isSpace(c);
      while (isSpace(c)) c = t.charCodeAt(++i);
      if (c === GT) {
        i++;
        break;
      }
      if (c === SLASH) {
        if (t.charCodeAt(i + 1) !== GT) this.fail(i, `expected '>' after '/' in <${name}>`);
        i += 2;
        this.selfClosing = true;
        break;
      }
      if (i >= this.length) this.fail(i, `unexpected end of file inside <${name}>`);
      if (!spaced) this.fail(i, `expected whitespace before an attribute in <${name}>`);
      const nameStart = i;
      i = this.scanName(i, '', name);
      const attrName = this.intern(nameStart, i);
      c = t.charCodeAt(i);
      while (isSpace(c)) c = t.charCodeAt(++i);
      if (c !== EQ) this.fail(i, `expected '=' after attribute ${attrName} in <${name}>`);
      c = t.charCodeAt(++i);
      while (isSpace(c)) c = t.charCodeAt(++i);
      if (c !== DQUOTE && c !== SQUOTE) this.fail(i, `attribute ${attrName} in <${name}> needs a quoted value`);
      // one pass over the value finds its end and whether it holds '<', a reference or whitespace to normalize
      const quote = c;
      const vs = i + 1;
      let ve = vs;
      let special = 0;
      for (; ve < this.length; ve++) {
        const d = t.charCodeAt(ve);
        if (d === quote) break;
        if (d <= LT) special |= VALUE_SPECIAL[d]!;
      }
      if (ve >= this.length) this.fail(vs, `unterminated value of attribute ${attrName} in <${name}>`);
      if ((special & HAS_LT) !== 0) this.fail(t.indexOf('<', vs), `'<' is not allowed in the value of attribute ${attrName}`);
      for (let k = 0; k < count; k++) {
        if (this.attrNames[k] === attrName) this.fail(nameStart, `attribute ${attrName} is repeated in <${name}>`);
      }
      this.attrNames[count] = attrName;
      if ((special & HAS_AMP) !== 0) this.attrValues[count] = this.decodeAttributeReferences(vs, ve);
      else if ((special & HAS_SPACE) !== 0) this.attrValues[count] = normalizeAttributeSpace(t.slice(vs, ve));
      else this.attrValues[count] = t.slice(vs, ve);
      this.attrValueStart[count] = vs;
      this.attrValueEnd[count] = ve;
      count++;
      i = ve + 1;
    }
    return this.opened(name, nameAt, count, p, i);
  }

  /** A start tag read from `p` to `i` (both readers'): its element opened, with `count` attributes, its name at `nameAt`. */
  private opened(name: string, nameAt: number, count: number, p: number, i: number): XmlTokenKind {
    this.attrCount = count;
    if (this.open === 0) this.rootSeen = true;
    this.nameAt[this.open] = nameAt;
    this.stack[this.open++] = name;
    this.depth = this.open;
    this.kind = XmlToken.StartTag;
    this.name = name;
    this.start = p;
    this.end = this.pos = i;
    if (this.selfClosing) this.pendingEnd = true;
    return this.kind;
  }

  /**
   * Over bytes: a name from `i` (setting `nameHash`, as `scanName` does), its end returned; anything but an ASCII name
   * there raises NeedsDecodedText (an error, or a name the decoded text must judge). Bytes read as numbers from the
   * array, not characters from the string: a typed array's load is cheaper than `charCodeAt`.
   */
  private nameBytes(i: number, b: Uint8Array): number {
    let c = b[i]!;
    if (!(c < 128 && NAME_START[c] === 1)) throw new NeedsDecodedText();
    let h = c;
    c = b[++i]!;
    while (c < 128 && NAME_CHAR[c] === 1) {
      h = (Math.imul(h, 31) + c) | 0;
      c = b[++i]!;
    }
    if (c >= 128) throw new NeedsDecodedText();
    this.nameHash = h;
    return i;
  }

  /** End of the name `readNameBytes` read last. */
  private nameEnd = 0;

  /**
   * Over bytes: the name from `i` (its end in `nameEnd`), compared first with the name read last where `key` says
   * (its bytes, and that no name character follows), else read by `nameBytes` and `internBytes`.
   */
  private readNameBytes(i: number, b: Uint8Array, key: number): string {
    const slot = nameGuess[key]!;
    if (slot >= 0) {
      const at = nameOffsets[slot]!;
      const known = nameTable[slot]!;
      const n = known.length;
      let k = 0;
      while (k < n && b[i + k] === nameBytes[at + k]) k++;
      const c = b[i + n]!;
      if (k === n && !(c < 128 ? NAME_CHAR[c] === 1 : c >= 128)) {
        this.nameEnd = i + n;
        return known;
      }
    }
    const end = this.nameBytes(i, b);
    const name = this.internBytes(i, end, b);
    this.nameEnd = end;
    const kept = this.nameHash & (NAME_TABLE_SIZE - 1);
    if (nameTable[kept] === name && nameOffsets[kept]! >= 0) nameGuess[key] = kept;
    return name;
  }

  /**
   * `scanStartTag` over bytes, for a tag the decoded text's scan would read without an error: anything else raises
   * NeedsDecodedText (the decoded text's scan then names the error). Names and values are the same strings.
   */
  private scanStartTagBytes(p: number, b: Uint8Array): XmlTokenKind {
    if (this.open === 0 && this.rootSeen) throw new NeedsDecodedText();
    const first = b[p + 1]!;
    const key = ((this.open & 15) << 4) | ((first ^ (first >> 4)) & 15);
    const misses = this.seenMisses ?? this.startSeenTags();
    if (misses[key]! >= SEEN_MISSES) return this.readStartTagBytes(p, b);
    const seen = this.seenTags!;
    for (let way = 0; way < SEEN_WAYS; way++) {
      const tag = seen[key * SEEN_WAYS + way];
      if (tag === null || tag === undefined) break;
      if (this.sameTag(tag, p)) {
        if (misses[key]! > 0) misses[key]!--;
        return this.repeatedTag(tag, p);
      }
    }
    const kind = this.readStartTagBytes(p, b);
    // a tag without attributes is read as fast as it is compared: not kept
    if (this.attrCount > 0 && this.end - p <= SEEN_MAX_LENGTH) {
      misses[key]!++;
      this.keepTag(seen, key * SEEN_WAYS, p, this.end);
    }
    return kind;
  }

  /** `scanStartTagBytes` for a tag not read before. */
  private readStartTagBytes(p: number, b: Uint8Array): XmlTokenKind {
    const t = this.text;
    const n = this.length;
    const name = this.readNameBytes(p + 1, b, ((this.open & 31) << 7) | (b[p + 1]! & 127));
    let i = this.nameEnd;
    let count = 0;
    for (;;) {
      let c = b[i]!;
      const spaced = c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
      while (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) c = b[++i]!;
      if (c === GT) {
        i++;
        break;
      }
      if (c === SLASH) {
        if (b[i + 1] !== GT) throw new NeedsDecodedText();
        i += 2;
        this.selfClosing = true;
        break;
      }
      if (!spaced || i >= n) throw new NeedsDecodedText();
      const nameStart = i;
      const attrName = this.readNameBytes(i, b, 4096 + ((count & 15) << 7) + (c & 127));
      i = this.nameEnd;
      c = b[i]!;
      while (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) c = b[++i]!;
      if (c !== EQ) throw new NeedsDecodedText();
      c = b[++i]!;
      while (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) c = b[++i]!;
      if (c !== DQUOTE && c !== SQUOTE) throw new NeedsDecodedText();
      const vs = i + 1;
      const special = this.valueBytes(vs, c, b);
      const ve = this.valueEnd;
      if (ve >= n || (special & HAS_LT) !== 0) throw new NeedsDecodedText();
      for (let k = 0; k < count; k++) if (this.attrNames[k] === attrName) throw new NeedsDecodedText();
      this.attrNames[count] = attrName;
      if ((special & HAS_AMP) !== 0) this.attrValues[count] = this.decodeAttributeReferences(vs, ve);
      else if ((special & HAS_HIGH) !== 0) this.attrValues[count] = normalizeAttributeSpace(this.bytes!.utf8Slice(vs, ve));
      else if ((special & HAS_SPACE) !== 0) this.attrValues[count] = normalizeAttributeSpace(t.slice(vs, ve));
      else this.attrValues[count] = t.slice(vs, ve);
      this.attrValueStart[count] = vs;
      this.attrValueEnd[count] = ve;
      count++;
      i = ve + 1;
    }
    // the tag ends within the text (over byte windows the bytes go on past it)
    if (i > n) throw new NeedsDecodedText();
    return this.opened(name, this.dropped + p + 1, count, p, i);
  }

  private startSeenTags(): Int8Array {
    this.seenTags = new Array<SeenTag | null>(SEEN_KEYS * SEEN_WAYS).fill(null);
    this.seenMisses = new Int8Array(SEEN_KEYS);
    return this.seenMisses;
  }

  /** Whether the bytes at `p` begin with those of `tag` (read before elsewhere in the file), compared four at a time. */
  private sameTag(tag: SeenTag, p: number): boolean {
    const length = tag.length;
    if (p + length > this.length) return false;
    const view = this.fileView!;
    const here = this.dropped + p;
    const there = tag.at;
    const last = length - 4;
    for (let k = 0; k < last; k += 4) if (view.getInt32(here + k, true) !== view.getInt32(there + k, true)) return false;
    return view.getInt32(here + last, true) === view.getInt32(there + last, true);
  }

  /**
   * A start tag whose bytes are those of `tag`: the same token (the scan of a tag reads no byte past its '>', and
   * depends on nothing before it but whether the root was closed, checked before), its strings reused.
   */
  private repeatedTag(tag: SeenTag, p: number): XmlTokenKind {
    const count = tag.count;
    for (let k = 0; k < count; k++) {
      this.attrNames[k] = tag.names[k]!;
      this.attrValues[k] = tag.values[k]!;
      this.attrValueStart[k] = p + tag.starts[k]!;
      this.attrValueEnd[k] = p + tag.ends[k]!;
    }
    this.selfClosing = tag.selfClosing;
    return this.opened(tag.name, this.dropped + p + 1, count, p, p + tag.length);
  }

  /** Keeps the start tag just read from `p` to `end` as the first of its key's (the last of them dropped). */
  private keepTag(seen: (SeenTag | null)[], key: number, p: number, end: number): void {
    const count = this.attrCount;
    let tag = seen[key + SEEN_WAYS - 1];
    for (let way = SEEN_WAYS - 1; way > 0; way--) seen[key + way] = seen[key + way - 1]!;
    if (tag === null || tag === undefined) tag = { at: 0, length: 0, name: '', count: 0, selfClosing: false, names: [], values: [], starts: [], ends: [] };
    seen[key] = tag;
    tag.at = this.dropped + p;
    tag.length = end - p;
    tag.name = this.name;
    tag.count = count;
    tag.selfClosing = this.selfClosing;
    for (let k = 0; k < count; k++) {
      tag.names[k] = this.attrNames[k]!;
      tag.values[k] = this.attrValues[k]!;
      tag.starts[k] = this.attrValueStart[k]! - p;
      tag.ends[k] = this.attrValueEnd[k]! - p;
    }
  }

  /**
   * `scanEndTag` over bytes: the name's bytes compared with the open element's in the file (where its start tag was
   * read); anything but the right end tag raises NeedsDecodedText.
   */
  private scanEndTagBytes(p: number, b: Uint8Array): XmlTokenKind {
    const open = this.open;
    if (open === 0) throw new NeedsDecodedText();
    const expected = this.stack[open - 1]!;
    let i = p + 2;
    const stop = i + expected.length;
    if (stop >= this.length) throw new NeedsDecodedText();
    const at = this.nameAt[open - 1]!;
    const n = expected.length;
    if (n >= 4) {
      // four bytes at a time (the last four read again where the name's length is not a multiple of four)
      const view = this.fileView!;
      const here = this.dropped + i;
      for (let k = 0; k < n - 4; k += 4) if (view.getInt32(here + k, true) !== view.getInt32(at + k, true)) throw new NeedsDecodedText();
      if (view.getInt32(here + n - 4, true) !== view.getInt32(at + n - 4, true)) throw new NeedsDecodedText();
      i = stop;
    } else {
      const file = this.fileBytes!;
      for (let k = at; i < stop; i++, k++) if (b[i] !== file[k]) throw new NeedsDecodedText();
    }
    let c = b[i]!;
    while (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) c = b[++i]!;
    if (c !== GT || i >= this.length) throw new NeedsDecodedText();
    this.kind = XmlToken.EndTag;
    this.name = expected;
    this.depth = open;
    this.open = open - 1;
    this.attrCount = 0;
    this.start = p;
    this.end = this.pos = i + 1;
    return this.kind;
  }

  /** Whether the text holds at `at` the name of the innermost open element, `expected` (over decoded text). */
  private holdsOpenName(at: number, expected: string): boolean {
    const from = this.nameAt[this.open - 1]!;
    if (from < 0) return holdsAt(this.text, expected, at);
    const t = this.text;
    const n = expected.length;
    if (at + n > this.length) return false;
    for (let k = 0; k < n; k++) if (t.charCodeAt(at + k) !== nameBytes[from + k]) return false;
    return true;
  }

  /** End of the value scanned last by `valueBytes`. */
  private valueEnd = 0;

  /**
   * An attribute value's loop over bytes (`scanStartTagBytes`'): sets `valueEnd` to the closing quote (or the end),
   * returns the BYTE_CLASS flags, checks forbidden bytes.
   */
  private valueBytes(vs: number, quote: number, b: Uint8Array): number {
    const n = this.length;
    let special = 0;
    let ve = vs;
    for (; ve < n; ve++) {
      const d = b[ve]!;
      if (d === quote) break;
      special |= BYTE_CLASS[d]!;
    }
    if ((special & B_CHECK) !== 0) this.checkBytes(vs, ve);
    this.high = (special & HAS_HIGH) !== 0;
    this.valueEnd = ve;
    return special;
  }

  /** Attribute values: references resolved, literal tab/newline/CR (and CRLF) become one space each. */
  private decodeAttributeReferences(vs: number, ve: number): string {
    const t = this.text;
    let out = '';
    let last = vs;
    let i = t.indexOf('&', vs);
    while (i >= 0 && i < ve) {
      if (i > last) out += normalizeAttributeSpace(this.chars(last, i));
      out += this.reference(i, ve);
      last = this.referenceEnd;
      i = t.indexOf('&', last);
    }
    if (last < ve) out += normalizeAttributeSpace(this.chars(last, ve));
    return out;
  }

  private scanEndTag(p: number): XmlTokenKind {
    const t = this.text;
    const expected = this.open > 0 ? (this.stack[this.open - 1] ?? null) : null;
    let i: number;
    if (expected !== null && this.holdsOpenName(p + 2, expected) && !isNameChar(t.charCodeAt(p + 2 + expected.length))) {
      i = p + 2 + expected.length;
    } else {
      i = this.scanName(p + 2, 'an end tag');
      const found = t.slice(p + 2, i);
      if (expected === null) this.fail(p, `unexpected end tag </${found}>`);
      this.fail(p, `mismatched end tag: expected </${expected}>, found </${found}>`);
    }
    let c = t.charCodeAt(i);
    while (isSpace(c)) c = t.charCodeAt(++i);
    if (c !== GT) this.fail(i, `expected '>' to close </${expected}>`);
    this.kind = XmlToken.EndTag;
    this.name = expected;
    this.depth = this.open;
    this.open--;
    this.attrCount = 0;
    this.start = p;
    this.end = this.pos = i + 1;
    return this.kind;
  }

  private scanBang(p: number): XmlTokenKind {
    const t = this.text;
    if (t.startsWith('<!--', p)) {
      const end = t.indexOf('-->', p + 4);
      if (end < 0) this.fail(p, 'unterminated comment');
      const dashes = t.indexOf('--', p + 4);
      if (dashes < end) this.fail(dashes, "'--' is not allowed inside a comment");
      if (this.bytes !== null) this.byteFlags(p + 4, end);
      this.kind = XmlToken.Comment;
      this.start = p;
      this.contentStart = p + 4;
      this.contentEnd = end;
      this.end = this.pos = end + 3;
      return this.kind;
    }
    if (t.startsWith('<![CDATA[', p)) {
      if (this.open === 0) this.fail(p, 'CDATA section outside the root element');
      const end = t.indexOf(']]>', p + 9);
      if (end < 0) this.fail(p, 'unterminated CDATA section');
      if (this.nextCdataEnd <= end) this.nextCdataEnd = -1;
      if (this.bytes !== null) {
        const flags = this.byteFlags(p + 9, end);
        this.high = (flags & B_HIGH) !== 0;
        this.textMayHoldSpace = (flags & (B_SPACE | B_BLANK)) !== 0;
      }
      this.kind = XmlToken.CData;
      this.start = p;
      this.contentStart = p + 9;
      this.contentEnd = end;
      this.end = this.pos = end + 3;
      this.decoded = null;
      return this.kind;
    }
    if (t.startsWith('<!DOCTYPE', p)) {
      if (this.bytes !== null && !this.bytesDoctype) throw new NeedsDecodedText();
      if (this.rootSeen) this.fail(p, 'DOCTYPE after the root element');
      if (this.doctypeSeen) this.fail(p, 'second DOCTYPE');
      this.doctypeSeen = true;
      let i = p + 9;
      if (!isSpace(t.charCodeAt(i))) this.fail(i, 'expected whitespace after <!DOCTYPE');
      while (isSpace(t.charCodeAt(i))) i++;
      const nameStart = i;
      i = this.scanName(i, 'the DOCTYPE');
      this.name = t.slice(nameStart, i);
      let quote = 0;
      let bracket = false;
      for (; i < this.length; i++) {
        const c = t.charCodeAt(i);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === DQUOTE || c === SQUOTE) {
          quote = c;
        } else if (c === 0x5b) {
          bracket = true;
        } else if (c === 0x5d) {
          bracket = false;
        } else if (c === GT && !bracket) {
          break;
        }
      }
      if (i >= this.length) this.fail(p, 'unterminated DOCTYPE');
      // over bytes (`doctype`) only an ASCII DOCTYPE without an internal subset (a plist's): entity values would be bytes
      if (this.bytes !== null && ((this.byteFlags(p, i) & B_HIGH) !== 0 || t.lastIndexOf('[', i) > p)) throw new NeedsDecodedText();
      const doctype = t.slice(p, i);
      // both declarations' patterns begin with it (a plist's DOCTYPE has neither)
      const external = doctype.includes('<!ENTITY') ? EXTERNAL_ENTITY_DECL.exec(doctype) : null;
      if (external) {
        const what = external[1] ? 'parameter entity' : 'entity';
        this.fail(p + external.index, `external ${what} "${external[2]}" (${external[3]}) is refused: nothing is fetched from outside the file`);
      }
      const declared = external === null && doctype.includes('<!ENTITY') ? [...doctype.matchAll(ENTITY_DECL)] : [];
      if (declared.length > 0) {
        const entities = new Map(PREDEFINED);
        // the first declaration of a name wins (XML 1.0 §4.2); a value is text, not markup to expand again
        for (const m of declared) {
          const value = m[2] ?? m[3] ?? '';
          // A value naming another entity is how entity bombs (billion laughs) are built: refused, not half-expanded.
          const nested = /&([^\s&;#]+);/.exec(value);
          if (nested && !PREDEFINED.has(nested[1]!)) {
            this.fail(
              p + (m.index ?? 0),
              `entity "${m[1]}" refers to entity "${nested[1]}": nested entity declarations are refused (an entity expansion bomb)`,
            );
          }
          if (!entities.has(m[1]!)) entities.set(m[1]!, value);
        }
        this.entities = entities;
        this.expansionLeft = ENTITY_EXPANSION_BUDGET + this.length;
      }
      this.kind = XmlToken.Doctype;
      this.start = p;
      this.end = this.pos = i + 1;
      return this.kind;
    }
    this.fail(p, "invalid markup after '<!'");
  }

  private scanPI(p: number): XmlTokenKind {
    const t = this.text;
    const nameEnd = this.scanName(p + 2, 'a processing instruction');
    const target = t.slice(p + 2, nameEnd);
    const end = t.indexOf('?>', nameEnd);
    if (end < 0) this.fail(p, 'unterminated processing instruction');
    const c = t.charCodeAt(nameEnd);
    if (nameEnd !== end && !isSpace(c)) this.fail(nameEnd, `invalid character in processing instruction <?${target}`);
    if (this.bytes !== null) this.byteFlags(nameEnd, end);
    if (target.toLowerCase() === 'xml') {
      if (this.dropped + p !== this.bomOffset || target !== 'xml') this.fail(p, 'the XML declaration is allowed only at the very start of the file');
      this.declaration(nameEnd, end);
    }
    this.kind = XmlToken.ProcessingInstruction;
    this.name = target;
    this.start = p;
    this.contentStart = nameEnd;
    this.contentEnd = end;
    this.end = this.pos = end + 2;
    return this.kind;
  }

  private declaration(s: number, e: number): void {
    const body = this.text.slice(s, e);
    // the usual declarations, as the general reading below reads them
    const usual = COMMON_DECLARATIONS.get(body);
    if (usual !== undefined) {
      this.hasDeclaration = true;
      this.declaredEncoding = usual;
      return;
    }
    const re = /\s*([a-z]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
    const seen: Record<string, string> = {};
    let m: RegExpExecArray | null;
    let i = 0;
    while ((m = re.exec(body)) !== null) {
      seen[m[1]!] = m[2] ?? m[3] ?? '';
      i = re.lastIndex;
    }
    if (body.slice(i).trim() !== '') this.fail(s + i, 'malformed XML declaration');
    if (!seen.version || !/^1\.\d+$/.test(seen.version)) this.fail(s, 'the XML declaration needs version="1.x"');
    const encoding = seen.encoding ?? null;
    // ASCII is UTF-8's subset: files that say so read the same
    if (encoding !== null && !/^(?:utf-?8|us-ascii|ascii)$/i.test(encoding)) {
      this.fail(s, `unsupported encoding "${encoding}" (only UTF-8 is read)`);
    }
    this.hasDeclaration = true;
    this.declaredEncoding = encoding;
  }
}

function normalizeLineEnds(s: string): string {
  return s.indexOf('\r') < 0 ? s : s.replace(/\r\n?/g, '\n');
}

function normalizeAttributeSpace(s: string): string {
  return /[\t\n\r]/.test(s) ? s.replace(/\r\n|[\t\n\r]/g, ' ') : s;
}
