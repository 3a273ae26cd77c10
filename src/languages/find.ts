// Mapping a language code found in a file name to a language: Weblate's fuzzy lookup and auto-creation.
import { type LanguageData, type LanguageDefinition, loadLanguageData, makePlural, textDirection } from './languages.js';

/** Which step of the lookup found the language. */
export type LanguageMatch = 'exact' | 'case-insensitive' | 'hyphen' | 'plus' | 'name' | 'compact' | 'alias' | 'normalized' | 'default-country' | 'generated';

export interface FindLanguageOptions {
  /** A project's `language_aliases`: comma-separated `file_code:language_code` pairs, e.g. `zh_CN:zh_Hans,pt:pt_PT`. */
  aliases?: string;
  /** The component's source language code; `source`, `src` and `default` map to it. Default `en`. */
  sourceLanguage?: string;
  /** Languages to search instead of the built-in ones (for example the database's, with custom additions). */
  languages?: ReadonlyMap<string, LanguageDefinition>;
}

export interface FoundLanguage {
  language: LanguageDefinition;
  match: LanguageMatch;
  /** The code after project aliases and source keywords, which the fuzzy lookup then searched for. */
  lookedUp: string;
  /** True when the language is not in the searched set and was made up (Weblate creates it on scan). */
  generated: boolean;
}

interface LanguageIndex {
  languages: ReadonlyMap<string, LanguageDefinition>;
  byLowerCode: Map<string, LanguageDefinition[]>;
  byLowerName: Map<string, LanguageDefinition[]>;
}

const indexes = new WeakMap<ReadonlyMap<string, LanguageDefinition>, LanguageIndex>();

function indexOf(languages: ReadonlyMap<string, LanguageDefinition>, builtIn: { has(code: string): boolean }): LanguageIndex {
  let index = indexes.get(languages);
  if (!index) {
    const byLowerCode = new Map<string, LanguageDefinition[]>();
    const byLowerName = new Map<string, LanguageDefinition[]>();
    for (const language of languages.values()) {
      const code = language.code.toLowerCase();
      byLowerCode.set(code, [...(byLowerCode.get(code) ?? []), language]);
      // Weblate matches names only of the languages it ships.
      if (builtIn.has(language.code)) {
        const name = language.name.toLowerCase();
        byLowerName.set(name, [...(byLowerName.get(name) ?? []), language]);
      }
    }
    index = { languages, byLowerCode, byLowerName };
    indexes.set(languages, index);
  }
  return index;
}

// A lookup succeeds only when it is unambiguous (Weblate's `try_get`).
function single(list: LanguageDefinition[] | undefined): LanguageDefinition | undefined {
  return list?.length === 1 ? list[0] : undefined;
}

const SOURCE_KEYWORDS = new Set(['source', 'src', 'default']);

/** Parse a project's `language_aliases` string into file code → language code. */
export function parseLanguageAliases(aliases: string | undefined): Map<string, string> {
  const result = new Map<string, string>();
  for (const part of (aliases ?? '').split(',')) {
    const separator = part.indexOf(':');
    if (separator < 0) continue;
    const from = part.slice(0, separator).trim();
    const to = part.slice(separator + 1).trim();
    if (from && to) result.set(from, to);
  }
  return result;
}

/** Clean a code as Weblate does before matching: Android `b+`/`-rXX`, `(2)` copies, spaces, parentheses, outer dots. */
export function sanitizeLanguageCode(code: string): string {
  let result = code;
  if (result.startsWith('b+')) result = result.slice(2);
  if (result.length === 6 && result.includes('-r')) result = result.replace('-r', '_');
  result = result.replace(/\(\d+\)/g, '');
  result = result.replace(/[ ()]/g, '');
  return result.replace(/^\.+|\.+$/g, '');
}

/** Split `lang[-_+]COUNTRY[-x-private]` as Weblate's `parse_lang_country` does. */
function parseLangCountry(code: string): { lang: string; country: string | undefined; subtag: string } {
  let rest = code;
  let subtag = '';
  const privateUse = rest.indexOf('-x-');
  if (privateUse >= 0) {
    subtag = rest.slice(privateUse);
    rest = rest.slice(0, privateUse);
  }
  for (const separator of ['-', '_', '+']) {
    const at = rest.indexOf(separator);
    if (at < 0) continue;
    let country = rest.slice(at + 1);
    if (separator === '-' && country.length > 2 && country[0] === 'r') country = country.slice(1);
    return { lang: rest.slice(0, at), country, subtag };
  }
  return { lang: rest, country: undefined, subtag };
}

function replaceAll(text: string, from: string, to: string): string {
  return text.split(from).join(to);
}

/** Weblate's `fuzzy_get`: the language for a code, or the normalised code to create one under. */
function fuzzyGet(rawCode: string, index: LanguageIndex, data: LanguageData): { language: LanguageDefinition; match: LanguageMatch } | { newCode: string } {
  const code = sanitizeLanguageCode(rawCode);
  const exact = index.languages.get(code);
  if (exact) return { language: exact, match: 'exact' };

  const lower = code.toLowerCase();
  const steps: [LanguageMatch, LanguageDefinition[] | undefined][] = [
    ['case-insensitive', index.byLowerCode.get(lower)],
    ['hyphen', index.byLowerCode.get(replaceAll(lower, '-', '_'))],
    ['plus', index.byLowerCode.get(replaceAll(lower, '+', '_'))],
    ['name', index.byLowerName.get(lower)],
  ];
  // Codes written without a separator: ptbr → pt_br.
  const expanded = code.length === 4 ? `${lower.slice(0, 2)}_${lower.slice(2)}` : undefined;
  if (expanded) steps.push(['compact', index.byLowerCode.get(expanded)]);
  for (const [match, list] of steps) {
    const language = single(list);
    if (language) return { language, match };
  }

  const aliasBase = replaceAll(replaceAll(lower, '_latin', '@latin'), '_cyrillic', '@cyrillic');
  const aliasCandidates = [
    aliasBase,
    replaceAll(aliasBase, '+', '_'),
    replaceAll(aliasBase, '-', '_'),
    replaceAll(aliasBase, '-r', '_'),
    replaceAll(aliasBase, '_r', '_'),
  ];
  if (expanded) aliasCandidates.push(expanded);
  for (const candidate of aliasCandidates) {
    const target = data.aliases.get(candidate);
    const language = target === undefined ? undefined : index.languages.get(target);
    if (language) return { language, match: 'alias' };
  }

  const { lang, country, subtag } = parseLangCountry(code);
  let newCode: string;
  if (country === undefined) {
    newCode = lang.toLowerCase();
  } else {
    let region = country.toUpperCase();
    const variantAt = country.includes('@') ? country.indexOf('@') : country.indexOf('_');
    if (variantAt >= 0) {
      // `@variant`, or XLIFF's `_variant`, after the region.
      region = `${country.slice(0, variantAt).toUpperCase()}@${country.slice(variantAt + 1).toLowerCase()}`;
    }
    newCode = `${lang.toLowerCase()}_${region}`;
  }
  newCode += subtag;
  const normalized = single(index.byLowerCode.get(newCode.toLowerCase()));
  if (normalized) return { language: normalized, match: 'normalized' };

  // SIMPLIFY_LANGUAGES (on by default): cs_CZ → cs, de_DE → de.
  let simplified: LanguageDefinition | undefined;
  if (data.defaultCountries.has(newCode.toLowerCase())) simplified = index.languages.get(lang.toLowerCase());
  else if (expanded && data.defaultCountries.has(expanded)) simplified = index.languages.get(expanded.slice(0, 2));
  if (simplified) return { language: simplified, match: 'default-country' };

  return { newCode };
}

/** Weblate's `auto_create`: a language for an unknown code, named and pluralised after its base language. */
function generateLanguage(code: string, index: LanguageIndex, data: LanguageData): LanguageDefinition {
  let base: LanguageDefinition | undefined;
  const strict = (candidate: string) => {
    const found = fuzzyGet(candidate, index, data);
    return 'language' in found ? found.language : undefined;
  };
  if (code.includes('@')) base = strict(code.split('@')[0]!);
  if (!base && (code.includes('_') || code.includes('-'))) base = strict(code.replace(/-/g, '_').split('_')[0]!);
  if (base) {
    return { code, name: base.name, plural: { ...base.plural }, aliases: [], direction: base.direction, population: 0 };
  }
  return {
    code,
    name: `${code} (generated)`,
    plural: makePlural(code, 2, 'n != 1'),
    aliases: [],
    direction: textDirection(code, data.rtl),
    population: 0,
  };
}

/**
 * Find the language for a code taken from a file name (after the caller cut `.UTF-8`-style suffixes).
 * Project aliases apply first, then `source`/`src`/`default` → the source language, then Weblate's
 * fuzzy order: exact, case-insensitive, `-`→`_`, `+`→`_`, name, 4-letter `ptbr`, aliases.csv,
 * `lang_COUNTRY` normalisation, default-country collapse. An unknown code never throws: it gives a
 * generated language (`generated: true`) with its base language's name and plural, or
 * `"<code> (generated)"` with 2 / `n != 1`.
 *
 * @example findLanguage('pt-BR').language.code // 'pt_BR' (match 'hyphen')
 * @example findLanguage('cs_CZ').language.code // 'cs' (match 'default-country')
 */
export function findLanguage(code: string, options: FindLanguageOptions = {}): FoundLanguage {
  const data = loadLanguageData();
  const index = indexOf(options.languages ?? data.languages, data.languages);
  const projectAliases = parseLanguageAliases(options.aliases);
  let lookedUp = code;
  if (projectAliases.has(code)) lookedUp = projectAliases.get(code)!;
  else if (SOURCE_KEYWORDS.has(code)) lookedUp = options.sourceLanguage ?? 'en';
  const found = fuzzyGet(lookedUp, index, data);
  if ('language' in found) return { language: found.language, match: found.match, lookedUp, generated: false };
  return { language: generateLanguage(found.newCode, index, data), match: 'generated', lookedUp, generated: true };
}
