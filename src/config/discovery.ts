// Weblate's component discovery add-on (`weblate.discovery.discovery`): the components a repository's files make, by a rule.
import { createRequire } from 'node:module';
import { renderTemplate } from '../domain/template.js';
import { FORMAT_IDS } from '../formats/format.js';

export const DISCOVERY_ADDON = 'weblate.discovery.discovery';

/** A discovery rule: the add-on's configuration, with Weblate's defaults filled in. */
export interface DiscoveryRule {
  /** A regular expression a repository path must match whole, with `component` and `language` named groups. */
  match: string;
  file_format: string;
  /** The component's name, from the match's groups (`{{ component|title }}`). */
  name_template: string;
  /** The template (monolingual base file) of each component, from the groups; empty for bilingual files. */
  base_file_template: string;
  /** The base of new translations, from the groups. */
  new_base_template: string;
  intermediate_template: string;
  language_regex: string;
  /** Whether components no longer found are removed (Weblate's "remove"; a component holding pending edits stays). */
  remove: boolean;
  /** Whether the components found get the main component's add-ons (Weblate's "copy_addons", on unless set false). */
  copy_addons: boolean;
}

/** A component a rule found: what it differs in from the defaults. */
export interface Discovered {
  name: string;
  slug: string;
  filemask: string;
  file_format: string;
  template: string;
  new_base: string;
  intermediate: string;
  language_regex: string;
}

/** Python's named groups `(?P<name>…)` (as Weblate's rules are written) read as JavaScript's `(?<name>…)`. */
function jsPattern(match: string): string {
  return match.replace(/\(\?P</g, '(?<');
}

/** The rule's configuration read, or the problems with it (each starting with the key at fault). */
export function readRule(configuration: Record<string, unknown>): { rule?: DiscoveryRule; problems: string[] } {
  const problems: string[] = [];
  const text = (key: string, fallback: string): string => {
    const value = configuration[key] ?? fallback;
    if (typeof value !== 'string') problems.push(`${key}: must be a string`);
    return typeof value === 'string' ? value : fallback;
  };
  const known = [
    'match',
    'file_format',
    'name_template',
    'base_file_template',
    'new_base_template',
    'intermediate_template',
    'language_regex',
    'remove',
    'copy_addons',
    'confirm',
  ];
  for (const key of Object.keys(configuration)) if (!known.includes(key)) problems.push(`${key}: is not a known key of ${DISCOVERY_ADDON}`);
  const rule: DiscoveryRule = {
    match: text('match', ''),
    file_format: text('file_format', ''),
    name_template: text('name_template', '{{ component|title }}'),
    base_file_template: text('base_file_template', ''),
    new_base_template: text('new_base_template', ''),
    intermediate_template: text('intermediate_template', ''),
    language_regex: text('language_regex', '^[^.]+$'),
    remove: configuration.remove === undefined ? false : configuration.remove === true,
    copy_addons: configuration.copy_addons !== false,
  };
  for (const key of ['remove', 'copy_addons', 'confirm']) {
    if (configuration[key] !== undefined && typeof configuration[key] !== 'boolean') problems.push(`${key}: must be true or false`);
  }
  if (rule.match === '') problems.push('match: is required');
  else {
    try {
      new RegExp(jsPattern(rule.match));
      const groups = new Set([...jsPattern(rule.match).matchAll(/\(\?<([A-Za-z_]\w*)>/g)].map((m) => m[1]));
      for (const g of ['component', 'language']) if (!groups.has(g)) problems.push(`match: needs a named group "${g}" ((?P<${g}>…))`);
    } catch (e) {
      problems.push(`match: is not a valid regular expression (${(e as Error).message})`);
    }
  }
  if (rule.file_format === '') problems.push('file_format: is required');
  else if (!(FORMAT_IDS as readonly string[]).includes(rule.file_format)) {
    problems.push(`file_format: must be one of ${FORMAT_IDS.map((f) => JSON.stringify(f)).join(', ')}`);
  }
  try {
    new RegExp(rule.language_regex);
  } catch (e) {
    problems.push(`language_regex: is not a valid regular expression (${(e as Error).message})`);
  }
  return problems.length > 0 ? { problems } : { rule, problems };
}

/** Weblate's slugify: lowercase ASCII letters, digits, `-` and `_`; runs of anything else become one `-`. */
export function slugify(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9_\s-]/g, '')
      .trim()
      .replace(/[\s-]+/g, '-') || 'component'
  );
}

/**
 * The components a rule finds among a repository's paths, in mask order: each path matching the rule whole (and
 * whose language group matches `language_regex`) belongs to the component its mask names (the path with the language
 * group's text replaced by `*`); name, template and new base are rendered from the groups of its first path.
 * @example discover(rule, ['po/app/de.po', 'po/app/cs.po', 'po/lib/de.po']).map((c) => c.filemask) // ['po/app/*.po', 'po/lib/*.po']
 */
export function discover(rule: DiscoveryRule, paths: readonly string[]): Discovered[] {
  const re = new RegExp(`^(?:${jsPattern(rule.match)})$`, 'd');
  const languageRe = new RegExp(rule.language_regex);
  const found = new Map<string, Discovered>();
  for (const p of [...paths].sort()) {
    const m = re.exec(p);
    const span = m?.indices?.groups?.language;
    const groups = m?.groups;
    if (!m || !span || !groups || groups.component === undefined || groups.language === undefined) continue;
    if (!languageRe.test(groups.language)) continue;
    const filemask = `${p.slice(0, span[0])}*${p.slice(span[1])}`;
    if (found.has(filemask)) continue;
    const values = Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v ?? '']));
    const name = renderTemplate(rule.name_template, values).trim() || groups.component;
    found.set(filemask, {
      name,
      slug: slugify(name),
      filemask,
      file_format: rule.file_format,
      template: renderTemplate(rule.base_file_template, values),
      new_base: renderTemplate(rule.new_base_template, values),
      intermediate: renderTemplate(rule.intermediate_template, values),
      language_regex: rule.language_regex,
    });
  }
  return [...found.values()].sort((a, b) => (a.filemask < b.filemask ? -1 : a.filemask > b.filemask ? 1 : 0));
}

/** Every file of a working copy (its `.git` left out), as repository paths. */
export function repositoryFiles(dir: string): string[] {
  // synchronous: read once when the configuration is loaded, and after the sync that updated the working copy;
  // fast-glob loaded here, on a discovery rule's first use: every command reads the configuration, few have rules
  const fg = createRequire(import.meta.url)('fast-glob') as typeof import('fast-glob');
  return fg.sync('**', { cwd: dir, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: ['.git/**'] });
}
