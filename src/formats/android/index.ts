// Android string resources (`aresource`): Weblate's units from strings.xml, minimal-diff writing, new files.
import { FormatParseError } from '../../domain/errors.js';
import type { Format, FormatContext, ParsedFile, UnitWrite } from '../format.js';
import { baseLanguageTags } from '../plural-tags.js';
import { type AndroidDocument, readAndroidBytes } from './document.js';
import { monolingualUnits, templateUnits } from './units.js';
import { createAndroid, writeAndroid } from './write.js';

/** What a parsed Android store keeps: the document, so that it can serve as the template of the others. */
export interface AndroidInternal {
  androidDocument: AndroidDocument;
}

/** The template's document, from a store this format parsed. */
export function templateDocument(ctx: FormatContext): AndroidDocument | null {
  const internal = ctx.template?.internal as AndroidInternal | undefined;
  return internal?.androidDocument ?? null;
}

/**
 * Reads a strings.xml. With `ctx.template` (the `values/strings.xml` store, itself parsed by this format) the
 * units are the template's keys with this file's translations; without it, the file's own entries.
 * @example parseAndroid(bytes, { filename: 'res/values-de/strings.xml', language: 'de', sourceLanguage: 'en', template })
 */
export function parseAndroid(bytes: Uint8Array, ctx: FormatContext): ParsedFile {
  const doc = readAndroidBytes(bytes, ctx.filename);
  const internal: AndroidInternal = { androidDocument: doc };
  if (ctx.template) {
    const template = templateDocument(ctx);
    if (!template) throw new FormatParseError(ctx.filename, 1, 1, 'the template store was not read by the aresource format');
    const tags = { source: baseLanguageTags(ctx.sourceLanguage), target: baseLanguageTags(ctx.language) };
    return { units: monolingualUnits(doc, template, tags), monolingual: true, internal };
  }
  return { units: templateUnits(doc, baseLanguageTags(ctx.language)), monolingual: false, internal };
}

/** Reads a template for its listing and, with `own`, its units as a translation of itself (see `Format.parseTemplate`). */
export function parseAndroidTemplate(bytes: Uint8Array, ctx: FormatContext, own: boolean): ParsedFile {
  const doc = readAndroidBytes(bytes, ctx.filename);
  const internal: AndroidInternal = { androidDocument: doc };
  if (!own) return { units: [], monolingual: true, internal };
  const tags = { source: baseLanguageTags(ctx.sourceLanguage), target: baseLanguageTags(ctx.language) };
  return { units: monolingualUnits(doc, doc, tags), monolingual: true, internal };
}

export const androidFormat: Format = {
  id: 'aresource',
  name: 'Android String Resource',
  monolingual: true,
  extension: 'xml',
  mimeType: 'application/xml',
  languageCodeStyle: 'android',
  parse: parseAndroid,
  parseTemplate: parseAndroidTemplate,
  write: (bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext) => writeAndroid(bytes, edits, ctx),
  create: (base: Uint8Array | null, ctx: FormatContext) => createAndroid(base, ctx),
};
