// Apple .strings (`strings`: UTF-16, `strings-utf8`): Weblate's units, minimal-diff writes in the file's own encoding, new files.
import { FormatParseError, FormatWriteError } from '../../domain/errors.js';
import { calculateHash, unitContentHash } from '../../domain/hash.js';
import { type ParsedUnit, State } from '../../domain/unit.js';
import { countWords } from '../../domain/words.js';
import type { Format, FormatContext, FormatId, ParsedFile, UnitWrite } from '../format.js';
import { TemplateKeys } from '../template-keys.js';
import { lineColumn } from '../text.js';
import { lookupUnicodeName } from '../unicode-names.js';
import { lineEnding } from '../xml/position.js';
import { type TextEncoding, UTF8, UTF16, decodeStringsUtf8, decodeStringsUtf16, encodeText } from './encoding.js';
import { type StringsDocument, type StringsEntry, commentNotes, readStringsDocument } from './strings-document.js';

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', "'": "'", '"': '"', f: '\f', n: '\n', r: '\r', t: '\t' };
const HEX = /^[0-9a-fA-F]$/;

/** Where a text sits in its file, for an error about it: the file's name and text, the text's offset in it. */
export interface StringsPlace {
  filename: string;
  text: string;
  offset: number;
}

function undecodable(at: StringsPlace | undefined, reason: string): FormatParseError {
  const { line, column } = at ? lineColumn(at.text, at.offset) : { line: 1, column: 1 };
  return new FormatParseError(at?.filename ?? '', line, column, reason);
}

/**
 * Decodes a .strings value as Translate Toolkit's properties decoder does: `\n \t \r \f \\ \' \"`, `\uXXXX` and
 * `\UXXXX` (up to four hex digits), `\N{NAME}` by the character's Unicode name (`\N` kept where no `{…}` follows),
 * and any other backslash dropped before its character. Throws FormatParseError (at `at`) for a `\N{…}` that the
 * toolkit fails on: a name Python does not know, or `\N` ending the text.
 * @example decodeStringsValue('a\\"b\\u00e9\\x\\N{DEGREE SIGN}') // 'a"béx°'
 */
export function decodeStringsValue(source: string, at?: StringsPlace): string {
  if (!source.includes('\\')) return source;
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    i++;
    if (i >= source.length) {
      out += '\\';
      continue;
    }
    const e = source[i++]!;
    if (e === '\n') continue;
    if (e in ESCAPES) out += ESCAPES[e];
    else if (e === 'u' || e === 'U') {
      let digits = 0;
      let x = 0;
      while (digits < 4 && i + digits < source.length && HEX.test(source[i + digits]!)) {
        x = x * 16 + Number.parseInt(source[i + digits]!, 16);
        digits++;
      }
      i += digits;
      out += String.fromCharCode(x);
    } else if (e === 'N') {
      if (i >= source.length) throw undecodable(at, 'a \\N escape ends the text');
      // the toolkit keeps `\N` without a {…} after it, and drops the `{` that has no `}`
      if (source[i] !== '{') {
        out += '\\N';
        continue;
      }
      const close = source.indexOf('}', ++i);
      if (close < 0) {
        out += '\\N';
        continue;
      }
      const name = source.slice(i, close);
      const char = lookupUnicodeName(name);
      if (char === null) throw undecodable(at, `unknown Unicode character name in \\N{${name}}`);
      out += char;
      i = close + 1;
    } else out += e;
  }
  return out;
}

/** Escapes a translation for a .strings value between its quotes: `\`, newline, tab and `"`. */
export function escapeStringsValue(text: string): string {
  return text.replace(/[\\\n\t"]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\${c}`));
}

/** A key as the toolkit writes it: quoted with `"` escaped, except Info.plist keys (`NS…Description`). */
function writeKey(key: string): string {
  return /^NS.*Description$/.test(key) ? key : `"${key.replaceAll('"', '\\"')}"`;
}

interface Loaded {
  doc: StringsDocument;
  encoding: TextEncoding;
}

export interface StringsInternal {
  stringsDocument: StringsDocument;
  /**
   * As a template: its listing, once worked out (a field of its reading, not a WeakMap keyed by it: a sync makes one
   * reading a template, and a WeakMap's entries cost the garbage collector more than the listing itself).
   */
  listing?: TemplateListing;
}

interface Identity {
  source: string[];
  note: string;
  idHash: bigint;
  contentHash: bigint;
  numWords: number;
}

/** A template's listing: each key once (the first), with its identity. */
interface TemplateListing {
  entries: StringsEntry[];
  identities: Identity[];
  /** The entries' keys and their places. */
  keys: TemplateKeys;
}

/** A template's listing, worked out once: the template is listed against every translation file. */
function templateListing(internal: StringsInternal): TemplateListing {
  let listing = internal.listing;
  if (!listing) {
    const template = internal.stringsDocument;
    const seen = new Set<string>();
    const entries: StringsEntry[] = [];
    for (const t of listed(template)) {
      if (seen.has(t.name)) continue;
      seen.add(t.name);
      entries.push(t);
    }
    const identities = entries.map((t) => {
      const source = [decodedValue(template, t)];
      return {
        source,
        note: commentNotes(t.comments),
        idHash: calculateHash(t.name),
        contentHash: unitContentHash(source, t.name),
        numWords: countWords(source),
      };
    });
    listing = { entries, identities, keys: new TemplateKeys(entries.map((t) => t.name)) };
    internal.listing = listing;
  }
  return listing;
}

function unit(context: string, source: string[], target: string[], note: string, idHash: bigint, position: number, identity?: Identity): ParsedUnit {
  return {
    context,
    source,
    target,
    location: '',
    note,
    flags: '',
    explanation: '',
    sourceExplanation: '',
    previousSource: '',
    state: target.some((t) => t !== '') ? State.TRANSLATED : State.EMPTY,
    position,
    idHash,
    contentHash: identity?.contentHash ?? unitContentHash(source, context),
    numWords: identity?.numWords ?? countWords(source),
  };
}

/** An entry's value decoded; an error about it names where the value starts (its line when it has none). */
function decodedValue(doc: StringsDocument, e: StringsEntry): string {
  if (!e.value.includes('\\')) return e.value;
  return decodeStringsValue(e.value, { filename: doc.filename, text: doc.text, offset: e.valueStart >= 0 ? e.valueStart : e.lineStart });
}

/** Entries Weblate lists: not comment-only (a key or a value). */
function listed(doc: StringsDocument): StringsEntry[] {
  return doc.entries.filter((e) => e.name !== '' || e.value !== '');
}

/** Template listing: each key once (the first), source from the template, target from this file's last entry of the key. */
function monolingualUnits(doc: StringsDocument, template: StringsInternal): ParsedUnit[] {
  const listing = templateListing(template);
  // each template key's entry in this file: the last of that key (a lookup of the file's keys in the template's)
  const found = new Array<StringsEntry | undefined>(listing.entries.length);
  let previous = -1;
  for (const e of doc.entries) {
    const k = listing.keys.placeOf(e.name, previous);
    if (k === undefined) continue;
    found[k] = e;
    previous = k;
  }
  const units: ParsedUnit[] = [];
  for (let k = 0; k < listing.entries.length; k++) {
    const t = listing.entries[k]!;
    const e = found[k];
    const identity = listing.identities[k]!;
    let note = e && e.comments.length > 0 ? commentNotes(e.comments) : '';
    if (identity.note !== note) note = `${identity.note}\n${note}`;
    const target = e ? [decodedValue(doc, e)] : [''];
    units.push(unit(t.name, identity.source.slice(), target, note, identity.idHash, k + 1, identity));
  }
  return units;
}

/** Bilingual listing: the decoded key is the source, the key as written the context (`id_hash = hash(source + key)`). */
function bilingualUnits(doc: StringsDocument): ParsedUnit[] {
  const seen = new Set<bigint>();
  const units: ParsedUnit[] = [];
  for (const e of listed(doc)) {
    const source = e.name.includes('\\') ? decodeStringsValue(e.name, { filename: doc.filename, text: doc.text, offset: e.lineStart }) : e.name;
    const idHash = calculateHash(source, e.name);
    if (seen.has(idHash)) continue;
    seen.add(idHash);
    units.push(unit(e.name, [source], [decodedValue(doc, e)], commentNotes(e.comments), idHash, units.length + 1));
  }
  return units;
}

function templateOf(ctx: FormatContext): StringsInternal | null {
  const internal = ctx.template?.internal as StringsInternal | undefined;
  return internal?.stringsDocument ? internal : null;
}

/** Splices a document: replacements applied from the end. */
function splice(text: string, edits: { start: number; end: number; text: string }[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The `.strings` formats: UTF-16 (`strings`) or UTF-8 (`strings-utf8`). */
function makeStringsFormat(id: FormatId, name: string, utf16: boolean): Format {
  const load = (bytes: Uint8Array, filename: string): Loaded => {
    const { text, encoding } = utf16 ? decodeStringsUtf16(bytes, filename) : decodeStringsUtf8(bytes, filename);
    return { doc: readStringsDocument(text, filename), encoding };
  };
  return {
    id,
    name,
    monolingual: null,
    extension: 'strings',
    mimeType: 'text/plain',
    languageCodeStyle: 'bcp',
    parse(bytes: Uint8Array, ctx: FormatContext): ParsedFile {
      const { doc } = load(bytes, ctx.filename);
      const internal: StringsInternal = { stringsDocument: doc, listing: undefined };
      const template = ctx.template ? templateOf(ctx) : null;
      if (ctx.template && !template) throw new FormatParseError(ctx.filename, 1, 1, `the template store was not read by the ${id} format`);
      if (template) return { units: monolingualUnits(doc, template), monolingual: true, internal };
      return { units: bilingualUnits(doc), monolingual: false, internal };
    },
    parseTemplate(bytes: Uint8Array, ctx: FormatContext, own: boolean): ParsedFile {
      const { doc } = load(bytes, ctx.filename);
      const internal: StringsInternal = { stringsDocument: doc, listing: undefined };
      return { units: own ? monolingualUnits(doc, internal) : [], monolingual: true, internal };
    },
    write(bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array {
      if (edits.length === 0) return bytes.slice();
      const { doc, encoding } = load(bytes, ctx.filename);
      const { text } = doc;
      const monolingual = ctx.template != null;
      const byKey = new Map<string, StringsEntry>();
      for (const e of doc.entries) if (monolingual || !byKey.has(e.name)) byKey.set(e.name, e);
      const replacements: { start: number; end: number; text: string }[] = [];
      const added: string[] = [];
      const last = new Map<string, UnitWrite>();
      for (const e of edits) last.set(e.context, e);
      for (const [key, edit] of last) {
        const entry = byKey.get(key);
        const value = edit.target[0] ?? '';
        if (edit.remove) {
          if (entry) replacements.push({ start: entry.attachedStart, end: entry.end, text: '' });
        } else if (entry && entry.valueStart >= 0) {
          if (decodedValue(doc, entry) !== value) replacements.push({ start: entry.valueStart, end: entry.valueEnd, text: `"${escapeStringsValue(value)}"` });
        } else if (entry) {
          const nl = text.slice(entry.lineStart, entry.end).match(/\r?\n$/)?.[0] ?? '';
          replacements.push({ start: entry.lineStart, end: entry.end, text: `${writeKey(key)} = "${escapeStringsValue(value)}";${nl}` });
        } else if (value !== '') {
          if (key === '') throw new FormatWriteError(ctx.filename, 'cannot add a string without a key');
          added.push(`${writeKey(key)} = "${escapeStringsValue(value)}";`);
        }
      }
      let out = splice(text, replacements);
      if (added.length > 0) {
        const nl = lineEnding(text);
        const lead = out === '' || out.endsWith('\n') ? '' : nl;
        out += `${lead}${added.join(nl)}${nl}`;
      }
      return out === text ? bytes.slice() : encodeText(out, encoding);
    },
    create(base: Uint8Array | null, ctx: FormatContext): Uint8Array {
      // Weblate's new file is a line break, in UTF-16 with a BOM for `strings`
      if (base === null) return encodeText('\n', utf16 ? UTF16 : UTF8);
      const { doc, encoding } = load(base, ctx.filename);
      const replacements = doc.entries.filter((e) => e.valueStart >= 0 && e.value !== '').map((e) => ({ start: e.valueStart, end: e.valueEnd, text: '""' }));
      return encodeText(splice(doc.text, replacements), utf16 ? UTF16 : encoding);
    },
  };
}

export const stringsFormat = makeStringsFormat('strings', 'iOS strings (UTF-16)', true);
export const stringsUtf8Format = makeStringsFormat('strings-utf8', 'iOS strings (UTF-8)', false);
