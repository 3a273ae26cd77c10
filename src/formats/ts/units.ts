// Weblate's units from TS messages: identities, plural synthesis, states, notes, flags (bilingual and monolingual).
import { calculateHash } from '../../domain/hash.js';
import { type ParsedUnit, State, type UnitState, joinPlural } from '../../domain/unit.js';
import { countWords } from '../../domain/words.js';
import { type TsDocument, type TsMessage, splitFlags } from './document.js';

/** `vanished` and `obsolete` messages are kept in the file but are not units. */
export function isObsolete(m: TsMessage): boolean {
  return m.type === 'vanished' || m.type === 'obsolete';
}

/** The translation texts: the numerus forms, or the single translation text. */
export function targetForms(m: TsMessage): string[] {
  if (!m.numerus) return [m.translation];
  return m.forms ?? [''];
}

function hasText(forms: readonly string[]): boolean {
  for (const f of forms) if (f !== '') return true;
  return false;
}

/** Translate Toolkit's context: context name, disambiguation comment and message id, empty parts dropped, joined by `\n`. */
export function messageContext(m: TsMessage): string {
  const name = m.parent.name ?? '';
  let context = name;
  if (m.comment !== '') context = context === '' ? m.comment : `${context}\n${m.comment}`;
  if (m.id !== null && m.id !== '') context = context === '' ? m.id : `${context}\n${m.id}`;
  return context;
}

/** Translate Toolkit's `getid()`: the context immediately followed by the source text (the monolingual key). */
export function messageKey(m: TsMessage): string {
  return messageContext(m) + m.source;
}

/** Bilingual source: numerus messages get two forms synthesized from `(s)`. */
export function bilingualSource(m: TsMessage): string[] {
  if (!m.numerus) return [m.source];
  return [m.source.replaceAll('(s)', ''), m.source.replaceAll('(s)', 's')];
}

/** Whether Weblate lists the message at all (not obsolete, not blank). */
export function isContent(m: TsMessage): boolean {
  return !isObsolete(m) && (m.source !== '' || hasText(targetForms(m)));
}

/** `<extracomment>` then `<translatorcomment>`, joined by `\n`. */
export function messageNote(m: TsMessage): string {
  const e = m.extracomment ?? '';
  const t = m.translatorcomment ?? '';
  if (e === '') return t;
  return t === '' ? e : `${e}\n${t}`;
}

/** State of a present message: unfinished with text is fuzzy, without text empty; anything else translated. */
function messageState(m: TsMessage, forms: readonly string[]): UnitState {
  if (m.type !== 'unfinished') return State.TRANSLATED;
  return hasText(forms) ? State.FUZZY : State.EMPTY;
}

/** Target of a present message; an empty finished translation means "same as source". */
function messageTarget(m: TsMessage, forms: string[], source: readonly string[]): string[] {
  return m.type !== 'unfinished' && !hasText(forms) ? source.slice() : forms;
}

const RELATIVE_LOCATION = /^([+-]|.*, [+-]|.*:[+-])/s;

function shownLocation(location: string): string {
  return RELATIVE_LOCATION.test(location) ? '' : location;
}

/** Units of a bilingual TS file, in file order, first of each identity only. */
export function bilingualUnits(doc: TsDocument): ParsedUnit[] {
  const units: ParsedUnit[] = [];
  const seen = new Set<bigint>();
  for (const m of doc.messages) {
    if (!isContent(m)) continue;
    const context = messageContext(m);
    const source = bilingualSource(m);
    const idHash = calculateHash(m.numerus ? joinPlural(source) : m.source, context);
    if (seen.has(idHash)) continue;
    seen.add(idHash);
    const forms = targetForms(m);
    units.push({
      context,
      source,
      target: messageTarget(m, forms, source),
      location: shownLocation(m.location),
      note: messageNote(m),
      flags: m.flags,
      explanation: '',
      sourceExplanation: '',
      previousSource: '',
      state: context === '' && m.source === '' ? State.READONLY : messageState(m, forms),
      position: units.length + 1,
      idHash,
      contentHash: idHash,
      numWords: countWords(source),
    });
  }
  return units;
}

/** Translation messages by `getid()`; a later duplicate replaces an earlier one (a dictionary, as in Weblate). */
export function indexByKey(doc: TsDocument): Map<string, TsMessage> {
  const index = new Map<string, TsMessage>();
  for (const m of doc.messages) if (!isObsolete(m)) index.set(messageKey(m), m);
  return index;
}

function mergeNotes(template: string, unit: string): string {
  if (unit === '' || unit === template) return template;
  return template === '' ? unit : `${template}\n${unit}`;
}

function mergeFlags(template: string, unit: string): string {
  if (unit === '' || unit === template) return template;
  const flags = splitFlags(template);
  for (const f of splitFlags(unit)) if (!flags.includes(f)) flags.push(f);
  return flags.join(', ');
}

/**
 * Units of a monolingual TS file: the template's messages in template order, keyed by the template's
 * `getid()`, with the template's translation as source and the matching translation message (if any) as target.
 */
export function monolingualUnits(doc: TsDocument, template: TsDocument): ParsedUnit[] {
  const index = indexByKey(doc);
  const units: ParsedUnit[] = [];
  const seen = new Set<bigint>();
  for (const tm of template.messages) {
    if (!isContent(tm)) continue;
    const context = messageKey(tm);
    const idHash = calculateHash(context);
    if (seen.has(idHash)) continue;
    seen.add(idHash);
    const source = targetForms(tm).slice();
    const m = index.get(context);
    const forms = m ? targetForms(m) : [''];
    units.push({
      context,
      source,
      target: m ? messageTarget(m, forms, source) : forms,
      location: shownLocation(tm.location),
      note: m ? mergeNotes(messageNote(tm), messageNote(m)) : messageNote(tm),
      flags: m ? mergeFlags(tm.flags, m.flags) : tm.flags,
      explanation: '',
      sourceExplanation: '',
      previousSource: '',
      state: context === '' ? State.READONLY : m ? messageState(m, forms) : State.EMPTY,
      position: units.length + 1,
      idHash,
      contentHash: calculateHash(joinPlural(source), context),
      numWords: countWords(source),
    });
  }
  return units;
}
