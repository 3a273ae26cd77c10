// Android's string escaping both ways, as Translate Toolkit (and so Weblate) reads and writes it.
//
// Reading collapses whitespace outside "…" quotes, drops the quotes, decodes \uXXXX, \n, \t, \\ and the plain
// escapes (\' \" \@ \? and backslash-space) and drops every other backslash escape with its character. Writing
// escapes \, newline, tab, ' and ", a leading @ or ?, and quotes a value whose spaces would otherwise collapse.
import { PY_SPACE, pyLstrip, pyRstrip } from '../python-text.js';

/**
 * Whitespace that collapses to one space: a run of two or more, or one character other than the plain space (a plain
 * space alone is left where it is: matching each one made replacing 5-10 times slower in a sentence).
 */
const SPACE_RUN = new RegExp(`[${PY_SPACE}]{2,}|[${PY_SPACE.replace(' ', '')}]`, 'g');
/** Whitespace that collapses: any of Python's but the plain space, or two plain spaces in a row. */
const COLLAPSING_SPACE = new RegExp(`[${PY_SPACE.replace(' ', '')}]| {2}`);

/** Whether text's whitespace is single plain spaces (nothing to collapse). */
function isSimpleText(text: string): boolean {
  return !COLLAPSING_SPACE.test(text);
}
/** What makes a text more than its plain value: collapsing whitespace, a quote, a backslash or a `<`. */
const NOT_PLAIN = new RegExp(`[${PY_SPACE.replace(' ', '')}"\\\\<]| {2}`);

/**
 * The value of an element's text when it needs no decoding (most values): single plain spaces, no `"`, `\\` or `<`;
 * `decodeText` would only strip its edges. Null for any other text.
 */
export function plainText(content: string): string | null {
  if (NOT_PLAIN.test(content)) return null;
  return content.charCodeAt(0) === 0x20 || content.charCodeAt(content.length - 1) === 0x20 ? pyLstrip(pyRstrip(content)) : content;
}

const QUOTED_PART = /((?<!\\)"(?:\\"|[^"])*(?<!\\)")/;
const UNICODE_ESCAPE = /\\u([a-fA-F0-9]{4})/g;
const PLAIN_ESCAPES = new Set([' ', '"', "'", '@', '?', '\\']);

function decodeUnicode(text: string): string {
  return text.indexOf('\\u') < 0 ? text : text.replace(UNICODE_ESCAPE, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

function decodeChar(_m: string, c: string): string {
  if (c === 'n' || c === 'N') return '\n';
  if (c === 't' || c === 'T') return '\t';
  // every other escape Android drops with its character
  return PLAIN_ESCAPES.has(c) ? c : '';
}

/** Decodes `\uXXXX` first and then the one-character escapes, in two passes as Translate Toolkit does. */
export function decodeEscapes(text: string): string {
  const unicode = decodeUnicode(text);
  return unicode.indexOf('\\') < 0 ? unicode : decodeCharEscapes(unicode);
}

/** `text.replace(/\\([^\n])/g, decodeChar)` without a callback per escape: a backslash before a line feed or at the end stays. */
function decodeCharEscapes(text: string): string {
  let out = '';
  let last = 0;
  for (let i = text.indexOf('\\'); i >= 0; ) {
    if (i + 1 < text.length && text.charCodeAt(i + 1) !== 0x0a) {
      out += text.slice(last, i) + decodeChar('', text[i + 1]!);
      last = i + 2;
      i = text.indexOf('\\', last);
    } else {
      i = text.indexOf('\\', i + 1);
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Whether decoding changed the first (`end` 0) or last (`end` 1) character: an escape stood there. */
function changedAt(raw: string, decoded: string, end: 0 | 1): boolean {
  if (raw === '' || decoded === '') return false;
  return end === 0 ? raw.charCodeAt(0) !== decoded.charCodeAt(0) : raw.charCodeAt(raw.length - 1) !== decoded.charCodeAt(decoded.length - 1);
}

/** What one run of character data decodes to, and whether its edges may be trimmed. */
export interface DecodedRun {
  text: string;
  cleanupStart: boolean;
  cleanupEnd: boolean;
}

/**
 * The state of one element's decoding: whether a `"` opened in an earlier run of text (between child
 * elements) is still open.
 */
export class AndroidDecoder {
  private insideQuoted = false;

  private stripPart(part: string): { text: string; stripped: boolean } {
    let text = part;
    if (text.startsWith('"')) {
      text = text.slice(1);
      this.insideQuoted = !this.insideQuoted;
    }
    const stripped = !this.insideQuoted;
    if (text.endsWith('"') && !text.endsWith('\\"')) {
      text = text.slice(0, -1);
      this.insideQuoted = !this.insideQuoted;
    }
    if (stripped) text = text.replace(SPACE_RUN, ' ');
    return { text, stripped };
  }

  /** Decodes one run of character data: quotes, whitespace, escapes. */
  run(content: string): DecodedRun {
    if (content === '') return { text: '', cleanupStart: false, cleanupEnd: false };
    if (!this.insideQuoted && content.indexOf('"') < 0) {
      // one unquoted part: whitespace collapses, then the escapes
      const joined = isSimpleText(content) ? content : content.replace(SPACE_RUN, ' ');
      // most values hold no escape: nothing decoded, both edges may be trimmed
      if (joined.indexOf('\\') < 0) return { text: joined, cleanupStart: true, cleanupEnd: true };
      const text = decodeEscapes(joined);
      return { text, cleanupStart: !changedAt(joined, text, 0), cleanupEnd: !changedAt(joined, text, 1) };
    }
    const parts = content.split(QUOTED_PART).filter((p) => p !== '');
    let cleanupStart = false;
    let cleanupEnd = false;
    let joined = '';
    for (let i = 0; i < parts.length; i++) {
      const { text, stripped } = this.stripPart(parts[i]!);
      if (i === 0) cleanupStart = stripped;
      cleanupEnd = stripped && !this.insideQuoted;
      joined += text;
    }
    const text = decodeEscapes(joined);
    // an escaped space at an edge is kept
    if (changedAt(joined, text, 0)) cleanupStart = false;
    if (changedAt(joined, text, 1)) cleanupEnd = false;
    return { text, cleanupStart, cleanupEnd };
  }
}

/**
 * The value of an element holding only text (entities already resolved): `decodeText('  "a  b" \\\'c ')` is `a  b 'c`.
 */
export function decodeText(content: string): string {
  const { text, cleanupStart, cleanupEnd } = new AndroidDecoder().run(content);
  let out = text;
  if (cleanupStart) out = pyLstrip(out);
  if (cleanupEnd) out = pyRstrip(out);
  return out;
}

const ESCAPE_CHARS = /[\\\n\t'"]/g;
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\t': '\\t', "'": "\\'", '"': '\\"' };
const MULTI_SPACE = /[ \n\t]{2}(?!\\n)/;
const MULTI_SPACE_ALL = /[ \n\t]{2}(?!\\n)/g;

/**
 * Escapes a translation for an Android value (before XML escaping). With `quoteWrapping` (a whole value) a
 * value starting or ending with a space, or holding two spaces in a row, is put in double quotes; without it
 * (text between inline tags) the second of two spaces becomes `\u0020`.
 * @example escapeAndroid("It's @home") // It\'s @home
 */
export function escapeAndroid(text: string, quoteWrapping = true): string {
  if (text === '') return '';
  let out = text.replace(ESCAPE_CHARS, (c) => ESCAPED[c]!);
  if (out.startsWith('@') || out.startsWith('?')) out = `\\${out}`;
  const multi = MULTI_SPACE.test(out);
  if (quoteWrapping && (out[0] === ' ' || out[out.length - 1] === ' ' || multi)) return `"${out}"`;
  if (!quoteWrapping && multi) return out.replace(MULTI_SPACE_ALL, (m) => m.replace('  ', ' \\u0020'));
  return out;
}
