// Running the checks on one unit: which are on (flags, format, language) and which fail. Pure: no I/O.
import { type UserRegex, compileUserRegex } from '../domain/regex.js';
import { PLURAL_SEPARATOR, State } from '../domain/unit.js';
import { type FlagValue, type Flags, flagText, mergeFlags } from './flags.js';
import { FORMAT_SYNTAXES, formatCheck } from './format.js';
import { icuMismatch } from './icu.js';
import { CHECKS, formatFlags } from './registry.js';
import { sameCheck } from './same.js';
import { looksLikeXml, stripXml, xmlTags } from './xml.js';

/** What the checks of a translation need to know besides the unit. */
export interface CheckContext {
  /** The component's file format id. */
  format: string;
  /** Code of the source language and of the translation's language. */
  sourceLanguage: string;
  language: string;
  /** Per plural form of the language: the form covers a single number (or only 0 and 1). */
  oneNumberForms: readonly boolean[];
  /** Project and component `check_flags`. */
  flags: string;
}

/** A unit as the checks see it (plural forms joined as stored). */
export interface CheckedUnit {
  source: string;
  target: string;
  state: number;
  /** Flags from the file, and the string's `extra_flags`. */
  flags: string;
  extraFlags: string;
}

interface Plan {
  ignoreAll: boolean;
  on: Set<string>;
  maxLength: number | null;
  xmlText: boolean;
  strictSame: boolean;
  formats: string[];
  placeholders: { values: FlagValue[]; caseInsensitive: boolean } | null;
  regex: UserRegex | null;
  /** The checks of SINGLE that are on, in its order. */
  singles: readonly (readonly [string, Single])[];
}

const bases = new Map<string, string>();
/** A language code's base (`pt_BR` → `pt`), remembered: asked for every unit checked. */
function baseOf(code: string): string {
  let base = bases.get(code);
  if (base === undefined) {
    base = code.split(/[_@-]/)[0]!.toLowerCase();
    bases.set(code, base);
  }
  return base;
}

function makePlan(flags: Flags): Plan {
  const ignoreAll = flags.has('ignore-all-checks');
  const on = new Set<string>();
  for (const c of CHECKS) {
    if (flags.has(`ignore-${c.id.replaceAll('_', '-')}`)) continue;
    if (c.flag && !flags.has(c.flag)) continue;
    on.add(c.id);
  }
  const max = Number.parseInt(flagText(flags, 'max-length') ?? '', 10);
  let regex: UserRegex | null = null;
  const r = flags.get('regex')?.[0];
  if (r !== undefined) {
    try {
      regex = compileUserRegex(typeof r === 'string' ? r : r.regex);
    } catch {
      on.delete('regex');
    }
  } else on.delete('regex');
  if (!Number.isFinite(max)) on.delete('max-length');
  return {
    ignoreAll,
    on,
    maxLength: Number.isFinite(max) ? max : null,
    xmlText: flags.has('xml-text'),
    strictSame: flags.has('strict-same'),
    formats: Object.keys(FORMAT_SYNTAXES).filter((id) => on.has(id)),
    placeholders: on.has('placeholders') ? { values: flags.get('placeholders') ?? [], caseInsensitive: flags.has('case-insensitive') } : null,
    regex,
    singles: SINGLE.filter(([id]) => on.has(id)),
  };
}

const plans = new WeakMap<CheckContext, Map<string, Plan>>();

function planOf(ctx: CheckContext, unit: CheckedUnit): Plan {
  let byFlags = plans.get(ctx);
  if (!byFlags) {
    byFlags = new Map();
    plans.set(ctx, byFlags);
  }
  const key = `${unit.flags}\0${unit.extraFlags}`;
  let plan = byFlags.get(key);
  if (!plan) {
    plan = makePlan(mergeFlags(formatFlags(ctx.format), ctx.flags, unit.flags, unit.extraFlags));
    byFlags.set(key, plan);
  }
  return plan;
}

/** Weblate's comparison of one end character: exactly one of the two is in the set. */
function endsDiffer(source: string, target: string, chars: string): boolean {
  if (source === '' || target === '') return false;
  return chars.includes(source[source.length - 1]!) !== chars.includes(target[target.length - 1]!);
}

const STOPS = '.。।۔։·෴។';
const QUESTIONS = '?՞؟⸮？፧꘏⳺';
const EXCLAMATIONS = '!！՜᥄႟߹';

function endStop(s: string, t: string, lang: string): boolean {
  if (s.length <= 4 || t === '' || lang === 'th' || lang === 'jbo') return false;
  if (s.endsWith('...') && t.endsWith('…')) return false;
  const last = s[s.length - 1]!;
  if (lang === 'ja' && (last === ':' || last === ';')) return endsDiffer(s, t, ';:：.。');
  if (lang === 'hy') return endsDiffer(s, t, `${STOPS}:՝?!\``);
  if (lang === 'hi' || lang === 'bn' || lang === 'or') return endsDiffer(s, t, '.\u0964\u09F7|');
  if (lang === 'sat') return endsDiffer(s, t, '.᱾');
  return endsDiffer(s, t, STOPS);
}

function endColon(s: string, t: string, lang: string): boolean {
  if (s === '' || t === '' || lang === 'jbo') return false;
  const last = s[s.length - 1]!;
  if (lang === 'hy') return last === ':' && endsDiffer(s, t, ':՝`');
  if (lang === 'ja') return (last === ':' || last === ';') && endsDiffer(s, t, ';:：.。');
  return endsDiffer(s, t, ':：៖');
}

function endQuestion(s: string, t: string, lang: string): boolean {
  if (s === '' || t === '' || lang === 'jbo') return false;
  const last = s[s.length - 1]!;
  if (lang === 'hy') return last === '?' && endsDiffer(s, t, '?՞։');
  if (lang === 'el') return last === '?' && !'?;;'.includes(t[t.length - 1]!);
  return endsDiffer(s, t, QUESTIONS);
}

function endExclamation(s: string, t: string, lang: string): boolean {
  if (s === '' || t === '' || lang === 'hy' || lang === 'jbo') return false;
  // the exceptions only matter where the ends differ (most strings end alike: that test first)
  if (!endsDiffer(s, t, EXCLAMATIONS)) return false;
  if (lang === 'eu' && s.endsWith('!') && t.includes('¡') && t.includes('!')) return false;
  return !(s.endsWith('Texy!') || t.endsWith('Texy!'));
}

function endEllipsis(s: string, t: string, lang: string): boolean {
  if (t === '' || lang === 'jbo') return false;
  if (s.endsWith('...') && t.endsWith('…')) return false;
  return endsDiffer(s, t, '…');
}

function leadingSpaces(x: string): number {
  let i = 0;
  while (x.charCodeAt(i) === 32) i++;
  return i;
}
function trailingSpaces(x: string): number {
  let i = 0;
  while (x.charCodeAt(x.length - 1 - i) === 32) i++;
  return i;
}

function beginSpace(s: string, t: string): boolean {
  if (s.length <= 1 && t.length <= 1) return false;
  const ts = leadingSpaces(t);
  if (ts === t.length) return false;
  return leadingSpaces(s) !== ts;
}

function endSpace(s: string, t: string): boolean {
  if ((s.length <= 1 && t.length <= 1) || s === '' || t === '') return false;
  const ts = trailingSpaces(t);
  if (ts === t.length) return false;
  return trailingSpaces(s) !== ts;
}

function doubleSpace(s: string, t: string): boolean {
  if ((s.length <= 1 && t.length <= 1) || s === '' || t === '') return false;
  return !s.includes('  ') && t.includes('  ');
}

function countOf(text: string, what: string): number {
  let n = 0;
  for (let i = text.indexOf(what); i !== -1; i = text.indexOf(what, i + what.length)) n++;
  return n;
}

function counting(s: string, t: string, what: string): boolean {
  if (s === '' || t === '') return false;
  return countOf(s, what) !== countOf(t, what);
}

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const BLANK = /^\s+$/;
const wordChars = new Map<number, boolean>();

/** Whether a code point is a word character (`[\p{L}\p{N}_]`): ASCII by range, others asked once and remembered. */
function isWordChar(cp: number): boolean {
  if (cp < 128) return (cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90) || (cp >= 48 && cp <= 57) || cp === 95;
  let word = wordChars.get(cp);
  if (word === undefined) {
    word = WORD_CHAR.test(String.fromCodePoint(cp));
    wordChars.set(cp, word);
  }
  return word;
}

/**
 * Words a text repeats consecutively ("the the"), numbers aside: neighbouring words (runs of `[\p{L}\p{N}_]`) that
 * are equal with only white space between them. One pass over the code points (a back-reference pattern cost 100 ms
 * per corpus sync, a global Unicode-class pattern most of the rest: every translated string of a sync is read).
 */
function repeatedWords(text: string): Set<string> {
  const out = new Set<string>();
  if (!/\s/.test(text)) return out;
  let previousStart = -1;
  let previousEnd = -1;
  const n = text.length;
  let i = 0;
  while (i < n) {
    let cp = text.codePointAt(i)!;
    if (!isWordChar(cp)) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    do {
      i += cp > 0xffff ? 2 : 1;
      cp = i < n ? text.codePointAt(i)! : -1;
    } while (cp !== -1 && isWordChar(cp));
    if (previousStart !== -1 && i - start === previousEnd - previousStart && text.startsWith(text.slice(previousStart, previousEnd), start)) {
      const word = text.slice(start, i);
      if (BLANK.test(text.slice(previousEnd, start)) && !/^\d+$/.test(word)) out.add(word);
    }
    previousStart = start;
    previousEnd = i;
  }
  return out;
}

function duplicate(s: string, t: string): boolean {
  const inTarget = repeatedWords(t);
  if (inTarget.size === 0) return false;
  const inSource = repeatedWords(s);
  for (const w of inTarget) if (!inSource.has(w)) return true;
  return false;
}

/** The last texts read as XML: `xmlvalid` and `xmltags` read the same source and target one after the other. */
const lastTags: [string, string[] | null][] = [];
function tagsOf(text: string): string[] | null {
  for (const [seen, tags] of lastTags) if (seen === text) return tags;
  const tags = xmlTags(text);
  if (lastTags.length === 2) lastTags.shift();
  lastTags.push([text, tags]);
  return tags;
}

function xmlCheck(s: string, t: string, plan: Plan, which: 'xmltags' | 'xmlvalid'): boolean {
  if (!looksLikeXml(s, plan.xmlText)) return false;
  const src = tagsOf(s);
  if (src === null) return false;
  const tgt = tagsOf(t);
  if (which === 'xmlvalid') return tgt === null;
  return tgt !== null && (src.length !== tgt.length || src.some((x, i) => x !== tgt[i]));
}

function placeholdersMissing(s: string, t: string, p: NonNullable<Plan['placeholders']>): boolean {
  const target = p.caseInsensitive ? t.toLowerCase() : t;
  for (const v of p.values) {
    if (typeof v === 'string') {
      if (v !== '' && !target.includes(p.caseInsensitive ? v.toLowerCase() : v)) return true;
      continue;
    }
    let re: RegExp;
    try {
      re = new RegExp(v.regex, p.caseInsensitive ? 'giu' : 'gu');
    } catch {
      continue;
    }
    for (const m of s.matchAll(re)) {
      if (!target.includes(p.caseInsensitive ? m[0].toLowerCase() : m[0])) return true;
    }
  }
  return false;
}

type Single = (s: string, t: string, lang: string, plan: Plan) => boolean;

/** The checks that compare one source form with one translated form. */
const SINGLE: readonly [string, Single][] = [
  ['begin_newline', (s, t) => s !== '' && t !== '' && (s[0] === '\n') !== (t[0] === '\n')],
  ['end_newline', (s, t) => endsDiffer(s, t, '\n')],
  ['begin_space', beginSpace],
  ['end_space', endSpace],
  ['double_space', doubleSpace],
  ['end_stop', endStop],
  ['end_colon', endColon],
  ['end_question', endQuestion],
  ['end_exclamation', endExclamation],
  ['end_ellipsis', endEllipsis],
  ['end_semicolon', (s, t, lang) => !(lang === 'el' && s.endsWith('?')) && endsDiffer(s, t, ';')],
  ['newline-count', (s, t) => counting(s, t, '\n')],
  ['escaped_newline', (s, t) => counting(s, t, '\\n')],
  ['zero-width-space', (s, t, lang) => lang !== 'km' && !s.includes('\u200b') && t.includes('\u200b')],
  ['duplicate', duplicate],
  ['xmlvalid', (s, t, _l, plan) => (s.includes('<') || plan.xmlText) && xmlCheck(s, t, plan, 'xmlvalid')],
  ['xmltags', (s, t, _l, plan) => (s.includes('<') || plan.xmlText) && xmlCheck(s, t, plan, 'xmltags')],
  ['placeholders', (s, t, _l, plan) => plan.placeholders !== null && placeholdersMissing(s, t, plan.placeholders)],
  ['icu_message_format', (s, t) => icuMismatch(s, t)],
];

/**
 * The translation checks that fail for a unit of a (non-source) translation, in registry order. Empty and
 * read-only strings are not checked (except `plurals`, which looks at partly translated plurals).
 * @example translationChecks(ctx, { source: 'About %1', target: 'Über', state: 20, flags: 'qt-format', extraFlags: '' }) // ['qt_format']
 */
export function translationChecks(ctx: CheckContext, unit: CheckedUnit): string[] {
  if (unit.state === State.READONLY) return [];
  const plan = planOf(ctx, unit);
  if (plan.ignoreAll) return [];
  const failed: string[] = [];
  const plural = unit.source.includes(PLURAL_SEPARATOR);
  const sources = plural ? unit.source.split(PLURAL_SEPARATOR) : [unit.source];
  const targets = plural || unit.target.includes(PLURAL_SEPARATOR) ? unit.target.split(PLURAL_SEPARATOR) : [unit.target];
  if (plural && plan.on.has('plurals') && targets.length > 1 && targets.includes('') && targets.some((x) => x !== '')) failed.push('plurals');
  if (unit.state === State.EMPTY) return failed;
  const lang = baseOf(ctx.language);
  const on = plan.on;
  if (on.has('same') && baseOf(ctx.sourceLanguage) !== lang && !(baseOf(ctx.sourceLanguage) === 'en' && (lang === 'en' || lang === 'ia'))) {
    if (anyPair(sources, targets, ctx, (s, t) => sameCheck(s, t, plan.strictSame, plan.formats))) failed.push('same');
  }
  if (sources.length === 1 && targets.length === 1) {
    // one form each (most strings): no pairing to do
    const s = sources[0]!;
    const t = targets[0]!;
    for (const [id, fn] of plan.singles) if (fn(s, t, lang, plan)) failed.push(id);
  } else {
    for (const [id, fn] of plan.singles) if (anyPair(sources, targets, ctx, (s, t) => fn(s, t, lang, plan))) failed.push(id);
  }
  if (on.has('max-length') && plan.maxLength !== null) {
    const max = plan.maxLength;
    if (targets.some((x) => [...(plan.xmlText ? stripXml(x) : x)].length > max)) failed.push('max-length');
  }
  if (plural && on.has('same_plurals') && targets.length > 1 && targets[0] !== '' && targets.every((x) => x === targets[0])) failed.push('same_plurals');
  if (on.has('regex') && plan.regex !== null) {
    const re = plan.regex;
    if (targets.some((x) => x !== '' && !re.test(x))) failed.push('regex');
  }
  for (const id of plan.formats) {
    if (formatCheck(FORMAT_SYNTAXES[id]!, sources, targets, ctx.oneNumberForms)) failed.push(id);
  }
  return sortByRegistry(failed);
}

const ORDER = new Map(CHECKS.map((c, i) => [c.id, i]));
function sortByRegistry(ids: string[]): string[] {
  return ids.length < 2 ? ids : ids.sort((a, b) => ORDER.get(a)! - ORDER.get(b)!);
}

/** Pairs plural forms as Weblate does: a singular with the source's singular, other forms with its plural. */
function anyPair(sources: readonly string[], targets: readonly string[], ctx: CheckContext, fn: (s: string, t: string) => boolean): boolean {
  if (sources.length === 1 && targets.length === 1) return fn(sources[0]!, targets[0]!);
  const last = sources[sources.length - 1]!;
  for (let i = 0; i < targets.length; i++) {
    const s = i === 0 && sources.length > 1 && ctx.oneNumberForms[0] ? sources[0]! : last;
    if (fn(s, targets[i]!)) return true;
  }
  return false;
}

/** What the source checks that look beyond the string know (computed by the store). */
export interface SourceFacts {
  /** Failing checks (dismissed ones included) on the string's translations. */
  relatedChecks: number;
  /** The string is older than 90 days and its translated share is under half the component's. */
  longUntranslated: boolean;
}

/**
 * The source checks that fail for a unit of the source (or template) translation.
 * @example sourceChecks(ctx, { source: 'Open...', … }, { relatedChecks: 0, longUntranslated: false }) // ['ellipsis']
 */
export function sourceChecks(ctx: CheckContext, unit: CheckedUnit, facts: SourceFacts): string[] {
  const plan = planOf(ctx, unit);
  if (plan.ignoreAll) return [];
  const failed: string[] = [];
  const plural = unit.source.includes(PLURAL_SEPARATOR);
  if (plan.on.has('ellipsis') && unit.source.split(PLURAL_SEPARATOR)[0]!.includes('...')) failed.push('ellipsis');
  if (plan.on.has('multiple_failures') && facts.relatedChecks >= 2) failed.push('multiple_failures');
  if (plan.on.has('long_untranslated') && facts.longUntranslated) failed.push('long_untranslated');
  if (plan.on.has('optional_plural') && !plural && /\(s\)(\W|$)/u.test(unit.source)) failed.push('optional_plural');
  return failed;
}

/**
 * For each plural form of a translation, whether it covers a single number (or just 0 and 1, unless the format's
 * plurals are strict: Android) among 0…999: such a form may leave out a number placeholder (Weblate's rule for singulars).
 */
export function oneNumberForms(pluralNumber: number, formOf: (n: number) => number, strict = false): boolean[] {
  const seen: number[][] = Array.from({ length: pluralNumber }, () => []);
  for (let n = 0; n < 1000; n++) {
    const f = formOf(n);
    if (f >= 0 && f < pluralNumber && seen[f]!.length < 3) seen[f]!.push(n);
  }
  return seen.map((ns) => ns.length === 1 || (!strict && ns.length === 2 && ns[0] === 0 && ns[1] === 1));
}

/** Whether a check runs on a unit at all: not read-only, not turned off by `ignore-…` flags, its flag set if it needs one. */
export function checkApplies(ctx: CheckContext, unit: CheckedUnit, id: string): boolean {
  if (unit.state === State.READONLY) return false;
  const plan = planOf(ctx, unit);
  return !plan.ignoreAll && plan.on.has(id);
}

/** One translation of a string in a project-wide group (same source, context and language) for `inconsistent`. */
export interface GroupMember {
  target: string;
  state: number;
}

/**
 * Weblate's `inconsistent` over one group: a member fails when another member's target differs from its own and
 * at least one of the two is translated (state ≥ translated; needing editing and empty ones are not). A translated
 * string thus also fails when the same string is untranslated elsewhere. Returns, per member, whether it fails.
 * @example inconsistentMembers([{ target: 'Datei', state: 20 }, { target: '', state: 0 }]) // [true, true]
 */
export function inconsistentMembers(members: readonly GroupMember[]): boolean[] {
  const all = new Map<string, number>();
  const translated = new Map<string, number>();
  let translatedTotal = 0;
  for (const m of members) {
    all.set(m.target, (all.get(m.target) ?? 0) + 1);
    if (m.state >= State.TRANSLATED) {
      translated.set(m.target, (translated.get(m.target) ?? 0) + 1);
      translatedTotal++;
    }
  }
  return members.map((m) => (m.state >= State.TRANSLATED ? members.length - all.get(m.target)! > 0 : translatedTotal - (translated.get(m.target) ?? 0) > 0));
}
