// How many plural forms a plural string's translation holds, and their names: the language's plural, or the format's own where it decides.
import { PLURAL_SEPARATOR } from '../domain/unit.js';
import { getFormat, isFormatId } from '../formats/registry.js';
import type { EditableUnit } from '../store/index.js';

/** The forms of a plural string's translation: how many, and their CLDR names where the format gives them. */
export interface PluralLayout {
  count: number;
  /** The forms' CLDR categories in order (Android, .stringsdict), or null: the language's plural names them. */
  tags: readonly string[] | null;
}

/**
 * The forms a plural string's translation holds, as Weblate's plural for the translation counts them: the file format's
 * CLDR tags for the file's language where the format names them (Android, .stringsdict with `zero`), as many as the
 * stored target has where the file decides (gettext PO: the msgstr[n] the file gives, whatever the language says; a
 * string the file does not hold yet takes the language's number), else the language's plural number.
 * @example pluralLayout('stringsdict', 'cs', 3, '') // { count: 4, tags: ['zero', 'one', 'few', 'other'] }
 * @example pluralLayout('po', 'ru', 3, 'a\x1e\x1eb\x1e\x1ec\x1e\x1ed') // { count: 4, tags: null }
 */
export function pluralLayout(fileFormat: string, languageCode: string, pluralNumber: number, target: string): PluralLayout {
  const format = isFormatId(fileFormat) ? getFormat(fileFormat) : undefined;
  const tags = format?.pluralTags?.(languageCode);
  if (tags) return { count: tags.length, tags };
  if (format?.pluralsFromFile && target !== '') return { count: target.split(PLURAL_SEPARATOR).length, tags: null };
  return { count: pluralNumber, tags: null };
}

/**
 * How many plural forms an edit of a plural unit must give (see `pluralLayout`).
 * @example pluralForms({ file_format: 'stringsdict', language_code: 'cs', plural_number: 3, target: '' }) // 4
 */
export function pluralForms(unit: Pick<EditableUnit, 'file_format' | 'language_code' | 'plural_number' | 'target'>): number {
  return pluralLayout(unit.file_format, unit.language_code, unit.plural_number, unit.target).count;
}
