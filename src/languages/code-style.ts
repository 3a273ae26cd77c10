// Writing a language code in a component's `language_code_style` (pt_BR, pt-BR, pt-rBR …) for new file names.
import { parseLanguageAliases } from './find.js';
import { loadLanguageData } from './languages.js';

/** The values of a component's `language_code_style`; `''` means the format's own default. */
export const LANGUAGE_CODE_STYLES = [
  '',
  'posix',
  'posix_lowercase',
  'bcp',
  'bcp_lower',
  'posix_long',
  'posix_long_lowercase',
  'bcp_long',
  'bcp_legacy',
  'linux',
  'linux_lowercase',
  'android',
  'appstore',
  'googleplay',
] as const;
export type LanguageCodeStyle = (typeof LANGUAGE_CODE_STYLES)[number];

// Linux and legacy BCP do not use the Hans/Hant scripts but the CN/TW regions.
const LEGACY_CODES: Readonly<Record<string, string>> = {
  zh_Hans: 'zh_CN',
  zh_Hant: 'zh_TW',
  zh_Hans_SG: 'zh_SG',
  zh_Hant_HK: 'zh_HK',
};
// Android keeps Java's historic codes for these three.
const ANDROID_CODES: Readonly<Record<string, string>> = { he: 'iw', id: 'in', yi: 'ji' };
const APPSTORE_CODES: Readonly<Record<string, string>> = {
  ar: 'ar-SA',
  de: 'de-DE',
  fr: 'fr-FR',
  nl: 'nl-NL',
  pt: 'pt-PT',
};
const GOOGLEPLAY_CODES: Readonly<Record<string, string>> = {
  hy: 'hy-AM',
  az: 'az-AZ',
  eu: 'eu-ES',
  my: 'my-MM',
  zh_Hant_HK: 'zh-HK',
  zh_Hans: 'zh-CN',
  zh_Hant: 'zh-TW',
  cs: 'cs-CZ',
  da: 'da-DK',
  nl: 'nl-NL',
  en: 'en-SG',
  fi: 'fi-FI',
  fr: 'fr-FR',
  gl: 'gl-ES',
  ka: 'ka-GE',
  de: 'de-DE',
  el: 'el-GR',
  he: 'iw-IL',
  hi: 'hi-IN',
  hu: 'hu-HU',
  is: 'is-IS',
  it: 'it-IT',
  ja: 'ja-JP',
  kn: 'kn-IN',
  km: 'km-KH',
  ko: 'ko-KR',
  ky: 'ky-KG',
  lo: 'lo-LA',
  mk: 'mk-MK',
  ms: 'ms-MY',
  ml: 'ml-IN',
  mr: 'mr-IN',
  mn: 'mn-MN',
  ne: 'ne-NP',
  nb_NO: 'no-NO',
  fa: 'fa-IR',
  pl: 'pl-PL',
  ru: 'ru-RU',
  si: 'si-LK',
  es: 'es-ES',
  sv: 'sv-SE',
  ta: 'ta-IN',
  te: 'te-IN',
  tr: 'tr-TR',
};

let expandLangs: Map<string, string> | undefined;

// default_countries.csv turned around: cs → cs_CZ. (Weblate keys this on the first two letters of
// each entry, which garbles three-letter codes such as ast_es; here the key is the whole language part.)
function expandedCode(code: string): string | undefined {
  if (!expandLangs) {
    expandLangs = new Map();
    for (const entry of loadLanguageData().defaultCountries) {
      const [lang, country] = entry.split('_');
      if (lang && country) expandLangs.set(lang, `${lang}_${country.toUpperCase()}`);
    }
  }
  return expandLangs.get(code);
}

const posix = (code: string) => code.replace(/-/g, '_');
const bcp = (code: string) => code.replace(/_/g, '-');
const posixLong = (code: string) => expandedCode(code) ?? posix(code);
const linux = (code: string) => LEGACY_CODES[code] ?? posix(code);

function android(code: string): string {
  const special = ANDROID_CODES[code];
  if (special) return special;
  const sanitized = linux(code);
  const parts = sanitized.split('_');
  // Scripts and other long subtags need the BCP 47 form: sr_Latn → b+sr+Latn.
  if (parts.length > 1 && parts[1]!.length > 2) return `b+${sanitized.replace(/_/g, '+')}`;
  return sanitized.replace(/_/g, '-r');
}

const STYLES: Readonly<Record<Exclude<LanguageCodeStyle, ''>, (code: string) => string>> = {
  posix,
  posix_lowercase: (code) => posix(code).toLowerCase(),
  bcp,
  bcp_lower: (code) => bcp(code).toLowerCase(),
  posix_long: posixLong,
  posix_long_lowercase: (code) => posixLong(code).toLowerCase(),
  bcp_long: (code) => bcp(posixLong(code)),
  bcp_legacy: (code) => bcp(linux(code)),
  linux,
  linux_lowercase: (code) => linux(code).toLowerCase(),
  android,
  appstore: (code) => bcp(APPSTORE_CODES[code] ?? code),
  googleplay: (code) => bcp(GOOGLEPLAY_CODES[code] ?? code),
};

export interface FormatLanguageCodeOptions {
  /** The file format's default style, used when `style` is `''`. Default `posix`. */
  defaultStyle?: Exclude<LanguageCodeStyle, ''>;
  /** A project's `language_aliases` (`file_code:language_code,…`), applied in reverse to the result. */
  aliases?: string;
}

/**
 * The code to put in a new translation file's name for a language code.
 *
 * @example formatLanguageCode('pt_BR', 'bcp') // 'pt-BR'
 * @example formatLanguageCode('pt_BR', 'android') // 'pt-rBR'
 * @example formatLanguageCode('zh_Hans', 'posix', { aliases: 'zh_CN:zh_Hans' }) // 'zh_CN'
 */
export function formatLanguageCode(code: string, style: LanguageCodeStyle = '', options: FormatLanguageCodeOptions = {}): string {
  const formatted = STYLES[style || options.defaultStyle || 'posix'](code);
  let result = formatted;
  // Turned around as Weblate does ({language: file}), so of two file codes for one language the last wins.
  for (const [fileCode, languageCode] of parseLanguageAliases(options.aliases)) {
    if (languageCode === formatted) result = fileCode;
  }
  return result;
}
