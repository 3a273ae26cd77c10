// Python's idea of whitespace (str.isspace, \s, strip()) for the readers that follow Translate Toolkit to the character.

/** The characters Python's `str.isspace()` (and so `\s` and `strip()`) takes for whitespace, as a regex class body. */
export const PY_SPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** Whether a UTF-16 code unit is whitespace to Python (`str.isspace()`). */
export function isPySpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  if (c <= 0xa0) return c === 0x85 || c === 0xa0;
  // most letters of other scripts fall outside U+1680–U+3000: two tests
  if (c < 0x1680 || c > 0x3000) return false;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** Python's `str.lstrip()`: `pyLstrip('\u00a0 a ') === 'a '`. */
export function pyLstrip(s: string): string {
  let i = 0;
  while (i < s.length && isPySpace(s.charCodeAt(i))) i++;
  return i === 0 ? s : s.slice(i);
}

/** Python's `str.rstrip()`. */
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && isPySpace(s.charCodeAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Python's `str.rstrip(chars)` / `lstrip(chars)` with explicit characters: `stripChars('a;;', ';', 'end') === 'a'`. */
export function stripChars(s: string, chars: string, side: 'start' | 'end'): string {
  if (side === 'end') {
    let end = s.length;
    while (end > 0 && chars.includes(s[end - 1]!)) end--;
    return s.slice(0, end);
  }
  let start = 0;
  while (start < s.length && chars.includes(s[start]!)) start++;
  return s.slice(start);
}
