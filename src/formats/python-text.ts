// Python's idea of whitespace (str.isspace, \s, strip()) for the readers that follow Translate Toolkit to the character.

/** The characters Python's `str.isspace()` (and so `\s` and `strip()`) takes for whitespace, as a regex class body. */
export const PY_SPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING_SPACE = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${PY_SPACE}]+$`);

/** Python's `str.lstrip()`: `pyLstrip('\u00a0 a ') === 'a '`. */
export function pyLstrip(s: string): string {
  return s.replace(LEADING_SPACE, '');
}

/** Python's `str.rstrip()`. */
export function pyRstrip(s: string): string {
  return s.replace(TRAILING_SPACE, '');
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
