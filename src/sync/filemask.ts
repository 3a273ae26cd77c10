// File masks: which repository files are translations, and the language code each file name carries.

/** The regexes of the masks seen (a mask per configured component; a push to a shared repository tests them all). */
const masks = new Map<string, RegExp>();

/** Weblate's mask regex: `*` captures one path segment, everything else is literal, anchored both ends (no flags: shared). */
export function maskRegex(mask: string): RegExp {
  let found = masks.get(mask);
  if (!found) {
    let re = '^';
    for (const ch of mask) {
      if (ch === '*') re += '([^/]*)';
      else re += ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    }
    found = new RegExp(`${re}$`);
    if (masks.size >= 10_000) masks.clear();
    masks.set(mask, found);
  }
  return found;
}

/**
 * The language code in a path: the longest `*` capture, cut at a `.UTF-8`/`.ISO…` suffix;
 * the template is the source language; '' when the path does not match the mask.
 * @example languageCodeOf('po/de.UTF-8.po', 'po/*.po') === 'de'
 */
export function languageCodeOf(path: string, mask: string | RegExp, template = '', sourceLanguage = ''): string {
  if (template !== '' && path === template) return sourceLanguage;
  const match = (typeof mask === 'string' ? maskRegex(mask) : mask).exec(path);
  if (!match) return '';
  let code = '';
  for (const group of match.slice(1)) if (group.length > code.length) code = group;
  if (code.includes('.')) {
    const lower = code.toLowerCase();
    if (lower.includes('.utf') || lower.includes('.iso')) code = code.slice(0, code.indexOf('.'));
  }
  return code;
}

export interface MaskMatch {
  path: string;
  /** The code as written in the file name. */
  code: string;
}

export interface MaskSelection {
  /** Translation files, the template first when there is one, then sorted by path. */
  files: MaskMatch[];
  /** Matched paths left out, with the reason. */
  skipped: { path: string; reason: string }[];
}

/**
 * Picks the translation files among paths matched by the mask, as Weblate does: the code must
 * match `language_regex` and not be `source`; the template comes first, the intermediate is left out.
 */
export function selectMaskMatches(
  paths: readonly string[],
  opts: { filemask: string; languageRegex: string; template?: string; intermediate?: string; sourceLanguage: string },
): MaskSelection {
  const regex = maskRegex(opts.filemask);
  const accept = new RegExp(opts.languageRegex);
  const files: MaskMatch[] = [];
  const skipped: MaskSelection['skipped'] = [];
  for (const path of [...paths].sort()) {
    if (opts.template && path === opts.template) continue;
    if (opts.intermediate && path === opts.intermediate) continue;
    const code = languageCodeOf(path, regex);
    if (code === '') {
      skipped.push({ path, reason: 'does not match the file mask' });
    } else if (code === 'source' || !accept.test(code)) {
      skipped.push({ path, reason: `language code "${code}" skipped by language_regex` });
    } else {
      files.push({ path, code });
    }
  }
  if (opts.template) files.unshift({ path: opts.template, code: opts.sourceLanguage });
  return { files, skipped };
}
