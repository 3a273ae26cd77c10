import { describe, expect, it } from 'vitest';
import { findLanguage, parseLanguageAliases, sanitizeLanguageCode } from './find.js';
import { type LanguageDefinition, loadLanguages, makePlural } from './languages.js';
import { PluralType } from './plural-type.js';

const found = (code: string, options = {}) => {
  const result = findLanguage(code, options);
  return [result.language.code, result.match];
};

describe('findLanguage', () => {
  it('matches codes exactly, case-insensitively and with - or + for _', () => {
    expect(found('de')).toEqual(['de', 'exact']);
    expect(found('PT_br')).toEqual(['pt_BR', 'case-insensitive']);
    expect(found('en_us')).toEqual(['en_US', 'case-insensitive']);
    expect(found('pt-BR')).toEqual(['pt_BR', 'hyphen']);
    expect(found('zh-Hant')).toEqual(['zh_Hant', 'hyphen']);
    expect(found('zh-Hant-HK')).toEqual(['zh_Hant_HK', 'hyphen']);
    expect(found('he-IL')).toEqual(['he_IL', 'hyphen']);
    expect(found('es-419')).toEqual(['es_419', 'hyphen']);
    expect(found('b+sr+Latn')).toEqual(['sr_Latn', 'plus']);
  });

  it('finds languages that are their own rows: en_US, he_IL, ar_SA, es_419', () => {
    const languages = loadLanguages();
    for (const code of ['en_US', 'he_IL', 'ar_SA', 'es_419']) {
      expect(languages.has(code), code).toBe(true);
      expect(found(code)).toEqual([code, 'exact']);
    }
    expect(findLanguage('en_US').language.name).toBe('English (United States)');
    expect(findLanguage('ar_SA').language).toMatchObject({ direction: 'rtl', plural: { number: 6 } });
  });

  it('collapses a default country to the bare language, but keeps real variants', () => {
    expect(found('cs_CZ')).toEqual(['cs', 'default-country']);
    expect(found('de_DE')).toEqual(['de', 'default-country']);
    expect(found('fr_FR')).toEqual(['fr', 'default-country']);
    expect(found('de-de')).toEqual(['de', 'default-country']);
    expect(found('pt_BR')).toEqual(['pt_BR', 'exact']);
    expect(found('pt_PT')).toEqual(['pt_PT', 'exact']);
    expect(found('de_AT')).toEqual(['de_AT', 'exact']);
  });

  it('uses aliases.csv, lower-cased, with _latin as @latin', () => {
    expect(found('zh_CN')).toEqual(['zh_Hans', 'alias']);
    expect(found('zh_TW')).toEqual(['zh_Hant', 'alias']);
    expect(found('iw')).toEqual(['he', 'alias']);
    expect(found('sr@latin')).toEqual(['sr_Latn', 'alias']);
    expect(found('sr_latin')).toEqual(['sr_Latn', 'alias']);
    expect(found('no')).toEqual(['nb_NO', 'alias']);
    expect(found('ca_ES@valencia')).toEqual(['ca@valencia', 'alias']);
  });

  it('matches a language name and 4-letter codes without separator', () => {
    expect(found('German')).toEqual(['de', 'name']);
    expect(found('ptbr')).toEqual(['pt_BR', 'compact']);
  });

  it('cleans Android and copy suffixes before matching', () => {
    expect(found('pt-rBR')).toEqual(['pt_BR', 'exact']);
    expect(found('de (2)')).toEqual(['de', 'exact']);
    expect(sanitizeLanguageCode('b+sr+Latn')).toBe('sr+Latn');
    expect(sanitizeLanguageCode('.fr.')).toBe('fr');
  });

  it('normalises lang_COUNTRY and variants before giving up', () => {
    expect(found('EN_gb')).toEqual(['en_GB', 'case-insensitive']);
    expect(found('pt_br@FORMAL')).toEqual(['pt_BR@formal', 'case-insensitive']);
    const made = findLanguage('de_ch@Formal');
    expect(made.language.code).toBe('de_CH@formal');
  });

  it('generates an unknown language after its base language', () => {
    const czech = loadLanguages().get('cs')!;
    const result = findLanguage('cs_XY');
    expect(result).toMatchObject({ match: 'generated', generated: true, lookedUp: 'cs_XY' });
    expect(result.language).toEqual({
      code: 'cs_XY',
      name: 'Czech',
      plural: czech.plural,
      aliases: [],
      direction: 'ltr',
      population: 0,
    });
    expect(findLanguage('ar_ZZ').language).toMatchObject({ name: 'Arabic', direction: 'rtl', plural: { number: 6 } });
    expect(findLanguage('fr_FR@euro').language).toMatchObject({ code: 'fr_FR@euro', name: 'French' });
  });

  it('generates an unknown language with no base as "<code> (generated)" with 2 / n != 1', () => {
    for (const [code, expected] of [
      ['xx_YY', 'xx_YY'],
      ['qq', 'qq'],
      ['XX-yy', 'xx_YY'],
    ]) {
      const result = findLanguage(code!);
      expect(result.match).toBe('generated');
      expect(result.language).toEqual({
        code: expected,
        name: `${expected} (generated)`,
        plural: { source: 0, number: 2, formula: 'n != 1', type: PluralType.ONE_OTHER },
        aliases: [],
        direction: 'ltr',
        population: 0,
      });
    }
  });

  it('applies project aliases first, and maps source/src/default to the source language', () => {
    const aliases = 'zh_CN:zh_Hant, pt:pt_PT';
    expect(found('zh_CN', { aliases })).toEqual(['zh_Hant', 'exact']);
    expect(found('pt', { aliases })).toEqual(['pt_PT', 'exact']);
    expect(found('zh_CN')).toEqual(['zh_Hans', 'alias']);
    expect(findLanguage('source').language.code).toBe('en');
    expect(findLanguage('src', { sourceLanguage: 'de' })).toMatchObject({ lookedUp: 'de', language: { code: 'de' } });
    expect(findLanguage('default', { sourceLanguage: 'pt_BR' }).language.code).toBe('pt_BR');
    expect(found('source', { aliases: 'source:fr' })).toEqual(['fr', 'exact']);
  });

  it('searches a caller-supplied set of languages', () => {
    const custom = new Map<string, LanguageDefinition>(loadLanguages());
    custom.set('qtz', {
      code: 'qtz',
      name: 'Tms Testish',
      plural: makePlural('qtz', 1, '0'),
      aliases: [],
      direction: 'ltr',
      population: 0,
    });
    expect(found('QTZ', { languages: custom })).toEqual(['qtz', 'case-insensitive']);
    expect(findLanguage('qtz').generated).toBe(true);
    // Names match only languages that Weblate ships.
    expect(findLanguage('Tms Testish', { languages: custom }).generated).toBe(true);
    expect(found('Klingon', { languages: custom })).toEqual(['tlh', 'name']);
  });
});

describe('parseLanguageAliases', () => {
  it('reads comma-separated file:language pairs', () => {
    expect([...parseLanguageAliases('zh_CN:zh_Hans,pt:pt_PT, broken ,:x')]).toEqual([
      ['zh_CN', 'zh_Hans'],
      ['pt', 'pt_PT'],
    ]);
    expect(parseLanguageAliases(undefined).size).toBe(0);
  });
});
