import { getFormat, isFormatId } from '../formats/registry.js';
// How many plural forms an edit of a unit must give: the language's plural, or the format's own where it decides.
import type { EditableUnit } from '../store/index.js';

/**
 * The forms a plural unit's translation holds: the file format's count for the file's language where the format
 * decides it (Android's CLDR tags, .stringsdict's tags with `zero`), else the language's plural number.
 * @example pluralForms({ file_format: 'stringsdict', language_code: 'cs', plural_number: 3 }) // 4
 */
export function pluralForms(unit: Pick<EditableUnit, 'file_format' | 'language_code' | 'plural_number'>): number {
  if (!isFormatId(unit.file_format)) return unit.plural_number;
  return getFormat(unit.file_format).pluralCount?.(unit.language_code, unit.plural_number) ?? unit.plural_number;
}
