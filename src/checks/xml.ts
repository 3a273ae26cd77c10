// XML markup in strings: whether a text is well-formed, and the element names it uses in order.
import { XmlScanner, XmlToken } from '../formats/xml/scanner.js';

const NAMED_ENTITY = /&(?!(?:lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);)([A-Za-z][A-Za-z0-9]*);/g;

/** The element names of `text` read as XML content (HTML named entities allowed), or null when not well-formed. */
export function xmlTags(text: string): string[] | null {
  const body = text.includes('&') ? text.replace(NAMED_ENTITY, '') : text;
  const tags: string[] = [];
  try {
    // the scanner checks the whole text for characters XML forbids as it is made: inside the try, as the tokens are
    const scanner = new XmlScanner(`<x>${body}</x>`, '');
    for (let k = scanner.next(); k !== XmlToken.Eof; k = scanner.next()) {
      if (k === XmlToken.StartTag && scanner.depth > 1) tags.push(scanner.name);
    }
  } catch {
    return null;
  }
  return tags;
}

/** Weblate looks at markup only where the source has some tag (or the `xml-text` flag says it is XML). */
export function looksLikeXml(source: string, xmlText: boolean): boolean {
  return xmlText || (source.includes('<') && /<[^>]+>/.test(source));
}

/** The text without its markup (for `max-length` with `xml-text`). */
export function stripXml(text: string): string {
  return text.replace(/<[^>]*>/g, '');
}
