// Text escaping as lupdate and Translate Toolkit write TS files.
import { charRef, entityFor, stripInvalidXmlChars } from '../xml/index.js';

/** Whitespace outside ASCII that lupdate writes as hex character references. */
const SPECIAL = /[&<>"'\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const SPECIAL_ALL = /[&<>"'\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g;

/**
 * Escapes TS element text: `& < > " '` as entities, a carriage return as `&#13;`, non-ASCII
 * whitespace as `&#x…;`, and characters XML cannot hold dropped.
 * @example escapeTsText(`Save "%1"?\u00a0`) === 'Save &quot;%1&quot;?&#xa0;'
 */
export function escapeTsText(s: string): string {
  const clean = stripInvalidXmlChars(s);
  if (!SPECIAL.test(clean)) return clean;
  return clean.replace(SPECIAL_ALL, (c) => entityFor(c) ?? charRef(c));
}
