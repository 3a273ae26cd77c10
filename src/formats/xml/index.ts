// The shared XML toolkit of the formats: strict tokenizer with offsets, UTF-8 decoding, escaping, positions.
export { XmlScanner, XmlToken, type XmlTokenKind } from './scanner.js';
export { decodeUtf8, lineColumn } from '../text.js';
export { charRef, entityFor, escapeAttribute, escapeText, stripInvalidXmlChars } from './escape.js';
export { endOfLineAfter, indentAt, lineEnding, lineStart } from './position.js';
