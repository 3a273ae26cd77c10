// Weblate's message templates: `{{ name }}` and `{{ a.b }}` placeholders filled from plain values.

/** Values a template may use; nested objects are reached with dots (`stats.translated_percent`). */
export type TemplateValues = { [name: string]: string | number | TemplateValues };

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.]*)\s*(?:\|[^}]*)?\}\}/g;

/**
 * Fills `{{ name }}` and `{{ a.b }}` placeholders; unknown names become empty, as in Django templates
 * (filters after `|` are ignored).
 * @example renderTemplate('Translated ({{ language_name }})', { language_name: 'German' }) === 'Translated (German)'
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    let value: string | number | TemplateValues | undefined = values;
    for (const part of name.split('.')) {
      value = typeof value === 'object' ? value[part] : undefined;
      if (value === undefined) return '';
    }
    return typeof value === 'object' ? '' : String(value);
  });
}
