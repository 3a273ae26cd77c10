// Reading TBX (martif and TBX v3) into Weblate's glossary units, keeping the elements each unit came from.
import { FormatParseError } from '../../domain/errors.js';
import { unitIdHash } from '../../domain/hash.js';
import { type ParsedUnit, State, type UnitState } from '../../domain/unit.js';
import { countWords } from '../../domain/words.js';
import type { FormatContext } from '../format.js';
import { lineColumn } from '../text.js';
import { hasReadOnlyFlag, xmlFlags } from '../xml/flags.js';
import { type XmlDocument, type XmlElement, descendants, firstDescendant, parseXml, textOf } from './xml-tree.js';

/** Element names of the two TBX generations. */
export interface Dialect {
  id: 'martif' | 'tbx3';
  root: string;
  entry: string;
  langSet: string;
  termGroup: string;
}

export const MARTIF: Dialect = { id: 'martif', root: 'martif', entry: 'termEntry', langSet: 'langSet', termGroup: 'tig' };
export const TBX3: Dialect = { id: 'tbx3', root: 'tbx', entry: 'conceptEntry', langSet: 'langSec', termGroup: 'termSec' };

/** One termEntry (conceptEntry) and what Weblate reads from it. */
export interface TbxEntry {
  element: XmlElement;
  context: string;
  sourceSet: XmlElement | null;
  targetSet: XmlElement | null;
  targetTerm: XmlElement | null;
  source: string;
  target: string;
  explanation: string;
  /** The listed unit, or null when the entry is obsolete, blank or a duplicate. */
  unit: ParsedUnit | null;
}

export interface TbxModel {
  doc: XmlDocument;
  dialect: Dialect;
  /** The first `<body>` element (where new entries go), or null. */
  body: XmlElement | null;
  entries: TbxEntry[];
  units: ParsedUnit[];
  /** Listed entries by id_hash (the first entry wins, as in Weblate's listing). */
  byIdHash: Map<bigint, TbxEntry>;
}

const TERM_NOTE = new Set(['termNote']);
const DEPRECATED = new Set(['deprecated', 'deprecatedtermadmnsts', 'deprecatedterm-admn-sts']);

/** Language codes compare lower-cased with `_` read as `-`; `en` and `en-US` stay different. */
export function normalizeLanguage(code: string): string {
  return code.toLowerCase().replaceAll('_', '-');
}

function isAdministrativeStatus(node: XmlElement): boolean {
  return node.name === 'termNote' && node.attrs.type === 'administrativeStatus';
}

function isTranslationNeeded(node: XmlElement): boolean {
  return node.name === 'descrip' && node.attrs.type === 'Translation needed';
}

/** Text as TT reads it: `xml:space="default"` on the node (or else on the entry) normalizes spaces. */
function nodeText(node: XmlElement, entrySpace: string): string {
  const space = node.attrs['xml:space'] ?? entrySpace;
  const text = textOf(node);
  return space === 'default' ? text.replace(/[\t\n\r ]+/g, ' ').replace(/^ | $/g, '') : text;
}

function joinUnique(texts: string[]): string {
  return [...new Set(texts)].join('\n');
}

/** Weblate's flags from termEntry attributes (maxwidth, size-unit, font, weblate-flags), sorted. */
export function entryFlags(attrs: Readonly<Record<string, string>>): string {
  return xmlFlags([(name) => attrs[name]]);
}

function languageSets(entry: XmlElement, dialect: Dialect): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of entry.children) if (typeof child !== 'string' && child.name === dialect.langSet) out.push(child);
  return out;
}

/** The first language set whose `xml:lang` normalizes to `wanted` (already normalized). */
function findSet(sets: XmlElement[], wanted: string): XmlElement | null {
  for (const set of sets) {
    const lang = set.attrs['xml:lang'];
    if (lang !== undefined && (lang === wanted || normalizeLanguage(lang) === wanted)) return set;
  }
  return null;
}

/** The term group (tig / termSec) that holds `term`, if any. */
function termGroupOf(term: XmlElement, set: XmlElement, dialect: Dialect): XmlElement | null {
  for (let node = term.parent; node && node !== set; node = node.parent) if (node.name === dialect.termGroup) return node;
  return null;
}

/** termNote, descrip and note elements anywhere inside `element`, in document order, in one walk. */
function collectNotes(element: XmlElement, out: { termNotes: XmlElement[]; descrips: XmlElement[]; notes: XmlElement[] }): void {
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.name === 'termNote') out.termNotes.push(child);
    else if (child.name === 'descrip') out.descrips.push(child);
    else if (child.name === 'note') out.notes.push(child);
    collectNotes(child, out);
  }
}

/** Reads one entry; `unit.position` is 0 until the entry is listed. */
function readEntry(
  element: XmlElement,
  languages: { source: string; target: string },
  dialect: Dialect,
): { entry: TbxEntry; unit: ParsedUnit; listed: boolean } {
  const entrySpace = element.attrs['xml:space'] ?? 'preserve';
  const sets = languageSets(element, dialect);
  const sourceSet = findSet(sets, languages.source);
  const targetSet = findSet(sets, languages.target);
  const sourceTerm = sourceSet && firstDescendant(sourceSet, 'term');
  const targetTerm = targetSet && firstDescendant(targetSet, 'term');
  const source = sourceTerm ? nodeText(sourceTerm, entrySpace) : '';
  const target = targetTerm ? nodeText(targetTerm, entrySpace) : '';
  const context = element.attrs.id ?? '';

  const found = { termNotes: [] as XmlElement[], descrips: [] as XmlElement[], notes: [] as XmlElement[] };
  collectNotes(element, found);
  const { termNotes, descrips, notes } = found;

  // martif follows TT: any deprecated term anywhere retires the entry. TBX v3 concepts list
  // synonyms as termSecs, so only a deprecated status on the shown source term retires it.
  let statusNotes = termNotes;
  if (dialect.id === 'tbx3') {
    statusNotes = sourceTerm && sourceSet ? descendants(termGroupOf(sourceTerm, sourceSet, dialect) ?? sourceTerm, TERM_NOTE) : [];
  }
  const obsolete = statusNotes.some((n) => isAdministrativeStatus(n) && DEPRECATED.has(nodeText(n, entrySpace).trim().toLowerCase()));

  const needed = descrips.find(isTranslationNeeded);
  const translatable = needed ? nodeText(needed, entrySpace).trim().toLowerCase() === 'yes' : source !== '';

  const pos = joinUnique(termNotes.filter((n) => !isAdministrativeStatus(n)).map((n) => nodeText(n, entrySpace)));
  const developer = joinUnique(notes.filter((n) => n.attrs.from === 'developer').map((n) => nodeText(n, entrySpace)));
  const explanation = joinUnique(notes.filter((n) => n.attrs.from === 'translator').map((n) => nodeText(n, entrySpace)));
  const sourceExplanation = joinUnique(descrips.filter((n) => !isTranslationNeeded(n)).map((n) => nodeText(n, entrySpace)));
  const flags = entryFlags(element.attrs);

  let state: UnitState;
  if (!translatable || hasReadOnlyFlag(flags)) state = State.READONLY;
  else if (target === '') state = State.EMPTY;
  else state = State.TRANSLATED;

  // Bilingual units hash source + context for both identities.
  const idHash = unitIdHash(false, [source], context);
  const unit: ParsedUnit = {
    context,
    source: [source],
    target: [target],
    location: '',
    note: pos && developer ? `${pos}\n${developer}` : pos || developer,
    flags,
    explanation,
    sourceExplanation,
    previousSource: '',
    state,
    position: 0,
    idHash,
    contentHash: idHash,
    numWords: countWords([source]),
  };
  const entry: TbxEntry = { element, context, sourceSet, targetSet, targetTerm, source, target, explanation, unit: null };
  return { entry, unit, listed: !obsolete && (source !== '' || target !== '') };
}

function checkRoot(root: XmlElement): string | null {
  if (root.name === MARTIF.root || root.name === TBX3.root) return null;
  return `root element is <${root.name}>, expected <martif> (TBX 2) or <tbx> (TBX v3)`;
}

/**
 * Parses a TBX file into entries and listed units (Weblate's bilingual glossary listing).
 * @example const model = readTbx(bytes, { filename: 'glossary/cs.tbx', language: 'cs', sourceLanguage: 'en' });
 */
export function readTbx(bytes: Uint8Array, ctx: FormatContext): TbxModel {
  if (ctx.template) {
    throw new FormatParseError(ctx.filename, 1, 1, 'TBX is always bilingual; a glossary cannot have a template');
  }
  const doc = parseXml(bytes, ctx.filename, checkRoot);
  const dialect = doc.root.name === TBX3.root ? TBX3 : MARTIF;
  const body = firstDescendant(doc.root, 'body');
  const entries: TbxEntry[] = [];
  const units: ParsedUnit[] = [];
  const byIdHash = new Map<bigint, TbxEntry>();
  const languages = { source: normalizeLanguage(ctx.sourceLanguage), target: normalizeLanguage(ctx.language) };
  for (const element of descendants(doc.root, new Set([dialect.entry]))) {
    const { entry, unit, listed } = readEntry(element, languages, dialect);
    if (listed && !byIdHash.has(unit.idHash)) {
      unit.position = units.length + 1;
      entry.unit = unit;
      units.push(unit);
      byIdHash.set(unit.idHash, entry);
    }
    entries.push(entry);
  }
  return { doc, dialect, body, entries, units, byIdHash };
}

/**
 * Why a glossary with entries lists none, when none of them has a term in the source language or the file's language
 * (a single-file glossary named `terms.tbx` read as language `terms`, or a source language the file spells `en-US`):
 * the first entry's line and the languages the file has, else null.
 * @example languageMismatch(readTbx(bytes, ctx), ctx) // { line: 12, reason: 'none of its 137 entries has a term in en or terms (…)' }
 */
export function languageMismatch(model: TbxModel, ctx: FormatContext): { line: number; reason: string } | null {
  if (model.units.length > 0 || model.entries.length === 0) return null;
  const languages = new Set<string>();
  for (const entry of model.entries) {
    for (const set of languageSets(entry.element, model.dialect)) {
      const lang = set.attrs['xml:lang'];
      if (lang !== undefined) languages.add(lang);
    }
  }
  const { line } = lineColumn(model.doc.text, model.entries[0]!.element.start);
  const n = model.entries.length;
  const has = languages.size > 0 ? [...languages].join(', ') : 'none';
  return {
    line,
    reason:
      `none of its ${n} ${n === 1 ? 'entry has' : 'entries has'} a term in ${ctx.sourceLanguage} (the source language) or ${ctx.language} ` +
      `(the language its name gives); the file has ${has}`,
  };
}
