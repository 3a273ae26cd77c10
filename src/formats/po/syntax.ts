// The gettext PO syntax as Translate Toolkit reads it: entries with their comments, quoted strings and line spans.
import { FormatParseError } from '../../domain/errors.js';

/**
 * Where a message's quoted parts sit in the document's text, three numbers a part in file order: the offset of its
 * opening quote, of its closing quote, and 1 when a backslash lies between them (0 otherwise). `unquote` reads their
 * text; a part without a backslash is then one slice of the file.
 */
export type Parts = number[];

/**
 * One entry of a PO file, as written: comment lines as the toolkit keeps them (left-trimmed; here without the
 * newline), strings as their quoted parts in the document's text, and where the entry sits in the file.
 */
export interface PoEntry {
  /** The document's text, which the entry's `Parts` point into. */
  text: string;
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
  prevMsgctxt: Parts;
  prevMsgid: Parts;
  prevMsgidPlural: Parts;
  /** null: no `msgctxt` keyword. */
  msgctxt: Parts | null;
  msgid: Parts;
  /** KDE `"_: …\n"` parts at the start of msgid. */
  msgidComments: Parts;
  msgidPlural: Parts;
  hasPlural: boolean;
  /** Singular msgstr parts (null for a plural entry). */
  msgstr: Parts | null;
  /** Plural msgstr forms in file order: the index as written and its parts. */
  msgstrPlural: Array<{ index: number; parts: Parts }> | null;
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

/** Whether text[start, end) is a blank line for the toolkit. */
function isBlank(text: string, start: number, end: number): boolean {
  if (start === end) return true;
  const c = text.charCodeAt(start);
  // most lines start with a printable ASCII character: no regex needed
  if (c > 32 && c < 127) return false;
  return BLANK.test(text.slice(start, end));
}

function isSpaceRun(s: string): boolean {
  return s.length > 0 && BLANK.test(s);
}

/** The offset of text[start, end) with JavaScript's `trimStart` applied. */
function trimStartAt(text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) continue;
    if (c > 32 && c < 127) return i;
    return end - text.slice(i, end).trimStart().length;
  }
  return end;
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

/**
 * Lines fed to one parse, as offsets into the text: the file's lines (split on its newline as the cursor moves, none
 * sliced), or given ranges of them (the content of `#|` and `#~` lines). The toolkit's lines end with the newline;
 * ours do not, and `tail` (the newline less its last character, `\r` of `\r\n`) stands in where the toolkit looks at it.
 */
class Cursor {
  /** The next line not skipped, text[start, end) (start === end at the end). */
  start = 0;
  end = 0;
  /** Index (in this cursor's lines) of the next line; one past the last line taken. */
  index = 0;
  taken = 0;
  eof = false;
  /** Offsets of the last part read (see `quoted`). */
  open = 0;
  close = 0;
  escaped = 0;
  // the first backslash at or after the last part's opening quote (text.length: none): one search per backslash
  private backslash = -1;
  // the file's lines: where the line at `index` ends and the next one starts (-1: it is the last)
  private rawEnd = 0;
  private nextStart = 0;

  constructor(
    readonly text: string,
    private readonly newline: string,
    /** null: the file's lines; otherwise [start, end, start, end…] */
    private readonly ranges: number[] | null,
    /** For given ranges: the file line that errors name (1-based). */
    private readonly at: number,
    /** An empty line is not skipped (obsolete entries'). */
    private readonly emptyStops: boolean,
    readonly tail: string,
  ) {
    if (ranges === null) this.split(0);
    this.skip();
  }

  private split(from: number): void {
    const nl = this.text.indexOf(this.newline, from);
    this.start = from;
    this.rawEnd = nl < 0 ? this.text.length : nl;
    this.nextStart = nl < 0 ? -1 : nl + this.newline.length;
  }

  private skip(): void {
    const text = this.text;
    const ranges = this.ranges;
    for (;;) {
      let start: number;
      let end: number;
      if (ranges === null) {
        if (this.eof) break;
        start = this.start;
        end = this.rawEnd;
      } else {
        if (this.index * 2 >= ranges.length) break;
        start = ranges[this.index * 2]!;
        end = ranges[this.index * 2 + 1]!;
      }
      if (!isBlank(text, start, end) || (this.emptyStops && start === end)) {
        this.start = start;
        this.end = end;
        return;
      }
      this.advance();
    }
    this.eof = true;
    this.start = this.end = text.length;
  }

  private advance(): void {
    this.index++;
    if (this.ranges !== null) return;
    if (this.nextStart < 0) this.eof = true;
    else this.split(this.nextStart);
  }

  /** Whether the next line starts with `prefix`. */
  startsWith(prefix: string): boolean {
    const last = this.start + prefix.length - 1;
    // the last character first: the keywords differ there (`msgid`, `msgstr`, `msgctxt`), most calls fail on it
    return last < this.end && this.text.charCodeAt(last) === prefix.charCodeAt(prefix.length - 1) && this.text.startsWith(prefix, this.start);
  }

  /** The next line's line number in the file (1-based). */
  get line(): number {
    if (this.ranges !== null) return this.at;
    return this.eof ? this.index : this.index + 1;
  }

  /** The file's line index of this cursor's line `i` (-1 for given ranges: they are not rewritten). */
  fileIndex(i: number): number {
    return this.ranges === null ? i : -1;
  }

  take(): void {
    this.advance();
    this.taken = this.index;
    this.skip();
  }

  /** Whether a backslash lies between offsets `open` and `close` of the text (called with `open` increasing). */
  backslashBetween(open: number, close: number): boolean {
    if (this.backslash < open) {
      const at = this.text.indexOf('\\', open);
      this.backslash = at < 0 ? this.text.length : at;
    }
    return this.backslash < close;
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
const NONE: never[] = [];

function newEntry(text: string, first: number): PoEntry {
  return {
    text,
    first,
    end: first,
    obsolete: false,
    translator: NONE,
    extracted: NONE,
    references: NONE,
    flags: NONE,
    flagLines: NONE,
    previousLines: NONE,
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

/** `e` made as `newEntry` makes one (an entry that is not kept is read into again: one object less per entry). */
function resetEntry(e: PoEntry, first: number): PoEntry {
  e.first = first;
  e.end = first;
  e.obsolete = false;
  e.translator = NONE;
  e.extracted = NONE;
  e.references = NONE;
  e.flags = NONE;
  e.flagLines = NONE;
  e.previousLines = NONE;
  e.prevMsgctxt = NONE;
  e.prevMsgid = NONE;
  e.prevMsgidPlural = NONE;
  e.msgctxt = null;
  e.msgid = NONE;
  e.msgidComments = NONE;
  e.msgidPlural = NONE;
  e.hasPlural = false;
  e.msgstr = null;
  e.msgstrPlural = null;
  e.keyLine = -1;
  e.msgidLine = -1;
  e.msgstrLine = -1;
  return e;
}

/** `list` with `value` added: a new list in place of the shared empty one. */
function add<T>(list: T[], value: T): T[] {
  if (list === NONE) return [value];
  list.push(value);
  return list;
}

/**
 * The quoted string starting at `start` of the next line, consumed (its offsets in `c.open`, `c.close`,
 * `c.escaped`); false when the line holds none there. A line whose opening quote has no closing one is an error, as
 * in the toolkit.
 */
function quoted(c: Cursor, start: number): boolean {
  if (c.eof) return false;
  const text = c.text;
  const ls = c.start;
  const le = c.end;
  const from = ls + start;
  const first = from < le ? text.charCodeAt(from) : -1;
  let left = start;
  // a quote there, or after one space (`msgid "`): the string starts there
  let found = first === 34;
  if (!found && first === 32 && text.charCodeAt(from + 1) === 34) {
    left = start + 1;
    found = true;
  } else if (!found) {
    // printable ASCII where the string would start: no string (nothing after it is looked at)
    if (first > 32 && first < 127) return false;
    const q = text.indexOf('"', from);
    left = q >= 0 && q < le ? q - ls : -1;
  }
  // the toolkit looks at what precedes the quote (or, without one, the rest of the line and its newline but the last character)
  if (found || left === start || onlySpaces(text, from, left < 0 ? -1 : ls + left, le, c.tail)) {
    // most lines end with their closing quote
    const r = le > ls ? (text.charCodeAt(le - 1) === 34 ? le - 1 : text.lastIndexOf('"', le - 1)) : -1;
    const right = r >= ls ? r - ls : -1;
    if (left !== right) {
      c.take();
      if (left >= 0) {
        c.open = ls + left;
        c.close = ls + right;
        c.escaped = c.backslashBetween(c.open, c.close) ? 1 : 0;
      } else {
        // no quote after `start` but one before it: the toolkit's slice from -1 (its last character, or nothing)
        const one = right === le - ls - 1;
        c.open = one ? ls + right : ls + right + 1;
        c.close = ls + right;
        c.escaped = 0;
      }
      return true;
    }
    throw new PoSyntaxError(c.line, Math.max(left, start) + 1, 'end of line inside a string (a quote is missing)');
  }
  return false;
}

/** Whether text[from, to) is one or more whitespace characters (to -1: the rest of the line, to `lineEnd`, then `tail`). */
function onlySpaces(text: string, from: number, to: number, lineEnd: number, tail: string): boolean {
  const end = to < 0 ? lineEnd : to;
  for (let i = from; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 32 || ch === 9) continue;
    // printable ASCII is never whitespace; anything else is looked at by the toolkit's rule
    if (ch > 32 && ch < 127) return false;
    return isSpaceRun(to < 0 ? text.slice(from, lineEnd) + tail : text.slice(from, to));
  }
  return to < 0 ? end > from || isSpaceRun(tail) : end > from;
}

/** `parts` with the part just read added: a list made for it in place of the shared empty one. */
function push(parts: Parts, c: Cursor): Parts {
  if (parts === NONE) return [c.open, c.close, c.escaped];
  parts.push(c.open, c.close, c.escaped);
  return parts;
}

/** Whether the part just read is a KDE `"_:` comment. */
function kdeStart(c: Cursor): boolean {
  return c.text.charCodeAt(c.open + 1) === 95 && c.text.startsWith('"_:', c.open);
}

/**
 * Reads `keyword "…"` and its continuation lines: their parts (the shared empty list when the line does not start
 * with `keyword`), KDE `_:` comments into `comments` when given.
 */
function message(c: Cursor, keyword: string, start: number, comments?: Parts): Parts {
  if (!c.startsWith(keyword)) return NONE;
  let parts: Parts = NONE;
  let s = quoted(c, start);
  while (s) {
    if (comments === undefined || !kdeStart(c)) {
      parts = push(parts, c);
      s = quoted(c, 0);
    } else {
      // a msgid comment runs until a part holding an escaped newline
      while (s) {
        comments.push(c.open, c.close, c.escaped);
        if (c.text.slice(c.open, c.close + 1).includes('\\n')) {
          s = quoted(c, 0);
          break;
        }
        s = quoted(c, 0);
      }
    }
  }
  return parts;
}

/** `#|` lines: the previous msgctxt, msgid and msgid_plural. */
function previous(c: Cursor, entry: PoEntry): void {
  const at = c.line;
  const text = c.text;
  const content: number[] = [];
  while (c.startsWith('#|') || c.startsWith('|')) {
    entry.previousLines = add(entry.previousLines, c.fileIndex(c.index));
    const end = c.end;
    let p = text.indexOf('|', c.start) + 1;
    while (p < end && text.charCodeAt(p) === 32) p++;
    content.push(p, end);
    c.take();
  }
  const sub = new Cursor(text, '', content, at, false, c.tail);
  const ctx = message(sub, 'msgctxt', 7);
  const id = message(sub, 'msgid', 5);
  const plural = message(sub, 'msgid_plural', 12);
  if (ctx.length > 0) entry.prevMsgctxt = entry.prevMsgctxt === NONE ? ctx : entry.prevMsgctxt.concat(ctx);
  if (id.length > 0) entry.prevMsgid = entry.prevMsgid === NONE ? id : entry.prevMsgid.concat(id);
  if (plural.length > 0) entry.prevMsgidPlural = entry.prevMsgidPlural === NONE ? plural : entry.prevMsgidPlural.concat(plural);
  const parsed = ctx.length > 0 || id.length > 0 || plural.length > 0;
  if (!parsed) throw new PoSyntaxError(at, 1, 'a "#|" comment without a previous msgctxt, msgid or msgid_plural');
}

/** The comment lines before an entry; false when there were none. Stops at `#~` (an obsolete entry follows). */
function comments(c: Cursor, entry: PoEntry): boolean {
  const text = c.text;
  let any = false;
  for (;;) {
    const end = c.end;
    let s = c.start;
    if (text.charCodeAt(s) !== 35) s = trimStartAt(text, s, end);
    if (s === end) return any;
    const first = text.charCodeAt(s);
    if (first !== 35 && first !== 124) return any;
    const kind = s + 1 < end ? text.charCodeAt(s + 1) : -1;
    if (kind === 46) {
      entry.extracted = add(entry.extracted, text.slice(s, end));
    } else if (first === 124 || kind === 124) {
      previous(c, entry);
      any = true;
      if (c.start === c.end) return any;
      continue;
    } else if (kind === 58) {
      entry.references = add(entry.references, text.slice(s, end));
    } else if (kind === 44) {
      entry.flags = add(entry.flags, text.slice(s, end));
      entry.flagLines = add(entry.flagLines, c.fileIndex(c.index));
    } else if (kind === 126) {
      return any;
    } else {
      entry.translator = add(entry.translator, text.slice(s, end));
    }
    c.take();
    any = true;
  }
}

// KDE comments read with a msgid or msgid_plural (most have none): gathered here, copied out when there are some
const kde: Parts = [];

/** msgctxt, msgid, then msgstr or msgid_plural with msgstr[n]; false when the entry has no complete message. */
function messages(c: Cursor, entry: PoEntry): boolean {
  entry.keyLine = c.fileIndex(c.index);
  const ctx = message(c, 'msgctxt', 7);
  if (ctx.length > 0) entry.msgctxt = ctx;
  entry.msgidLine = c.fileIndex(c.index);
  if (kde.length > 0) kde.length = 0;
  const msgid = message(c, 'msgid', 5, kde);
  if (msgid.length > 0) entry.msgid = msgid;
  if (kde.length > 0) entry.msgidComments = kde.slice();
  if (msgid.length === 0 && kde.length === 0) return false;
  entry.msgstrLine = c.fileIndex(c.index);
  const msgstr = message(c, 'msgstr', 6);
  if (msgstr.length > 0) {
    entry.msgstr = msgstr;
    return true;
  }
  if (kde.length > 0) kde.length = 0;
  const msgidPlural = message(c, 'msgid_plural', 12, kde);
  if (msgidPlural.length > 0) entry.msgidPlural = msgidPlural;
  if (msgidPlural.length === 0 && kde.length === 0) return false;
  entry.hasPlural = msgidPlural.length > 0;
  entry.msgstrLine = c.fileIndex(c.index);
  const text = c.text;
  const forms: Array<{ index: number; parts: Parts }> = [];
  for (;;) {
    if (!c.startsWith('msgstr[')) break;
    const ls = c.start;
    const bracket = text.indexOf(']', ls + 7);
    if (bracket < 0 || bracket >= c.end) break;
    const right = bracket - ls;
    const at = c.line;
    const parts = message(c, 'msgstr[', right + 1);
    if (parts.length === 0) break;
    const index = pluralIndex(text, ls + 7, bracket);
    if (index === null) throw new PoSyntaxError(at, 8, `plural form index "${text.slice(ls + 7, bracket)}" is not a number`);
    const form = forms.find((f) => f.index === index);
    if (form) form.parts.push(...parts);
    else forms.push({ index, parts });
  }
  if (forms.length === 0) return false;
  entry.msgstrPlural = forms;
  return true;
}

/** The number written in text[start, end) (spaces around it allowed), or null. */
function pluralIndex(text: string, start: number, end: number): number | null {
  const digit = text.charCodeAt(start) - 48;
  if (end === start + 1 && digit >= 0 && digit <= 9) return digit;
  const written = text.slice(start, end);
  return /^\s*[+-]?\d+\s*$/.test(written) ? Number(written) : null;
}

/** `#~` lines of an obsolete entry, as the toolkit cuts them: up to and including its msgstr lines (their content's ranges). */
function obsoleteLines(c: Cursor): number[] {
  const text = c.text;
  const out: number[] = [];
  while (c.startsWith('#~')) {
    const end = c.end;
    const content = trimStartAt(text, c.start + 2, end);
    c.take();
    out.push(content, end);
    if (content + 6 <= end && text.startsWith('msgstr', content)) {
      while (c.startsWith('#~ "') || c.startsWith('#~ msgstr')) {
        out.push(c.start + 3, c.end);
        c.take();
      }
      break;
    }
  }
  return out;
}

/** One entry (read into `reuse` when given, an obsolete one's own lines into `reuseInner`), or null when nothing more parses. */
function entryAt(c: Cursor, reuse: PoEntry | null, reuseInner: PoEntry | null): PoEntry | null {
  const first = c.fileIndex(c.index);
  const entry = reuse ? resetEntry(reuse, first) : newEntry(c.text, first);
  const hadComments = comments(c, entry);
  if (c.startsWith('#~')) {
    const at = c.line;
    const lines = obsoleteLines(c);
    if (lines.length > 0) {
      // an obsolete entry is parsed from its lines with the `#~` taken off; only its presence matters here
      const sub = new Cursor(c.text, '', lines, at, true, c.tail);
      const inner = reuseInner ? resetEntry(reuseInner, entry.first) : newEntry(c.text, entry.first);
      const innerComments = comments(sub, inner);
      const innerMessages = messages(sub, inner);
      if (innerComments || innerMessages) {
        entry.obsolete = true;
        entry.msgctxt = inner.msgctxt;
        entry.msgid = inner.msgid;
        entry.msgidComments = inner.msgidComments;
        entry.msgidPlural = inner.msgidPlural;
        entry.hasPlural = inner.hasPlural;
        entry.msgstr = inner.msgstr;
        entry.msgstrPlural = inner.msgstrPlural;
        // an entry ends after its last line (the blank lines after it are not its own)
        entry.end = Math.max(entry.first, c.taken);
        return entry;
      }
    }
  }
  const hadMessages = messages(c, entry);
  if (!hadComments && !hadMessages) return null;
  entry.end = Math.max(entry.first, c.taken);
  return entry;
}

/**
 * Splits and parses decoded PO text (BOM already taken off) the way Translate Toolkit does: its newline rule,
 * blank lines ignored, comments attached to the entry after them, obsolete `#~` entries kept (flagged).
 * Throws FormatParseError (line and column in the file) where the toolkit stops with a syntax error. With `onEntry`
 * each entry goes to it as it is read and `entries` stays empty (a reader that keeps only units holds no entries);
 * the entry object is read into again for the next entry (its lists are new each time).
 */
export function parsePoText(text: string, bom: boolean, filename: string, onEntry?: (entry: PoEntry, newline: string) => void): PoDocument {
  const newline = detectNewline(text);
  const cursor = new Cursor(text, newline, null, 0, false, newline.slice(0, -1));
  const entries: PoEntry[] = [];
  const reuse = onEntry ? newEntry(text, 0) : null;
  const reuseInner = onEntry ? newEntry(text, 0) : null;
  try {
    for (;;) {
      const entry = entryAt(cursor, reuse, reuseInner);
      if (!entry) break;
      if (onEntry) onEntry(entry, newline);
      else entries.push(entry);
    }
    if (!cursor.eof) {
      const line = text.slice(cursor.start, cursor.end);
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
export function unquote(text: string, parts: Parts): string {
  if (parts.length === 3) return partText(text, parts[0]!, parts[1]!, parts[2]!);
  let out = '';
  for (let k = 0; k < parts.length; k += 3) out += partText(text, parts[k]!, parts[k + 1]!, parts[k + 2]!);
  return out;
}

function partText(text: string, open: number, close: number, escaped: number): string {
  const inner = text.slice(open + 1, close);
  return escaped === 0 ? inner : decodeEscapes(inner);
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

/** The parts as written in the file (`"…"`, quotes included). */
export function quotedParts(text: string, parts: Parts): string[] {
  const out: string[] = [];
  for (let k = 0; k < parts.length; k += 3) out.push(text.slice(parts[k]!, parts[k + 1]! + 1));
  return out;
}

/** The toolkit's "null" string: no parts, or one empty one. */
export function isNull(parts: Parts | null): boolean {
  return parts === null || parts.length === 0 || (parts.length === 3 && parts[1] === parts[0]! + 1);
}
