// Weblate's units from PO entries (`po` and `po-mono`): identities, states, flags, notes, locations, previous source.
import { FormatParseError } from '../../domain/errors.js';
import { IdHashTable, calculateHash, wordsOfLastHashed } from '../../domain/hash.js';
import { PLURAL_SEPARATOR, type ParsedUnit, State, type UnitState, joinPlural } from '../../domain/unit.js';
import { UNUSED_PLURAL, countWords } from '../../domain/words.js';
import { FlagSyntaxError, formatFlags, readFlagLine } from './flags.js';
import { type PoDocument, type PoEntry, isNull, unquote } from './syntax.js';

/** A unit the format left out, and why (a duplicate of an earlier one). */
export interface SkippedEntry {
  line: number;
  reason: string;
}

/** The toolkit's `isheader()`: empty msgid, non-empty msgstr, no msgctxt and no KDE comment. */
export function isHeader(e: PoEntry): boolean {
  return isNull(e.msgid) && !(e.msgstrPlural === null && isNull(e.msgstr)) && e.msgidComments.length === 0 && isNull(e.msgctxt);
}

/** The toolkit's `isblank()`: no text anywhere (and not the header). */
function isBlankEntry(e: PoEntry, source = entrySource(e), target = entryTarget(e)): boolean {
  if (isHeader(e) || e.msgidComments.length > 0 || !isNull(e.msgctxt)) return false;
  for (const s of source) if (s !== '') return false;
  for (const t of target) if (t !== '') return false;
  return true;
}

/** Whether Weblate lists the entry: not obsolete, not the header, not blank. */
export function isContent(e: PoEntry): boolean {
  return !e.obsolete && !isHeader(e) && !isBlankEntry(e);
}

/** The KDE `_:` comment: the first line of the msgid comment, `_: ` taken off once. */
function kdeComment(e: PoEntry, newline: string): string {
  if (e.msgidComments.length === 0) return '';
  return unquote(e.text, e.msgidComments).split(newline)[0]!.replace('_: ', '');
}

/** The toolkit's `getcontext()`: msgctxt followed by the KDE comment. */
export function entryContext(e: PoEntry, newline: string): string {
  return (e.msgctxt ? unquote(e.text, e.msgctxt) : '') + kdeComment(e, newline);
}

/** msgid, and msgid_plural for a plural entry. */
export function entrySource(e: PoEntry): string[] {
  return e.hasPlural ? [unquote(e.text, e.msgid), unquote(e.text, e.msgidPlural)] : [unquote(e.text, e.msgid)];
}

/** msgstr, or the msgstr[n] forms in file order. */
export function entryTarget(e: PoEntry): string[] {
  if (e.msgstrPlural) return e.msgstrPlural.map((f) => unquote(e.text, f.parts));
  return [unquote(e.text, e.msgstr ?? [])];
}

/** The toolkit's `getid()`: the key a monolingual PO looks translations up by. */
export function entryId(e: PoEntry, newline: string): string {
  const context = entryContext(e, newline);
  const id = unquote(e.text, e.msgid);
  if (e.msgidComments.length > 0) return `_: ${context}\n${id}`;
  return context ? `${context}\x04${id}` : id;
}

function hasText(forms: readonly string[]): boolean {
  for (const f of forms) if (f !== '') return true;
  return false;
}

/** `fuzzy` as the toolkit keeps it: dropped when the entry has no translation. */
function isFuzzy(e: PoEntry, target: readonly string[]): boolean {
  if (e.flags.length === 0 || !hasText(target)) return false;
  for (const line of e.flags) if (hasTypeComment(line, 'fuzzy')) return true;
  return false;
}

/** Whether `word` is one of the words of a `#,` line (see typeComments), found without splitting the line. */
function hasTypeComment(line: string, word: string): boolean {
  for (let at = line.indexOf(word); at >= 0; at = line.indexOf(word, at + 1)) {
    const end = line.indexOf(',', at);
    if (line.slice(line.lastIndexOf(',', at) + 1, end < 0 ? line.length : end).trim() === word) return true;
  }
  return false;
}

function entryState(e: PoEntry, target: readonly string[]): UnitState {
  if (!hasText(target)) return State.EMPTY;
  return isFuzzy(e, target) ? State.FUZZY : State.TRANSLATED;
}

// `#,` lines repeat (`#, c-format` on hundreds of entries): each distinct text is read once
const flagCache = new Map<string, string>();

/** `#,` flags as Weblate formats them; a line its grammar refuses fails the file, as in Weblate. */
function entryFlags(e: PoEntry, filename: string): string {
  if (e.flags.length === 0) return '';
  const key = e.flags.length === 1 ? e.flags[0]! : e.flags.join('\n');
  const known = flagCache.get(key);
  if (known !== undefined) return known;
  const formatted = readFlags(e, filename);
  if (flagCache.size > 1000) flagCache.clear();
  flagCache.set(key, formatted);
  return formatted;
}

function readFlags(e: PoEntry, filename: string): string {
  const flags = new Map<string, string>();
  e.flags.forEach((line, k) => {
    try {
      readFlagLine(line, flags);
    } catch (err) {
      if (!(err instanceof FlagSyntaxError)) throw err;
      const lineNo = e.flagLines[k]! + 1;
      throw new FormatParseError(filename, lineNo, err.column, `could not parse flags: ${err.message}`);
    }
  });
  return formatFlags(flags);
}

/** The toolkit's `getnotes()`: translator comments, then extracted ones, each line's text after its marker. */
function entryNotes(e: PoEntry, newline: string): string {
  let notes: string | null = null;
  // each line ends with the newline, and the last one loses its last character (`\r` stays of `\r\n`): joined as
  // the lines are read, not built whole and cut (which copies the text)
  for (const c of e.translator) notes = notes === null ? c.slice(2) : notes + newline + c.slice(2);
  for (const c of e.extracted) notes = notes === null ? c.slice(3) : notes + newline + c.slice(3);
  if (notes === null) return '';
  return newline.length === 1 ? notes : notes + newline.slice(0, -1);
}

/** Python's `unquote_plus` with strict UTF-8: `+` is a space, `%XX` bytes decoded; undecodable text is kept as is. */
export function unquotePlus(text: string): string {
  if (!text.includes('+') && !text.includes('%')) return text;
  const spaced = text.replaceAll('+', ' ');
  if (!spaced.includes('%')) return spaced;
  try {
    return spaced.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      const bytes = new Uint8Array(run.length / 3);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    });
  } catch {
    return text;
  }
}

const DOCSTRING_LOCATION = /:docstring of [a-zA-Z0-9._]+:[0-9]+/g;
// printable ASCII and tabs, but `+` and `%` (which unquote): a line whose tokens are read as they are
const PLAIN_REFERENCES = /^[\t -$&-*,-~]*$/;
const ONE_PLAIN_REFERENCE = /^#: [!-$&-*,-~]*$/;
const SPACES = /\s+/;

/**
 * `#:` references as Weblate shows them: the toolkit's tokens (each line split on whitespace, each token unquoted as
 * a URL), joined with spaces, Sphinx's `:docstring of name:line` parts removed, split again and comma+space separated.
 */
function entryLocations(e: PoEntry): string {
  const refs = e.references;
  if (refs.length === 0) return '';
  let out = '';
  for (let k = 0; k < refs.length; k++) {
    const line = refs[k]!;
    let tokens: string | null;
    // most lines are `#: ` and one path (printable ASCII without `+`, `%` or a blank): that path
    if (ONE_PLAIN_REFERENCE.test(line)) tokens = line.includes(':docstring') ? null : line.slice(3);
    else tokens = plainReferences(line);
    if (tokens === null) return weblateLocations(refs);
    if (tokens !== '') out = out === '' ? tokens : `${out}, ${tokens}`;
  }
  return out;
}

/**
 * The tokens of a `#:` line of plain paths between blanks (nothing to unquote, no Sphinx part), comma+space
 * separated; null for any other line (Weblate's whole path then).
 */
function plainReferences(line: string): string | null {
  if (!PLAIN_REFERENCES.test(line) || line.includes(':docstring')) return null;
  let out = '';
  let i = 3;
  for (;;) {
    while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    if (i >= line.length) return out;
    let j = i + 1;
    while (j < line.length && line.charCodeAt(j) !== 32 && line.charCodeAt(j) !== 9) j++;
    out = out === '' ? line.slice(i, j) : `${out}, ${line.slice(i, j)}`;
    i = j;
  }
}

function weblateLocations(refs: readonly string[]): string {
  const tokens: string[] = [];
  for (const line of refs) for (const t of line.slice(3).split(SPACES)) if (t !== '') tokens.push(unquotePlus(t));
  return tokens
    .join(' ')
    .replace(DOCSTRING_LOCATION, '')
    .split(SPACES)
    .filter((t) => t !== '')
    .join(', ');
}

/** The `#|` source of a fuzzy entry (Weblate shows it only then). */
function previousSource(e: PoEntry, fuzzy: boolean): string {
  if (!fuzzy) return '';
  const singular = unquote(e.text, e.prevMsgid);
  return e.prevMsgidPlural.length > 0 ? singular + PLURAL_SEPARATOR + unquote(e.text, e.prevMsgidPlural) : singular;
}

/**
 * Units of a bilingual PO file in file order, built entry by entry as the parser reads them: msgctxt (with a KDE
 * comment) as context, msgid[/msgid_plural] as source; the first of each identity wins, later ones are skipped with a
 * reason.
 */
export class BilingualUnits {
  readonly units: ParsedUnit[] = [];
  // the line of each identity's first entry, by id_hash (Weblate's identity of a unit)
  private readonly seen: IdHashTable;
  constructor(
    private readonly newline: string,
    private readonly filename: string,
    private readonly skipped: SkippedEntry[],
    /** About how many units to expect (the table of identities is made that big). */
    expected = 0,
  ) {
    this.seen = new IdHashTable(expected);
  }

  add(e: PoEntry): void {
    if (e.obsolete || isHeader(e)) return;
    const source = entrySource(e);
    const target = entryTarget(e);
    if (isBlankEntry(e, source, target)) return;
    const context = entryContext(e, this.newline);
    const idHash = this.seen.add(source.length === 1 ? source[0]! : joinPlural(source), context, e.msgidLine + 1);
    // the words of what was hashed, when that was the source alone (no context, no unused form to leave out)
    const numWords = context === '' && !hasUnusedForm(source) ? wordsOfLastHashed() : countWords(source);
    if (this.seen.earlier >= 0) {
      this.skipped.push({
        line: e.msgidLine + 1,
        reason: `duplicate of the entry on line ${this.seen.earlier} (same msgctxt and msgid): the first one is used`,
      });
      return;
    }
    const state = entryState(e, target);
    this.units.push({
      context,
      source,
      target,
      location: entryLocations(e),
      note: entryNotes(e, this.newline),
      flags: entryFlags(e, this.filename),
      explanation: '',
      sourceExplanation: '',
      previousSource: previousSource(e, state === State.FUZZY),
      state,
      position: this.units.length + 1,
      idHash,
      contentHash: idHash,
      numWords,
    });
  }
}

function hasUnusedForm(source: readonly string[]): boolean {
  for (const form of source) if (form.startsWith(UNUSED_PLURAL)) return true;
  return false;
}

/** The units of a parsed document (see BilingualUnits). */
export function bilingualUnits(doc: PoDocument, filename: string, skipped: SkippedEntry[]): ParsedUnit[] {
  const collect = new BilingualUnits(doc.newline, filename, skipped, doc.entries.length);
  for (const e of doc.entries) collect.add(e);
  return collect.units;
}

/** Weblate's `po-mono` key of a template entry: `msgctxt.msgid`, or whichever of the two is set. */
export function monolingualKey(e: PoEntry, newline: string): string {
  const context = entryContext(e, newline);
  const source = unquote(e.text, e.msgid);
  if (source && context) return `${context}.${source}`;
  return source || context;
}

/** The translation file's entries by the toolkit's id (a later one replaces an earlier one, as its index does). */
export function indexById(doc: PoDocument): Map<string, PoEntry> {
  const index = new Map<string, PoEntry>();
  for (const e of doc.entries) if (!e.obsolete && !isHeader(e)) index.set(entryId(e, doc.newline), e);
  return index;
}

function monoNotes(template: PoEntry, unit: PoEntry | undefined, newline: string): string {
  const own = unit ? entryNotes(unit, newline) : '';
  const tpl = entryNotes(template, newline);
  let notes = tpl === own ? own : `${tpl}\n${own}`;
  // the template's msgctxt is a note when the msgid is the key
  const context = entryContext(template, newline);
  if (unquote(template.text, template.msgid) && context) notes = notes ? `${notes}\n${context}` : context;
  return notes;
}

/**
 * Units of a monolingual PO file: the template's entries in template order, keyed by `msgctxt.msgid`, the
 * template's msgstr as source and the matching translation entry (by the toolkit's id) as target.
 */
export function monolingualUnits(doc: PoDocument, template: PoDocument, templateName: string, skipped: SkippedEntry[]): ParsedUnit[] {
  const index = indexById(doc);
  const units: ParsedUnit[] = [];
  const seen = new Map<bigint, number>();
  for (const te of template.entries) {
    if (!isContent(te)) continue;
    const context = monolingualKey(te, template.newline);
    const idHash = calculateHash(context);
    const first = seen.get(idHash);
    if (first !== undefined) {
      skipped.push({ line: te.msgidLine + 1, reason: `${templateName}: duplicate key "${context}" (first on line ${first}): the first one is used` });
      continue;
    }
    seen.set(idHash, te.msgidLine + 1);
    const source = entryTarget(te);
    const e = index.get(entryId(te, template.newline));
    const target = e ? entryTarget(e) : [''];
    const state = e ? entryState(e, target) : State.EMPTY;
    units.push({
      context,
      source,
      target,
      location: entryLocations(te),
      note: monoNotes(te, e, doc.newline),
      flags: entryFlags(te, templateName),
      explanation: '',
      sourceExplanation: '',
      previousSource: e ? previousSource(e, state === State.FUZZY) : '',
      state,
      position: units.length + 1,
      idHash,
      contentHash: calculateHash(joinPlural(source), context),
      numWords: countWords(source),
    });
  }
  return units;
}
