// Word and character counts as Weblate's statistics use them.
import { joinPlural } from './unit.js';

/** The start of Weblate's placeholder for a plural's unused singular (its words are not counted). */
export const UNUSED_PLURAL = '<unused singular';
const WHITESPACE_RUN = /[\s\u001c-\u001f\u0085]+/u;

/**
 * Words of a source string: whitespace-separated tokens summed over the plural forms,
 * skipping Weblate's "<unused singular" placeholders. `countWords(['%d file', '%d files']) === 4`.
 */
export function countWords(source: readonly string[]): number {
  let words = 0;
  for (const form of source) {
    if (form.startsWith(UNUSED_PLURAL)) continue;
    // runs of non-whitespace, counted in one pass (what splitting the trimmed text on whitespace runs gives)
    let inWord = false;
    for (let i = 0; i < form.length; i++) {
      const c = form.charCodeAt(i);
      const space = c <= 0x20 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f) : c >= 0x80 && WHITESPACE_RUN.test(form[i]!);
      if (space) inWord = false;
      else if (!inWord) {
        inWord = true;
        words++;
      }
    }
  }
  return words;
}

/**
 * Words of UTF-8 bytes[start, end), counted as `countWords` counts one form (whitespace: JavaScript's `\s`,
 * U+001C-U+001F and U+0085). Bytes are read faster than a string's characters, and a hash has the text's bytes at
 * hand (see `wordsOfLastHashed`).
 */
export function countWordsUtf8(bytes: Uint8Array, start: number, end: number): number {
  let words = 0;
  let inWord = false;
  for (let i = start; i < end; ) {
    const b = bytes[i]!;
    let space: boolean;
    if (b < 0x80) {
      space = b === 0x20 || (b >= 0x09 && b <= 0x0d) || (b >= 0x1c && b <= 0x1f);
      i++;
    } else if (b < 0xe0) {
      const cp = ((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
      space = cp === 0x85 || cp === 0xa0;
      i += 2;
    } else if (b < 0xf0) {
      const cp = ((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
      space =
        cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f || cp === 0x3000 || cp === 0xfeff;
      i += 3;
    } else {
      // no whitespace outside the Basic Multilingual Plane
      space = false;
      i += 4;
    }
    if (space) inWord = false;
    else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  return words;
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Length of a string in code points (what Python's len() counts). */
export function codePoints(text: string): number {
  let n = text.length;
  if (n > 0 && /[\uD800-\uDBFF]/.test(text)) n -= text.match(SURROGATE_PAIR)?.length ?? 0;
  return n;
}

/** Characters of the stored (joined) source, counted in code points, separators included. */
export function countChars(source: readonly string[]): number {
  return codePoints(joinPlural(source));
}
