import { describe, expect, it } from 'vitest';
import { languageCodeOf, maskRegex, selectMaskMatches } from './filemask.js';

describe('languageCodeOf', () => {
  it('takes the longest * group and cuts encodings', () => {
    expect(languageCodeOf('po/de.po', 'po/*.po')).toBe('de');
    expect(languageCodeOf('locale/pt_BR/LC_MESSAGES/app.po', 'locale/*/LC_MESSAGES/*.po')).toBe('pt_BR');
    expect(languageCodeOf('po/de.UTF-8.po', 'po/*.po')).toBe('de');
    expect(languageCodeOf('po/de.iso-8859-1.po', 'po/*.po')).toBe('de');
    expect(languageCodeOf('po/de.formal.po', 'po/*.po')).toBe('de.formal');
    expect(languageCodeOf('share/translations/keepassxc_pt_BR.ts', 'share/translations/keepassxc_*.ts')).toBe('pt_BR');
  });

  it('gives the source language for the template and "" for a non-match', () => {
    expect(languageCodeOf('locales/en.json', 'locales/*.json', 'locales/en.json', 'en_GB')).toBe('en_GB');
    expect(languageCodeOf('other/de.json', 'locales/*.json')).toBe('');
    expect(languageCodeOf('locales/sub/de.json', 'locales/*.json')).toBe('');
  });

  it('treats ? and [ as literal characters in the regex', () => {
    expect(maskRegex('a?/[x]*.po').test('a?/[x]de.po')).toBe(true);
    expect(maskRegex('a?/*.po').test('ab/de.po')).toBe(false);
  });
});

describe('selectMaskMatches', () => {
  it('applies language_regex, skips "source", puts the template first', () => {
    const picked = selectMaskMatches(['locales/percentages.json', 'locales/en.json', 'locales/de-DE.json', 'locales/source.json', 'locales/ar-SA.json'], {
      filemask: 'locales/*.json',
      languageRegex: '^[a-z]{2}(-[A-Z]{2})?$',
      template: 'locales/en.json',
      sourceLanguage: 'en',
    });
    expect(picked.files).toEqual([
      { path: 'locales/en.json', code: 'en' },
      { path: 'locales/ar-SA.json', code: 'ar-SA' },
      { path: 'locales/de-DE.json', code: 'de-DE' },
    ]);
    expect(picked.skipped).toEqual([
      { path: 'locales/percentages.json', reason: 'language code "percentages" skipped by language_regex' },
      { path: 'locales/source.json', reason: 'language code "source" skipped by language_regex' },
    ]);
  });

  it('uses the default regex ^[^.]+$', () => {
    const picked = selectMaskMatches(['po/de.po', 'po/de.bak.po'], { filemask: 'po/*.po', languageRegex: '^[^.]+$', sourceLanguage: 'en' });
    expect(picked.files.map((f) => f.code)).toEqual(['de']);
  });
});
