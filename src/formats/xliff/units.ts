// Weblate's units from XLIFF entries (XliffUnit / RichXliffUnit over Translate Toolkit): context, texts, states, notes, flags.
import { IdHashTable, calculateHash, wordsOfLastHashed } from '../../domain/hash.js';
import { type ParsedUnit, State, type UnitState, joinPlural } from '../../domain/unit.js';
import { UNUSED_PLURAL, countWords } from '../../domain/words.js';
import { hasReadOnlyFlag, xmlFlags } from '../xml/flags.js';
import { internalized } from '../xml/scanner.js';
import { type XliffDocument, type XliffEntry, type XliffPart, firstListedInside } from './document.js';
import { plainText, richText } from './text.js';
import { type XElement, attr } from './tree.js';

/** `<target state>` values Weblate reads as "needs editing" (when the target has text). */
export const XLIFF_FUZZY_STATES: ReadonlySet<string> = new Set(['new', 'needs-translation', 'needs-adaptation', 'needs-l10n']);

/** How a format variant reads an XLIFF file. */
export interface XliffReading {
  /** `xliff`: inline elements kept as XML (RichXliffUnit); `plainxliff`/`poxliff`: plain text. */
  rich: boolean;
  /** `poxliff`: plural groups, po-reference locations, headers skipped, singular units without target states. */
  po: boolean;
}

/** Where a listed unit lives: its entry in the file (null when a monolingual file lacks it) and its template entry. */
export interface UnitSite {
  entry: XliffEntry | null;
  template: XliffEntry | null;
}

export interface XliffListing {
  units: ParsedUnit[];
  /** Where each listed unit lives (`sites[i]` is `units[i]`'s). */
  sites: UnitSite[];
}

/** What `listBilingual` lists into: the units, and their sites where a writer needs them (null: not kept). */
export interface BilingualList {
  units: ParsedUnit[];
  sites: UnitSite[] | null;
  /** The `<file>` whose context head (`original///`) was worked out last, and that head (null: none), see `contextHead`. */
  headFile: XElement | null;
  head: string | null;
}

/** An empty listing for `listBilingual` (sites kept or not). */
export function bilingualList(sites: UnitSite[] | null): BilingualList {
  return { units: [], sites, headFile: null, head: null };
}

/** The xml:space in force for a trans-unit's (or group's) children: its own attribute, else "default". */
export function unitSpace(el: XElement): string {
  return attr(el, 'xml:space') ?? 'default';
}

/** Translate Toolkit's getid(): the enclosing <file>'s `original` and the unit id, joined by U+0004. */
function ttId(entry: XliffEntry): string {
  const original = entry.file ? attr(entry.file, 'original') : null;
  return original ? `${original}\x04${entry.id}` : entry.id;
}

/**
 * Where an entry's context is `original///id` (no `resname`, an `original` and an id without U+0004): its first
 * part, the same string for every entry of a `<file>` (worked out once a file and kept in the listing), else null.
 * The hash reads the context as its two parts, so that no joined string is made flat for it.
 */
function contextHead(listing: BilingualList, entry: XliffEntry): string | null {
  if (attr(entry.element, 'resname') || entry.file === null || entry.id.includes('\x04')) return null;
  if (entry.file !== listing.headFile) {
    const original = attr(entry.file, 'original');
    listing.headFile = entry.file;
    // the engine's one flat copy (a joined string is read through its parts, character by character)
    listing.head = original && !original.includes('\x04') ? internalized(`${original}///`) : null;
  }
  return listing.head;
}

/** Weblate's context: `resname` when set, else getid() with U+0004 shown as `///`. */
export function entryContext(entry: XliffEntry): string {
  const resname = attr(entry.element, 'resname');
  if (resname) return resname;
  const original = entry.file ? attr(entry.file, 'original') : null;
  // most ids and file names hold no U+0004: joined as they are
  if (original && !original.includes('\x04') && !entry.id.includes('\x04')) return `${original}///${entry.id}`;
  return ttId(entry).replaceAll('\x04', '///');
}

function isHeader(entry: XliffEntry, reading: XliffReading): boolean {
  return reading.po && (attr(entry.element, 'restype') ?? '').includes('gettext-domain-header');
}

function nodeText(node: XElement | null, part: XliffPart, rich: boolean): string | null {
  if (!node) return null;
  if (rich) return richText(node, unitSpace(part.unit));
  // the plain text the reader worked out as it read, if it did
  const known = node === part.source ? part.plainSource : node === part.target ? part.plainTarget : null;
  return known ?? plainText(node, unitSpace(part.unit));
}

/** Source forms of an entry (plain text decides emptiness the way Translate Toolkit's `source` does). */
export function sourceForms(entry: XliffEntry, rich: boolean): string[] {
  const parts = entry.parts;
  if (parts.length === 1) return [nodeText(parts[0]!.source, parts[0]!, rich) ?? ''];
  return parts.map((p) => nodeText(p.source, p, rich) ?? '');
}

/** Target forms, or null when the (single) trans-unit has no <target>; plural forms without one are ''. */
export function targetForms(entry: XliffEntry, rich: boolean): string[] | null {
  if (!entry.plural) {
    const p = entry.parts[0]!;
    return p.target ? [nodeText(p.target, p, rich)!] : null;
  }
  return entry.parts.map((p) => nodeText(p.target, p, rich) ?? '');
}

/** The trans-units whose <target state> Weblate reads and writes: the trans-unit, a plural group's forms, none for a singular poxliff unit. */
export function stateParts(entry: XliffEntry, reading: XliffReading): XliffPart[] {
  if (!reading.po) return entry.parts;
  return entry.plural ? entry.parts : [];
}

/** Whether Weblate lists the entry at all (has_content): not a poxliff header, and a non-empty source. */
export function isContentEntry(entry: XliffEntry, reading: XliffReading): boolean {
  return !isHeader(entry, reading) && joinPlural(sourceForms(entry, reading.rich)) !== '';
}

export function hasText(forms: readonly string[]): boolean {
  for (const f of forms) if (f !== '') return true;
  return false;
}

/**
 * The `<note>` and `<context-group>` elements of an entry, in document order (alt-trans ones included, as the toolkit
 * reads them), found among the document's listed elements (`groupAt`: each group's index there).
 */
interface EntryExtras {
  notes: XElement[];
  groups: XElement[];
  groupAt: number[];
}

const NO_EXTRAS: EntryExtras = { notes: [], groups: [], groupAt: [] };

function extrasOf(doc: XliffDocument, el: XElement): EntryExtras {
  const listed = doc.doc.found;
  let out = NO_EXTRAS;
  for (let i = firstListedInside(listed, el); i < listed.length; i++) {
    const c = listed[i]!;
    if (c.start >= el.closeStart) break;
    if (c.ns !== doc.ns) continue;
    if (c.local === 'note') {
      if (out === NO_EXTRAS) out = { notes: [], groups: [], groupAt: [] };
      out.notes.push(c);
    } else if (c.local === 'context-group') {
      if (out === NO_EXTRAS) out = { notes: [], groups: [], groupAt: [] };
      out.groups.push(c);
      out.groupAt.push(i);
    }
  }
  return out;
}

/** Translate Toolkit's getnotes(): every note's text, duplicates dropped, joined by a line feed. */
function notesOf(entry: XliffEntry, extras: EntryExtras): string {
  if (extras.notes.length === 0) return '';
  const space = unitSpace(entry.element);
  return joinNotes(extras.notes.map((note) => plainText(note, space)));
}

/**
 * The `<context>` elements inside the context group at `at` in the listed elements, in document order, as
 * file/line pairs: the first of each type (Translate Toolkit's location reading) or, with `last`, the last (its
 * po-reference reading).
 */
function contextsOf(doc: XliffDocument, at: number, space: string, last: boolean): { file: string | null; line: string | null } {
  const listed = doc.doc.found;
  const group = listed[at]!;
  let file: string | null = null;
  let line: string | null = null;
  for (let i = at + 1; i < listed.length; i++) {
    const c = listed[i]!;
    if (c.start >= group.closeStart) break;
    if (c.local !== 'context' || c.ns !== doc.ns) continue;
    const type = attr(c, 'context-type');
    if (type === 'sourcefile') {
      if (last || file === null) file = plainText(c, space);
    } else if (type === 'linenumber') {
      if (last || line === null) line = plainText(c, space);
    }
  }
  return { file, line };
}

/** Translate Toolkit's getlocations(): `purpose="location"` context groups (poxliff: `name="po-reference"`). */
function locationsOf(doc: XliffDocument, entry: XliffEntry, extras: EntryExtras, reading: XliffReading): string {
  if (extras.groups.length === 0) return '';
  const space = unitSpace(entry.element);
  let out = '';
  for (let g = 0; g < extras.groups.length; g++) {
    const group = extras.groups[g]!;
    let location: string;
    if (reading.po) {
      if (attr(group, 'name') !== 'po-reference') continue;
      const { file, line } = contextsOf(doc, extras.groupAt[g]!, space, true);
      if (!file) continue;
      location = line ? `${file}:${line}` : file;
    } else {
      if (attr(group, 'purpose') !== 'location') continue;
      const { file, line } = contextsOf(doc, extras.groupAt[g]!, space, false);
      if (file === null) continue;
      location = line !== null ? `${file}:${line}` : file;
    }
    out = out === '' ? location : `${out}, ${location}`;
  }
  return out;
}

function isTranslatable(entry: XliffEntry, reading: XliffReading): boolean {
  const value = attr(entry.element, 'translate');
  return !(value && value.toLowerCase() === 'no') && !isHeader(entry, reading);
}

/** Weblate's state: read-only, then needs editing (text plus a fuzzy `state`), empty, approved, translated. */
function unitState(entry: XliffEntry | null, main: XliffEntry, target: readonly string[], flags: string, reading: XliffReading): UnitState {
  // most units have no flags: no pattern to run
  if (!isTranslatable(main, reading) || (flags !== '' && hasReadOnlyFlag(flags))) return State.READONLY;
  const translated = hasText(target);
  if (entry && translated) {
    for (const p of stateParts(entry, reading)) {
      const state = p.target ? attr(p.target, 'state') : null;
      // every fuzzy state begins with "n" ("translated" and "final", most of them, are not looked up)
      if (state !== null && state.charCodeAt(0) === 0x6e && XLIFF_FUZZY_STATES.has(state)) return State.FUZZY;
    }
  }
  if (!translated) return State.EMPTY;
  // Approved only counts where the project reviews translations; the sync turns it into translated otherwise.
  if (entry && attr(entry.element, 'approved') === 'yes') return State.APPROVED;
  return State.TRANSLATED;
}

function unitFlags(entry: XliffEntry | null, template: XliffEntry | null, reading: XliffReading): string {
  // most units carry no flag attribute: no readers to build (xmlFlags of none gives the one extra flag)
  if ((!entry || !hasFlagAttributes(entry.element)) && (!template || !hasFlagAttributes(template.element))) return reading.rich ? RICH_FLAGS[0]! : '';
  const extra = reading.rich ? RICH_FLAGS : NO_FLAGS;
  const readers = [];
  if (entry) readers.push((name: string) => attr(entry.element, name));
  if (template) readers.push((name: string) => attr(template.element, name));
  return xmlFlags(readers, extra);
}

const RICH_FLAGS: readonly string[] = ['xml-text'];
const NO_FLAGS: readonly string[] = [];

function hasFlagAttributes(el: XElement): boolean {
  const attrs = el.attrs;
  for (let i = 0; i < attrs.length; i += 2) {
    const name = attrs[i];
    if (name === 'maxwidth' || name === 'font' || name === 'weblate-flags') return true;
  }
  return false;
}

/** What a unit reads from the notes and context groups inside its entry (Translate Toolkit's getlocations(), getnotes()). */
export interface EntryAnnotations {
  location: string;
  note: string;
}

/**
 * Lists `entry` as the next bilingual unit unless it is a header, has no source, or repeats an earlier identity
 * (`seen`); `annotate` is asked for its location and note only when it is listed.
 */
export function listBilingual(
  listing: BilingualList,
  seen: IdHashTable,
  entry: XliffEntry,
  reading: XliffReading,
  isTemplate: boolean,
  annotate: (entry: XliffEntry) => EntryAnnotations,
): void {
  if (isHeader(entry, reading)) return;
  const source = sourceForms(entry, reading.rich);
  const joined = source.length === 1 ? source[0]! : joinPlural(source);
  if (joined === '') return;
  const head = contextHead(listing, entry);
  const context = head !== null ? head + entry.id : entryContext(entry);
  const idHash = head !== null ? seen.add(joined, head, 0, entry.id) : seen.add(joined, context, 0);
  if (seen.earlier >= 0) return;
  // the words of the source the hash just read (a lone form that is not Weblate's unused-singular placeholder)
  const numWords = source.length === 1 && !joined.startsWith(UNUSED_PLURAL) ? wordsOfLastHashed() : countWords(source);
  const target = targetForms(entry, reading.rich) ?? (isTemplate ? source.slice() : ['']);
  const flags = unitFlags(entry, null, reading);
  const { location, note } = annotate(entry);
  listing.sites?.push({ entry, template: null });
  listing.units.push({
    context,
    source,
    target,
    location,
    note,
    flags,
    explanation: '',
    sourceExplanation: '',
    previousSource: '',
    state: unitState(entry, entry, target, flags, reading),
    position: listing.units.length + 1,
    idHash,
    contentHash: idHash,
    numWords,
  });
}

/** Translate Toolkit's getnotes() of notes' plain texts (in document order): duplicates dropped, joined by a line feed. */
export function joinNotes(texts: readonly string[]): string {
  if (texts.length === 1) return texts[0]!;
  const seen: string[] = [];
  for (const text of texts) if (!seen.includes(text)) seen.push(text);
  return seen.join('\n');
}

/**
 * Units of a bilingual XLIFF file in file order (the first of each identity), keyed by `hash(source + context)`.
 * `isTemplate`: the file is the component's template read as its own translation (a missing target shows the source).
 */
export function bilingualUnits(doc: XliffDocument, reading: XliffReading, isTemplate = false): XliffListing {
  const sites: UnitSite[] = [];
  const listing = bilingualList(sites);
  const seen = new IdHashTable(doc.entries.length);
  const annotate = (entry: XliffEntry): EntryAnnotations => {
    const extras = extrasOf(doc, entry.element);
    return { location: locationsOf(doc, entry, extras, reading), note: notesOf(entry, extras) };
  };
  for (const entry of doc.entries) listBilingual(listing, seen, entry, reading, isTemplate, annotate);
  return { units: listing.units, sites };
}

/** Translation entries by Weblate context; a later duplicate replaces an earlier one (Weblate's context index). */
export function entriesByContext(doc: XliffDocument, reading: XliffReading): Map<string, XliffEntry> {
  const index = new Map<string, XliffEntry>();
  for (const entry of doc.entries) if (!isHeader(entry, reading)) index.set(entryContext(entry), entry);
  return index;
}

/** The source Weblate shows for a template entry: its target when that has (plain) text, else its source. */
function templateSource(entry: XliffEntry, reading: XliffReading): string[] {
  const plainTarget = targetForms(entry, false);
  if (plainTarget && (entry.plural ? plainTarget[0] !== '' : hasText(plainTarget))) {
    return reading.rich ? targetForms(entry, true)! : plainTarget;
  }
  return sourceForms(entry, reading.rich);
}

/**
 * Units of a monolingual XLIFF file: the template's entries in template order, keyed by `hash(context)`, the
 * template's target (else source) as source, and the translation entry with the same context (if any) as target.
 */
export function monolingualUnits(doc: XliffDocument, template: XliffDocument, reading: XliffReading, isTemplate = false): XliffListing {
  const index = entriesByContext(doc, reading);
  const units: ParsedUnit[] = [];
  const sites: UnitSite[] = [];
  const seen = new IdHashTable(template.entries.length);
  for (const te of template.entries) {
    if (isHeader(te, reading)) continue;
    const source = templateSource(te, reading);
    if (joinPlural(source) === '') continue;
    const context = entryContext(te);
    const idHash = seen.add(context, '', 0);
    if (seen.earlier >= 0) continue;
    const entry = index.get(context) ?? null;
    let target: string[] = [''];
    if (entry) target = targetForms(entry, reading.rich) ?? (isTemplate ? sourceForms(entry, reading.rich) : ['']);
    const flags = unitFlags(entry, te, reading);
    const templateExtras = extrasOf(template, te.element);
    const templateNote = notesOf(te, templateExtras);
    const ownNote = entry ? notesOf(entry, extrasOf(doc, entry.element)) : '';
    sites.push({ entry, template: te });
    units.push({
      context,
      source,
      target,
      location: locationsOf(template, te, templateExtras, reading),
      note: templateNote === ownNote ? ownNote : `${templateNote}\n${ownNote}`,
      flags,
      explanation: '',
      sourceExplanation: '',
      previousSource: '',
      state: unitState(entry, te, target, flags, reading),
      position: units.length + 1,
      idHash,
      contentHash: calculateHash(joinPlural(source), context),
      numWords: countWords(source),
    });
  }
  return { units, sites };
}
