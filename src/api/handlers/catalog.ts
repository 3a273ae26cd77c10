// Handlers for languages, projects, components and translations: look up, check visibility, serialize.
import type { Language } from '../../store/index.js';
import { type Answer, json } from '../answer.js';
import type { RequestContext } from '../context.js';
import { notFound } from '../errors.js';
import { componentOf, languageOf, projectOf, translationOf } from '../lookup.js';
import { paginateArray } from '../pagination.js';
import { componentSerializer, projectComponentSerializer } from '../serializers/component.js';
import { languageSerializer } from '../serializers/language.js';
import { projectSerializer } from '../serializers/project.js';
import { componentTranslationSerializer, translationSerializer } from '../serializers/translation.js';

/** Languages the caller may list: all with `language.edit`, else those with a visible translation. */
export function visibleLanguages(ctx: RequestContext): Language[] {
  const all = [...ctx.catalog.languages.values()];
  if (ctx.access.can('language.edit')) return all;
  return ctx.access.remember('languages', () => {
    const used = new Set<number>();
    for (const translation of ctx.access.translationList()) used.add(translation.languageId);
    return all.filter((language) => used.has(language.id));
  });
}

function visibleLanguage(ctx: RequestContext): Language {
  const language = languageOf(ctx);
  if (!ctx.access.can('language.edit') && !visibleLanguages(ctx).includes(language)) throw notFound();
  return language;
}

export function listLanguages(ctx: RequestContext): Answer {
  return json(paginateArray(ctx, 'standard', visibleLanguages(ctx), (l) => languageSerializer.write(l, ctx)));
}

export function getLanguage(ctx: RequestContext): Answer {
  return json(languageSerializer.write(visibleLanguage(ctx), ctx));
}

/** The language for `/api/languages/<code>/statistics/`, with the same visibility as its record. */
export { visibleLanguage };

export function listProjects(ctx: RequestContext): Answer {
  return json(paginateArray(ctx, 'standard', ctx.access.projectList(), (p) => projectSerializer.write(p, ctx)));
}

export function getProject(ctx: RequestContext): Answer {
  return json(projectSerializer.write(projectOf(ctx), ctx));
}

export function listProjectComponents(ctx: RequestContext): Answer {
  const project = projectOf(ctx);
  const components = ctx.catalog.components.filter((c) => c.projectId === project.id && ctx.access.component(c));
  return json(paginateArray(ctx, 'standard', components, (c) => projectComponentSerializer.write(c, ctx)));
}

export function listComponents(ctx: RequestContext): Answer {
  return json(paginateArray(ctx, 'standard', ctx.access.componentList(), (c) => componentSerializer.write(c, ctx)));
}

export function getComponent(ctx: RequestContext): Answer {
  return json(componentSerializer.write(componentOf(ctx), ctx));
}

export function listComponentTranslations(ctx: RequestContext): Answer {
  const component = componentOf(ctx);
  const translations = ctx.catalog.translationsByComponent.get(component.id) ?? [];
  return json(paginateArray(ctx, 'standard', translations, (tr) => componentTranslationSerializer.write(tr, ctx)));
}

export function listTranslations(ctx: RequestContext): Answer {
  return json(paginateArray(ctx, 'standard', ctx.access.translationList(), (tr) => translationSerializer.write(tr, ctx)));
}

export function getTranslation(ctx: RequestContext): Answer {
  return json(translationSerializer.write(translationOf(ctx), ctx));
}

/** `/api/projects/<p>/categories/`, `/labels/`, `/api/components/<p>/<c>/links/`: tms has none of these. */
export function emptyProjectList(ctx: RequestContext): Answer {
  projectOf(ctx);
  return json(paginateArray(ctx, 'standard', [], () => ''));
}

export function emptyComponentList(ctx: RequestContext): Answer {
  componentOf(ctx);
  return json(paginateArray(ctx, 'standard', [], () => ''));
}

export function emptyList(ctx: RequestContext): Answer {
  return json(paginateArray(ctx, 'standard', [], () => ''));
}
