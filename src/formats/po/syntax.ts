// The gettext PO syntax as Translate Toolkit reads it: entries with their comments, quoted strings and line spans.
import { FormatParseError } from '../../domain/errors.js';

/**
 * One entry of a PO file, as written: comment lines as the toolkit keeps them (left-trimmed; here without the
 * newline), strings as their quoted parts (`"abc"`, quotes included), and where the entry sits in the file.
 */
export interface PoEntry {
  /** Index of the entry's first line in `PoDocument.lines`, and one past its last line. */
  first: number;
  end: number;
  obsolete: boolean;
  /** `#` lines (translator comments). */
  translator: string[];
  /** `#.` lines (extracted comments). */
  extracted: string[];
  /** `#:` lines. */
  references: string[];
  /** `#,` lines. */
  flags: string[];
  /** Lines of the file holding `#,` comments, and `#|` comments (for rewriting). */
  flagLines: number[];
  previousLines: number[];
  prevMsgctxt: string[];
  prevMsgid: string[];
  prevMsgidPlural: string[];
  /** null: no `msgctxt` keyword. */
  msgctxt: string[] | null;
  msgid: string[];
  /** KDE `"_: …\n"` parts at the start of msgid. */
  msgidComments: string[];
  msgidPlural: string[];
  hasPlural: boolean;
  /** Singular msgstr parts (null for a plural entry). */
  msgstr: string[] | null;
  /** Plural msgstr forms in file order: the index as written and its parts. */
  msgstrPlural: Array<{ index: number; parts: string[] }> | null;
  /** Line of msgctxt (or msgid when there is none): where the entry's message starts after its comments. */
  keyLine: number;
  /** Line of `msgid` (the first line after comments and msgctxt), and of the first `msgstr` line. */
  msgidLine: number;
  msgstrLine: number;
}

export interface PoDocument {
  /** The text after the BOM, as decoded. */
  text: string;
  bom: boolean;
  /** The newline the toolkit splits on: the one after the first `msgid ` line (`\n`, `\r\n`, `\r`, `\r\r\n`…). */
  newline: string;
  /** The text split on `newline` (without it); joined again with `newline` they are `text`. Made when first read. */
  readonly lines: string[];
  entries: PoEntry[];
}

// Python's str.isspace over a line and its newline: every character whitespace (an empty line counts).
const BLANK = /^[\s\x1c-\x1f\x85]*$/;

function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const c = line.charCodeAt(0);
  // most lines start with a printable ASCII character: no regex needed
  if (c > 32 && c < 127) return false;
  return BLANK.test(line);
}

function isSpaceRun(s: string): boolean {
  return s.length > 0 && BLANK.test(s);
}

/** The newline Translate Toolkit uses for a file: the line end after the first line that starts with `msgid `. */
export function detectNewline(text: string): string {
  const at = Math.max(0, text.indexOf('\rmsgid ') + 1, text.indexOf('\nmsgid ') + 1);
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return '\n';
    if (c === 13) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) === 13) j++;
      return j < text.length && text.charCodeAt(j) === 10 ? text.slice(i, j + 1) : '\r';
    }
  }
  return '\n';
}

/** Lines by index: a list, or a text read line by line (a line's string is made when the parse reaches it). */
interface LineSource {
  readonly length: number;
  line(i: number): string;
}

function listLines(lines: readonly string[]): LineSource {
  return { length: lines.length, line: (i) => lines[i]! };
}

/** The lines of a text split on `newline`, without holding every line's string at once. */
class TextLines implements LineSource {
  readonly starts: number[] = [0];
  constructor(
    private readonly text: string,
    private readonly newline: string,
  ) {
    for (let at = text.indexOf(newline); at >= 0; at = text.indexOf(newline, at + newline.length)) this.starts.push(at + newline.length);
  }
  get length(): number {
    return this.starts.length;
  }
  line(i: number): string {
    const end = i + 1 < this.starts.length ? this.starts[i + 1]! - this.newline.length : this.text.length;
    return this.text.slice(this.starts[i], end);
  }
}

/**
 * Lines fed to one parse, and where each is in the file. The toolkit's lines end with the newline; ours do not, and
 * `tail` (the newline less its last character, `\r` of `\r\n`) stands in where the toolkit looks at it.
 */
class Cursor {
  private i = 0;
  private current = '';
  constructor(
    private readonly lines: LineSource,
    private readonly fileLine: (i: number) => number,
    private readonly skipBlank: (line: string) => boolean,
    readonly tail: string,
  ) {
    this.skip();
  }
  private skip(): void {
    for (;;) {
      if (this.i >= this.lines.length) {
        this.current = '';
        return;
      }
      const line = this.lines.line(this.i);
      if (!this.skipBlank(line)) {
        this.current = line;
        return;
      }
      this.i++;
    }
  }
  /** The next line not skipped, or '' at the end. */
  get next(): string {
    return this.current;
  }
  get eof(): boolean {
    return this.i >= this.lines.length;
  }
  /** Index (in this cursor's lines) of the next line. */
  get index(): number {
    return this.i;
  }
  /** The next line's line number in the file (1-based). */
  get line(): number {
    return this.fileLine(Math.min(this.i, this.lines.length - 1));
  }
  take(): string {
    const line = this.current;
    this.i++;
    this.skip();
    return line;
  }
}

class PoSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

// Most entries have no comment of some kind, no previous msgid, no plural: they share this empty list (never pushed to).
const NONE: string[] = [];
const NO_LINES: number[] = [];

function newEntry(first: number): PoEntry {
  return {
    first,
    end: first,
    obsolete: false,
    translator: NONE,
    extracted: NONE,
    references: NONE,
    flags: NONE,
    flagLines: NO_LINES,
    previousLines: NO_LINES,
    prevMsgctxt: NONE,
    prevMsgid: NONE,
    prevMsgidPlural: NONE,
    msgctxt: null,
    msgid: NONE,
    msgidComments: NONE,
    msgidPlural: NONE,
    hasPlural: false,
    msgstr: null,
    msgstrPlural: null,
    keyLine: -1,
    msgidLine: -1,
    msgstrLine: -1,
  };
}

/** `list` with `value` added: a new list in place of the shared empty one. */
function add<T>(list: T[], value: T): T[] {
  if (list === (NONE as unknown) || list === (NO_LINES as unknown)) return [value];
  list.push(value);
  return list;
}

/** Parts read by `message`, or the shared empty list when there were none. */
function orNone(parts: string[]): string[] {
  return parts.length === 0 ? NONE : parts;
}

/**
 * The quoted string starting at `start` of the next line, consumed; null when the line holds none there. A line
 * whose opening quote has no closing one is an error, as in the toolkit.
 */
function quoted(c: Cursor, start: number): string | null {
  if (c.eof) return null;
  const line = c.next;
  const left = line.indexOf('"', start);
  // the toolkit looks at what precedes the quote (or, without one, the rest of the line and its newline but the last character)
  if (left === start || onlySpaces(line, start, left, c.tail)) {
    const right = line.lastIndexOf('"');
    if (left !== right) {
      c.take();
      return line.slice(left, right + 1);
    }
    throw new PoSyntaxError(c.line, Math.max(left, start) + 1, 'end of line inside a string (a quote is missing)');
  }
  return null;
}

/** Whether line[from, to) is one or more whitespace characters (to -1: the rest of the line, then `tail`). */
function onlySpaces(line: string, from: number, to: number, tail: string): boolean {
  const end = to < 0 ? line.length : to;
  for (let i = from; i < end; i++) {
    const ch = line.charCodeAt(i);
    if (ch === 32 || ch === 9) continue;
    // printable ASCII is never whitespace; anything else is looked at by the toolkit's rule
    if (ch > 32 && ch < 127) return false;
    return isSpaceRun(to < 0 ? line.slice(from) + tail : line.slice(from, to));
  }
  return to < 0 ? end > from || isSpaceRun(tail) : end > from;
}

/** Reads `keyword "…"` and its continuation lines into `parts` (KDE `_:` comments into `comments` when given). */
function message(c: Cursor, keyword: string, start: number, parts: string[], comments?: string[]): void {
  if (!c.next.startsWith(keyword)) return;
  let s = quoted(c, start);
  while (s !== null) {
    if (comments === undefined || !s.startsWith('"_:')) {
      parts.push(s);
      s = quoted(c, 0);
    } else {
      // a msgid comment runs until a part holding an escaped newline
      while (s !== null) {
        comments.push(s);
        if (s.includes('\\n')) {
          s = quoted(c, 0);
          break;
        }
        s = quoted(c, 0);
      }
    }
  }
}

/** `#|` lines: the previous msgctxt, msgid and msgid_plural. */
function previous(c: Cursor, entry: PoEntry, mark: (i: number) => void): void {
  const at = c.line;
  const content: string[] = [];
  while (c.next.startsWith('#|') || c.next.startsWith('|')) {
    mark(c.index);
    const line = c.take();
    let p = line.indexOf('|') + 1;
    while (line[p] === ' ') p++;
    content.push(line.slice(p));
  }
  const sub = new Cursor(listLines(content), () => at, isBlank, c.tail);
  const ctx: string[] = [];
  const id: string[] = [];
  const plural: string[] = [];
  message(sub, 'msgctxt', 7, ctx);
  message(sub, 'msgid', 5, id);
  message(sub, 'msgid_plural', 12, plural);
  for (const part of ctx) entry.prevMsgctxt = add(entry.prevMsgctxt, part);
  for (const part of id) entry.prevMsgid = add(entry.prevMsgid, part);
  for (const part of plural) entry.prevMsgidPlural = add(entry.prevMsgidPlural, part);
  const parsed = ctx.length > 0 || id.length > 0 || plural.length > 0;
  if (!parsed) throw new PoSyntaxError(at, 1, 'a "#|" comment without a previous msgctxt, msgid or msgid_plural');
}

/** The comment lines before an entry; false when there were none. Stops at `#~` (an obsolete entry follows). */
function comments(c: Cursor, entry: PoEntry, fileIndex: (i: number) => number): boolean {
  let any = false;
  for (;;) {
    const next = c.next;
    const line = next.charCodeAt(0) === 35 ? next : next.trimStart();
    if (line === '' || (line[0] !== '#' && line[0] !== '|')) return any;
    const kind = line[1];
    if (kind === '.') {
      entry.extracted = add(entry.extracted, line);
    } else if (line[0] === '|' || kind === '|') {
      previous(c, entry, (i) => {
        entry.previousLines = add(entry.previousLines, fileIndex(i));
      });
      any = true;
      if (c.next === '') return any;
      continue;
    } else if (kind === ':') {
      entry.references = add(entry.references, line);
    } else if (kind === ',') {
      entry.flags = add(entry.flags, line);
      entry.flagLines = add(entry.flagLines, fileIndex(c.index));
    } else if (kind === '~') {
      return any;
    } else {
      entry.translator = add(entry.translator, line);
    }
    c.take();
    any = true;
  }
}

/** msgctxt, msgid, then msgstr or msgid_plural with msgstr[n]; false when the entry has no complete message. */
function messages(c: Cursor, entry: PoEntry, fileIndex: (i: number) => number): boolean {
  const ctx: string[] = [];
  entry.keyLine = fileIndex(c.index);
  message(c, 'msgctxt', 7, ctx);
  if (ctx.length > 0) entry.msgctxt = ctx;
  entry.msgidLine = fileIndex(c.index);
  const msgid: string[] = [];
  const msgidComments: string[] = [];
  message(c, 'msgid', 5, msgid, msgidComments);
  entry.msgid = orNone(msgid);
  entry.msgidComments = orNone(msgidComments);
  if (entry.msgid.length === 0 && entry.msgidComments.length === 0) return false;
  entry.msgstrLine = fileIndex(c.index);
  const msgstr: string[] = [];
  message(c, 'msgstr', 6, msgstr);
  if (msgstr.length > 0) {
    entry.msgstr = msgstr;
    return true;
  }
  const pluralComments: string[] = [];
  const msgidPlural: string[] = [];
  message(c, 'msgid_plural', 12, msgidPlural, pluralComments);
  entry.msgidPlural = orNone(msgidPlural);
  if (entry.msgidPlural.length === 0 && pluralComments.length === 0) return false;
  entry.hasPlural = entry.msgidPlural.length > 0;
  entry.msgstrLine = fileIndex(c.index);
  const forms: Array<{ index: number; parts: string[] }> = [];
  for (;;) {
    const line = c.next;
    if (!line.startsWith('msgstr[')) break;
    const right = line.indexOf(']', 7);
    if (right < 0) break;
    const at = c.line;
    const parts: string[] = [];
    message(c, 'msgstr[', right + 1, parts);
    if (parts.length === 0) break;
    const written = line.slice(7, right);
    if (!/^\s*[+-]?\d+\s*$/.test(written)) throw new PoSyntaxError(at, 8, `plural form index "${written}" is not a number`);
    const index = Number(written);
    const form = forms.find((f) => f.index === index);
    if (form) form.parts.push(...parts);
    else forms.push({ index, parts });
  }
  if (forms.length === 0) return false;
  entry.msgstrPlural = forms;
  return true;
}

/** `#~` lines of an obsolete entry, as the toolkit cuts them: up to and including its msgstr lines. */
function obsoleteLines(c: Cursor): string[] {
  const out: string[] = [];
  while (c.next.startsWith('#~')) {
    const content = c.take().slice(2).trimStart();
    out.push(content);
    if (content.startsWith('msgstr')) {
      while (c.next.startsWith('#~ "') || c.next.startsWith('#~ msgstr')) out.push(c.take().slice(3));
      break;
    }
  }
  return out;
}

/** One entry, or null when nothing more parses. */
function entryAt(c: Cursor, fileIndex: (i: number) => number): PoEntry | null {
  const entry = newEntry(fileIndex(c.index));
  const hadComments = comments(c, entry, fileIndex);
  if (c.next.startsWith('#~')) {
    const at = c.line;
    const lines = obsoleteLines(c);
    if (lines.length > 0) {
      // an obsolete entry is parsed from its lines with the `#~` taken off; only its presence matters here
      const sub = new Cursor(
        listLines(lines),
        () => at,
        (l) => l !== '' && isBlank(l),
        c.tail,
      );
      const inner = newEntry(entry.first);
      const innerComments = comments(sub, inner, () => -1);
      const innerMessages = messages(sub, inner, () => -1);
      if (innerComments || innerMessages) {
        entry.obsolete = true;
        entry.msgctxt = inner.msgctxt;
        entry.msgid = inner.msgid;
        entry.msgidComments = inner.msgidComments;
        entry.msgidPlural = inner.msgidPlural;
        entry.hasPlural = inner.hasPlural;
        entry.msgstr = inner.msgstr;
        entry.msgstrPlural = inner.msgstrPlural;
        entry.end = fileIndex(c.index);
        return entry;
      }
    }
  }
  const hadMessages = messages(c, entry, fileIndex);
  if (!hadComments && !hadMessages) return null;
  entry.end = fileIndex(c.index);
  return entry;
}

/**
 * Splits and parses decoded PO text (BOM already taken off) the way Translate Toolkit does: its newline rule,
 * blank lines ignored, comments attached to the entry after them, obsolete `#~` entries kept (flagged).
 * Throws FormatParseError (line and column in the file) where the toolkit stops with a syntax error. With `onEntry`
 * each entry goes to it as it is read and `entries` stays empty (a reader that keeps only units holds no entries).
 */
export function parsePoText(text: string, bom: boolean, filename: string, onEntry?: (entry: PoEntry, newline: string) => void): PoDocument {
  const newline = detectNewline(text);
  const source = new TextLines(text, newline);
  const cursor = new Cursor(source, (i) => i + 1, isBlank, newline.slice(0, -1));
  const entries: PoEntry[] = [];
  const own = (i: number) => i;
  try {
    for (;;) {
      const entry = entryAt(cursor, own);
      if (!entry) break;
      // an entry ends where the next begins, less the blank lines between them
      while (entry.end > entry.first && isBlank(source.line(entry.end - 1))) entry.end--;
      if (onEntry) onEntry(entry, newline);
      else entries.push(entry);
    }
    if (!cursor.eof) {
      const line = cursor.next;
      throw new PoSyntaxError(cursor.line, 1, `unexpected ${JSON.stringify(line.length > 40 ? `${line.slice(0, 40)}…` : line)}`);
    }
  } catch (e) {
    if (e instanceof PoSyntaxError) throw new FormatParseError(filename, e.line, e.column, e.reason);
    throw e;
  }
  // the lines as strings, for writes and messages: made when first asked for
  let lines: string[] | undefined;
  return {
    text,
    bom,
    newline,
    get lines() {
      lines ??= text.split(newline);
      return lines;
    },
    entries,
  };
}

const UNESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };

/**
 * The text of quoted parts: quotes taken off, escapes decoded (`\n \t \r \" \\`; any other `\x` becomes `x`, as
 * Weblate's Translate Toolkit reads it).
 */
export function unquote(parts: readonly string[]): string {
  if (parts.length === 1) return decodeEscapes(parts[0]!.slice(1, -1));
  let out = '';
  for (const p of parts) out += decodeEscapes(p.slice(1, -1));
  return out;
}

function decodeEscapes(s: string): string {
  let at = s.indexOf('\\');
  if (at < 0) return s;
  let out = '';
  let from = 0;
  while (at >= 0 && at + 1 < s.length) {
    const c = s[at + 1]!;
    out += s.slice(from, at) + (UNESCAPES[c] ?? c);
    from = at + 2;
    at = s.indexOf('\\', from);
  }
  return out + s.slice(from);
}

/** The toolkit's "null" string: no parts, or one empty one. */
export function isNull(parts: readonly string[] | null): boolean {
  return parts === null || parts.length === 0 || (parts.length === 1 && parts[0] === '""');
}
