// Helpers every serializer shares: object paths under /api/ and the web site, timestamps with fractional seconds.
import type { Catalog, Component, Project, Translation } from '../../store/index.js';
import type { RequestContext } from '../context.js';
import { seg } from '../urls.js';

export type Ctx = RequestContext;

/** `projects/<p>/` */
export function projectPath(project: Project): string {
  return `${seg(project.slug)}/`;
}

/** `<p>/<c>/` */
export function componentPath(catalog: Catalog, component: Component): string {
  const project = catalog.projectsById.get(component.projectId)!;
  return `${seg(project.slug)}/${seg(component.slug)}/`;
}

/** `<p>/<c>/<language code>/` */
export function translationPath(catalog: Catalog, translation: Translation): string {
  const component = catalog.componentsById.get(translation.componentId)!;
  const language = catalog.languages.get(translation.languageId)!;
  return `${componentPath(catalog, component)}${seg(language.code)}/`;
}

const HAS_FRACTION_AND_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+(Z|[+-]\d\d:\d\d)$/;

/** ISO 8601 with fractional seconds and a zone, whatever form the store holds (`2024-01-02T03:04:05.000Z`). */
export function iso(timestamp: string): string;
export function iso(timestamp: string | null): string | null;
export function iso(timestamp: string | null): string | null {
  if (timestamp === null) return null;
  if (HAS_FRACTION_AND_ZONE.test(timestamp)) return timestamp;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? timestamp : new Date(ms).toISOString();
}
