// The bytes of an Apple .strings file: UTF-16 (either byte order, with or without a BOM) or UTF-8, read and written back as they were.
import { FormatParseError } from '../../domain/errors.js';
import { decodeUtf8, firstInvalidUtf8 } from '../text.js';

/** How a file's text was encoded, so that a write gives the same bytes for the same text. */
export interface TextEncoding {
  kind: 'utf-8' | 'utf-16le' | 'utf-16be';
  bom: boolean;
}

export const UTF8: TextEncoding = { kind: 'utf-8', bom: false };
/** What Python's `"…".encode("utf-16")` writes on a little-endian machine: a BOM, then little-endian. */
export const UTF16: TextEncoding = { kind: 'utf-16le', bom: true };

/** The text of UTF-16 bytes after `skip` bytes of BOM; an odd length or a broken surrogate pair is refused. */
function decodeUtf16(bytes: Uint8Array, filename: string, kind: 'utf-16le' | 'utf-16be', skip: number): string {
  const body = bytes.subarray(skip);
  if (body.length % 2 !== 0) throw new FormatParseError(filename, 1, 1, `not UTF-16: an odd number of bytes (${bytes.length})`);
  try {
    return new TextDecoder(kind, { ignoreBOM: true, fatal: true }).decode(body);
  } catch {
    throw new FormatParseError(filename, 1, 1, `not ${kind.toUpperCase()}: a broken surrogate pair`);
  }
}

/** Which byte order a BOM-less UTF-16 file uses: the one whose high bytes are mostly zero (ASCII-heavy text). */
function guessOrder(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  let evenZero = 0;
  let oddZero = 0;
  const n = Math.min(bytes.length - (bytes.length % 2), 4096);
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  if (oddZero === 0 && evenZero === 0) return null;
  return oddZero >= evenZero ? 'utf-16le' : 'utf-16be';
}

/**
 * Decodes a `.strings` file of the `strings` format (UTF-16): a BOM gives the byte order, else the zero bytes do.
 * A file that is UTF-8 (no zero byte, valid UTF-8) is refused with a reason that names the right format.
 */
export function decodeStringsUtf16(bytes: Uint8Array, filename: string): { text: string; encoding: TextEncoding } {
  if (bytes.length === 0) return { text: '', encoding: UTF16 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: decodeUtf16(bytes, filename, 'utf-16le', 2), encoding: { kind: 'utf-16le', bom: true } };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: decodeUtf16(bytes, filename, 'utf-16be', 2), encoding: { kind: 'utf-16be', bom: true } };
  const order = guessOrder(bytes);
  if (order === null) {
    const utf8 = firstInvalidUtf8(bytes) < 0;
    throw new FormatParseError(
      filename,
      1,
      1,
      utf8 ? 'the file is UTF-8, not UTF-16 (use the file format strings-utf8)' : 'the file is neither UTF-16 nor UTF-8 (the strings format reads UTF-16)',
    );
  }
  return { text: decodeUtf16(bytes, filename, order, 0), encoding: { kind: order, bom: false } };
}

/** Decodes a `.strings` file of the `strings-utf8` format; a UTF-16 file is refused with a reason that names the right format. */
export function decodeStringsUtf8(bytes: Uint8Array, filename: string): { text: string; encoding: TextEncoding } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new FormatParseError(filename, 1, 1, 'the file is UTF-16, not UTF-8 (use the file format strings)');
  }
  const text = decodeUtf8(bytes, filename);
  // a zero byte is U+0000 in UTF-8 (no longer sequence holds one); V8 looks for '\0' in a two-byte string slowly
  if (bytes.indexOf(0) >= 0) throw new FormatParseError(filename, 1, 1, 'the file holds zero bytes: it is UTF-16, not UTF-8 (use the file format strings)');
  const bom = text.charCodeAt(0) === 0xfeff;
  return { text: bom ? text.slice(1) : text, encoding: { kind: 'utf-8', bom } };
}

/** Encodes text back in the encoding it was read in (a BOM again where there was one). */
export function encodeText(text: string, encoding: TextEncoding): Uint8Array {
  if (encoding.kind === 'utf-8') return new TextEncoder().encode(encoding.bom ? `\ufeff${text}` : text);
  const full = encoding.bom ? `\ufeff${text}` : text;
  const out = new Uint8Array(full.length * 2);
  const le = encoding.kind === 'utf-16le';
  for (let i = 0; i < full.length; i++) {
    const c = full.charCodeAt(i);
    out[2 * i + (le ? 0 : 1)] = c & 0xff;
    out[2 * i + (le ? 1 : 0)] = c >> 8;
  }
  return out;
}
