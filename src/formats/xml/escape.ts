// Escaping text and attribute values for XML output, and dropping characters XML cannot hold.

/** Characters XML 1.0 cannot contain at all, even as references (plus lone surrogates). */
const INVALID_XML_CHARS = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Removes characters that XML 1.0 cannot store: `stripInvalidXmlChars('a\x01b') === 'ab'`. */
export function stripInvalidXmlChars(s: string): string {
  INVALID_XML_CHARS.lastIndex = 0;
  return INVALID_XML_CHARS.test(s) ? s.replace(INVALID_XML_CHARS, '') : s;
}

const TEXT_SPECIAL = /[&<>\r]/;
const ATTR_SPECIAL = /[&<>"\t\n\r]/;

const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Character reference for one character, lower-case hex as libxml2 and lupdate write it: `&#xa0;`. */
export function charRef(ch: string): string {
  return `&#x${ch.codePointAt(0)!.toString(16)};`;
}

/**
 * Escapes element text the way libxml2 serializes it: `&`, `<`, `>` as entities and a carriage
 * return as `&#13;` (so it survives line-end normalization). Invalid characters are dropped.
 */
export function escapeText(s: string): string {
  return escapeParsedText(stripInvalidXmlChars(s));
}

/** Escapes a double-quoted attribute value (`&`, `<`, `>`, `"` and whitespace that normalization would eat). */
export function escapeAttribute(s: string): string {
  return escapeParsedAttribute(stripInvalidXmlChars(s));
}

/** escapeText for text read from a parsed document, which cannot hold characters XML forbids (nothing to strip). */
export function escapeParsedText(s: string): string {
  return TEXT_SPECIAL.test(s) ? s.replace(/[&<>\r]/g, (c) => ENTITY[c]!) : s;
}

/** escapeAttribute for a value read from a parsed document (nothing to strip). */
export function escapeParsedAttribute(s: string): string {
  return ATTR_SPECIAL.test(s) ? s.replace(/[&<>"\t\n\r]/g, (c) => ENTITY[c]!) : s;
}

/** The entity for one of the five predefined characters or a whitespace control character. */
export function entityFor(ch: string): string | undefined {
  return ENTITY[ch];
}
