// The registry of formats, keyed by Weblate's format ids.
import { TmsError } from '../domain/errors.js';
import { androidFormat } from './android/index.js';
import { stringsFormat, stringsUtf8Format } from './apple/strings.js';
import { stringsdictFormat } from './apple/stringsdict.js';
import type { Format, FormatId } from './format.js';
import { FORMAT_IDS } from './format.js';
import { jsonFormats } from './json/index.js';
import { poFormat, poMonoFormat } from './po/index.js';
import { tbxFormat } from './tbx/index.js';
import { tsFormat } from './ts/index.js';
import { xliffFormats } from './xliff/index.js';

const formats = new Map<string, Format>();
for (const f of [
  tsFormat,
  ...jsonFormats,
  tbxFormat,
  androidFormat,
  stringsFormat,
  stringsUtf8Format,
  stringsdictFormat,
  ...xliffFormats,
  poFormat,
  poMonoFormat,
])
  formats.set(f.id, f);

export class UnknownFormatError extends TmsError<{ id: string }> {}

/** The format for a Weblate format id: `getFormat('ts')`. */
export function getFormat(id: string): Format {
  const format = formats.get(id);
  if (!format) throw new UnknownFormatError(`unknown file format "${id}" (known: ${FORMAT_IDS.join(', ')})`, { id });
  return format;
}

export function isFormatId(id: string): id is FormatId {
  return (FORMAT_IDS as readonly string[]).includes(id);
}
