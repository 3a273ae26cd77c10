// Writing PO strings as Weblate's Translate Toolkit does: escapes, gettext-compatible wrapping, the `""` first line.

/** Weblate's default line width for PO files (`po_line_wrap`). */
export const DEFAULT_WIDTH = 77;

const ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r' };

export function escapePo(text: string): string {
  return text.replace(/[\\"\n\t\r]/g, (c) => ESCAPES[c]!);
}

// Characters gettext counts two columns wide (East Asian Wide and Fullwidth), and zero-width ones.
const WIDE =
  /[\u1100-\u115f\u231a\u231b\u2329\u232a\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648-\u2653\u267f\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6]|[\u{16fe0}-\u{18cff}\u{1b000}-\u{1b2ff}\u{1f004}\u{1f0cf}\u{1f18e}\u{1f191}-\u{1f19a}\u{1f200}-\u{1f251}\u{1f300}-\u{1f64f}\u{1f680}-\u{1f6ff}\u{1f7e0}-\u{1f7eb}\u{1f90c}-\u{1f9ff}\u{1fa70}-\u{1faff}\u{20000}-\u{3fffd}]/u;
const ZERO = /[\p{Mn}\p{Me}\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/u;

/** Display width as the unicode-width crate counts it (what Weblate's wrapper measures). */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x300) {
      w += c < 0x20 || (c >= 0x7f && c < 0xa0) ? 0 : 1;
    } else if (ZERO.test(ch)) {
      // combining marks and invisible formatting take no column
    } else {
      w += WIDE.test(ch) ? 2 : 1;
    }
  }
  return w;
}

// Word segmentation as Unicode's default word boundaries put it (UAX #29), which is all the wrapper looks at:
// runs of letters/digits (with `'`, `.`, `:` … between them), runs of spaces, Katakana runs, and otherwise one
// character (with its combining marks) per segment; ideographs, kana and Thai-like scripts one character each.
const LETTER = /[\p{L}\p{N}\p{Pc}\u00b7\u0387\u05f3\u05f4]/u;
const SINGLE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f]/u;
const KATAKANA = /[\p{Script=Katakana}\u30fc]/u;
const MARK = /\p{M}|\u200d|\ufe0e|\ufe0f/u;
const MID = new Set(["'", '.', ':', '\u2019', '\u2018', ',', ';', '\u00b7', '\ufe13', '\ufe52', '\ufe55', '\uff07', '\uff0e', '\uff1a']);

function kindOf(ch: string): 'space' | 'letter' | 'single' | 'kata' | 'other' {
  if (ch === ' ') return 'space';
  if (SINGLE.test(ch)) return 'single';
  if (KATAKANA.test(ch)) return 'kata';
  if (LETTER.test(ch)) return 'letter';
  return 'other';
}

function segments(text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  let i = 0;
  while (i < chars.length) {
    const kind = kindOf(chars[i]!);
    let j = i + 1;
    const marks = () => {
      while (j < chars.length && MARK.test(chars[j]!)) j++;
    };
    marks();
    if (kind === 'space') {
      while (j < chars.length && chars[j] === ' ') j++;
    } else if (kind === 'letter') {
      for (;;) {
        if (j < chars.length && kindOf(chars[j]!) === 'letter') {
          j++;
          marks();
        } else if (j + 1 < chars.length && MID.has(chars[j]!) && kindOf(chars[j + 1]!) === 'letter') {
          j += 2;
          marks();
        } else break;
      }
    } else if (kind === 'kata') {
      while (j < chars.length && (kindOf(chars[j]!) === 'kata' || MARK.test(chars[j]!))) j++;
    }
    out.push(chars.slice(i, j).join(''));
    i = j;
  }
  return out;
}

const MERGEABLE = new Set(['/', '}', ')', '>', '-', ' ', '\t']);
const LINE_BREAK = new Set(['/', '}', ')', '>', '-']);
const PUNCTUATION = new Set([...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~']);

function isSpace(ch: string | null): boolean {
  return ch !== null && /\s/u.test(ch);
}

/** Chunks the wrapper may not split: words with their trailing spaces and punctuation; an escape ends its chunk. */
function chunks(text: string): string[] {
  const out: string[] = [];
  let chunk: string | null = null;
  let last: string | null = null;
  let secondLast: string | null = null;
  const add = (segment: string): void => {
    const first = [...segment][0]!;
    const merge =
      last !== null &&
      (secondLast === null || (last !== '\\' && last !== 'n') || secondLast !== '\\') &&
      ((segment.length === 1 && MERGEABLE.has(segment)) ||
        (first !== '{' && first !== '(' && !LINE_BREAK.has(last) && (PUNCTUATION.has(last) || (PUNCTUATION.has(first) && !isSpace(last)))));
    if (merge) {
      chunk = (chunk ?? '') + segment;
    } else {
      if (chunk !== null) out.push(chunk);
      chunk = segment;
    }
    const fallback = merge ? last : null;
    const cs = [...segment];
    // as Weblate's wrapper keeps them: the segment's last-but-one character, then its last
    if (cs.length > 1) {
      last = cs[cs.length - 2]!;
      secondLast = cs[cs.length - 1]!;
    } else {
      last = cs[0]!;
      secondLast = fallback;
    }
  };
  for (const segment of segments(text)) {
    // (the wrapper compares the segment's UTF-8 length)
    if (last === '\\' && (segment.length > 1 || segment.charCodeAt(0) > 0x7f)) {
      // an escape's letter stays with the backslash and ends the chunk; the rest of the word starts the next one
      const first = [...segment][0]!;
      out.push((chunk ?? '') + first);
      chunk = null;
      const rest = segment.slice(first.length);
      if (rest !== '') add(rest);
      continue;
    }
    add(segment);
  }
  if (chunk !== null) out.push(chunk);
  return out;
}

/** Escaped text cut into lines of at most `width` columns where it can be; every escaped newline ends a line. */
export function wrapEscaped(text: string, width: number): string[] {
  if (text === '') return [];
  const lines: string[] = [];
  let current: string | null = null;
  let currentWidth = 0;
  for (const chunk of chunks(text)) {
    const w = displayWidth(chunk);
    if (current !== null && currentWidth + w > width) {
      lines.push(current);
      current = null;
      currentWidth = 0;
    }
    current = (current ?? '') + chunk;
    currentWidth += w;
    if (chunk.endsWith('\\n')) {
      lines.push(current);
      current = null;
      currentWidth = 0;
    }
  }
  if (current !== null) lines.push(current);
  return lines;
}

/**
 * A string as quoted PO lines (`"…"`): escaped, wrapped at `width` (-1: one line), with an empty `""` first line
 * when it takes several lines or its one line is longer than width − 6.
 * @example quoteLines('Hello\nWorld', 77) // ['""', '"Hello\\n"', '"World"']
 */
export function quoteLines(text: string, width = DEFAULT_WIDTH): string[] {
  const escaped = escapePo(text);
  if (width === -1) return [`"${escaped}"`];
  const lines = wrapEscaped(escaped, width);
  const out: string[] = [];
  if (lines.length >= 2 || (lines.length === 1 && [...lines[0]!].length > width - 6)) out.push('""');
  for (const l of lines) out.push(`"${l}"`);
  return out;
}
