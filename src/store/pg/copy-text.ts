// PostgreSQL's COPY text format: rows of values as one `COPY … FROM STDIN` takes them (tab-separated, \N for null).
import { toParam } from './values.js';

/** The characters COPY's text format escapes with a backslash. */
const SPECIAL = /[\\\n\r\t]/;
const SPECIALS = /[\\\n\r\t]/g;
const ESCAPED: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * One value as a field of COPY's text format: the text a statement parameter would carry (toParam: bytes in bytea's
 * hex form, U+0000 refused), its backslashes, tabs and line ends escaped; null as `\N`.
 * @example copyField('a\tb') // 'a\\tb'
 */
export function copyField(value: unknown): string {
  const text = toParam(value);
  if (text === null) return '\\N';
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPED[c]!) : text;
}

/**
 * Rows (arrays of values in the COPY's column order) as lines of COPY's text format.
 * @example copyLines([[1n, 'x'], [2n, null]]) // '1\tx\n2\t\\N\n'
 */
export function copyLines(rows: readonly (readonly unknown[])[]): string {
  let out = '';
  for (const row of rows) {
    for (let c = 0; c < row.length; c++) out += c === 0 ? copyField(row[c]) : `\t${copyField(row[c])}`;
    out += '\n';
  }
  return out;
}
