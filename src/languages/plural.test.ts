import { describe, expect, it } from 'vitest';
import { loadLanguages } from './languages.js';
import { compilePluralFormula, isValidPluralFormula, parsePluralForms, samePluralFormula } from './plural-formula.js';
import { PLURAL_TYPE_CATEGORIES, PluralType, knownFormulas, normalizeFormula, pluralType } from './plural-type.js';

const forms = (formula: string, counts: number[]) => counts.map(compilePluralFormula(formula));

describe('compilePluralFormula', () => {
  it('evaluates the common gettext formulas', () => {
    expect(forms('n != 1', [0, 1, 2, 5])).toEqual([1, 0, 1, 1]);
    expect(forms('n > 1', [0, 1, 2])).toEqual([0, 0, 1]);
    expect(forms('(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2', [1, 2, 4, 5, 0, 22])).toEqual([0, 1, 1, 2, 2, 2]);
    const russian = 'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2';
    expect(forms(russian, [1, 21, 11, 2, 24, 12, 5, 0, 111, 101])).toEqual([0, 0, 2, 1, 1, 2, 2, 2, 2, 0]);
    const arabic = 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5';
    expect(forms(arabic, [0, 1, 2, 3, 10, 11, 99, 100, 102, 103])).toEqual([0, 1, 2, 3, 3, 4, 4, 5, 5, 3]);
  });

  it('follows C precedence and right-associative ternaries', () => {
    expect(forms('2 + 3 * n', [2])).toEqual([8]);
    expect(forms('n - 1 - 1', [5])).toEqual([3]);
    expect(forms('n == 1 || n == 2 && 0', [1, 2])).toEqual([1, 0]);
    expect(forms('n==1 ? 0 : n==2 ? 1 : 2', [1, 2, 3])).toEqual([0, 1, 2]);
    expect(forms('!n', [0, 3])).toEqual([1, 0]);
    expect(forms('!(n > 1) ? 7 : 9', [1, 2])).toEqual([7, 9]);
    expect(forms('1 < 2 < 1', [0])).toEqual([0]);
  });

  it('uses Python integer semantics as Weblate does (floor modulo and division, or/and yield an operand)', () => {
    expect(forms('n % 10', [-3, 13])).toEqual([7, 3]);
    expect(forms('n / 4', [-1, 9])).toEqual([-1, 2]);
    expect(forms('n || 5', [0, 3])).toEqual([5, 3]);
    expect(forms('n && 5', [0, 3])).toEqual([0, 5]);
  });

  it('rejects what is not a plural expression, without evaluating code', () => {
    for (const bad of ['', 'n +', '(n', 'n)', 'n ? 1', 'x', 'constructor', 'n; 1', 'process.exit()', '-n', 'n 1']) {
      expect(() => compilePluralFormula(bad), bad).toThrowError(expect.objectContaining({ code: 'PluralFormulaError' }));
      expect(isValidPluralFormula(bad)).toBe(false);
    }
    expect(() => compilePluralFormula(`${'('.repeat(100)}n${')'.repeat(100)}`)).toThrowError(expect.objectContaining({ code: 'PluralFormulaError' }));
    const byZero = compilePluralFormula('n % (n - 1)');
    expect(byZero(3)).toBe(1);
    expect(() => byZero(1)).toThrowError(expect.objectContaining({ code: 'PluralFormulaError' }));
  });

  it('points at the offending token', () => {
    try {
      compilePluralFormula('n != 1 ? 0 :: 1');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'PluralFormulaError', data: { position: 12 } });
    }
  });
});

describe('samePluralFormula and parsePluralForms', () => {
  it('compares formulas over n in [-10, 200)', () => {
    expect(samePluralFormula('n != 1', '(n==1) ? 0 : 1')).toBe(true);
    expect(samePluralFormula('n != 1', 'n > 1')).toBe(false);
    // Differs only at n = 200, outside the compared range.
    expect(samePluralFormula('n != 1', 'n != 1 && n != 200')).toBe(true);
    expect(samePluralFormula('n != 1', 'n +')).toBe(false);
    expect(samePluralFormula('n % n', 'n % n')).toBe(false);
  });

  it('reads a Plural-Forms header', () => {
    expect(parsePluralForms('nplurals=2; plural=(n != 1);')).toEqual({ number: 2, formula: '(n != 1)' });
    expect(parsePluralForms(' nplurals = 1 ; plural = ;')).toEqual({ number: 1, formula: '0' });
    expect(() => parsePluralForms('plural=n')).toThrowError(expect.objectContaining({ code: 'PluralFormulaError' }));
  });
});

describe('normalizeFormula', () => {
  it('drops the trailing semicolon, whitespace and parentheses around the whole expression', () => {
    expect(normalizeFormula(' (n != 1);')).toBe('n!=1');
    expect(normalizeFormula('((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2)')).toBe('(n==1)?0:(n>=2&&n<=4)?1:2');
    // The first and last parentheses belong to different groups: nothing to strip.
    expect(normalizeFormula('(n==1) ? 0 : (n==2)')).toBe('(n==1)?0:(n==2)');
  });
});

describe('pluralType', () => {
  // weblate-api-notes §12.1: default plurals of common languages, newer type numbers.
  const table: [string[], number, string | null, number][] = [
    [['en', 'de', 'es', 'it', 'nl', 'sv', 'da', 'nb_NO', 'fi', 'el', 'hu', 'tr', 'bg', 'ca', 'et', 'eu'], 2, 'n != 1', 1],
    [['fr', 'pt', 'pt_BR', 'hi', 'fa', 'hy'], 2, 'n > 1', 1],
    [['ja', 'ko', 'zh_Hans', 'zh_Hant', 'vi', 'id', 'th', 'ms'], 1, '0', 0],
    [['cs', 'sk'], 3, '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2', 22],
    [['ru', 'uk', 'be', 'hr', 'sr', 'bs'], 3, 'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2', 22],
    [['pl'], 3, 'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2', 22],
    [['ro'], 3, 'n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2', 2],
    [['lt'], 3, '(n % 10 == 1 && (n % 100 < 11 || n % 100 > 19)) ? 0 : ((n % 10 >= 2 && n % 10 <= 9 && (n % 100 < 11 || n % 100 > 19)) ? 1 : 2)', 22],
    [['lv'], 3, '(n % 10 == 0 || n % 100 >= 11 && n % 100 <= 19) ? 0 : ((n % 10 == 1 && n % 100 != 11) ? 1 : 2)', 11],
    [['sl'], 4, 'n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3', 6],
    [['he'], 4, '(n == 1) ? 0 : ((n == 2) ? 1 : ((n > 10 && n % 10 == 0) ? 2 : 3))', 6],
    [['ga'], 5, 'n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 :(n>6 && n<11) ? 3 : 4', 10],
    [['cy'], 6, '(n==0) ? 0 : (n==1) ? 1 : (n==2) ? 2 : (n==3) ? 3 :(n==6) ? 4 : 5', 12],
    [['ar'], 6, 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5', 12],
    [['is'], 2, 'n % 10 != 1 || n % 100 == 11', 1],
    [['mk'], 2, 'n==1 || n%10==1 ? 0 : 1', 1],
  ];

  it.each(table)('%j: %i forms, formula %s, type %i', (codes, number, formula, type) => {
    const languages = loadLanguages();
    for (const code of codes) {
      const language = languages.get(code);
      expect(language, code).toBeDefined();
      expect(language?.plural, code).toEqual({ source: 0, number, formula, type });
      expect(pluralType(code, formula!), code).toBe(type);
    }
  });

  it('treats 0 as no plural, and ignores spacing, a trailing ; and outer parentheses', () => {
    expect(pluralType('ja', '0')).toBe(PluralType.NONE);
    expect(pluralType('ja', '0;')).toBe(PluralType.NONE);
    expect(pluralType('de', '(n != 1);')).toBe(PluralType.ONE_OTHER);
    expect(pluralType('cs', '( ( n == 1 ) ? 0 : ( n >= 2 && n <= 4 ) ? 1 : 2 )')).toBe(PluralType.ONE_FEW_MANY);
    expect(pluralType('ar', '(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : (n%100>=3 && n%100<=10) ? 3 : n%100>=11 ? 4 : 5)')).toBe(PluralType.ZERO_ONE_TWO_FEW_MANY_OTHER);
  });

  it('falls back to Arabic for an unlisted formula of base language ar, before evaluating', () => {
    const variant = 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : (n%100>=11) ? 4 : 5';
    expect(pluralType('ar', variant)).toBe(PluralType.ARABIC);
    expect(pluralType('ar', 'n % 7')).toBe(PluralType.ARABIC);
    // The same formula for another language is classified by evaluation.
    expect(pluralType('xx', variant)).toBe(PluralType.ZERO_ONE_TWO_FEW_MANY_OTHER);
  });

  it('classifies unlisted spellings by evaluating them against the known formulas', () => {
    expect(pluralType('xx', 'n == 1 ? 0 : 1')).toBe(PluralType.ONE_OTHER);
    expect(pluralType('xx', 'n <= 1 ? 0 : 1')).toBe(PluralType.ONE_OTHER);
    expect(pluralType('cs', 'n==1 ? 0 : n>=2 && n<=4 ? 1 : 2')).toBe(PluralType.ONE_FEW_MANY);
    expect(pluralType('sl', 'n%100==1 ? 0 : n%100==2 ? 1 : (n%100==3 || n%100==4) ? 2 : 3')).toBe(PluralType.ONE_TWO_FEW_OTHER);
    expect(pluralType('xx', 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n<=10 ? 3 : 4')).toBe(PluralType.UNKNOWN);
    expect(pluralType('xx', 'not a formula')).toBe(PluralType.UNKNOWN);
  });

  it('classifies the languages whose formulas need evaluation, and leaves truly unknown ones at 666', () => {
    // Samogitian's formula is in no known list and matches none of them.
    expect(loadLanguages().get('sgs')?.plural.type).toBe(PluralType.UNKNOWN);
    const unknown = [...loadLanguages().values()].filter((language) => language.plural.type === PluralType.UNKNOWN);
    expect(unknown.map((language) => language.code)).toEqual(['sgs']);
  });

  it('has a consistent table of known formulas', () => {
    const seen = new Map<string, number>();
    for (const type of Object.values(PluralType)) {
      for (const formula of knownFormulas(type)) {
        const key = normalizeFormula(formula);
        expect(seen.get(key), `${formula} listed twice`).toBeUndefined();
        seen.set(key, type);
        expect(pluralType('xx', formula)).toBe(type);
        // A formula never yields more forms than its type names (CLDR-derived ones keep `other` for fractions).
        const f = compilePluralFormula(formula);
        const counts = Array.from({ length: 2000 }, (_, i) => [i, i * 1000]).flat();
        const used = new Set(counts.map((n) => f(n)));
        expect(Math.min(...used), formula).toBe(0);
        expect(Math.max(...used) + 1, formula).toBeLessThanOrEqual(PLURAL_TYPE_CATEGORIES[type].length);
        expect(used.size, formula).toBeGreaterThanOrEqual(PLURAL_TYPE_CATEGORIES[type].length - 1);
      }
    }
    expect(seen.size).toBeGreaterThan(70);
  });
});
