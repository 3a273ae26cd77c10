// The built-in language database: Weblate's language-data CSVs read once into language definitions.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readCsvTable } from './csv.js';
import { type PluralType, pluralType } from './plural-type.js';

/**
 * The folder holding the language-data CSVs. It resolves to `src/languages/data/` both from
 * `src/languages/*.ts` and from the compiled `dist/languages/*.js`, so the build needs no copy step.
 */
export const LANGUAGE_DATA_DIR: URL = new URL('../../src/languages/data/', import.meta.url);

/** The CSV files read from LANGUAGE_DATA_DIR. */
export const LANGUAGE_DATA_FILES = [
  'languages.csv',
  'aliases.csv',
  'rtl.csv',
  'population.csv',
  'population-fallback.csv',
  'default_countries.csv',
  'gettext.csv',
  'cldr.csv',
  'qt.csv',
  'translate.csv',
  'l10n-guide.csv',
  'extraplurals.csv',
] as const;

/** A language's default plural, shaped as the API's Plural object (without the database id). */
export interface LanguagePlural {
  /** 0 = SOURCE_DEFAULT, the only source the language table itself defines. */
  source: 0;
  number: number;
  /** A C expression over n, without `nplurals=`/`plural=`. */
  formula: string;
  type: PluralType;
}

export type TextDirection = 'ltr' | 'rtl';

/** One language as Weblate ships it. */
export interface LanguageDefinition {
  /** Canonical code: `_` before region/script, `@` before a variant (pt_BR, zh_Hant, ca@valencia). */
  code: string;
  name: string;
  plural: LanguagePlural;
  /** Alias codes (aliases.csv keys) that map to this code, in file order. */
  aliases: readonly string[];
  direction: TextDirection;
  /** Number of speakers: population.csv, else population-fallback.csv, else 0. */
  population: number;
}

/** Where an alternative plural formula comes from (one CSV each). */
export type PluralOrigin = 'gettext' | 'cldr' | 'qt' | 'translate' | 'l10n-guide' | 'extra';

/** A plural formula other than the language's default one (Qt's, gettext's, CLDR's …). */
export interface AlternativePlural {
  origin: PluralOrigin;
  number: number;
  formula: string;
  type: PluralType;
}

/** Everything the CSVs hold, indexed. */
export interface LanguageData {
  languages: ReadonlyMap<string, LanguageDefinition>;
  /** aliases.csv: lower-case alias → canonical code. */
  aliases: ReadonlyMap<string, string>;
  /** default_countries.csv: lower-case `lang_country` codes that collapse to their bare language. */
  defaultCountries: ReadonlySet<string>;
  /** rtl.csv codes. */
  rtl: ReadonlySet<string>;
  /** Alternative plurals per language code, in CSV order. */
  alternativePlurals: ReadonlyMap<string, readonly AlternativePlural[]>;
}

const PLURAL_FILES: readonly (readonly [PluralOrigin, string])[] = [
  ['gettext', 'gettext.csv'],
  ['cldr', 'cldr.csv'],
  ['qt', 'qt.csv'],
  ['translate', 'translate.csv'],
  ['l10n-guide', 'l10n-guide.csv'],
  ['extra', 'extraplurals.csv'],
];

/** The language part of a code: everything before the first `_` or `-` (Weblate's `base_code`). */
export function baseCode(code: string): string {
  return code.replace(/_/g, '-').split('-')[0]!;
}

/** `rtl` when the code or its base code is a right-to-left language, else `ltr` (Weblate's `guess_direction`). */
export function textDirection(code: string, rtl: ReadonlySet<string> = loadLanguageData().rtl): TextDirection {
  return rtl.has(code) || rtl.has(baseCode(code)) ? 'rtl' : 'ltr';
}

/** A default plural object for a code, its type classified from the formula. */
export function makePlural(code: string, number: number, formula: string): LanguagePlural {
  // Weblate's plural type evaluates the formula over many numbers: worked out when first read (most commands read
  // none of the 500-odd languages' types; computing them all took 40 ms of every start)
  let type: PluralType | undefined;
  return {
    source: 0,
    number,
    formula,
    get type() {
      type ??= pluralType(baseCode(code), formula);
      return type;
    },
  };
}

/** The rows of a CSV of the data folder; `columns` must be in its header (a broken data folder says which file). */
function readTable<C extends string>(dir: URL, file: string, columns: readonly C[]): (Record<C, string> & Record<string, string | undefined>)[] {
  const rows = readCsvTable(readFileSync(new URL(file, dir), 'utf8'), file);
  for (const [i, row] of rows.entries()) {
    const missing = columns.filter((c) => row[c] === undefined);
    if (missing.length > 0) throw new Error(`${file}: row ${i + 2} has no ${missing.join(', ')}`);
  }
  return rows as (Record<C, string> & Record<string, string | undefined>)[];
}

function toCount(value: string | undefined): number {
  const number = Number.parseInt(value ?? '', 10);
  return Number.isFinite(number) ? number : 0;
}

/** Read and index the CSVs of a data folder (no caching; use `loadLanguageData` for the bundled one). */
export function readLanguageData(dir: URL = LANGUAGE_DATA_DIR): LanguageData {
  const rtl = new Set(readTable(dir, 'rtl.csv', ['code']).map((row) => row.code));

  const aliases = new Map<string, string>();
  const aliasesByCode = new Map<string, string[]>();
  for (const { source, target } of readTable(dir, 'aliases.csv', ['source', 'target'])) {
    if (!source || !target) continue;
    aliases.set(source.toLowerCase(), target);
    const list = aliasesByCode.get(target) ?? [];
    list.push(source);
    aliasesByCode.set(target, list);
  }

  const population = new Map<string, number>();
  for (const row of readTable(dir, 'population-fallback.csv', ['code'])) population.set(row.code, toCount(row.population));
  for (const row of readTable(dir, 'population.csv', ['code'])) population.set(row.code, toCount(row.population));

  const languages = new Map<string, LanguageDefinition>();
  for (const row of readTable(dir, 'languages.csv', ['code', 'name', 'formula'])) {
    const code = row.code;
    languages.set(code, {
      code,
      name: row.name,
      plural: makePlural(code, toCount(row.nplurals), row.formula),
      aliases: aliasesByCode.get(code) ?? [],
      direction: textDirection(code, rtl),
      population: population.get(code) ?? 0,
    });
  }

  const alternativePlurals = new Map<string, AlternativePlural[]>();
  for (const [origin, file] of PLURAL_FILES) {
    for (const row of readTable(dir, file, ['code', 'formula'])) {
      const list = alternativePlurals.get(row.code) ?? [];
      const plural = makePlural(row.code, toCount(row.nplurals), row.formula);
      // the type is classified when first read, as the default plurals' are
      list.push({
        origin,
        number: plural.number,
        formula: plural.formula,
        get type() {
          return plural.type;
        },
      });
      alternativePlurals.set(row.code, list);
    }
  }

  const defaultCountries = new Set(readTable(dir, 'default_countries.csv', ['code']).map((row) => row.code.toLowerCase()));
  return { languages, aliases, defaultCountries, rtl, alternativePlurals };
}

/**
 * A fingerprint of a data folder's CSVs (their names and bytes): the store seeds its languages again only when the
 * bundled data's fingerprint differs from the one it was last seeded from. Hashing the files costs about a
 * millisecond; reading and indexing them (and classifying plurals) costs tens.
 */
export function languageDataFingerprint(dir: URL = LANGUAGE_DATA_DIR): string {
  const hash = createHash('sha256');
  for (const file of LANGUAGE_DATA_FILES) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(new URL(file, dir)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

let bundled: LanguageData | undefined;

/** The bundled language data, read on first use and then kept. */
export function loadLanguageData(): LanguageData {
  bundled ??= readLanguageData();
  return bundled;
}

/**
 * Every built-in language, keyed by code (read once).
 *
 * @example loadLanguages().get('cs')?.plural // { source: 0, number: 3, formula: '(n==1) ? 0 : …', type: 22 }
 */
export function loadLanguages(): ReadonlyMap<string, LanguageDefinition> {
  return loadLanguageData().languages;
}

/**
 * The plural a language uses under another convention, or undefined when that table has no row
 * for this exact code (callers then use the default plural). Qt TS files use origin `qt`.
 */
export function alternativePlural(code: string, origin: PluralOrigin): AlternativePlural | undefined {
  return loadLanguageData()
    .alternativePlurals.get(code)
    ?.find((plural) => plural.origin === origin);
}
