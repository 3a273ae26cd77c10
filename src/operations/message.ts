// Commit and merge messages: Weblate's `{{ variable }}` templates filled from the project, component and statistics.
import type { ComponentHandle } from '../component/handle.js';
import type { ComponentConfig, Config, ProjectConfig } from '../config/config.js';
import { percent } from '../domain/percent.js';
import { getStats } from '../store/stats.repo.js';

export { type TemplateValues, renderTemplate } from '../domain/template.js';
import type { TemplateValues } from '../domain/template.js';

export interface MessageTranslation {
  id: number;
  language_code: string;
  language_name: string;
}

function siteUrl(config: Config): string {
  return config.site_url.replace(/\/+$/, '');
}

/**
 * The values of a commit message for the translations one commit covers: the language and `url` of the
 * translation (languages joined by ", " and the component's URL when it covers several), and `stats.*`
 * summed over them.
 */
export async function commitValues(h: ComponentHandle, translations: readonly MessageTranslation[]): Promise<TemplateValues> {
  const { config, project, component } = h;
  const sum = {
    all: 0,
    translated: 0,
    fuzzy: 0,
    approved: 0,
    readonly: 0,
    all_words: 0,
    translated_words: 0,
    fuzzy_words: 0,
    approved_words: 0,
    all_chars: 0,
    translated_chars: 0,
  };
  for (const t of translations) {
    const s = await h.store.read((tx) => getStats(tx, t.id));
    if (!s) continue;
    sum.all += s.total;
    sum.translated += s.translated;
    sum.fuzzy += s.fuzzy;
    sum.approved += s.approved;
    sum.readonly += s.readonly;
    sum.all_words += s.total_words;
    sum.translated_words += s.translated_words;
    sum.fuzzy_words += s.fuzzy_words;
    sum.approved_words += s.approved_words;
    sum.all_chars += s.total_chars;
    sum.translated_chars += s.translated_chars;
  }
  const componentUrl = `${siteUrl(config)}/projects/${project.slug}/${component.slug}/`;
  const one = translations.length === 1 ? translations[0] : null;
  return {
    ...baseValues(config, project, component),
    language_code: translations.map((t) => t.language_code).join(', '),
    language_name: translations.map((t) => t.language_name).join(', '),
    url: one ? `${componentUrl}${one.language_code}/` : componentUrl,
    stats: {
      ...sum,
      translated_percent: percent(sum.translated, sum.all),
      fuzzy_percent: percent(sum.fuzzy, sum.all),
      approved_percent: percent(sum.approved, sum.all),
      translated_words_percent: percent(sum.translated_words, sum.all_words),
    },
  };
}

/** Values every message template may use (merge messages: `component_remote_branch`). */
export function baseValues(config: Config, project: ProjectConfig, component: ComponentConfig): TemplateValues {
  return {
    project_name: project.name,
    project_slug: project.slug,
    component_name: component.name,
    component_slug: component.slug,
    component_remote_branch: `origin/${component.branch || 'main'}`,
    site_title: config.site_title,
    site_url: siteUrl(config),
    url: `${siteUrl(config)}/projects/${project.slug}/${component.slug}/`,
  };
}
