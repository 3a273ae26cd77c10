// Minimal PO writes: an edited entry's msgstr (and fuzzy flag, `#|` lines) rewritten, the header updated as Weblate does.
import { FormatWriteError } from '../../domain/errors.js';
import { calculateHash } from '../../domain/hash.js';
import { State, joinPlural } from '../../domain/unit.js';
import type { UnitWrite } from '../format.js';
import { typeComments } from './flags.js';
import { type HeaderUpdate, headerLines, headerText, newHeaderFields, parseHeader, updatedHeader } from './header.js';
import { DEFAULT_WIDTH, quoteLines } from './quote.js';
import type { PoDocument, PoEntry } from './syntax.js';
import { entryContext, entryId, entrySource, entryTarget, indexById, isContent, isHeader, monolingualKey } from './units.js';

/** A replacement of lines [start, end) of the document by `lines` (an insertion when start === end). */
interface Patch {
  start: number;
  end: number;
  lines: string[];
  /** Order of insertions at the same place. */
  order: number;
}

export interface PoWriteOptions {
  width?: number;
  /** Monolingual: the template, whose entries give the keys and the entries of new units. */
  template: PoDocument | null;
  /** The header update after edits; null leaves the header alone. */
  header: HeaderUpdate | null;
}

/** `keyword` followed by quoted lines as the toolkit writes a message part (`msgstr ""` then the lines). */
export function part(keyword: string, quotedLines: readonly string[]): string[] {
  const lines = quotedLines.length === 0 ? ['""'] : quotedLines;
  const out = [`${keyword} ${lines[0]}`];
  let previous: string | null = null;
  for (const l of lines.slice(1)) {
    if (previous === '""' && l === '""') continue;
    previous = l;
    out.push(l);
  }
  return out;
}

function msgstrLines(target: readonly string[], plural: boolean, width: number): string[] {
  if (!plural) return part('msgstr', quoteLines(target[0] ?? '', width));
  return target.flatMap((t, i) => part(`msgstr[${i}]`, quoteLines(t, width)));
}

function hasText(forms: readonly string[]): boolean {
  return forms.some((f) => f !== '');
}

/** The `#,` line after marking fuzzy on or off (sorted, as the toolkit rewrites it); null when it stays as written. */
function flagLinesAfter(entry: PoEntry, oldTarget: readonly string[], fuzzy: boolean): string[] | null {
  let words = typeComments(entry.flags);
  let rewritten = false;
  // the toolkit drops `fuzzy` from an entry without a translation as it reads it
  if (words.includes('fuzzy') && !hasText(oldTarget)) {
    words = words.filter((w) => w !== 'fuzzy').sort();
    rewritten = true;
  }
  if (words.includes('fuzzy') !== fuzzy) {
    words = (fuzzy ? [...words, 'fuzzy'] : words.filter((w) => w !== 'fuzzy')).sort();
    rewritten = true;
  }
  if (!rewritten) return null;
  return words.length === 0 ? [] : [`#, ${words.join(', ')}`];
}

/** Patches that set an existing entry's target and state. */
function editEntry(entry: PoEntry, edit: UnitWrite, monolingual: boolean, width: number, filename: string, patches: Patch[]): void {
  const target = edit.target.length === 0 ? [''] : edit.target;
  let plural = entry.hasPlural;
  if (!plural && target.length > 1) {
    if (!monolingual) {
      throw new FormatWriteError(filename, `the entry on line ${entry.msgidLine + 1} has no plural, but ${target.length} plural forms were given`);
    }
    // a monolingual entry takes plurals once it has a msgid_plural (Weblate adds an empty one)
    patches.push({ start: entry.msgstrLine, end: entry.msgstrLine, lines: ['msgid_plural ""'], order: 0 });
    plural = true;
  }
  patches.push({ start: entry.msgstrLine, end: entry.end, lines: msgstrLines(target, plural, width), order: 1 });
  const fuzzy = edit.state === State.FUZZY && hasText(target);
  const flags = flagLinesAfter(entry, entryTarget(entry), fuzzy);
  if (flags !== null) {
    if (entry.flagLines.length > 0) {
      const [first, ...others] = entry.flagLines;
      patches.push({ start: first!, end: first! + 1, lines: flags, order: 0 });
      for (const l of others) patches.push({ start: l, end: l + 1, lines: [], order: 0 });
    } else if (flags.length > 0) {
      const at = Math.min(entry.previousLines[0] ?? Number.POSITIVE_INFINITY, entry.keyLine);
      patches.push({ start: at, end: at, lines: flags, order: 0 });
    }
  }
  // Weblate forgets the previous msgid of a string that no longer needs editing
  if (edit.state !== State.FUZZY) for (const l of entry.previousLines) patches.push({ start: l, end: l + 1, lines: [], order: 0 });
}

/** The lines of a new entry: monolingual ones copy the template entry's key and comments (not translator notes). */
function newEntryLines(edit: UnitWrite, template: { doc: PoDocument; entry: PoEntry } | null, width: number): string[] {
  const target = edit.target.length === 0 ? [''] : edit.target;
  const fuzzy = edit.state === State.FUZZY && hasText(target);
  const out: string[] = [];
  if (template) {
    const { doc: tdoc, entry: te } = template;
    out.push(...te.extracted, ...te.references);
    const words = typeComments(te.flags).filter((w) => w !== 'fuzzy');
    if (fuzzy) words.push('fuzzy');
    if (words.length > 0) out.push(`#, ${words.sort().join(', ')}`);
    for (let i = te.keyLine; i < te.msgstrLine; i++) if (!/^[\s]*$/.test(tdoc.lines[i]!)) out.push(tdoc.lines[i]!);
    let plural = te.hasPlural;
    if (!plural && target.length > 1) {
      out.push('msgid_plural ""');
      plural = true;
    }
    out.push(...msgstrLines(target, plural, width));
    return out;
  }
  if (fuzzy) out.push('#, fuzzy');
  if (edit.context !== '') out.push(...part('msgctxt', quoteLines(edit.context, width)));
  out.push(...part('msgid', quoteLines(edit.source[0] ?? '', width)));
  const plural = edit.source.length > 1;
  if (plural) out.push(...part('msgid_plural', quoteLines(edit.source[1] ?? '', width)));
  if (!plural && target.length > 1) throw new FormatWriteError('(new unit)', 'a string without a plural cannot take several plural forms');
  out.push(...msgstrLines(target, plural, width));
  return out;
}

/** Lines of an entry to remove, with the blank lines after it. */
function removal(doc: PoDocument, entry: PoEntry): Patch {
  let end = entry.end;
  while (end < doc.lines.length - 1 && /^\s*$/.test(doc.lines[end]!)) end++;
  return { start: entry.first, end, lines: [], order: 0 };
}

function headerPatch(doc: PoDocument, update: HeaderUpdate, width: number): Patch {
  const first = doc.entries[0];
  if (first && isHeader(first)) {
    const fields = updatedHeader(parseHeader(headerText(first)), update);
    const patch: Patch = { start: first.msgstrLine, end: first.end, lines: part('msgstr', headerLines(fields, width)), order: 1 };
    return patch;
  }
  const fields = newHeaderFields(update);
  return { start: 0, end: 0, lines: ['msgid ""', ...part('msgstr', headerLines(fields, width)), ''], order: -1 };
}

/** The header's `#, fuzzy` goes whenever Weblate updates the header. */
function headerFlagPatches(doc: PoDocument): Patch[] {
  const first = doc.entries[0];
  if (!first || !isHeader(first) || !typeComments(first.flags).includes('fuzzy')) return [];
  const rest = typeComments(first.flags)
    .filter((w) => w !== 'fuzzy')
    .sort();
  const [line, ...others] = first.flagLines;
  return [
    { start: line!, end: line! + 1, lines: rest.length === 0 ? [] : [`#, ${rest.join(', ')}`], order: 0 },
    ...others.map((l) => ({ start: l, end: l + 1, lines: [], order: 0 })),
  ];
}

function applyPatches(doc: PoDocument, patches: Patch[]): string {
  patches.sort((a, b) => a.start - b.start || a.order - b.order || a.end - b.end);
  const out: string[] = [];
  let at = 0;
  for (const p of patches) {
    if (p.start < at) continue; // overlapping patches of one entry: the first wins
    out.push(...doc.lines.slice(at, p.start), ...p.lines);
    at = Math.max(at, p.end);
  }
  out.push(...doc.lines.slice(at));
  return out.join(doc.newline);
}

/**
 * The document's text with `edits` applied. Bilingual edits find their entry by msgctxt + msgid (Weblate's
 * identity); monolingual ones by the template key. Unknown units are appended (monolingual: from the template
 * entry); an obsolete `#~` entry with the same id is removed first, as Weblate does.
 */
export function writePoText(doc: PoDocument, edits: readonly UnitWrite[], opts: PoWriteOptions, filename: string): string {
  const width = opts.width ?? DEFAULT_WIDTH;
  const patches: Patch[] = [];
  const appended: string[][] = [];
  const monolingual = opts.template !== null;
  const byIdentity = new Map<bigint, PoEntry>();
  const byTtId = monolingual ? indexById(doc) : null;
  const templateByKey = new Map<string, PoEntry>();
  if (opts.template) {
    for (const te of opts.template.entries) if (isContent(te)) templateByKey.set(monolingualKey(te, opts.template.newline), te);
  } else {
    for (const e of doc.entries) {
      if (!isContent(e)) continue;
      const id = calculateHash(joinPlural(entrySource(e)), entryContext(e, doc.newline));
      if (!byIdentity.has(id)) byIdentity.set(id, e);
    }
  }
  const obsoleteById = new Map<string, PoEntry>();
  for (const e of doc.entries) if (e.obsolete) obsoleteById.set(entryId(e, doc.newline), e);
  let changed = false;
  for (const edit of edits) {
    let entry: PoEntry | undefined;
    let te: PoEntry | undefined;
    if (opts.template) {
      te = templateByKey.get(edit.context);
      if (!te) throw new FormatWriteError(filename, `no key "${edit.context}" in the template`);
      entry = byTtId!.get(entryId(te, opts.template.newline));
    } else {
      entry = byIdentity.get(calculateHash(joinPlural(edit.source), edit.context));
    }
    if (edit.remove) {
      if (entry) {
        patches.push(removal(doc, entry));
        changed = true;
      }
      continue;
    }
    if (entry) {
      editEntry(entry, edit, monolingual, width, filename, patches);
    } else {
      const lines = newEntryLines(edit, te && opts.template ? { doc: opts.template, entry: te } : null, width);
      const id =
        te && opts.template ? entryId(te, opts.template.newline) : edit.context ? `${edit.context}\x04${edit.source[0] ?? ''}` : (edit.source[0] ?? '');
      const old = obsoleteById.get(id);
      if (old) patches.push(removal(doc, old));
      appended.push(lines);
    }
    changed = true;
  }
  if (!changed) return doc.text;
  if (opts.header) {
    patches.push(headerPatch(doc, opts.header, width), ...headerFlagPatches(doc));
  }
  let text = applyPatches(doc, patches);
  if (appended.length > 0) {
    const nl = doc.newline;
    const body = text.replace(/(\r?\n|\r)*$/, '');
    text = `${body}${body === '' ? '' : nl + nl}${appended.map((l) => l.join(nl)).join(nl + nl)}${nl}`;
  }
  return text;
}
