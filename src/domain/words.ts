// Word and character counts as Weblate's statistics use them.
import { joinPlural } from './unit.js';

const UNUSED_PLURAL = '<unused singular';
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
