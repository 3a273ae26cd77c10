// How the checks of one translation run (its context from the stored settings and plural) and a unit's failing checks. Pure.

import { formatPluralTags } from '../formats/plural-tags.js';
import { translationPlural } from '../languages/translation-plural.js';
import type { CheckingRow } from '../store/index.js';
import { strictFormatPlurals } from './registry.js';
import { type CheckContext, type CheckedUnit, oneNumberForms, sourceChecks, translationChecks } from './run.js';

/** How the checks of one translation run: its context, whether it holds source strings, enforced checks. */
export interface TranslationChecking {
  ctx: CheckContext;
  isSource: boolean;
  enforced: ReadonlySet<string>;
}

const formsCache = new Map<string, boolean[]>();

/** Which of a translation's plural forms cover a single number: its format's CLDR forms, else its (file's or language's) formula. */
export function formsOf(format: string, code: string, count: number, formula: string): boolean[] {
  const tags = formatPluralTags(format, code);
  const strict = strictFormatPlurals(format);
  const key = `${strict};${tags ? `${code};${tags.join(' ')}` : `${count};${formula}`}`;
  let forms = formsCache.get(key);
  if (!forms) {
    const plural = translationPlural(code, { number: count, formula }, null, tags);
    forms = oneNumberForms(plural.number, plural.formOf, strict);
    formsCache.set(key, forms);
  }
  return forms;
}

/**
 * The checking context of a translation from what the store keeps of it.
 * @example translationCheckingOf({ is_source: 0, language: 'de', language_code: 'de', plural_number: 2, … }).ctx.language // 'de'
 */
export function translationCheckingOf(r: CheckingRow): TranslationChecking {
  let enforced: string[] = [];
  try {
    enforced = JSON.parse(r.enforced) as string[];
  } catch {}
  return {
    isSource: r.is_source === 1,
    enforced: new Set(enforced),
    ctx: {
      format: r.format,
      sourceLanguage: r.source_language,
      language: r.language,
      oneNumberForms: formsOf(r.format, r.language_code, Number(r.plural_number), r.plural_formula),
      flags: r.project_flags && r.component_flags ? `${r.project_flags},${r.component_flags}` : r.project_flags || r.component_flags,
    },
  };
}

/** The failing translation (or source) checks of a unit as stored values describe it (no cross-language facts). */
export function computeChecks(checking: TranslationChecking, unit: CheckedUnit): string[] {
  return checking.isSource ? sourceChecks(checking.ctx, unit, { relatedChecks: 0, longUntranslated: false }) : translationChecks(checking.ctx, unit);
}
