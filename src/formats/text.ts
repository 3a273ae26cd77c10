// Text of a file for every format: one strict UTF-8 decoder that says where a bad byte is, and one line/column finder.
import { Buffer, isAscii, isUtf8, transcode } from 'node:buffer';
import { FormatParseError } from '../domain/errors.js';

const BOM = 0xfeff;
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence, or -1 when all are valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * 1-based line and column of a string offset, columns counted in code points (a surrogate pair is one column,
 * a leading BOM is none), as editors show them.
 * @example lineColumn('ab\n😀cd', 6) // { line: 2, column: 3 }
 */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const end = Math.min(Math.max(offset, 0), text.length);
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  if (lineStart === 0 && text.charCodeAt(0) === BOM) lineStart = 1;
  let column = 1;
  for (let i = lineStart; i < end; i++) {
    const c = text.charCodeAt(i);
    // the low half of a surrogate pair does not start a new column
    if (c < 0xdc00 || c > 0xdfff || i === lineStart) column++;
  }
  return { line, column };
}

/** The bytes as a Buffer over the same memory (no copy): Node's Buffer methods for a Uint8Array. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Decodes UTF-8 strictly, keeping a BOM as U+FEFF so offsets and a re-encoded file stay exact. Invalid UTF-8
 * raises FormatParseError at the first bad byte's line and column.
 * @example decodeUtf8(bytes, 'translations/app_de.ts')
 */
export function decodeUtf8(bytes: Uint8Array, filename: string): string {
  const buffer = asBuffer(bytes);
  // Node's checks (simdutf) take microseconds a file. ASCII is read as one byte a character. Other valid UTF-8 is
  // converted to UTF-16 by transcode (simdutf too) and taken as it is: faster than V8's UTF-8 decoder (a fatal
  // TextDecoder) on PO files of every size (Audacity's 0.6-0.75 MB files parse 10-20 % slower through V8's), and no
  // slower on the XML formats' large files (KeePassXC's TS files, Ghostfolio's XLIFF) within this machine's noise.
  // V8's decoder is left for a Node built without ICU (no transcode) and for finding the first bad byte.
  if (isAscii(buffer)) return buffer.toString('latin1');
  if (typeof transcode === 'function' && isUtf8(buffer)) return transcode(buffer, 'utf8', 'utf16le').toString('utf16le');
  try {
    return strict.decode(bytes);
  } catch {
    // reported below
  }
  const found = firstInvalidUtf8(bytes);
  const bad = found < 0 ? bytes.length : found;
  const before = lenient.decode(bytes.subarray(0, bad));
  const { line, column } = lineColumn(before, before.length);
  const what = bad < bytes.length ? `byte 0x${bytes[bad]!.toString(16).padStart(2, '0')}` : 'end of file inside a character';
  throw new FormatParseError(filename, line, column, `invalid UTF-8: ${what} at byte offset ${bad} (the file must be UTF-8)`);
}

/**
 * Strict UTF-8 decoding of a file that arrives in pieces (a multi-byte character may be split between two), with
 * decodeUtf8's error at the first bad byte: its line, column and byte offset in the whole file.
 * @example const utf8 = new Utf8Pieces('memory.tmx'); let text = utf8.decode(piece); text += utf8.decode(last, true);
 */
export class Utf8Pieces {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private bytes = 0;
  private line = 1;
  private column = 1;
  /** The end of the previous piece that may start a character its piece did not finish (at most 3 bytes). */
  private tail = new Uint8Array(0);

  constructor(private readonly filename: string) {}

  /** The text of one more piece; `last` for the final one (a character cut off there is an error). */
  decode(piece: Uint8Array, last = false): string {
    let text: string;
    try {
      text = this.decoder.decode(piece, { stream: !last });
    } catch {
      this.fail(piece, last);
    }
    const { line, column } = lineColumn(text, text.length);
    if (line > 1) {
      this.line += line - 1;
      this.column = column;
    } else {
      this.column += column - 1;
    }
    this.bytes += piece.length;
    this.tail = piece.length >= 3 ? piece.slice(piece.length - 3) : concatBytes(this.tail, piece).slice(-3);
    return text;
  }

  private fail(piece: Uint8Array, last: boolean): never {
    // the bytes of a character the previous piece began, then this piece
    const tail = this.tail;
    let i = tail.length - 1;
    while (i >= 0 && (tail[i]! & 0xc0) === 0x80) i--;
    const pending = i >= 0 && tail[i]! >= 0xc0 && tail.length - i < sequenceLength(tail[i]!) ? tail.subarray(i) : new Uint8Array(0);
    const bytes = concatBytes(pending, piece);
    const found = firstInvalidUtf8(bytes);
    const bad = found < 0 ? bytes.length : found;
    const before = lenient.decode(bytes.subarray(0, bad));
    const at = lineColumn(before, before.length);
    const line = this.line + at.line - 1;
    const column = at.line > 1 ? at.column : this.column + at.column - 1;
    const what = bad < bytes.length ? `byte 0x${bytes[bad]!.toString(16).padStart(2, '0')}` : last ? 'end of file inside a character' : 'a cut character';
    const offset = this.bytes - pending.length + bad;
    throw new FormatParseError(this.filename, line, column, `invalid UTF-8: ${what} at byte offset ${offset} (the file must be UTF-8)`);
  }
}

function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
