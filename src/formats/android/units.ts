// Weblate's units from Android entries: the template's keys in template order, targets from the translation file.
import { calculateHash, unitContentHash, wordsOfLastHashed } from '../../domain/hash.js';
import { type ParsedUnit, State, type UnitState } from '../../domain/unit.js';
import { UNUSED_PLURAL, countWords } from '../../domain/words.js';
import { TemplateKeys } from '../template-keys.js';
import { hasReadOnlyFlag, xmlFlags } from '../xml/flags.js';
import type { AndroidDocument, AndroidEntry } from './document.js';

/** The forms of an entry: one for `<string>`, one per CLDR tag of the language for `<plurals>` ("" when missing). */
export function entryForms(entry: AndroidEntry, tags: readonly string[]): string[] {
  if (entry.kind === 'string') return [entry.text.value];
  const byQuantity = new Map<string, string>();
  for (const item of entry.items) byQuantity.set(item.quantity, item.value);
  return tags.map((tag) => byQuantity.get(tag) ?? '');
}

/** The comments before the element, joined by newlines (Translate Toolkit's `getnotes()`). */
export function entryNote(entry: AndroidEntry | undefined): string {
  if (!entry || entry.notes.length === 0) return '';
  return entry.notes.length === 1 ? entry.notes[0]! : entry.notes.join('\n');
}

/** Entries Weblate lists: those with a name (an element without one is blank). */
export function isListed(entry: AndroidEntry): entry is AndroidEntry & { name: string } {
  return entry.name !== null;
}

/** The entry Weblate finds for a key: the last one of that name, as a lookup by id does. */
export function indexByName(doc: AndroidDocument): Map<string, AndroidEntry> {
  const index = new Map<string, AndroidEntry>();
  for (const e of doc.entries) if (e.name !== null) index.set(e.name, e);
  return index;
}

function stateOf(template: AndroidEntry, target: readonly string[], flags: string): UnitState {
  // most units have no flags and one form
  if (!template.translatable || (flags !== '' && hasReadOnlyFlag(flags))) return State.READONLY;
  const translated = target.length === 1 ? target[0] !== '' : target.some((t) => t !== '');
  return translated ? State.TRANSLATED : State.EMPTY;
}

interface Identity {
  source: string[];
  idHash: bigint;
  contentHash: bigint;
  numWords: number;
}

/**
 * Weblate's flags of a unit (`TTKitUnit.flags`): the translation's element's `maxwidth`/`size-unit`, `font` and
 * `weblate-flags` attributes, then the template's over them.
 */
export function entryFlags(entry: AndroidEntry | undefined, template: AndroidEntry): string {
  const own = entry?.flagAttributes ?? null;
  const base = template.flagAttributes;
  if (own === null && base === null) return '';
  const readers = [];
  if (own !== null) readers.push((name: string) => own[name]);
  if (base !== null) readers.push((name: string) => base[name]);
  return xmlFlags(readers);
}

/** A template's listed entries (the first of each name) and their notes, with their identities per tag set. */
interface TemplateListing {
  entries: Array<AndroidEntry & { name: string }>;
  notes: string[];
  identities: Map<readonly string[], Identity[]>;
  /** The entries' names and their places. */
  keys: TemplateKeys;
}

// A template is listed against every translation file: its entries, notes and identities are worked out once.
const listings = new WeakMap<AndroidDocument, TemplateListing>();

function listingOf(doc: AndroidDocument): TemplateListing {
  let listing = listings.get(doc);
  if (!listing) {
    const seen = new Set<string>();
    const entries: Array<AndroidEntry & { name: string }> = [];
    for (const e of doc.entries) {
      if (!isListed(e) || seen.has(e.name)) continue;
      seen.add(e.name);
      entries.push(e);
    }
    listing = { entries, notes: entries.map(entryNote), identities: new Map(), keys: new TemplateKeys(entries.map((e) => e.name)) };
    listings.set(doc, listing);
  }
  return listing;
}

function identitiesOf(listing: TemplateListing, tags: readonly string[]): Identity[] {
  let identities = listing.identities.get(tags);
  if (!identities) {
    identities = listing.entries.map((t) => {
      const source = entryForms(t, tags);
      const contentHash = unitContentHash(source, t.name);
      // the words of the source as the hash just read them (a form Weblate does not count aside)
      const numWords = source.some((form) => form.startsWith(UNUSED_PLURAL)) ? countWords(source) : wordsOfLastHashed();
      return { source, idHash: calculateHash(t.name), contentHash, numWords };
    });
    listing.identities.set(tags, identities);
  }
  return identities;
}

function unit(context: string, target: string[], note: string, flags: string, state: UnitState, position: number, identity: Identity): ParsedUnit {
  return {
    context,
    source: identity.source.slice(),
    target,
    location: '',
    note,
    flags,
    explanation: '',
    sourceExplanation: '',
    previousSource: '',
    state,
    position,
    idHash: identity.idHash,
    contentHash: identity.contentHash,
    numWords: identity.numWords,
  };
}

/**
 * The units of a translation file against its template: every named template entry once (the first of a
 * repeated name), keyed by name (`id_hash = hash(name)`), source from the template in the source language's
 * plural tags, target from the file's entry of that name in the file language's tags ("" when it has none);
 * `translatable="false"` in the template (or a `read-only` flag) makes the unit read-only. Notes: the template's, then
 * the file's. Flags: see `entryFlags`.
 */
export function monolingualUnits(
  doc: AndroidDocument,
  template: AndroidDocument,
  tags: { source: readonly string[]; target: readonly string[] },
): ParsedUnit[] {
  const listing = listingOf(template);
  const identities = identitiesOf(listing, tags.source);
  // each template name's entry in this file: the last of that name (a lookup of the file's names in the template's)
  const found = new Array<AndroidEntry | undefined>(listing.entries.length);
  let previous = -1;
  for (const e of doc.entries) {
    const k = e.name === null ? undefined : listing.keys.placeOf(e.name, previous);
    if (k === undefined) continue;
    found[k] = e;
    previous = k;
  }
  const units: ParsedUnit[] = [];
  for (let k = 0; k < listing.entries.length; k++) {
    const t = listing.entries[k]!;
    const e = found[k];
    const target = e ? entryForms(e, tags.target) : [''];
    let note = entryNote(e);
    const templateNote = listing.notes[k]!;
    if (templateNote !== note) note = `${templateNote}\n${note}`;
    const flags = entryFlags(e, t);
    units.push(unit(t.name, target, note, flags, stateOf(t, target, flags), k + 1, identities[k]!));
  }
  return units;
}

/** A file read without a template (the template itself): each named entry with its value as source and target. */
export function templateUnits(doc: AndroidDocument, tags: readonly string[]): ParsedUnit[] {
  const listing = listingOf(doc);
  const identities = identitiesOf(listing, tags);
  return listing.entries.map((e, k) => {
    const identity = identities[k]!;
    const flags = entryFlags(e, e);
    return unit(e.name, identity.source.slice(), listing.notes[k]!, flags, stateOf(e, identity.source, flags), k + 1, identity);
  });
}
