import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LANGUAGE_DATA_DIR,
  LANGUAGE_DATA_FILES,
  alternativePlural,
  baseCode,
  loadLanguageData,
  loadLanguages,
  readLanguageData,
  textDirection,
} from './languages.js';
import { PluralType } from './plural-type.js';

const dataDir = fileURLToPath(LANGUAGE_DATA_DIR);

describe('language data files', () => {
  it('are found beside the sources, with their README and licence', () => {
    expect(dataDir.split(path.sep).slice(-4, -1)).toEqual(['src', 'languages', 'data']);
    for (const file of [...LANGUAGE_DATA_FILES, 'README.md', 'LICENSE']) {
      expect(existsSync(path.join(dataDir, file)), file).toBe(true);
    }
    expect(readFileSync(path.join(dataDir, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('resolve to the same folder from the compiled dist/languages module', () => {
    const root = path.resolve(dataDir, '..', '..', '..');
    const fromDist = new URL('../../src/languages/data/', pathToFileURL(path.join(root, 'dist', 'languages', 'languages.js')));
    expect(fromDist.href).toBe(LANGUAGE_DATA_DIR.href);
  });
});

describe('loadLanguages', () => {
  it('reads languages.csv once, one language per row', () => {
    const languages = loadLanguages();
    expect(loadLanguages()).toBe(languages);
    const rows = readFileSync(path.join(dataDir, 'languages.csv'), 'utf8').trim().split('\n').length - 1;
    expect(languages.size).toBe(rows);
  });

  it('builds the API view of English', () => {
    const en = loadLanguages().get('en');
    expect(en).toMatchObject({
      code: 'en',
      name: 'English',
      plural: { source: 0, number: 2, formula: 'n != 1', type: PluralType.ONE_OTHER },
      direction: 'ltr',
    });
    expect(en?.aliases).toEqual(expect.arrayContaining(['en_en', 'base', 'source', 'eng']));
    expect(en?.population).toBeGreaterThan(1_000_000_000);
  });

  it('reads names with commas from quoted fields', () => {
    expect(loadLanguages().get('ckb_IQ')?.name).toBe('Kurdish (Sorani, Iraq)');
    expect(loadLanguages().get('zh_Hant_HK')?.name).toBe('Chinese (Traditional Han script, Hong Kong)');
  });

  it('lists the alias codes that map to each language', () => {
    const languages = loadLanguages();
    expect(languages.get('zh_Hans')?.aliases).toEqual(expect.arrayContaining(['chinese', 'zh', 'zh_cn', 'cn', 'chs']));
    expect(languages.get('nb_NO')?.aliases).toEqual(expect.arrayContaining(['norwegian', 'no', 'nb', 'nob', 'nor']));
    expect(languages.get('he')?.aliases).toEqual(expect.arrayContaining(['iw', 'iw_il', 'heb']));
    expect(languages.get('de')?.aliases.includes('#')).toBe(false);
  });

  it('sets the direction from rtl.csv by code or base code', () => {
    const languages = loadLanguages();
    const rtl = loadLanguageData().rtl;
    for (const code of ['ar', 'ar_SA', 'he', 'fa', 'ur', 'ckb', 'yi', 'ms_Arab']) {
      expect(languages.get(code)?.direction, code).toBe('rtl');
    }
    // Base-code rule: he_IL and ar_XB are not listed themselves.
    expect(rtl.has('he_IL')).toBe(false);
    expect(languages.get('he_IL')?.direction).toBe('rtl');
    expect(languages.get('ar_XB')?.direction).toBe('rtl');
    // Code rule: Punjabi is ltr, its Shahmukhi (Pakistan) variant rtl.
    expect(languages.get('pa')?.direction).toBe('ltr');
    expect(languages.get('pa_PK')?.direction).toBe('rtl');
    expect(languages.get('ms')?.direction).toBe('ltr');
    expect(textDirection('ar-Latn-XX')).toBe('rtl');
    expect(baseCode('zh_Hant-HK')).toBe('zh');
  });

  it('gives every language a plural with a valid number of forms', () => {
    for (const language of loadLanguages().values()) {
      expect(language.plural.number, language.code).toBeGreaterThanOrEqual(1);
      expect(language.plural.number, language.code).toBeLessThanOrEqual(6);
    }
  });
});

describe('alternative plurals', () => {
  it('gives the Qt and gettext formulas where those tables list the exact code', () => {
    expect(alternativePlural('cs', 'qt')).toEqual({
      origin: 'qt',
      number: 3,
      formula: '((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2)',
      type: PluralType.ONE_FEW_MANY,
    });
    expect(alternativePlural('ar', 'qt')?.type).toBe(PluralType.ZERO_ONE_TWO_FEW_MANY_OTHER);
    expect(alternativePlural('he', 'qt')).toMatchObject({ number: 2, type: PluralType.ONE_OTHER });
    expect(alternativePlural('pt_BR@formal', 'qt')).toBeUndefined();
  });

  it('keeps several extra plurals of one language in file order', () => {
    const extra = loadLanguageData()
      .alternativePlurals.get('cy')
      ?.filter((plural) => plural.origin === 'extra');
    expect(extra?.map((plural) => [plural.number, plural.type])).toEqual([
      [2, PluralType.TWO_OTHER],
      [4, PluralType.ONE_TWO_FEW_OTHER],
    ]);
  });
});

describe('readLanguageData on another folder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tms-language-data-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes population from population.csv, else population-fallback.csv, else 0', () => {
    const files: Record<string, string> = {
      'languages.csv':
        'code,name,nplurals,formula\naa,Afar,2,n != 1\nbb,Bee,1,0\ncc,"Cee, the language",3,n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2\n',
      'aliases.csv': 'source,target\n#,Section\nbee,bb\n',
      'rtl.csv': 'code,\ncc,\n',
      'population.csv': 'code,population\naa,100\n',
      'population-fallback.csv': 'code,population,source,date,url\naa,5,x,,\nbb,42,wikidata,,\n',
      'default_countries.csv': 'code\naa_AA\n',
    };
    for (const file of LANGUAGE_DATA_FILES) writeFileSync(path.join(dir, file), files[file] ?? 'code,name,nplurals,formula\n');
    const data = readLanguageData(pathToFileURL(`${dir}${path.sep}`));
    expect([...data.languages.values()].map((l) => [l.code, l.population, l.direction, l.plural.type])).toEqual([
      ['aa', 100, 'ltr', PluralType.ONE_OTHER],
      ['bb', 42, 'ltr', PluralType.NONE],
      ['cc', 0, 'rtl', PluralType.ONE_FEW_MANY],
    ]);
    expect(data.languages.get('bb')?.aliases).toEqual(['bee']);
    expect(data.defaultCountries.has('aa_aa')).toBe(true);
  });
});
