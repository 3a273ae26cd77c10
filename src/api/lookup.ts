// Finding the object a path names (project, component, translation, language): visible to the caller or a 404.
import type { Component, Language, Project, Translation } from '../store/index.js';
import type { RequestContext } from './context.js';
import { notFound } from './errors.js';

/** `{project}` of the path. */
export function projectOf(ctx: RequestContext): Project {
  const project = ctx.catalog.projectsBySlug.get(ctx.params.project!);
  if (!project || !ctx.access.project(project)) throw notFound();
  return project;
}

/** `{project}/{component}` of the path. */
export function componentOf(ctx: RequestContext): Component {
  const component = ctx.catalog.componentsByPath.get(`${ctx.params.project}/${ctx.params.component}`);
  if (!component || !ctx.access.component(component)) throw notFound();
  return component;
}

/** `{project}/{component}/{language}` of the path; the language is the Language code, not the file's. */
export function translationOf(ctx: RequestContext): Translation {
  const component = componentOf(ctx);
  const translation = ctx.catalog.translationsByKey.get(`${component.id}/${ctx.params.language}`);
  if (!translation) throw notFound();
  return translation;
}

/** `{language}` of the path (exact code). */
export function languageOf(ctx: RequestContext): Language {
  const language = ctx.catalog.languagesByCode.get(ctx.params.language!);
  if (!language) throw notFound();
  return language;
}

/** A positive integer path parameter (`{id}`); anything else is a 404, as Django's int converter. */
export function idOf(ctx: RequestContext, name = 'id'): number {
  const raw = ctx.params[name];
  if (!/^\d{1,15}$/.test(raw!)) throw notFound();
  return Number.parseInt(raw!, 10);
}

export function projectOfComponent(ctx: RequestContext, component: Component): Project {
  return ctx.catalog.projectsById.get(component.projectId)!;
}
