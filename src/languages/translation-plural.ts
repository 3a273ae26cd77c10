// The plural a translation uses (Weblate's Translation.plural): its file's own rule (PO's Plural-Forms), the CLDR categories its format names (Android, .stringsdict), else its language's default plural.
import { alternativePlural } from './languages.js';
import { type PluralFunction, compilePluralFormula, parsePluralForms, samePluralFormula } from './plural-formula.js';

/** A plural rule: how many forms, and the C expression over n that picks one. */
export interface PluralRule {
  number: number;
  formula: string;
}

/** A translation's plural: its number of forms, the form each number takes, and the forms' names where the format gives them. */
export interface TranslationPlural {
  number: number;
  /** Its C formula over n, as a PO header writes it (for CLDR forms: the CLDR formula, `zero` for 0 put first where the format adds it). */
  readonly formula: string;
  /** The form a number takes (0-based); a formula that does not compile gives the last form for every number. */
  formOf: PluralFunction;
  /** The forms' CLDR names where the file format names them (Android, .stringsdict), else null. */
  tags: readonly string[] | null;
}

/**
 * Weblate's `get_plural` of the PO formats: the file's `Plural-Forms` value as a plural of its own, or null when the
 * file states none, states one that does not read (Weblate then falls back to the language's), or states the
 * language's own (the same number of forms and the same form for every n: Weblate then uses the language's plural).
 * @example filePluralRule('nplurals=4; plural=(n==1) ? 0 : …;', { number: 3, formula: '…' }) // { number: 4, formula: '(n==1) ? 0 : …' }
 */
export function filePluralRule(value: string | undefined, language: PluralRule): PluralRule | null {
  if (value === undefined) return null;
  let rule: PluralRule;
  try {
    rule = parsePluralForms(value);
  } catch {
    return null;
  }
  if (rule.number < 1) return null;
  if (rule.number === language.number && samePluralFormula(rule.formula, language.formula)) return null;
  return rule;
}

const compiled = new Map<string, PluralFunction>();

function formulaFunction(rule: PluralRule): PluralFunction {
  const key = `${rule.number}\0${rule.formula}`;
  let f = compiled.get(key);
  if (!f) {
    const last = Math.max(0, rule.number - 1);
    try {
      const compiledFormula = compilePluralFormula(rule.formula);
      f = (n) => {
        const form = compiledFormula(n);
        return Number.isInteger(form) && form >= 0 && form < rule.number ? form : last;
      };
    } catch {
      f = () => last;
    }
    compiled.set(key, f);
  }
  return f;
}

const tagFunctions = new Map<string, PluralFunction>();

/**
 * The form of n among CLDR categories (`tags`, in file order) for a file-name code (its base language decides, as
 * Translate Toolkit reads Android and .stringsdict files): the category CLDR selects, `zero` for 0 wherever the file
 * has a `zero` form (Apple's rule), the last form for a category the file lacks.
 */
function tagFunction(code: string, tags: readonly string[]): PluralFunction {
  const key = `${code}\0${tags.join(' ')}`;
  let f = tagFunctions.get(key);
  if (!f) {
    const base = code.replace(/^b\+/, '').replace(/[_+]/g, '-').split('-')[0]!;
    let rules: Intl.PluralRules;
    try {
      rules = new Intl.PluralRules(Intl.PluralRules.supportedLocalesOf([base]).length > 0 ? base : 'en');
    } catch {
      rules = new Intl.PluralRules('en');
    }
    const zero = tags.indexOf('zero');
    f = (n) => {
      if (n === 0 && zero >= 0) return zero;
      const form = tags.indexOf(rules.select(n));
      return form >= 0 ? form : tags.length - 1;
    };
    tagFunctions.set(key, f);
  }
  return f;
}

/**
 * The plural of a translation in a file-name `code`: the format's CLDR categories (`tags`) where it names them,
 * else the file's own rule (from `filePluralRule`), else the language's.
 * @example translationPlural('cs', csPlural, null, ['zero', 'one', 'few', 'other']).number // 4
 */
export function translationPlural(code: string, language: PluralRule, file: PluralRule | null, tags: readonly string[] | null): TranslationPlural {
  if (tags && tags.length > 0) {
    let formula: string | undefined;
    return {
      number: tags.length,
      formOf: tagFunction(code, tags),
      tags,
      // read only where written (the language data's CLDR table is loaded on first use)
      get formula() {
        formula ??= tagFormula(code, tags, language);
        return formula;
      },
    };
  }
  const rule = file ?? language;
  return { number: rule.number, formula: rule.formula, formOf: formulaFunction(rule), tags: null };
}

/**
 * The formula of CLDR forms: the language data's CLDR formula of the base language (its forms are the categories
 * whole numbers take, in CLDR order, as the formats' tags are), behind `n == 0` where the format adds `zero`
 * (.stringsdict); without a CLDR row, English's or a single form's.
 */
function tagFormula(code: string, tags: readonly string[], language: PluralRule): string {
  const base = code.replace(/^b\+/, '').replace(/[_+]/g, '-').split('-')[0]!;
  const cldr = alternativePlural(base, 'cldr');
  if (cldr && cldr.number === tags.length) return cldr.formula;
  const zeroFirst = tags[0] === 'zero';
  const rest = zeroFirst ? tags.length - 1 : tags.length;
  const inner = cldr && cldr.number === rest ? cldr.formula : rest === 1 ? '0' : rest === 2 ? 'n != 1' : language.formula;
  return zeroFirst ? `(n == 0) ? 0 : ((${inner}) + 1)` : inner;
}
