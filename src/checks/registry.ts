// The quality checks tms runs, with Weblate's ids and names: what each looks at and what turns it on.

/** One check as Weblate identifies it. */
export interface CheckInfo {
  /** Weblate's check id (`check:<id>` in searches, `ignore-<id with dashes>` to turn it off). */
  id: string;
  /** Weblate's display name. */
  name: string;
  /** What a failure means, in one line. */
  description: string;
  /** Translation checks look at translated strings, source checks at source strings. */
  kind: 'translation' | 'source';
  /** Off unless this flag is set (format checks, `max-length`, `regex`, `placeholders`, `xml-text`-only ones). */
  flag?: string;
  /** File formats that turn the check on without a flag. */
  formats?: readonly string[];
}

const t = (id: string, name: string, description: string, extra: Partial<CheckInfo> = {}): CheckInfo => ({
  id,
  name,
  description,
  kind: 'translation',
  ...extra,
});
const fmt = (id: string, name: string, formats: readonly string[] = []): CheckInfo =>
  t(id, name, `The translation's ${name} placeholders differ from the source's`, { flag: id.replaceAll('_', '-'), formats });

/** Every check, in Weblate's listing order. */
export const CHECKS: readonly CheckInfo[] = [
  t('same', 'Unchanged translation', 'The translation is identical to the source'),
  t('begin_newline', 'Starting newline', 'Only one of source and translation starts with a newline'),
  t('end_newline', 'Trailing newline', 'Only one of source and translation ends with a newline'),
  t('begin_space', 'Starting spaces', 'Source and translation start with different numbers of spaces'),
  t('end_space', 'Trailing space', 'Source and translation end with different numbers of spaces'),
  t('double_space', 'Double space', 'The translation has a double space the source has not'),
  t('end_stop', 'Mismatched full stop', 'Only one of source and translation ends with a full stop'),
  t('end_colon', 'Mismatched colon', 'Only one of source and translation ends with a colon'),
  t('end_question', 'Mismatched question mark', 'Only one of source and translation ends with a question mark'),
  t('end_exclamation', 'Mismatched exclamation mark', 'Only one of source and translation ends with an exclamation mark'),
  t('end_ellipsis', 'Mismatched ellipsis', 'Only one of source and translation ends with an ellipsis'),
  t('end_semicolon', 'Mismatched semicolon', 'Only one of source and translation ends with a semicolon'),
  t('newline-count', 'Mismatching line breaks', 'Source and translation have different numbers of line breaks'),
  t('escaped_newline', 'Mismatched \\n', 'Source and translation have different numbers of escaped \\n'),
  t('zero-width-space', 'Zero-width space', 'The translation has a zero-width space the source has not'),
  t('max-length', 'Maximum length of translation', 'The translation is longer than the max-length flag allows', { flag: 'max-length' }),
  t('plurals', 'Missing plurals', 'Some plural forms are translated, others are empty'),
  t('same_plurals', 'Same plurals', 'Every plural form has the same text'),
  t('inconsistent', 'Inconsistent', 'The same string is translated differently elsewhere in the project, or is untranslated there'),
  t('duplicate', 'Consecutive duplicated words', 'The translation repeats a word the source does not repeat'),
  t('xmltags', 'XML markup', 'The translation uses other XML tags than the source'),
  t('xmlvalid', 'XML syntax', 'The translation is not well-formed XML'),
  t('placeholders', 'Placeholders', 'The translation lacks a placeholder named by the placeholders flag', { flag: 'placeholders' }),
  t('regex', 'Regular expression', 'The translation does not match the regex flag', { flag: 'regex' }),
  fmt('c_format', 'C format'),
  fmt('es_format', 'ECMAScript template literals'),
  fmt('i18next_interpolation', 'i18next interpolation', ['i18next', 'i18nextv4']),
  fmt('icu_message_format', 'ICU MessageFormat', ['arb']),
  fmt('javascript_format', 'JavaScript format'),
  fmt('percent_placeholders', 'Percent placeholders'),
  fmt('php_format', 'PHP format'),
  fmt('python_brace_format', 'Python brace format'),
  fmt('python_format', 'Python format'),
  fmt('qt_format', 'Qt format'),
  fmt('qt_plural_format', 'Qt plural format'),
  fmt('objc_format', 'Objective-C format'),
  fmt('java_printf_format', 'Java format', ['aresource']),
  fmt('java_format', 'Java MessageFormat'),
  fmt('lua_format', 'Lua format'),
  fmt('perl_format', 'Perl format'),
  fmt('perl_brace_format', 'Perl brace format'),
  fmt('scheme_format', 'Scheme format'),
  fmt('lisp_format', 'Lisp format'),
  fmt('c_sharp_format', 'C# format'),
  fmt('object_pascal_format', 'Object Pascal format'),
  { id: 'ellipsis', name: 'Ellipsis', description: 'The source uses three dots (...) instead of an ellipsis (…)', kind: 'source' },
  {
    id: 'multiple_failures',
    name: 'Multiple failing checks',
    description: 'Translations of the string fail checks in several languages',
    kind: 'source',
  },
  {
    id: 'long_untranslated',
    name: 'Long untranslated',
    description: 'The string has stayed untranslated in most languages for a long time',
    kind: 'source',
  },
  { id: 'optional_plural', name: 'Unpluralised', description: 'The source uses "(s)" for a plural but is not a plural string', kind: 'source' },
];

export const CHECKS_BY_ID: ReadonlyMap<string, CheckInfo> = new Map(CHECKS.map((c) => [c.id, c]));

/** The check a search or setting names, accepting dashes for underscores (`newline_count` is `newline-count`). */
export function findCheck(name: string): CheckInfo | undefined {
  const exact = CHECKS_BY_ID.get(name);
  if (exact) return exact;
  const norm = name.replaceAll('-', '_');
  return CHECKS.find((c) => c.id.replaceAll('-', '_') === norm);
}

/**
 * File formats whose plural forms Weblate checks strictly (`strict_format_plurals`): a first form of 0 and 1 must keep
 * the source's placeholders there (Android's linter wants them), where other formats may leave them out.
 */
const STRICT_FORMAT_PLURALS: ReadonlySet<string> = new Set(['aresource']);

export function strictFormatPlurals(format: string): boolean {
  return STRICT_FORMAT_PLURALS.has(format);
}

/** The flags a file format turns on for every string (Weblate's per-format check flags). */
export function formatFlags(format: string): string {
  return CHECKS.filter((c) => c.formats?.includes(format))
    .map((c) => c.flag)
    .join(',');
}
