// The Qt Linguist TS format (`ts`): Weblate's units from TS files, minimal-diff writing, new files from a base.
import { FormatParseError, FormatWriteError } from '../../domain/errors.js';
import type { Format, FormatContext, ParsedFile, UnitWrite } from '../format.js';
import { decodeUtf8 } from '../xml/index.js';
import { type TsDocument, readTsDocument } from './document.js';
import { bilingualUnits, monolingualUnits } from './units.js';
import { createTsText, templateDocument, writeTsText } from './write.js';

/** What a parsed TS store keeps for writing and for serving as a template. */
export interface TsInternal {
  tsDocument: TsDocument;
}

const encoder = new TextEncoder();

function read(bytes: Uint8Array, ctx: FormatContext): TsDocument {
  return readTsDocument(decodeUtf8(bytes, ctx.filename), ctx.filename);
}

/**
 * Reads a TS file as Weblate lists it. Bilingual without `ctx.template`; with a template (itself
 * parsed by this format) the units follow the template and are keyed by its `getid()`.
 * @example parseTs(bytes, { filename: 'i18n/app_de.ts', language: 'de', sourceLanguage: 'en' }).units[0].context
 */
export function parseTs(bytes: Uint8Array, ctx: FormatContext): ParsedFile {
  const doc = read(bytes, ctx);
  const internal: TsInternal = { tsDocument: doc };
  if (ctx.template) {
    const template = templateDocument(ctx);
    if (!template) throw new FormatParseError(ctx.filename, 1, 1, 'the template store was not read by the ts format');
    return { units: monolingualUnits(doc, template), monolingual: true, internal };
  }
  return { units: bilingualUnits(doc), monolingual: false, internal };
}

/**
 * Applies edits: each edited unit's `<translation>` element is rewritten, removed units lose their
 * `<message>` line(s), new units are inserted at the end of their `<context>`. No edits: same bytes.
 * @example writeTs(bytes, [{ context: 'MainWindow', source: ['Open'], target: ['Öffnen'], state: 20 }], ctx)
 */
export function writeTs(bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array {
  const doc = read(bytes, ctx);
  if (edits.length === 0) return bytes.slice();
  const text = writeTsText(doc, edits, ctx);
  return text === doc.text ? bytes.slice() : encoder.encode(text);
}

/**
 * A new translation file from `base` (new_base) for `ctx.language`; TS has no empty skeleton.
 * @example createTs(baseBytes, { filename: 'i18n/app_fr.ts', language: 'fr', sourceLanguage: 'en', plurals: 2 })
 */
export function createTs(base: Uint8Array | null, ctx: FormatContext): Uint8Array {
  if (base === null) throw new FormatWriteError(ctx.filename, 'a new TS file needs a base file (new_base); TS has no empty skeleton');
  const doc = read(base, { ...ctx, template: null });
  return encoder.encode(createTsText(doc, ctx.language, ctx.plurals));
}

export const tsFormat: Format = {
  id: 'ts',
  name: 'Qt Linguist translation file',
  monolingual: null,
  extension: 'ts',
  mimeType: 'application/x-linguist',
  fuzzy: true,
  parse: parseTs,
  parseTemplate(bytes: Uint8Array, ctx: FormatContext, own: boolean): ParsedFile {
    const doc = read(bytes, ctx);
    return { units: own ? monolingualUnits(doc, doc) : [], monolingual: true, internal: { tsDocument: doc } satisfies TsInternal };
  },
  write: writeTs,
  create: createTs,
};
