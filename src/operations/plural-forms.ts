// The plural a translation uses, for edits, the API and the editor: the format's CLDR forms, the file's own rule, else the language's.
import { formatPluralTags } from '../formats/plural-tags.js';
import { type TranslationPlural, translationPlural } from '../languages/translation-plural.js';
import type { Catalog, EditableUnit, Translation } from '../store/index.js';

/**
 * The forms a plural unit's translation holds: the file format's count for the file's language where the format
 * decides it (Android's CLDR tags, .stringsdict's tags with `zero`), else the translation's plural number (its PO
 * file's own Plural-Forms, else its language's).
 * @example pluralForms({ file_format: 'stringsdict', language_code: 'cs', plural_number: 3 }) // 4
 */
export function pluralForms(unit: Pick<EditableUnit, 'file_format' | 'language_code' | 'plural_number'>): number {
  return formatPluralTags(unit.file_format, unit.language_code)?.length ?? unit.plural_number;
}

/**
 * A translation's plural as Weblate gives it to the translation (`Translation.plural`): the number of forms the API
 * shows and takes, and the editor's fields and their labels.
 * @example catalogPlural(catalog, translation).number // 4 for a ru PO file whose Plural-Forms says nplurals=4
 */
export function catalogPlural(catalog: Pick<Catalog, 'componentsById' | 'languages'>, translation: Translation): TranslationPlural {
  const language = catalog.languages.get(translation.languageId)!;
  const format = catalog.componentsById.get(translation.componentId)?.settings.file_format ?? '';
  return translationPlural(
    translation.languageCode,
    { number: language.pluralNumber, formula: language.pluralFormula },
    translation.plural,
    formatPluralTags(format, translation.languageCode),
  );
}
