// Strict UTF-8 decoding of XML file bytes, with the position of the first bad byte on failure.
import { FormatParseError } from '../../domain/errors.js';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Decodes UTF-8 bytes, keeping a BOM as U+FEFF so offsets and a re-encoded file stay exact.
 * Invalid UTF-8 raises FormatParseError at the first bad byte.
 * @example decodeUtf8(bytes, 'po/de.ts')
 */
export function decodeUtf8(bytes: Uint8Array, filename: string): string {
  try {
    return strict.decode(bytes);
  } catch {
    const bad = firstInvalidByte(bytes);
    const before = lenient.decode(bytes.subarray(0, bad));
    const lastNewline = before.lastIndexOf('\n');
    let line = 1;
    for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
    const column = [...before.slice(lastNewline + 1)].length + 1;
    const hex = bytes[bad]?.toString(16).padStart(2, '0') ?? 'end of file';
    throw new FormatParseError(filename, line, column, `invalid UTF-8 byte 0x${hex} (the file must be UTF-8)`);
  }
}

/** Offset of the first byte that does not continue a valid UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
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
  return bytes.length;
}
