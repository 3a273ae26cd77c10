// Reads an Apple .strings text line by line as Translate Toolkit's strings dialect does: entries, their comments,
// their values (continuation lines joined) and the offsets the writer splices.
import { FormatParseError } from '../../domain/errors.js';
import { isPySpace, pyLstrip, pyRstrip, stripChars } from '../python-text.js';
import { lineColumn } from '../text.js';

/** One `"key" = "value";` entry (or a line without `=`, which the toolkit reads as a key with an empty value). */
export interface StringsEntry {
  /** The key without its quotes, `\"` read as `"` (the toolkit's `name`, Weblate's context). */
  name: string;
  /** The value without its quotes and `;`, `\"` read as `"`, other escapes still written (the toolkit's `value`). */
  value: string;
  /** Comment lines before the entry as written ('' for a blank line), then the entry's inline `/* … *\/` comments. */
  comments: string[];
  hasDelimiter: boolean;
  /** Offset of the entry's first line, and of the first of the comment lines right above it (no blank line between). */
  lineStart: number;
  attachedStart: number;
  /** Offset just past the entry's last line (its line break included). */
  end: number;
  /** The span a new value replaces: from the value's opening quote to the `;` that ends it (-1 without `=`). */
  valueStart: number;
  valueEnd: number;
}

export interface StringsDocument {
  filename: string;
  text: string;
  entries: StringsEntry[];
}

const QUOTE = 0x22;
const SEMICOLON = 0x3b;
const BACKSLASH = 0x5c;
const EQUALS = 0x3d;

function pyStrip(s: string): string {
  return pyRstrip(pyLstrip(s));
}

/** The first character of a line that is not whitespace (Python's view), or ''. */
function firstChar(line: string): string {
  for (let i = 0; i < line.length; i++) if (!isPySpace(line.charCodeAt(i))) return line[i]!;
  return '';
}

function isCommentOneLine(line: string): string | null {
  const first = firstChar(line);
  // entry lines start with a quote or a key: no comment starts that way
  if (first !== '#' && first !== '!' && first !== '/' && first !== ';') return null;
  const stripped = pyStrip(line);
  for (const starter of ['#', '!', '//', ';']) if (stripped.startsWith(starter)) return pyStrip(stripped.slice(starter.length));
  if (stripped.startsWith('/*') && stripped.endsWith('*/')) return pyStrip(stripped.slice(2, -2));
  return null;
}

function isCommentStart(line: string): string | null {
  if (firstChar(line) !== '/') return null;
  const stripped = pyStrip(line);
  // the toolkit cuts two characters off the unstripped line here
  return stripped.startsWith('/*') && !stripped.endsWith('*/') ? pyStrip(line.slice(2)) : null;
}

function isCommentEnd(line: string): string | null {
  const stripped = pyStrip(line);
  return !stripped.startsWith('/*') && stripped.endsWith('*/') ? pyStrip(line.slice(0, -2)) : null;
}

/** The text of a comment line for notes (the toolkit's `getnotes()` reading of one line). */
export function commentNotes(comments: readonly string[]): string {
  const out: string[] = [];
  let multi = false;
  for (const line of comments) {
    if (pyStrip(line) === '/* No comment provided by engineer. */' || (line === '' && !multi)) continue;
    let parsed: string | null;
    if (!multi && (parsed = isCommentOneLine(line)) !== null) out.push(parsed);
    else if (!multi && (parsed = isCommentStart(line)) !== null) {
      out.push(parsed);
      multi = true;
    } else if (multi && (parsed = isCommentEnd(line)) !== null) {
      out.push(parsed);
      multi = false;
    } else out.push(line);
  }
  return out.join('\n');
}

const NO_COMMENTS: string[] = [];

/** `/* … *\/` comments outside quotes taken out of an entry line, with the spaces around them (the newer toolkit's reading). */
function stripInlineComments(line: string): { line: string; comments: string[] } {
  if (!line.includes('/*')) return { line, comments: NO_COMMENTS };
  const comments: string[] = [];
  let result = '';
  let inQuote = false;
  let escaped = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (escaped) {
      result += c;
      escaped = false;
      i++;
    } else if (c === '"') {
      inQuote = !inQuote;
      result += c;
      i++;
    } else if (c === '\\') {
      escaped = true;
      result += c;
      i++;
    } else if (!inQuote && line.startsWith('/*', i)) {
      const start = i;
      result = result.replace(/[ \t]+$/, '');
      const close = line.indexOf('*/', i + 2);
      if (close < 0) {
        comments.push(line.slice(start));
        i = line.length;
      } else {
        comments.push(line.slice(start, close + 2));
        i = close + 2;
        while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
      }
    } else {
      result += c;
      i++;
    }
  }
  return { line: result, comments };
}

/** Position of the `=` after the (quoted) key, or -1; a quoted key that never closes is an error (`fail` with its column). */
function findDelimiter<L>(line: string, at: L, fail: (at: L, column: number, reason: string) => never): number {
  let start = 0;
  while (start < line.length && isPySpace(line.charCodeAt(start))) start++;
  if (start < line.length && line.charCodeAt(start) === QUOTE) {
    // the key ends at the first quote after it that no backslash precedes
    let close = line.indexOf('"', start + 1);
    while (close >= 0 && line.charCodeAt(close - 1) === BACKSLASH) close = line.indexOf('"', close + 1);
    if (close < 0) fail(at, line.length, 'the quoted key is not closed');
    start = close;
  }
  // a loop, not indexOf: the line is a slice of a two-byte text, where V8's indexOf can be slow
  for (let pos = start; pos < line.length; pos++) {
    if (line.charCodeAt(pos) !== EQUALS) continue;
    // the toolkit reads the character before an `=` at the start of a line as the line's last one
    const before = pos === 0 ? line.charCodeAt(line.length - 1) : line.charCodeAt(pos - 1);
    if (before !== BACKSLASH) return pos;
  }
  return -1;
}

/** End of `s` after stripping trailing Python whitespace, then each of `chars` in turn (every trailing one). */
function strippedEnd(s: string, first: number, second: number): number {
  let e = s.length;
  while (e > 0 && isPySpace(s.charCodeAt(e - 1))) e--;
  while (e > 0 && s.charCodeAt(e - 1) === first) e--;
  while (e > 0 && s.charCodeAt(e - 1) === second) e--;
  // the toolkit keeps the character after a trailing backslash (an escaped quote stays escaped)
  if (e > 0 && s.charCodeAt(e - 1) === BACKSLASH && e < s.length) e++;
  return e;
}

/** `s.slice(0, e)` with leading Python whitespace and then leading `"` stripped, and `\"` read as `"`. */
function strippedFrom(s: string, e: number): string {
  let b = 0;
  while (b < e && isPySpace(s.charCodeAt(b))) b++;
  while (b < e && s.charCodeAt(b) === QUOTE) b++;
  const out = b === 0 && e === s.length ? s : s.slice(b, e);
  return out.includes('\\"') ? out.replaceAll('\\"', '"') : out;
}

/** The toolkit's key: spaces, then quotes stripped at both ends (a quote after a backslash kept), `\"` read as `"`. */
export function keyStrip(key: string): string {
  return strippedFrom(key, strippedEnd(key, QUOTE, QUOTE));
}

/** The toolkit's value: as a key, with the `;` stripped first at the end. */
export function valueStrip(value: string): string {
  return strippedFrom(value, strippedEnd(value, SEMICOLON, QUOTE));
}

function isContinuation(value: string): boolean {
  const stripped = pyRstrip(value);
  return stripped === '' || stripped[stripped.length - 1] !== ';';
}

interface Line {
  text: string;
  start: number;
  /** Offset past its line break. */
  next: number;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const lf = text.indexOf('\n', start);
    const end = lf < 0 ? text.length : lf;
    let stop = end;
    while (stop > start && text.charCodeAt(stop - 1) === 0x0d) stop--;
    lines.push({ text: text.slice(start, stop), start, next: lf < 0 ? text.length : lf + 1 });
    if (lf < 0) return lines;
    start = lf + 1;
  }
}

/** Where the value of an entry line begins: after the `=`, its spaces and inline comments. */
function valueStartIn(raw: string, delimiter: number): number {
  let i = delimiter + 1;
  for (;;) {
    while (i < raw.length && (raw[i] === ' ' || raw[i] === '\t')) i++;
    if (!raw.startsWith('/*', i)) return i;
    const close = raw.indexOf('*/', i + 2);
    if (close < 0) return raw.length;
    i = close + 2;
  }
}

/**
 * Reads the text of a .strings file. Entries are listed in file order; comment-only blocks are not entries.
 * Throws FormatParseError for a quoted key that never closes, and (as Weblate's validity check) for a file whose
 * first entry has no `=`.
 * @example readStringsDocument('"a" = "b";\n', 'en.lproj/Localizable.strings').entries[0].value // 'b'
 */
export function readStringsDocument(text: string, filename: string): StringsDocument {
  const entries: StringsEntry[] = [];
  const lines = splitLines(text);
  let comments: string[] = [];
  let inMultilineComment = false;
  let wasHeader = false;
  let firstUnit = true;
  let attachedStart = -1;
  let pending: StringsEntry | null = null;

  const fail = (line: Line, column: number, reason: string): never => {
    const at = lineColumn(text, line.start + column);
    throw new FormatParseError(filename, at.line, at.column, reason);
  };
  const finish = (entry: StringsEntry, last: Line): void => {
    entry.end = last.next;
    if (firstUnit && !entry.hasDelimiter) fail(last, 0, `no '=' in the first entry ("${entry.name}"): not a .strings file`);
    firstUnit = false;
    entries.push(entry);
    comments = [];
    attachedStart = -1;
  };

  for (const line of lines) {
    const raw = line.text;
    if (pending) {
      pending.value += pyLstrip(raw);
      if (!isContinuation(pending.value)) {
        pending.value = valueStrip(pending.value);
        pending.valueEnd = line.start + pyRstrip(raw).length - 1;
        finish(pending, line);
        pending = null;
      }
      continue;
    }
    if (inMultilineComment || isCommentOneLine(raw) !== null || isCommentStart(raw) !== null) {
      comments.push(raw);
      if (attachedStart < 0) attachedStart = line.start;
      if (inMultilineComment && isCommentEnd(raw) !== null) inMultilineComment = false;
      else if (isCommentOneLine(raw) === null && !inMultilineComment && isCommentStart(raw) !== null) inMultilineComment = true;
      continue;
    }
    if (pyRstrip(raw) === '') {
      comments.push('');
      attachedStart = -1;
      // the first comment block followed by a blank line is the file's header, not an entry's comment
      if (!wasHeader && comments.some((c) => c !== '')) {
        comments = [];
        wasHeader = true;
        firstUnit = false;
      }
      continue;
    }
    const inline = stripInlineComments(raw);
    const delimiter = findDelimiter(inline.line, line, fail);
    const entry: StringsEntry = {
      name: '',
      value: '',
      comments: comments.length === 0 && inline.comments.length === 0 ? [] : [...comments, ...inline.comments],
      hasDelimiter: delimiter >= 0,
      lineStart: line.start,
      attachedStart: attachedStart < 0 ? line.start : attachedStart,
      end: line.next,
      valueStart: -1,
      valueEnd: -1,
    };
    if (delimiter < 0) {
      entry.name = keyStrip(inline.line);
      finish(entry, line);
      continue;
    }
    entry.name = keyStrip(inline.line.slice(0, delimiter));
    const valuePart = inline.line.slice(delimiter + 1);
    const rawDelimiter = inline.comments.length === 0 ? delimiter : findDelimiter(raw, line, fail);
    entry.valueStart = line.start + valueStartIn(raw, rawDelimiter < 0 ? delimiter : rawDelimiter);
    const stripped = pyLstrip(valuePart);
    if (isContinuation(stripped)) {
      entry.value = stripped;
      pending = entry;
      continue;
    }
    entry.value = valueStrip(valuePart);
    entry.valueEnd = line.start + pyRstrip(raw).length - 1;
    finish(entry, line);
  }
  if (pending) {
    pending.valueEnd = text.length;
    finish(pending, lines[lines.length - 1]!);
  }
  return { filename, text, entries };
}
