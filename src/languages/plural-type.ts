// Weblate's plural types (newer numbering) and how a formula is classified into one.
import { type PluralFunction, compilePluralFormula, samePluralFormula } from './plural-formula.js';

/** Plural type numbers as Weblate's `lang/data.py` defines them (newer numbering: 15–23 exist). */
export const PluralType = {
  NONE: 0,
  ONE_OTHER: 1,
  ONE_FEW_OTHER: 2,
  ARABIC: 3,
  ONE_TWO_OTHER: 4,
  ONE_TWO_THREE_OTHER: 5,
  ONE_TWO_FEW_OTHER: 6,
  ONE_OTHER_ZERO: 7,
  ONE_FEW_MANY_OTHER: 8,
  TWO_OTHER: 9,
  ONE_TWO_FEW_MANY_OTHER: 10,
  ZERO_ONE_OTHER: 11,
  ZERO_ONE_TWO_FEW_MANY_OTHER: 12,
  OTHER_ONE_TWO_FEW: 13,
  ONE_OTHER_TWO: 14,
  ZERO_OTHER: 15,
  ZERO_ONE_FEW_OTHER: 16,
  ZERO_ONE_TWO_FEW_OTHER: 17,
  ZERO_ONE_TWO_OTHER: 18,
  ZERO_ONE_FEW_MANY_OTHER: 19,
  ONE_MANY_OTHER: 20,
  ZERO_ONE_MANY_OTHER: 21,
  ONE_FEW_MANY: 22,
  ONE_ZERO_FEW_OTHER: 23,
  UNKNOWN: 666,
} as const;
export type PluralType = (typeof PluralType)[keyof typeof PluralType];

/** The plural categories of each type, in form order (an empty list for NONE and UNKNOWN). */
export const PLURAL_TYPE_CATEGORIES: Readonly<Record<PluralType, readonly string[]>> = {
  0: [],
  1: ['one', 'other'],
  2: ['one', 'few', 'other'],
  3: ['zero', 'one', 'two', 'few', 'many', 'other'],
  4: ['one', 'two', 'other'],
  5: ['one', 'two', 'three', 'other'],
  6: ['one', 'two', 'few', 'other'],
  7: ['one', 'other', 'zero'],
  8: ['one', 'few', 'many', 'other'],
  9: ['two', 'other'],
  10: ['one', 'two', 'few', 'many', 'other'],
  11: ['zero', 'one', 'other'],
  12: ['zero', 'one', 'two', 'few', 'many', 'other'],
  13: ['other', 'one', 'two', 'few'],
  14: ['one', 'other', 'two'],
  15: ['zero', 'other'],
  16: ['zero', 'one', 'few', 'other'],
  17: ['zero', 'one', 'two', 'few', 'other'],
  18: ['zero', 'one', 'two', 'other'],
  19: ['zero', 'one', 'few', 'many', 'other'],
  20: ['one', 'many', 'other'],
  21: ['zero', 'one', 'many', 'other'],
  22: ['one', 'few', 'many'],
  23: ['one', 'zero', 'few', 'other'],
  666: [],
};

// Known gettext formulas per type, in the order Weblate consults them (the first type that lists a
// formula wins, and the evaluation fallback tries the types in this order too). Spelling variants
// that differ only in spaces or in one pair of outer parentheses need not be listed: `normalizeFormula`
// folds them.
const KNOWN_FORMULAS: readonly (readonly [PluralType, readonly string[]])[] = [
  [
    PluralType.ONE_OTHER,
    [
      'n==1 || n%10==1 ? 0 : 1',
      'n != 1',
      'n > 1',
      'n >= 2 && (n < 11 || n > 99)',
      'n % 10 != 1 || n % 100 == 11',
      '(n % 10 == 1 && n % 100 != 11) ? 0 : 1',
      'n != 1 && n != 2 && n != 3 && (n % 10 == 4 || n % 10 == 6 || n % 10 == 9)',
      'n==0 || n==1',
      'n%10==1 && n%100!=11 ? 0 : 1',
    ],
  ],
  [
    PluralType.ONE_FEW_OTHER,
    [
      'n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2',
      '(n == 1) ? 0 : ((n == 0 || n != 1 && n % 100 >= 1 && n % 100 <= 19) ? 1 : 2)',
      '(n == 0 || n == 1) ? 0 : ((n >= 2 && n <= 10) ? 1 : 2)',
      '(n == 1) ? 0 : ((n == 0 || n % 100 >= 2 && n % 100 <= 19) ? 1 : 2)',
    ],
  ],
  [
    PluralType.ZERO_ONE_FEW_OTHER,
    [
      'n == 0 ? 0 : n == 1 ? 1 : ((n >= 2 && n <= 10) ? 2 : 3)',
      'n==0 ? 0 : n==1 ? 1 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 2 : 3',
      'n==0 ? 0 : (n == 1) ? 1 : ((n == 0 || n % 100 >= 2 && n % 100 <= 19) ? 2 : 3)',
      'n==0 ? 0 : n==1 ? 1 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 2 : 3',
      'n==0 ? 0 : (n==1) ? 1 : (n>=2 && n<=4) ? 2 : 3',
      'n==0 ? 0 : n%10==1 && n%100!=11 ? 1 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 2 : 3',
      'n==0 ? 0 : (n % 10 == 1 && (n % 100 < 11 || n % 100 > 19)) ? 1 : ((n % 10 >= 2 && n % 10 <= 9 && (n % 100 < 11 || n % 100 > 19)) ? 2 : 3)',
    ],
  ],
  [PluralType.ONE_ZERO_FEW_OTHER, ['n==1 ? 0 : (n==0 || (n%100>=1 && n%100<=10)) ? 1 : (n%100>=11 && n%100<=19) ? 2 : 3']],
  [PluralType.ONE_TWO_OTHER, ['n==1 ? 0 : n==2 ? 1 : 2', '(n == 1) ? 0 : ((n == 2) ? 1 : 2)', 'n%100==1 ? 0 : n%100==2 ? 1 : 2']],
  [PluralType.ZERO_ONE_TWO_OTHER, ['n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : 3', 'n==0 ? 0 : (n == 1) ? 1 : ((n == 2) ? 2 : 3)']],
  [PluralType.ONE_OTHER_TWO, ['n==1 ? 0 : n==2 ? 2 : 1']],
  [
    PluralType.ZERO_ONE_OTHER,
    [
      'n==0 ? 0 : n==1 ? 1 : 2',
      '(n == 0) ? 0 : ((n == 1) ? 1 : 2)',
      '(n % 10 == 0 || n % 100 >= 11 && n % 100 <= 19) ? 0 : ((n % 10 == 1 && n % 100 != 11) ? 1 : 2)',
      'n==0 ? 0 : n>1 ? 1 : 2',
      'n==0 ? 0 : n!=1 ? 1 : 2',
      'n == 0 ? 0 : n==1 || n%10==1 ? 1 : 2',
      'n==0 ? 0 : n != 1 && n != 2 && n != 3 && (n % 10 == 4 || n % 10 == 6 || n % 10 == 9) ? 1: 2',
      'n==0 ? 0 : n % 10 != 1 || n % 100 == 11 ? 1 :2',
      'n==0 ? 0 : n >= 2 && (n < 11 || n > 99) ? 1 : 2',
      'n==0 ? 0 : n%10==1 && n%100!=11 ? 1 : 2',
      'n==1 ? 0 : (n%10==4 || n%10==6 || n%10== 9) ? 1 : 2',
    ],
  ],
  [
    PluralType.ONE_TWO_FEW_OTHER,
    [
      '(n==1 || n==11) ? 0 : (n==2 || n==12) ? 1 : (n > 2 && n < 20) ? 2 : 3',
      'n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3',
      '(n % 10 == 1) ? 0 : ((n % 10 == 2) ? 1 : ((n % 100 == 0 || n % 100 == 20 || n % 100 == 40 || n % 100 == 60 || n % 100 == 80) ? 2 : 3))',
      '(n % 100 == 1) ? 0 : ((n % 100 == 2) ? 1 : ((n % 100 == 3 || n % 100 == 4) ? 2 : 3))',
      '(n == 1) ? 0 : ((n == 2) ? 1 : ((n > 10 && n % 10 == 0) ? 2 : 3))',
      '(n == 1) ? 0 : ((n == 2) ? 1 : ((n == 10) ? 2 : 3))',
      '(n==1) ? 0 : (n==2) ? 1 : (n != 8 && n != 11) ? 2 : 3',
    ],
  ],
  [
    PluralType.ZERO_ONE_TWO_FEW_OTHER,
    [
      'n==0 ? 0 : (n==1 || n==11) ? 1 : (n==2 || n==12) ? 2 : (n > 2 && n < 20) ? 3 : 4',
      'n==0 ? 0 : (n == 1) ? 1 : ((n == 2) ? 2 : ((n > 10 && n % 10 == 0) ? 3 : 4))',
      'n==0 ? 0 : (n % 100 == 1) ? 1 : ((n % 100 == 2) ? 2 : ((n % 100 == 3 || n % 100 == 4) ? 3 : 4))',
      'n==0 ? 0 : n%100==1 ? 1 : n%100==2 ? 2 : n%100==3 || n%100==4 ? 3 : 4',
      'n==0 ? 0 : (n % 10 == 1) ? 1 : ((n % 10 == 2) ? 2 : ((n % 100 == 0 || n % 100 == 20 || n % 100 == 40 || n % 100 == 60 || n % 100 == 80) ? 3 : 4))',
    ],
  ],
  [PluralType.OTHER_ONE_TWO_FEW, ['n%100==1 ? 1 : n%100==2 ? 2 : n%100==3 || n%100==4 ? 3 : 0']],
  [PluralType.ONE_TWO_THREE_OTHER, ['(n==1) ? 0 : (n==2) ? 1 : (n == 3) ? 2 : 3']],
  [PluralType.ONE_OTHER_ZERO, ['n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2']],
  [
    PluralType.ONE_FEW_MANY_OTHER,
    [
      'n==1 ? 0 : n==0 || ( n%100>1 && n%100<11) ? 1 : (n%100>10 && n%100<20 ) ? 2 : 3',
      'n==1 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : n%10==0 || (n%100>10 && n%100<20) ? 2 : 3',
      'n==1 ? 3 : n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2',
      'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : n%10==0 || (n%10>=5 && n%10<=9) || (n%100>=11 && n%100<=14)? 2 : 3',
      'n==1 ? 0 : (n%10>=2 && n%10<=4) && (n%100<12 || n%100>14) ? 1 : n!=1 && (n%10>=0 && n%10<=1) || (n%10>=5 && n%10<=9) || (n%100>=12 && n%100<=14) ? 2 : 3',
      'n % 1 == 0 && n % 10 == 1 && n % 100 != 11 ? 0 : n % 1 == 0 && n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : n % 1 == 0 && (n % 10 ==0 || (n % 10 >=5 && n % 10 <=9) || (n % 100 >=11 && n % 100 <=14 )) ? 2: 3',
    ],
  ],
  [
    PluralType.ZERO_ONE_FEW_MANY_OTHER,
    ['n==0 ? 0 : n==1 ? 1 : ( n%100>1 && n%100<11) ? 2 : (n%100>10 && n%100<20 ) ? 3 : 4', 'n==0 ? 0 : n==1 ? 1 : (n>=2 && n<=5) ? 2 : n==6 ? 3 : 4'],
  ],
  [PluralType.TWO_OTHER, ['(n==2) ? 1 : 0']],
  [
    PluralType.ONE_TWO_FEW_MANY_OTHER,
    [
      'n==1 ? 0 : n==2 ? 1 : n<7 ? 2 : n<11 ? 3 : 4',
      'n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 :(n>6 && n<11) ? 3 : 4',
      '(n % 10 == 1 && n % 100 != 11 && n % 100 != 71 && n % 100 != 91) ? 0 : ((n % 10 == 2 && n % 100 != 12 && n % 100 != 72 && n % 100 != 92) ? 1 : ((((n % 10 == 3 || n % 10 == 4) || n % 10 == 9) && (n % 100 < 10 || n % 100 > 19) && (n % 100 < 70 || n % 100 > 79) && (n % 100 < 90 || n % 100 > 99)) ? 2 : ((n != 0 && n % 1000000 == 0) ? 3 : 4)))',
      '(n == 1) ? 0 : ((n == 2) ? 1 : ((n == 0 || n % 100 >= 3 && n % 100 <= 10) ? 2 : ((n % 100 >= 11 && n % 100 <= 19) ? 3 : 4)))',
    ],
  ],
  [
    PluralType.ZERO_ONE_TWO_FEW_MANY_OTHER,
    [
      '(n==0) ? 0 : (n==1) ? 1 : (n==2) ? 2 : (n==3) ? 3 :(n==6) ? 4 : 5',
      '(n == 0) ? 0 : ((n == 1) ? 1 : ((n == 2) ? 2 : ((n % 100 >= 3 && n % 100 <= 10) ? 3 : ((n % 100 >= 11 && n % 100 <= 99) ? 4 : 5))))',
      '(n == 0) ? 0 : ((n == 1) ? 1 : (((n % 100 == 2 || n % 100 == 22 || n % 100 == 42 || n % 100 == 62 || n % 100 == 82) || n % 1000 == 0 && (n % 100000 >= 1000 && n % 100000 <= 20000 || n % 100000 == 40000 || n % 100000 == 60000 || n % 100000 == 80000) || n != 0 && n % 1000000 == 100000) ? 2 : ((n % 100 == 3 || n % 100 == 23 || n % 100 == 43 || n % 100 == 63 || n % 100 == 83) ? 3 : ((n != 1 && (n % 100 == 1 || n % 100 == 21 || n % 100 == 41 || n % 100 == 61 || n % 100 == 81)) ? 4 : 5))))',
      'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : (n>2 && n<7) ? 3 :(n>6 && n<11) ? 4 : 5',
      'n==0 ? 0 : (n % 10 == 1 && n % 100 != 11 && n % 100 != 71 && n % 100 != 91) ? 1 : ((n % 10 == 2 && n % 100 != 12 && n % 100 != 72 && n % 100 != 92) ? 2 : ((((n % 10 == 3 || n % 10 == 4) || n % 10 == 9) && (n % 100 < 10 || n % 100 > 19) && (n % 100 < 70 || n % 100 > 79) && (n % 100 < 90 || n % 100 > 99)) ? 3 : ((n != 0 && n % 1000000 == 0) ? 4 : 5)))',
      '(n == 0) ? 0 : (n == 1) ? 1 : ((n == 2) ? 2 : ((n == 0 || n % 100 >= 3 && n % 100 <= 10) ? 3 : ((n % 100 >= 11 && n % 100 <= 19) ? 4 : 5)))',
      'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : (n%100>=3 && n%100<=10) ? 3 : n%100>=11 ? 4 : 5',
      'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5',
    ],
  ],
  [PluralType.ZERO_OTHER, ['n==0 ? 0 : 1']],
  [PluralType.ONE_MANY_OTHER, ['(n == 1) ? 0 : ((n != 0 && n % 1000000 == 0) ? 1 : 2)', '(n == 0 || n == 1) ? 0 : ((n != 0 && n % 1000000 == 0) ? 1 : 2)']],
  [PluralType.ZERO_ONE_MANY_OTHER, ['(n == 0) ? 0 : (n == 1) ? 1 : ((n != 0 && n % 1000000 == 0) ? 2 : 3)']],
  [
    PluralType.ONE_FEW_MANY,
    [
      'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2',
      '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2',
      'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2',
      'n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2',
      '(n % 10 == 1 && (n % 100 < 11 || n % 100 > 19)) ? 0 : ((n % 10 >= 2 && n % 10 <= 9 && (n % 100 < 11 || n % 100 > 19)) ? 1 : 2)',
    ],
  ],
];

/** Whether the opening `(` of `formula` is closed by its very last `)`. */
function wrapsWhole(formula: string): boolean {
  if (!formula.startsWith('(') || !formula.endsWith(')')) return false;
  let depth = 0;
  for (let i = 0; i < formula.length; i++) {
    if (formula[i] === '(') depth++;
    else if (formula[i] === ')' && --depth === 0) return i === formula.length - 1;
  }
  return false;
}

/**
 * The lookup form of a formula: trailing `;` removed, all whitespace removed, and parentheses that
 * wrap the whole expression removed (Weblate lists both `(n != 1)` and `n != 1`; folding them here
 * makes every spelling of a listed formula match).
 */
export function normalizeFormula(formula: string): string {
  let result = formula.trim();
  if (result.endsWith(';')) result = result.slice(0, -1);
  result = result.replace(/\s+/g, '');
  while (wrapsWhole(result)) result = result.slice(1, -1);
  return result;
}

let lookup: Map<string, PluralType> | undefined;
let compiled: (readonly [PluralType, PluralFunction])[] | undefined;

function formulaLookup(): Map<string, PluralType> {
  if (!lookup) {
    lookup = new Map();
    for (const [type, formulas] of KNOWN_FORMULAS) {
      for (const formula of formulas) {
        const key = normalizeFormula(formula);
        if (!lookup.has(key)) lookup.set(key, type);
      }
    }
  }
  return lookup;
}

function compiledFormulas(): (readonly [PluralType, PluralFunction])[] {
  compiled ??= KNOWN_FORMULAS.flatMap(([type, formulas]) => formulas.map((formula) => [type, compilePluralFormula(formula)] as const));
  return compiled;
}

/** The known formulas of a type, as listed (for tests and documentation). */
export function knownFormulas(type: PluralType): readonly string[] {
  return KNOWN_FORMULAS.find(([known]) => known === type)?.[1] ?? [];
}

/**
 * Classify a plural formula as Weblate does when it saves a Plural: `0` is NONE; a known formula
 * (after `normalizeFormula`) gives its type; any other formula of base language `ar` is ARABIC;
 * otherwise the formula is evaluated for n in [-10, 200) against every known formula and the first
 * one that agrees gives the type; failing all that, UNKNOWN (666).
 *
 * @example pluralType('cs', '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2') // 22 (PluralType.ONE_FEW_MANY)
 */
export function pluralType(baseCode: string, formula: string): PluralType {
  const normalized = normalizeFormula(formula);
  if (normalized === '0') return PluralType.NONE;
  const known = formulaLookup().get(normalized);
  if (known !== undefined) return known;
  if (baseCode === 'ar') return PluralType.ARABIC;
  let ours: PluralFunction;
  try {
    ours = compilePluralFormula(formula.trim().replace(/;$/, ''));
  } catch {
    return PluralType.UNKNOWN;
  }
  for (const [type, theirs] of compiledFormulas()) {
    if (samePluralFormula(ours, theirs)) return type;
  }
  return PluralType.UNKNOWN;
}
