// Handlers for `…/repository/` (status and operations) on projects, components and translations, and for component locks.

import { openComponent } from '../../component/handle.js';
import type { ComponentConfig, ProjectConfig } from '../../config/config.js';
import { NotFoundError } from '../../domain/errors.js';
import {
  type OperationResult,
  type RepositoryStatus,
  cleanupComponent,
  commitPending,
  fileScan,
  fileSync,
  pullComponent,
  pushComponent,
  repositoryStatus,
  resetComponent,
  setLock,
} from '../../operations/index.js';
import type { Component, Project } from '../../store/index.js';
import { type Answer, json } from '../answer.js';
import { booleanField, stringField } from '../body.js';
import type { RequestContext } from '../context.js';
import { permissionDenied, validationError } from '../errors.js';
import { toJson } from '../json.js';
import { componentOf, projectOf, projectOfComponent, translationOf } from '../lookup.js';
import { componentPath, projectPath } from '../serializers/common.js';
import { type RepositoryRecord, lockSerializer, projectRepositorySerializer, repositorySerializer } from '../serializers/repository.js';
import { pathOf } from '../serializers/translation.js';
import { type WriteContext, configOf, requirePermission, targetOf } from '../write.js';

/** Weblate's repository operations and the permission each needs. */
export const OPERATIONS = {
  commit: 'vcs.commit',
  push: 'vcs.push',
  pull: 'vcs.update',
  reset: 'vcs.reset',
  cleanup: 'vcs.reset',
  'file-sync': 'vcs.reset',
  'file-scan': 'vcs.reset',
} as const;
export type Operation = keyof typeof OPERATIONS;

function requireStatus(ctx: RequestContext, project: Project): void {
  if (!ctx.access.can('meta:vcs.status', { project })) throw permissionDenied();
}

/** The components of a project the caller sees that the configuration and the store both have. */
function projectComponents(ctx: RequestContext, project: Project): { catalog: Component; project: ProjectConfig; component: ComponentConfig }[] {
  const out = [];
  for (const c of ctx.catalog.components) {
    if (c.projectId !== project.id || !ctx.access.component(c)) continue;
    const p = ctx.services.config.projects.find((x) => x.slug === project.slug);
    const component = p?.components.find((x) => x.slug === c.slug);
    if (p && component) out.push({ catalog: c, project: p, component });
  }
  return out;
}

async function statusOf(ctx: RequestContext, project: ProjectConfig, component: ComponentConfig): Promise<RepositoryStatus | null> {
  try {
    return await repositoryStatus(await openComponent(ctx.services.store, ctx.services.config, project, component, { git: ctx.services.git }));
  } catch (e) {
    // A component the store does not have yet has no repository to report.
    if (e instanceof NotFoundError) return null;
    throw e;
  }
}

function rowOf(url: string, s: RepositoryStatus | null): RepositoryRecord {
  return {
    url,
    needsCommit: s?.needs_commit ?? false,
    needsMerge: s?.needs_merge ?? false,
    needsPush: s?.needs_push ?? false,
    remoteCommit: (s?.remote_commit as unknown as Record<string, unknown>) ?? null,
    weblateCommit: (s?.weblate_commit as unknown as Record<string, unknown>) ?? null,
    status: s?.status ?? '',
    mergeFailure: s?.merge_failure ?? null,
  };
}

/** `GET /api/projects/<p>/repository/`: each flag is any() over the project's components. */
export async function projectRepository(ctx: RequestContext): Promise<Answer> {
  const project = projectOf(ctx);
  requireStatus(ctx, project);
  const row = rowOf(ctx.urls.api(`projects/${projectPath(project)}repository/`), null);
  for (const c of projectComponents(ctx, project)) {
    const s = await statusOf(ctx, c.project, c.component);
    row.needsCommit ||= s?.needs_commit ?? false;
    row.needsMerge ||= s?.needs_merge ?? false;
    row.needsPush ||= s?.needs_push ?? false;
  }
  return json(projectRepositorySerializer.write(row, ctx));
}

/** `GET /api/components/<p>/<c>/repository/`: the component's status as of the last fetch. */
export async function componentRepository(ctx: RequestContext): Promise<Answer> {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  requireStatus(ctx, project);
  const config = configOf(ctx, project, component);
  const url = ctx.urls.api(`components/${componentPath(ctx.catalog, component)}repository/`);
  return json(repositorySerializer.write(rowOf(url, await statusOf(ctx, config.project, config.component)), ctx));
}

/** `GET /api/translations/<p>/<c>/<lang>/repository/`: the status of the translation's component. */
export async function translationRepository(ctx: RequestContext): Promise<Answer> {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  requireStatus(ctx, project);
  const config = configOf(ctx, project, component);
  const url = ctx.urls.api(`translations/${pathOf(translation, ctx)}repository/`);
  return json(repositorySerializer.write(rowOf(url, await statusOf(ctx, config.project, config.component)), ctx));
}

/** The `operation` of a repository POST (400 when missing or not one of Weblate's). */
function operationOf(ctx: WriteContext): Operation {
  const value = stringField(ctx.body, 'operation');
  if (value === undefined) throw validationError('operation', 'This field is required.', 'required');
  if (!Object.hasOwn(OPERATIONS, value)) throw validationError('operation', `"${value}" is not a valid choice.`, 'invalid_choice');
  return value as Operation;
}

/** Runs one operation on one component (a commit limited to one translation when `translationId` is given). */
async function runOperation(
  ctx: WriteContext,
  operation: Operation,
  project: ProjectConfig,
  component: ComponentConfig,
  translationId?: number,
): Promise<OperationResult> {
  const h = await openComponent(ctx.services.store, ctx.services.config, project, component, { git: ctx.services.git });
  const opts = { user: ctx.user };
  switch (operation) {
    case 'commit':
      // push_on_commit is the operation's own policy: the commit pushes when the component asks for it
      return commitPending(h, { ...opts, ...(translationId === undefined ? {} : { translations: [translationId] }) });
    case 'push':
      return pushComponent(h, opts);
    case 'pull':
      return pullComponent(h, opts);
    case 'reset':
      return resetComponent(h, opts);
    case 'cleanup':
      return cleanupComponent(h);
    case 'file-sync':
      return fileSync(h, opts);
    case 'file-scan':
      return fileScan(h, opts);
  }
}

function resultAnswer(results: readonly OperationResult[]): Answer {
  const details = results.map((r) => r.detail).filter((d): d is string => Boolean(d));
  const body: { result: boolean; detail?: string } = { result: results.every((r) => r.result) };
  if (details.length > 0) body.detail = details.join('\n');
  return json(toJson(body));
}

/** `POST /api/projects/<p>/repository/`: the operation on every component of the project; `result` is all of them. */
export async function projectOperation(ctx: WriteContext): Promise<Answer> {
  const project = projectOf(ctx);
  const operation = operationOf(ctx);
  requirePermission(ctx, OPERATIONS[operation], targetOf(ctx, project), false);
  const results: OperationResult[] = [];
  for (const c of projectComponents(ctx, project)) {
    try {
      results.push(await runOperation(ctx, operation, c.project, c.component));
    } catch (e) {
      // A component the sync has not reached yet has no repository to work on.
      if (!(e instanceof NotFoundError)) throw e;
    }
  }
  return resultAnswer(results);
}

/** `POST /api/components/<p>/<c>/repository/` */
export async function componentOperation(ctx: WriteContext): Promise<Answer> {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  const operation = operationOf(ctx);
  requirePermission(ctx, OPERATIONS[operation], targetOf(ctx, project, component), false);
  const config = configOf(ctx, project, component);
  return resultAnswer([await runOperation(ctx, operation, config.project, config.component)]);
}

/** `POST /api/translations/<p>/<c>/<lang>/repository/`: a commit is of this translation only; the rest act on the component. */
export async function translationOperation(ctx: WriteContext): Promise<Answer> {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  const operation = operationOf(ctx);
  requirePermission(ctx, OPERATIONS[operation], targetOf(ctx, project, component, translation), false);
  const config = configOf(ctx, project, component);
  return resultAnswer([await runOperation(ctx, operation, config.project, config.component, translation.id)]);
}

/** `GET /api/components/<p>/<c>/lock/` */
export function componentLock(ctx: RequestContext): Answer {
  return json(lockSerializer.write(componentOf(ctx), ctx));
}

/** `POST /api/components/<p>/<c>/lock/` with `{"lock": bool}`: needs `component.lock`; records 14/15. */
export async function setComponentLock(ctx: WriteContext): Promise<Answer> {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  const lock = booleanField(ctx.body, 'lock');
  if (lock === undefined) throw validationError('lock', 'This field is required.', 'required');
  requirePermission(ctx, 'component.lock', targetOf(ctx, project, component), false);
  const { locked } = await setLock(ctx.services.store, component, lock, ctx.user);
  return json(toJson({ locked }));
}
