// Which of a source string's plural forms an engine translates for each plural form of a translation (Weblate's
// plural mapper): forms are matched by the numbers they cover, so a language with other forms than the source's still
// gets each form from the source's singular or plural, or none where no source form fits.
import { compilePluralFormula, samePluralFormula } from '../languages/plural-formula.js';

/** A language's plural: how many forms and the gettext formula choosing one for a number. */
export interface PluralRule {
  number: number;
  formula: string;
}

/** The numbers 0…999 each form covers, at most `keep` of them a form. */
function examples(rule: PluralRule, formOf: (n: number) => number, keep: number): number[][] {
  const out: number[][] = Array.from({ length: rule.number }, () => []);
  for (let n = 0; n < 1000; n++) {
    const f = formOf(n);
    if (f >= 0 && f < rule.number && out[f]!.length < keep) out[f]!.push(n);
  }
  return out;
}

/**
 * For each form of `target`, the index of the form of `source` whose text an engine translates for it, or null when
 * none fits (a form covering several numbers that is not the last one): such a string is left to people. Same plurals
 * map form to form; a target form covering one number (or just 0 and 1) takes the source form covering that number
 * (the singular for 1), else the last.
 * @example pluralSourceForms({ number: 2, formula: 'n != 1' }, czech) // [0, null, 1]
 */
export function pluralSourceForms(source: PluralRule, target: PluralRule): (number | null)[] {
  const last = source.number - 1;
  if (source.number === target.number && samePluralFormula(source.formula, target.formula)) return Array.from({ length: target.number }, (_, i) => i);
  if (target.number === 1) return [last];
  let sourceForm: (n: number) => number;
  let targetForm: (n: number) => number;
  try {
    sourceForm = compilePluralFormula(source.formula);
    targetForm = compilePluralFormula(target.formula);
  } catch {
    return Array.from({ length: target.number }, () => null);
  }
  const exact = new Map<number, number>();
  for (const [form, ns] of examples(source, sourceForm, 2).entries()) if (ns.length === 1) exact.set(ns[0]!, form);
  return examples(target, targetForm, 3).map((ns, i) => {
    // a form of just 0 and 1 (French's singular) is taken as the form of 1, as the format checks take it; Weblate's
    // mapper leaves it out, and with it every plural string of such a language
    const single = ns.length === 1 || (ns.length === 2 && ns[0] === 0 && ns[1] === 1);
    if (single) {
      const n = ns.at(-1)!;
      const form = exact.get(n) ?? sourceForm(n);
      return form >= 0 && form < source.number ? form : last;
    }
    return i === target.number - 1 ? last : null;
  });
}
