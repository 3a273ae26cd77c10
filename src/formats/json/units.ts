// Weblate's view of JSON entries: monolingual listing from the template, bilingual listing from the file, identities and notes.
import { unitContentHash, unitIdHash } from '../../domain/hash.js';
import { type ParsedUnit, State, joinPlural } from '../../domain/unit.js';
import { countWords } from '../../domain/words.js';
import type { ParsedFile } from '../format.js';
import type { Entry, Variant } from './entries.js';
import { keyToSteps } from './entries.js';

/** What a JSON ParsedFile keeps in `internal`: the entries, so the store can serve as a template. */
export interface JsonInternal {
  family: 'json';
  variant: Variant;
  entries: Entry[];
}

function isJsonInternal(value: unknown): value is JsonInternal {
  return typeof value === 'object' && value !== null && (value as JsonInternal).family === 'json';
}

const FLAG_SYNTAX = /[ ,:"()]/;

/** Weblate's flag value quoting: values with spaces or flag syntax characters are double-quoted. */
function flagValue(value: string): string {
  if (!FLAG_SYNTAX.test(value)) return value;
  return `"${value.replaceAll('"', '\\"').replaceAll('\n', '\\n').replaceAll('\r', '\\r')}"`;
}

/** `placeholders:$NAME$:…,case-insensitive` for WebExtension/ARB placeholder names (Weblate upper-cases them). */
export function placeholderFlags(names: readonly string[]): string {
  if (names.length === 0) return '';
  return `placeholders:${names.map((n) => flagValue(`$${n.toUpperCase()}$`)).join(':')},case-insensitive`;
}

/**
 * The template's entries: from a JSON store's internal state, or rebuilt from its units when
 * the store came from elsewhere (paths are then read from the contexts).
 */
export function templateEntries(template: ParsedFile, variant: Variant): Entry[] {
  if (isJsonInternal(template.internal)) return template.internal.entries;
  return template.units.map((u) => {
    const context = u.context !== '' ? u.context : joinPlural(u.source);
    const forms = u.context !== '' ? u.source : u.target;
    return {
      id: `.${context}`,
      context,
      key: context.replace(/^\.+/, ''),
      steps: keyToSteps(variant, context),
      forms,
      plural: forms.length > 1,
      note: u.note,
      placeholders: [],
      store: null,
    };
  });
}

function stateOf(target: readonly string[]): ParsedUnit['state'] {
  return target.some((t) => t !== '') ? State.TRANSLATED : State.EMPTY;
}

interface Identity {
  idHash: bigint;
  contentHash: bigint;
  numWords: number;
}

// Monolingual identities depend on the template alone, so each template entry is hashed once
// however many translation files are listed against it (SipHash dominates parse time).
const templateIdentities = new WeakMap<Entry, Identity>();

function templateIdentity(t: Entry): Identity {
  let identity = templateIdentities.get(t);
  if (!identity) {
    identity = { idHash: unitIdHash(true, t.forms, t.context), contentHash: unitContentHash(t.forms, t.context), numWords: countWords(t.forms) };
    templateIdentities.set(t, identity);
  }
  return identity;
}

function bilingualIdentity(key: string): Identity {
  // with an empty context, hash(source + context) is both the id hash and the content hash
  const hash = unitIdHash(false, [key], '');
  return { idHash: hash, contentHash: hash, numWords: countWords([key]) };
}

function makeUnit(context: string, source: string[], target: string[], note: string, flags: string, position: number, identity: Identity): ParsedUnit {
  return {
    context,
    source,
    target,
    location: '',
    note,
    flags,
    explanation: '',
    sourceExplanation: '',
    previousSource: '',
    state: stateOf(target),
    position,
    ...identity,
  };
}

/**
 * Monolingual listing: template order and identities; targets from the file's entry with the
 * same context (the last one when the file repeats it), "" when the file lacks it. A repeated
 * template context is listed once. Notes join the template's and the file's as Weblate does.
 */
export function monolingualUnits(template: readonly Entry[], entries: readonly Entry[]): ParsedUnit[] {
  const byContext = new Map<string, Entry>();
  for (const e of entries) byContext.set(e.context, e);
  const seen = new Set<string>();
  const units: ParsedUnit[] = [];
  for (const t of template) {
    if (seen.has(t.context)) continue;
    seen.add(t.context);
    const entry = byContext.get(t.context);
    let note = entry?.note ?? '';
    if (t.note !== note) note = `${t.note}\n${note}`;
    const target = entry ? [...entry.forms] : [''];
    units.push(makeUnit(t.context, [...t.forms], target, note, placeholderFlags(t.placeholders), units.length + 1, templateIdentity(t)));
  }
  return units;
}

/** Bilingual listing: the file's entries in order, source = key, empty context; a repeated key is listed once. */
export function bilingualUnits(entries: readonly Entry[]): ParsedUnit[] {
  const seen = new Set<string>();
  const units: ParsedUnit[] = [];
  for (const e of entries) {
    if (seen.has(e.key)) continue;
    seen.add(e.key);
    units.push(makeUnit('', [e.key], [...e.forms], e.note, placeholderFlags(e.placeholders), units.length + 1, bilingualIdentity(e.key)));
  }
  return units;
}
