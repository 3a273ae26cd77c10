import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODE_STYLES, formatLanguageCode } from './code-style.js';

describe('formatLanguageCode', () => {
  it('writes POSIX and BCP codes', () => {
    expect(formatLanguageCode('pt_BR', 'posix')).toBe('pt_BR');
    expect(formatLanguageCode('pt-BR', 'posix')).toBe('pt_BR');
    expect(formatLanguageCode('pt_BR', 'posix_lowercase')).toBe('pt_br');
    expect(formatLanguageCode('pt_BR', 'bcp')).toBe('pt-BR');
    expect(formatLanguageCode('zh_Hant_HK', 'bcp')).toBe('zh-Hant-HK');
    expect(formatLanguageCode('pt_BR', 'bcp_lower')).toBe('pt-br');
    expect(formatLanguageCode('ca@valencia', 'bcp')).toBe('ca@valencia');
  });

  it('uses the format default for an empty style', () => {
    expect(formatLanguageCode('pt_BR')).toBe('pt_BR');
    expect(formatLanguageCode('pt_BR', '', { defaultStyle: 'bcp' })).toBe('pt-BR');
    expect(formatLanguageCode('pt_BR', 'posix', { defaultStyle: 'bcp' })).toBe('pt_BR');
  });

  it('adds the default country in the long styles', () => {
    expect(formatLanguageCode('cs', 'posix_long')).toBe('cs_CZ');
    expect(formatLanguageCode('de', 'bcp_long')).toBe('de-DE');
    expect(formatLanguageCode('ast', 'posix_long')).toBe('ast_ES');
    expect(formatLanguageCode('cs', 'posix_long_lowercase')).toBe('cs_cz');
    expect(formatLanguageCode('pt_BR', 'posix_long')).toBe('pt_BR');
  });

  it('writes legacy Chinese codes for linux and bcp_legacy', () => {
    expect(formatLanguageCode('zh_Hans', 'linux')).toBe('zh_CN');
    expect(formatLanguageCode('zh_Hant_HK', 'linux_lowercase')).toBe('zh_hk');
    expect(formatLanguageCode('zh_Hant', 'bcp_legacy')).toBe('zh-TW');
    expect(formatLanguageCode('sr_Latn', 'linux')).toBe('sr_Latn');
  });

  it('writes Android resource qualifiers', () => {
    expect(formatLanguageCode('pt_BR', 'android')).toBe('pt-rBR');
    expect(formatLanguageCode('de', 'android')).toBe('de');
    expect(formatLanguageCode('zh_Hans', 'android')).toBe('zh-rCN');
    expect(formatLanguageCode('sr_Latn', 'android')).toBe('b+sr+Latn');
    expect(formatLanguageCode('he', 'android')).toBe('iw');
    expect(formatLanguageCode('id', 'android')).toBe('in');
  });

  it('writes store metadata codes', () => {
    expect(formatLanguageCode('de', 'appstore')).toBe('de-DE');
    expect(formatLanguageCode('pt_BR', 'appstore')).toBe('pt-BR');
    expect(formatLanguageCode('he', 'googleplay')).toBe('iw-IL');
    expect(formatLanguageCode('nb_NO', 'googleplay')).toBe('no-NO');
    expect(formatLanguageCode('pt_BR', 'googleplay')).toBe('pt-BR');
  });

  it('applies project language aliases in reverse', () => {
    expect(formatLanguageCode('zh_Hans', 'posix', { aliases: 'zh_CN:zh_Hans' })).toBe('zh_CN');
    expect(formatLanguageCode('zh_Hans', 'bcp', { aliases: 'zh_CN:zh_Hans' })).toBe('zh-Hans');
    expect(formatLanguageCode('pt_PT', 'posix', { aliases: 'pt:pt_PT,portugal:pt_PT' })).toBe('portugal');
  });

  it('knows every style a component may name', () => {
    for (const style of LANGUAGE_CODE_STYLES) expect(typeof formatLanguageCode('pt_BR', style)).toBe('string');
  });
});
