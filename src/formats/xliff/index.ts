// The XLIFF 1.2 formats (`xliff` with placeables, `plainxliff`, `poxliff`): Weblate's units, minimal-diff writes, new files.
import { FormatParseError, FormatWriteError } from '../../domain/errors.js';
import type { Format, FormatContext, FormatId, ParsedFile, UnitWrite } from '../format.js';
import { type XliffDialect, type XliffDocument, readXliff } from './document.js';
import { streamBilingual } from './stream.js';
import { sameText } from './tree.js';
import { type XliffListing, type XliffReading, bilingualUnits, hasText, isContentEntry, monolingualUnits, targetForms } from './units.js';
import { type WriteModel, untranslate, writeEdits } from './write.js';

/** What a parsed XLIFF store keeps for writing and for serving as a template. */
export interface XliffInternal {
  xliff: XliffDocument;
}

const encoder = new TextEncoder();

/** The internal state of a file whose units were streamed: its document read (once) when first asked for. */
function lazyInternal(bytes: Uint8Array, filename: string, dialect: XliffDialect): XliffInternal {
  let doc: XliffDocument | null = null;
  return {
    get xliff(): XliffDocument {
      doc ??= readXliff(bytes, filename, dialect, true);
      return doc;
    },
  };
}

interface Variant {
  id: FormatId;
  name: string;
  reading: XliffReading;
  dialect: XliffDialect;
}

function templateDocument(ctx: FormatContext): XliffDocument | null {
  if (!ctx.template) return null;
  const internal = ctx.template.internal as XliffInternal | undefined;
  if (!internal?.xliff) throw new FormatParseError(ctx.filename, 1, 1, 'the template was not read by an XLIFF format');
  return internal.xliff;
}

/** The listing of a file: bilingual, or (with a template) the template's units. */
function listing(doc: XliffDocument, template: XliffDocument | null, reading: XliffReading): XliffListing {
  if (!template) return bilingualUnits(doc, reading);
  // The template read as its own translation: a unit without <target> shows its source (Weblate's is_template).
  const isTemplate = sameText(template.doc, doc.doc);
  return monolingualUnits(doc, template, reading, isTemplate);
}

function encode(doc: XliffDocument, text: string): Uint8Array {
  return encoder.encode(doc.doc.bom ? `\uFEFF${text}` : text);
}

/** Weblate writes target-language in BCP 47 form (`pt-BR`) whatever the file name uses. */
function bcp(code: string): string {
  return code.replaceAll('_', '-');
}

function makeFormat(v: Variant): Format {
  const parse = (bytes: Uint8Array, ctx: FormatContext): ParsedFile => {
    // a bilingual file of the common shape: its units from the token stream, its tree only if a writer or a
    // translation read against it as a template asks
    const streamed = ctx.template ? null : streamBilingual(bytes, ctx.filename, v.reading);
    if (streamed) return { units: streamed.units, monolingual: false, internal: lazyInternal(bytes, ctx.filename, v.dialect) };
    const doc = readXliff(bytes, ctx.filename, v.dialect, true);
    const template = templateDocument(ctx);
    const internal: XliffInternal = { xliff: doc };
    return { units: listing(doc, template, v.reading).units, monolingual: template !== null, internal };
  };
  const parseTemplate = (bytes: Uint8Array, ctx: FormatContext, own: boolean): ParsedFile => {
    const doc = readXliff(bytes, ctx.filename, v.dialect, true);
    const internal: XliffInternal = { xliff: doc };
    return { units: own ? listing(doc, doc, v.reading).units : [], monolingual: true, internal };
  };
  const write = (bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array => {
    const doc = readXliff(bytes, ctx.filename, v.dialect);
    if (edits.length === 0) return bytes.slice();
    const template = templateDocument(ctx);
    const model: WriteModel = { doc, template, listing: listing(doc, template, v.reading) };
    const text = writeEdits(model, edits, v.reading, ctx);
    return text === null ? bytes.slice() : encode(doc, text);
  };
  const create = (base: Uint8Array | null, ctx: FormatContext): Uint8Array => {
    if (base === null) throw new FormatWriteError(ctx.filename, 'a new XLIFF file needs a base file (new_base); XLIFF has no empty skeleton');
    const doc = readXliff(base, ctx.filename, v.dialect);
    // Weblate empties every unit with content and a translation, duplicates included.
    const translated = doc.entries.filter((e) => isContentEntry(e, v.reading) && hasText(targetForms(e, v.reading.rich) ?? []));
    return encode(doc, untranslate(doc, translated, v.reading, bcp(ctx.language), ctx.filename));
  };
  // Weblate's xliff formats name languages in BCP 47 (language_format "bcp": messages.pt-BR.xlf)
  return {
    id: v.id,
    name: v.name,
    monolingual: null,
    extension: 'xlf',
    mimeType: 'application/x-xliff+xml',
    languageCodeStyle: 'bcp',
    approval: true,
    fuzzy: true,
    parse,
    parseTemplate,
    write,
    create,
  };
}

/**
 * XLIFF 1.2 with placeables (Weblate's `xliff`): inline elements (`<x/>`, `<g>`, `<ph>` …) are part of the text
 * as XML and written back as XML.
 * @example xliffFormat.parse(bytes, { filename: 'messages.de.xlf', language: 'de', sourceLanguage: 'en' }).units[0].context
 */
export const xliffFormat = makeFormat({
  id: 'xliff',
  name: 'XLIFF 1.2 with placeables support',
  reading: { rich: true, po: false },
  dialect: 'xliff',
});

/** XLIFF 1.2 as plain text (Weblate's `plainxliff`): inline elements drop out, their text stays. */
export const plainXliffFormat = makeFormat({
  id: 'plainxliff',
  name: 'XLIFF 1.2 translation file',
  reading: { rich: false, po: false },
  dialect: 'xliff',
});

/** XLIFF 1.2 with gettext extensions (Weblate's `poxliff`): plural groups, po-reference locations. */
export const poXliffFormat = makeFormat({
  id: 'poxliff',
  name: 'XLIFF 1.2 with gettext extensions',
  reading: { rich: false, po: true },
  dialect: 'poxliff',
});

export const xliffFormats: readonly Format[] = [xliffFormat, plainXliffFormat, poXliffFormat];
