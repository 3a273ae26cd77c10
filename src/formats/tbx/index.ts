// The TBX glossary format (`tbx`): martif (TBX 2, as Weblate and Translate Toolkit write it) and TBX v3.
import type { Format } from '../format.js';
import { readTbx } from './read.js';
import { createTbx, writeTbx } from './write.js';

/**
 * TermBase eXchange glossaries, always bilingual: each entry's source-language term and the file
 * language's term become one unit. Writes splice the original text, so untouched bytes stay as they were.
 * @example tbxFormat.parse(bytes, { filename: 'glossary/cs.tbx', language: 'cs', sourceLanguage: 'en' }).units[0].source
 */
export const tbxFormat: Format = {
  id: 'tbx',
  name: 'TermBase eXchange file',
  monolingual: false,
  extension: 'tbx',
  mimeType: 'application/x-tbx',
  parse(bytes, ctx) {
    return { units: readTbx(bytes, ctx).units, monolingual: false };
  },
  // a glossary lists its own entries whatever the template: it is read as any other file
  parseTemplate(bytes, ctx) {
    return tbxFormat.parse(bytes, ctx);
  },
  write: writeTbx,
  create: createTbx,
};
