// The languages package: built-in language data, plural formulas and types, code matching and code styles.
export { readCsv, readCsvTable } from './csv.js';
export {
  PluralFormulaError,
  type PluralFunction,
  compilePluralFormula,
  isValidPluralFormula,
  parsePluralForms,
  samePluralFormula,
} from './plural-formula.js';
export { type PluralRule, type TranslationPlural, filePluralRule, translationPlural } from './translation-plural.js';
export { PLURAL_TYPE_CATEGORIES, PluralType, knownFormulas, normalizeFormula, pluralType } from './plural-type.js';
export {
  type AlternativePlural,
  LANGUAGE_DATA_DIR,
  LANGUAGE_DATA_FILES,
  type LanguageData,
  type LanguageDefinition,
  type LanguagePlural,
  type PluralOrigin,
  type TextDirection,
  alternativePlural,
  baseCode,
  loadLanguageData,
  loadLanguages,
  makePlural,
  readLanguageData,
  textDirection,
} from './languages.js';
export {
  type FindLanguageOptions,
  type FoundLanguage,
  type LanguageMatch,
  findLanguage,
  parseLanguageAliases,
  sanitizeLanguageCode,
} from './find.js';
export {
  type FormatLanguageCodeOptions,
  LANGUAGE_CODE_STYLES,
  type LanguageCodeStyle,
  formatLanguageCode,
} from './code-style.js';
