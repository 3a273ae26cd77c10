// A PO file's bytes as text and back: the header's charset, a UTF-8 BOM kept aside, single-byte charsets written back.
import { FormatParseError, FormatWriteError } from '../../domain/errors.js';
import { decodeUtf8, lineColumn } from '../text.js';

export interface PoText {
  text: string;
  bom: boolean;
  /** The WHATWG encoding label the text was decoded with (`utf-8` for UTF-8, ASCII and the CHARSET placeholder). */
  charset: string;
}

const latin1 = new TextDecoder('latin1');

/** The charset the header declares (`charset=…` in the first entry), or null. */
function declaredCharset(bytes: Uint8Array): { name: string; offset: number } | null {
  // the header is in the first 64 KiB; most end within the first 4 KiB, which are read first
  for (const size of [4096, 65536]) {
    const head = latin1.decode(bytes.subarray(0, Math.min(bytes.length, size)));
    // only the header entry counts: stop at the second msgid
    const first = head.search(/(^|[\r\n])msgid[ \t]/);
    const second = first < 0 ? -1 : head.slice(first + 6).search(/[\r\n]msgid[ \t]/);
    if (second < 0 && size < 65536 && bytes.length > size) continue;
    const scope = second < 0 ? head : head.slice(0, first + 6 + second);
    const m = /charset=([^\s"\\]+)/.exec(scope);
    return m ? { name: m[1]!, offset: m.index + 8 } : null;
  }
  return null;
}

/**
 * Decodes a PO file: a UTF-8 BOM is set aside (gettext would refuse it; the toolkit and Weblate accept it), the text
 * is decoded with the header's charset (UTF-8 when it names none, `CHARSET` or ASCII). An unknown charset or bytes
 * that are not valid in it raise FormatParseError with the line and column.
 */
export function decodePo(bytes: Uint8Array, filename: string): PoText {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const declared = declaredCharset(body);
  const name = declared?.name.toLowerCase() ?? 'utf-8';
  if (['utf-8', 'utf8', 'charset', 'ascii', 'us-ascii', 'ansi_x3.4-1968'].includes(name)) {
    return { text: decodeUtf8(body, filename), bom, charset: 'utf-8' };
  }
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(name, { fatal: true });
  } catch {
    const at = lineColumn(latin1.decode(body), declared!.offset);
    throw new FormatParseError(filename, at.line, at.column, `unknown charset "${declared!.name}" in the header's Content-Type`);
  }
  try {
    return { text: decoder.decode(body), bom, charset: decoder.encoding };
  } catch {
    // find the first line that does not decode
    let offset = 0;
    let line = 1;
    while (offset < body.length) {
      let end = body.indexOf(0x0a, offset);
      if (end < 0) end = body.length;
      try {
        new TextDecoder(name, { fatal: true }).decode(body.subarray(offset, end));
      } catch {
        throw new FormatParseError(filename, line, 1, `bytes on this line are not valid ${decoder.encoding} (the charset the header declares)`);
      }
      offset = end + 1;
      line++;
    }
    throw new FormatParseError(filename, line, 1, `the file is not valid ${decoder.encoding}`);
  }
}

const encoders = new Map<string, Map<string, number>>();

const MULTI_BYTE = new Set(['gbk', 'gb18030', 'big5', 'euc-jp', 'iso-2022-jp', 'shift_jis', 'euc-kr', 'utf-16le', 'utf-16be']);

/** A single-byte charset's characters to bytes; null for a multi-byte one. */
function singleByte(charset: string): Map<string, number> | null {
  if (MULTI_BYTE.has(charset)) return null;
  let map = encoders.get(charset);
  if (!map) {
    const decoder = new TextDecoder(charset);
    map = new Map<string, number>();
    for (let b = 0; b < 256; b++) {
      const ch = decoder.decode(new Uint8Array([b]));
      if (ch !== '\ufffd' && !map.has(ch)) map.set(ch, b);
    }
    encoders.set(charset, map);
  }
  return map;
}

const utf8 = new TextEncoder();

/** Encodes text written back into a PO file in its own charset (UTF-8 or a single-byte one), with its BOM. */
export function encodePo(text: string, bom: boolean, charset: string, filename: string): Uint8Array {
  let body: Uint8Array;
  if (charset === 'utf-8') {
    body = utf8.encode(text);
  } else {
    const map = singleByte(charset);
    if (!map) throw new FormatWriteError(filename, `tms writes PO files in UTF-8 or a single-byte charset, not ${charset}`);
    body = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const b = map.get(text[i]!);
      if (b === undefined) throw new FormatWriteError(filename, `the character ${JSON.stringify(text[i])} cannot be written in ${charset}, the file's charset`);
      body[i] = b;
    }
  }
  if (!bom) return body;
  const out = new Uint8Array(body.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(body, 3);
  return out;
}
