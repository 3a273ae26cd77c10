// Strict UTF-8 decoding of XML file bytes, with the position of the first bad byte on failure.
import { FormatParseError } from '../../domain/errors.js';
import { firstInvalidUtf8 } from '../utf8.js';

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
    const found = firstInvalidUtf8(bytes);
    const bad = found < 0 ? bytes.length : found;
    const before = lenient.decode(bytes.subarray(0, bad));
    const lastNewline = before.lastIndexOf('\n');
    let line = 1;
    for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
    const column = [...before.slice(lastNewline + 1)].length + 1;
    const hex = bytes[bad]?.toString(16).padStart(2, '0') ?? 'end of file';
    throw new FormatParseError(filename, line, column, `invalid UTF-8 byte 0x${hex} (the file must be UTF-8)`);
  }
}
