// Weblate's message templates: `{{ name }}` and `{{ a.b }}` placeholders filled from plain values, Django's text filters applied.

/** Values a template may use; nested objects are reached with dots (`stats.translated_percent`). */
export type TemplateValues = { [name: string]: string | number | TemplateValues };

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.]*)\s*((?:\|[^}]*)?)\}\}/g;

/** Django's text filters (`{{ component|title }}`, as discovery's name template uses them); others leave the text. */
const FILTERS: Record<string, (text: string) => string> = {
  lower: (t) => t.toLowerCase(),
  upper: (t) => t.toUpperCase(),
  capfirst: (t) => t.charAt(0).toUpperCase() + t.slice(1),
  title: (t) => t.toLowerCase().replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()),
};

/**
 * Fills `{{ name }}` and `{{ a.b }}` placeholders; unknown names become empty, as in Django templates. The filters
 * `lower`, `upper`, `capfirst` and `title` apply; other filters after `|` are ignored.
 * @example renderTemplate('Translated ({{ language_name }})', { language_name: 'German' }) === 'Translated (German)'
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_, name: string, filters: string) => {
    let value: string | number | TemplateValues | undefined = values;
    for (const part of name.split('.')) {
      value = typeof value === 'object' ? value[part] : undefined;
      if (value === undefined) return '';
    }
    if (typeof value === 'object') return '';
    let text = String(value);
    for (const filter of filters.split('|').slice(1)) text = FILTERS[filter.trim()]?.(text) ?? text;
    return text;
  });
}
