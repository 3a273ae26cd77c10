// CLDR plural categories of a language, restricted to those whole numbers reach (the table Translate Toolkit uses), for every format with CLDR plurals.

/** CLDR categories in CLDR order. */
export const CLDR_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const CATEGORY_SET: ReadonlySet<string> = new Set(CLDR_CATEGORIES);

/** Whether a key suffix is a CLDR plural category: `isPluralCategory('few') === true`. */
export function isPluralCategory(tag: string): boolean {
  return CATEGORY_SET.has(tag);
}

const cache = new Map<string, readonly string[]>();

/** A filename language code (`pt_BR`, `sr@latin`, `zh-Hant`) as a BCP 47 tag, or null. */
function toLocale(language: string): string | null {
  const tag = language.split('@')[0]!.replaceAll('_', '-');
  if (tag === '') return null;
  try {
    return Intl.PluralRules.supportedLocalesOf([tag]).length > 0 ? tag : null;
  } catch {
    return null;
  }
}

// Whole numbers that reach every integer category CLDR defines (fr/es/it/pt `many` needs millions).
const SAMPLES: number[] = [];
for (let n = 0; n <= 1000; n++) SAMPLES.push(n);
for (let k = 4; k <= 9; k++) for (const m of [1, 2, 3, 5, 11]) SAMPLES.push(m * 10 ** k);

/**
 * The plural tags of a language in CLDR order, counting only categories that whole numbers
 * select: `pluralTags('cs')` is one/few/other, `pluralTags('pl')` one/few/many, `pluralTags('ja')`
 * other. An unknown language falls back to English tags, or `other` when it has one form.
 */
export function pluralTags(language: string, plurals?: number): readonly string[] {
  const key = `${language}|${plurals ?? ''}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const locale = toLocale(language);
  let tags: readonly string[];
  if (locale === null) {
    tags = plurals === 1 ? ['other'] : ['one', 'other'];
  } else {
    const rules = new Intl.PluralRules(locale);
    const seen = new Set<string>();
    for (const n of SAMPLES) seen.add(rules.select(n));
    tags = CLDR_CATEGORIES.filter((c) => seen.has(c));
  }
  cache.set(key, tags);
  return tags;
}

/**
 * Translate Toolkit's tags for a file's language code, read from its base language only (`b+sr+Latn`, `pt-rBR`,
 * `zh_Hant` → `sr`, `pt`, `zh`) as its Android, .stringsdict and .strings readers do: `baseLanguageTags('pt-rBR')`
 * is one/many/other. An unknown language gets English's tags.
 */
export function baseLanguageTags(code: string): readonly string[] {
  let tags = baseCache.get(code);
  if (tags === undefined) {
    tags = pluralTags(code.replace(/^b\+/, '').replace(/[_+]/g, '-').split('-')[0]!);
    baseCache.set(code, tags);
  }
  return tags;
}

// by the code as a file names it: every file of a sync asks again, and the base language is worked out once
const baseCache = new Map<string, readonly string[]>();
const stringsdictCache = new Map<string, readonly string[]>();

/** The categories of a .stringsdict file's variables: the language's CLDR tags with `zero` first (Translate Toolkit). */
export function stringsdictTags(language: string): readonly string[] {
  let tags = stringsdictCache.get(language);
  if (tags === undefined) {
    const base = baseLanguageTags(language);
    tags = base.includes('zero') ? base : ['zero', ...base];
    stringsdictCache.set(language, tags);
  }
  return tags;
}

/** The formats whose files name their own plural forms (Weblate picks a plural per format), by Weblate's format id. */
const FORMAT_TAGS: Readonly<Record<string, (language: string) => readonly string[]>> = {
  aresource: baseLanguageTags,
  stringsdict: stringsdictTags,
};

/**
 * The plural forms a file of `format` holds for a language (the code as written in the file name), by their CLDR
 * names in file order, where the format decides them (Android, .stringsdict), else null: the translation then follows
 * its file's or its language's plural. Light: the sync's checks read it without loading every format's parser.
 * @example formatPluralTags('aresource', 'pt-rBR') // ['one', 'many', 'other']
 */
export function formatPluralTags(format: string, language: string): readonly string[] | null {
  return FORMAT_TAGS[format]?.(language) ?? null;
}
