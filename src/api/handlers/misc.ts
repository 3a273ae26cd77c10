// Handlers for add-ons, repository status, component locks and translation file downloads.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getFormat, isFormatId } from '../../formats/registry.js';
import type { CatalogAddon, CatalogComponent, CatalogProject } from '../../store/catalog.query.js';
import { type Answer, json } from '../answer.js';
import { queryValue, type RequestContext } from '../context.js';
import { notFound, permissionDenied, validationError } from '../errors.js';
import { componentOf, idOf, projectOf, projectOfComponent, translationOf } from '../lookup.js';
import { paginateArray } from '../pagination.js';
import { addonSerializer, lockSerializer, projectRepositorySerializer, type RepositoryRow, repositorySerializer } from '../serializers/misc.js';
import { componentPath, projectPath } from '../serializers/common.js';
import { countsOf, pathOf } from '../serializers/translation.js';

function addonVisible(ctx: RequestContext, addon: CatalogAddon): boolean {
  if (addon.componentId !== null) {
    const component = ctx.catalog.componentsById.get(addon.componentId);
    return component !== undefined && ctx.access.component(component);
  }
  const project = addon.projectId === null ? undefined : ctx.catalog.projectsById.get(addon.projectId);
  return project !== undefined && ctx.access.project(project);
}

export function listAddons(ctx: RequestContext): Answer {
  const addons = ctx.catalog.addons.filter((a) => addonVisible(ctx, a));
  return json(paginateArray(ctx, 'standard', addons, (a) => addonSerializer.write(a, ctx)));
}

export function getAddon(ctx: RequestContext): Answer {
  const addon = ctx.catalog.addonsById.get(idOf(ctx));
  if (!addon || !addonVisible(ctx, addon)) throw notFound();
  return json(addonSerializer.write(addon, ctx));
}

function repositoryRow(ctx: RequestContext, components: CatalogComponent[], url: string): RepositoryRow {
  const { repository } = ctx.services;
  const single = components.length === 1 ? components[0] : undefined;
  const commit = single ? repository.syncedCommit(single.id) : null;
  return {
    url,
    needsCommit: repository.hasPending(components.map((c) => c.id)),
    // The store does not track the remote: merges and pushes are reported by the write path.
    needsMerge: false,
    needsPush: false,
    remoteCommit: null,
    weblateCommit: commit ? { revision: commit, shortrevision: commit.slice(0, 7) } : null,
    status: '',
    mergeFailure: single ? repository.mergeFailure(single.id) : null,
  };
}

function requireStatus(ctx: RequestContext, project: CatalogProject): void {
  if (!ctx.access.can('meta:vcs.status', { project })) throw permissionDenied();
}

export function projectRepository(ctx: RequestContext): Answer {
  const project = projectOf(ctx);
  requireStatus(ctx, project);
  const components = ctx.catalog.components.filter((c) => c.projectId === project.id && ctx.access.component(c));
  const row = repositoryRow(ctx, components, ctx.urls.api(`projects/${projectPath(project)}repository/`));
  return json(projectRepositorySerializer.write(row, ctx));
}

export function componentRepository(ctx: RequestContext): Answer {
  const component = componentOf(ctx);
  requireStatus(ctx, projectOfComponent(ctx, component));
  const url = ctx.urls.api(`components/${componentPath(ctx.catalog, component)}repository/`);
  return json(repositorySerializer.write(repositoryRow(ctx, [component], url), ctx));
}

export function translationRepository(ctx: RequestContext): Answer {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  requireStatus(ctx, projectOfComponent(ctx, component));
  const url = ctx.urls.api(`translations/${pathOf(translation, ctx)}repository/`);
  return json(repositorySerializer.write(repositoryRow(ctx, [component], url), ctx));
}

export function componentLock(ctx: RequestContext): Answer {
  return json(lockSerializer.write(componentOf(ctx), ctx));
}

/**
 * The translation file as it is in the working copy. `?format=` asks for a conversion, which tms
 * does not offer (400 on `format`, as Weblate for an unknown exporter).
 */
export function translationFile(ctx: RequestContext): Answer {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  if (!ctx.access.can('translation.download', { project, component })) throw permissionDenied();
  const conversion = queryValue(ctx, 'format');
  if (conversion !== undefined && conversion !== '') throw validationError('format', `Conversion to ${conversion} is not supported`);
  if (queryValue(ctx, 'q') !== undefined) throw validationError('q', 'Query string is ignored without format');
  if (translation.filename === '') throw notFound();
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.join(ctx.services.workingCopy(project.slug, component.slug), translation.filename));
  } catch {
    throw notFound();
  }
  const lastChange = countsOf(translation, ctx).last_change;
  const modified = new Date(lastChange ? Date.parse(lastChange) : Date.now());
  modified.setMilliseconds(0);
  const headers: Record<string, string> = { 'Last-Modified': modified.toUTCString() };
  const ifModifiedSince = ctx.header('if-modified-since');
  if (ifModifiedSince && Date.parse(ifModifiedSince) >= modified.getTime()) return { status: 304, bytes: new Uint8Array(), contentType: '', headers };
  const formatId = component.settings.file_format ?? '';
  const format = isFormatId(formatId) ? getFormat(formatId) : undefined;
  const language = ctx.catalog.languages.get(translation.languageId)!;
  const extension = path.extname(translation.filename) || (format ? `.${format.extension}` : '');
  headers['Content-Disposition'] = `attachment; filename=${project.slug}-${component.slug}-${language.code}${extension}`;
  return { bytes, contentType: format?.mimeType ?? 'application/octet-stream', headers };
}
