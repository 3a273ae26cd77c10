// The TBX glossary format (`tbx`): martif (TBX 2, as Weblate and Translate Toolkit write it) and TBX v3.
import type { Format } from '../format.js';
import { languageMismatch, readTbx } from './read.js';
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
    const model = readTbx(bytes, ctx);
    // entries in other languages only: said (a sync warning), not listed as an empty glossary in silence
    const mismatch = languageMismatch(model, ctx);
    return { units: model.units, monolingual: false, ...(mismatch ? { skipped: [mismatch] } : {}) };
  },
  // a glossary lists its own entries whatever the template: it is read as any other file
  parseTemplate(bytes, ctx) {
    return tbxFormat.parse(bytes, ctx);
  },
  write: writeTbx,
  create: createTbx,
};
