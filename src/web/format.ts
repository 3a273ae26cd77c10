// Small display helpers shared by the pages: numbers, percentages, dates, plural texts and web paths.

import { seg } from '../api/urls.js';
import { PLURAL_SEPARATOR } from '../domain/unit.js';
import type { Catalog, Component, Language, Project, Translation } from '../store/index.js';

const NUMBER = new Intl.NumberFormat('en');

/** `2180` → `2,180`. */
export function num(n: number): string {
  return NUMBER.format(n);
}

/** `1` → `1 string`, `2180` → `2,180 strings`. */
export function strings(n: number): string {
  return `${num(n)} string${n === 1 ? '' : 's'}`;
}

/** `33.3` → `33.3%`. */
export function pct(p: number): string {
  return `${p}%`;
}

/** An ISO timestamp as `2024-01-02 03:04 UTC`. */
export function when(timestamp: string | null): string {
  if (!timestamp) return '';
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return timestamp;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A stored text with its plural forms apart: `file\x1e\x1efiles` → `file | files` (the separator is no character to show). */
export function pluralText(text: string): string {
  return text.split(PLURAL_SEPARATOR).join(' | ');
}

export const paths = {
  project: (p: Project) => `/projects/${seg(p.slug)}/`,
  component: (catalog: Catalog, c: Component) => `/projects/${seg(catalog.projectsById.get(c.projectId)!.slug)}/${seg(c.slug)}/`,
  translation: (catalog: Catalog, t: Translation) => {
    const c = catalog.componentsById.get(t.componentId)!;
    return `${paths.component(catalog, c)}${seg(catalog.languages.get(t.languageId)!.code)}/`;
  },
  translate: (catalog: Catalog, t: Translation) => {
    const c = catalog.componentsById.get(t.componentId)!;
    return `/translate/${seg(catalog.projectsById.get(c.projectId)!.slug)}/${seg(c.slug)}/${seg(catalog.languages.get(t.languageId)!.code)}/`;
  },
  zen: (catalog: Catalog, t: Translation) => `/zen${paths.translate(catalog, t).slice('/translate'.length)}`,
  replace: (catalog: Catalog, t: Translation) => `/replace${paths.translate(catalog, t).slice('/translate'.length)}`,
  bulkEdit: (catalog: Catalog, t: Translation) => `/bulk-edit${paths.translate(catalog, t).slice('/translate'.length)}`,
  projectLanguage: (p: Project, l: Language) => `/projects/${seg(p.slug)}/-/${seg(l.code)}/`,
  language: (l: Language) => `/languages/${seg(l.code)}/`,
  repository: (catalog: Catalog, c: Component) => `/repository/${seg(catalog.projectsById.get(c.projectId)!.slug)}/${seg(c.slug)}/`,
  screenshots: (catalog: Catalog, c: Component) => `/screenshots/${seg(catalog.projectsById.get(c.projectId)!.slug)}/${seg(c.slug)}/`,
  screenshot: (id: number) => `/screenshot/${id}/`,
  screenshotImage: (id: number) => `/screenshot/${id}/image/`,
};
