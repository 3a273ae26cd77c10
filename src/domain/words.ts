// Word and character counts as Weblate's statistics use them.
import { joinPlural } from './unit.js';

const UNUSED_PLURAL = '<unused singular';

/**
 * The characters that separate words: JavaScript's `\s` (what `trim()` removes) and U+001C–U+001F and U+0085, which
 * Python's `str.split()` also splits on.
 */
function isWordSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c >= 0x1c;
  if (c < 0x1680) return c === 0x85 || c === 0xa0;
  // most letters of other scripts fall outside U+1680–U+3000
  if (c > 0x3000) return c === 0xfeff;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/**
 * Words of a source string: whitespace-separated tokens summed over the plural forms,
 * skipping Weblate's "<unused singular" placeholders. `countWords(['%d file', '%d files']) === 4`.
 */
export function countWords(source: readonly string[]): number {
  let words = 0;
  for (const form of source) {
    if (form.startsWith(UNUSED_PLURAL)) continue;
    // a word starts wherever a non-space follows a space or the start
    let inWord = false;
    for (let i = 0; i < form.length; i++) {
      const space = isWordSpace(form.charCodeAt(i));
      if (!space && !inWord) words++;
      inWord = !space;
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
