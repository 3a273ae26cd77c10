// gettext PO (`po`, bilingual; `po-mono`, msgid as key): Weblate's units, minimal-diff writes, new files from a POT.
import { FormatParseError, FormatWriteError } from '../../domain/errors.js';
import type { Format, FormatContext, ParsedFile, UnitWrite } from '../format.js';
import { decodePo, encodePo } from './charset.js';
import { type HeaderUpdate, headerLines, headerText, parseHeader, revisionDate } from './header.js';
import { DEFAULT_WIDTH } from './quote.js';
import { type PoDocument, type PoEntry, parsePoText } from './syntax.js';
import { BilingualUnits, type SkippedEntry, bilingualUnits, isHeader, monolingualUnits } from './units.js';
import { writePoText } from './write.js';

export { DEFAULT_WIDTH, quoteLines } from './quote.js';
export { parsePluralForms } from './header.js';

/** What a parsed PO store keeps: the document (for writing, and for serving as a template) and its charset. */
export interface PoInternal {
  po: PoDocument;
  charset: string;
}

function read(bytes: Uint8Array, ctx: FormatContext): PoInternal {
  const { text, bom, charset } = decodePo(bytes, ctx.filename);
  return { po: parsePoText(text, bom, ctx.filename), charset };
}

/** A store's internal state whose document is parsed again only when asked for (writes and templates parse anew). */
function lazyInternal(text: string, bom: boolean, charset: string, filename: string): PoInternal {
  let po: PoDocument | undefined;
  return {
    charset,
    get po() {
      po ??= parsePoText(text, bom, filename);
      return po;
    },
  };
}

function templateOf(ctx: FormatContext): PoDocument | null {
  if (!ctx.template) return null;
  const internal = ctx.template.internal as PoInternal | undefined;
  if (!internal?.po) throw new FormatParseError(ctx.filename, 1, 1, 'the template store was not read by a PO format');
  return internal.po;
}

/** The fields of the plural header line for a language: `nplurals=N; plural=EXPR;`. */
function pluralForms(ctx: FormatContext): string | null {
  if (ctx.plurals === undefined || ctx.pluralFormula === undefined) return null;
  return `nplurals=${ctx.plurals}; plural=${ctx.pluralFormula};`;
}

function headerUpdate(ctx: FormatContext): HeaderUpdate | null {
  const r = ctx.revision;
  if (!r) return null;
  return {
    lastTranslator: r.translator,
    revisionDate: revisionDate(r.date),
    language: ctx.language,
    pluralForms: pluralForms(ctx),
    generator: r.generator,
    languageTeam: r.languageTeam ?? null,
    reportBugsTo: r.reportBugsTo ? r.reportBugsTo : null,
  };
}

/**
 * Reads a PO file as Weblate lists it: bilingual without `ctx.template` (the template of a `po-mono` component is
 * read this way too); with a template (itself parsed by a PO format) the units follow the template's keys.
 * Duplicate identities are left out with a reason in `skipped` (the first one wins).
 * @example parsePo(bytes, { filename: 'po/cs.po', language: 'cs', sourceLanguage: 'en' }).units[0].source
 */
export function parsePo(bytes: Uint8Array, ctx: FormatContext): ParsedFile {
  const skipped: SkippedEntry[] = [];
  const template = templateOf(ctx);
  if (template) {
    const internal = read(bytes, ctx);
    const units = monolingualUnits(internal.po, template, ctx.filename, skipped);
    return withPluralForms({ units, monolingual: true, internal, skipped }, pluralFormsOf(internal.po.entries[0]));
  }
  // units are made as entries are read, so no entry outlives its turn (the parse then allocates little that lasts)
  const { text, bom, charset } = decodePo(bytes, ctx.filename);
  let collect: BilingualUnits | undefined;
  let pluralForms: string | undefined;
  parsePoText(text, bom, ctx.filename, (entry, newline) => {
    // the header is read in its own turn: the parser hands each entry over once and reuses it after
    if (collect === undefined) pluralForms = pluralFormsOf(entry);
    // about one unit in 128 characters (Audacity's files: 150, Midnight Commander's: 70)
    collect ??= new BilingualUnits(newline, ctx.filename, skipped, text.length >> 7);
    collect.add(entry);
  });
  const units = collect?.units ?? [];
  return withPluralForms({ units, monolingual: false, internal: lazyInternal(text, bom, charset, ctx.filename), skipped }, pluralForms);
}

/** Reads a `po-mono` template for its keys and, with `own`, its units as a translation of itself (see `Format.parseTemplate`). */
export function parsePoTemplate(bytes: Uint8Array, ctx: FormatContext, own: boolean): ParsedFile {
  const internal = read(bytes, ctx);
  if (!own) return { units: [], monolingual: true, internal };
  const skipped: SkippedEntry[] = [];
  const units = monolingualUnits(internal.po, internal.po, ctx.filename, skipped);
  return withPluralForms({ units, monolingual: true, internal, skipped }, pluralFormsOf(internal.po.entries[0]));
}

/** The header's `Plural-Forms` value when `first` (a file's first entry) is the header (the toolkit's `parseheader`). */
function pluralFormsOf(first: PoEntry | undefined): string | undefined {
  return first && isHeader(first) ? parseHeader(headerText(first)).get('Plural-Forms') : undefined;
}

/** The store with the header's `Plural-Forms` value, when the file has one. */
function withPluralForms(store: ParsedFile, value: string | undefined): ParsedFile {
  return value === undefined ? store : { ...store, pluralForms: value };
}

/**
 * Applies edits: each edited entry's msgstr lines are rewritten (wrapped at `ctx.lineWidth`, Weblate's 77), its
 * `#, fuzzy` set or cleared, its `#|` lines dropped once it no longer needs editing; with `ctx.revision` the header is
 * updated as Weblate does (Last-Translator, PO-Revision-Date, Language, X-Generator, Language-Team…). No edits: same bytes.
 * @example writePo(bytes, [{ context: '', source: ['Monday'], target: ['Pondělí'], state: 20 }], ctx)
 */
export function writePo(bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array {
  const internal = read(bytes, ctx);
  if (edits.length === 0) return bytes.slice();
  const text = writePoText(internal.po, edits, { width: ctx.lineWidth ?? DEFAULT_WIDTH, template: templateOf(ctx), header: headerUpdate(ctx) }, ctx.filename);
  if (text === internal.po.text) return bytes.slice();
  return encodePo(text, internal.po.bom, internal.charset, ctx.filename);
}

/**
 * A new translation from `base` (the POT, Weblate's new_base), as Weblate's "start new translation": the Language
 * header set, every translated entry emptied (plurals to the language's number of forms), Last-Translator
 * "Automatically generated", Language-Team "none", Plural-Forms from the language, the header's fuzzy flag gone.
 * `po-mono` without a base gets Weblate's header-only skeleton; `po` needs a base.
 */
function create(monolingualFormat: boolean) {
  return (base: Uint8Array | null, ctx: FormatContext): Uint8Array => {
    if (base === null) {
      if (!monolingualFormat) throw new FormatWriteError(ctx.filename, 'a new gettext PO file needs a base file (new_base, usually the POT)');
      return new TextEncoder().encode(
        'msgid ""\nmsgstr "X-Generator: tms\\nMIME-Version: 1.0\\nContent-Type: text/plain; charset=UTF-8\\nContent-Transfer-Encoding: 8bit"',
      );
    }
    const internal = read(base, { ...ctx, template: null });
    const doc = internal.po;
    const width = ctx.lineWidth ?? DEFAULT_WIDTH;
    const edits: UnitWrite[] = [];
    const units = bilingualUnits(doc, ctx.filename, []);
    for (const u of units) {
      if (u.state !== 20) continue;
      edits.push({ context: u.context, source: u.source, target: u.source.length > 1 ? Array(ctx.plurals ?? 2).fill('') : [''], state: 0 });
    }
    let text = writePoText(doc, edits, { width, template: null, header: null }, ctx.filename);
    // the header, as Weblate's untranslate_store leaves it
    const reread = parsePoText(text, doc.bom, ctx.filename);
    const first = reread.entries[0];
    if (first && isHeader(first)) {
      const fields = parseHeader(headerText(first));
      const set = (key: string, value: string, add: boolean) => {
        const existing = [...fields.keys()].find((k) => k.toLowerCase() === key.toLowerCase());
        if (existing) fields.set(existing, value);
        else if (add) fields.set(key, value);
      };
      if (ctx.language.length > 1) {
        set('Language', ctx.language, true);
        for (const k of [...fields.keys()]) if (/^x-poedit-(language|country)$/i.test(k)) fields.delete(k);
      }
      set('Last-Translator', 'Automatically generated', false);
      set('Language-Team', 'none', false);
      const forms = pluralForms(ctx);
      if (forms) set('Plural-Forms', forms, false);
      const ct = fields.get('Content-Type');
      if (ct === undefined || ct.includes('charset=CHARSET')) fields.set('Content-Type', 'text/plain; charset=UTF-8');
      const cte = fields.get('Content-Transfer-Encoding');
      if (cte === undefined || cte.includes('ENCODING')) fields.set('Content-Transfer-Encoding', '8bit');
      const lines = reread.lines.slice();
      const quoted = headerLines(fields, width);
      const msgstr = [`msgstr ${quoted[0]}`, ...quoted.slice(1)];
      lines.splice(first.msgstrLine, first.end - first.msgstrLine, ...msgstr);
      // the header's fuzzy flag goes (other flags stay, sorted as the toolkit rewrites the line)
      const fuzzyLine = first.flagLines.find((l) => /\bfuzzy\b/.test(reread.lines[l]!));
      if (fuzzyLine !== undefined) {
        const rest = first.flags
          .flatMap((l) => l.split(','))
          .map((w) => w.trim())
          .filter((w) => w !== '' && w !== '#' && w !== 'fuzzy')
          .sort();
        lines.splice(fuzzyLine, 1, ...(rest.length > 0 ? [`#, ${rest.join(', ')}`] : []));
      }
      text = lines.join(reread.newline);
    }
    return encodePo(text, doc.bom, internal.charset, ctx.filename);
  };
}

export const poFormat: Format = {
  id: 'po',
  name: 'gettext PO file',
  monolingual: false,
  extension: 'po',
  mimeType: 'text/x-po',
  fuzzy: true,
  parse: parsePo,
  parseTemplate: parsePoTemplate,
  write: writePo,
  create: create(false),
};

export const poMonoFormat: Format = {
  id: 'po-mono',
  name: 'gettext PO file (monolingual)',
  monolingual: true,
  extension: 'po',
  mimeType: 'text/x-po',
  fuzzy: true,
  parse: parsePo,
  parseTemplate: parsePoTemplate,
  write: writePo,
  create: create(true),
};
