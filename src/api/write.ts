// What write handlers share: the write context, permission checks with Weblate's refusal texts, and config lookups.
import type { DenyReason, PermissionTarget, TranslationScope, UnitScope } from '../auth/check.js';
import { checkPermission } from '../auth/check.js';
import type { GlobalPermission, MetaPermission, ObjectPermission } from '../auth/permissions.js';
import { type ComponentHandle, openComponent } from '../component/handle.js';
import type { ComponentConfig, ProjectConfig } from '../config/config.js';
import { State } from '../domain/unit.js';
import { COMPONENT_LOCKED } from '../operations/index.js';
import type { Catalog, Component, Project, Translation } from '../store/index.js';
import { componentScope, projectScope } from './access.js';
import type { RequestBody } from './body.js';
import type { RequestContext } from './context.js';
import { ApiError, notFound, permissionDenied, validationError } from './errors.js';

/** A write request: the request context plus its parsed body and a way to see the database after the write. */
export interface WriteContext extends RequestContext {
  body: RequestBody;
  /** A context whose catalog follows the database as it is now (after this request's write). */
  reload(): Promise<RequestContext>;
}

export type Permission = ObjectPermission | GlobalPermission | MetaPermission;

// Weblate's PermissionResult texts for the refusals an API caller can meet.
const REASONS: Partial<Record<DenyReason, string>> = {
  locked: COMPONENT_LOCKED,
  'read-only': 'The string is read-only.',
  'review-needed': 'Only reviewers can change approved strings.',
  'reviews-disabled': 'Reviews are not enabled.',
  'no-email': 'You need an e-mail address to contribute.',
  agreement: 'The contributor agreement has not been accepted.',
  template: 'Editing the source strings needs the "Edit source" permission.',
  'suggestions-only': 'Only suggestions are accepted here.',
  'units-disabled': 'Adding or removing strings is disabled in the component configuration.',
  'add-to-source': 'Strings of a monolingual component can be added only to its source language.',
  'no-new-language': 'Adding new translations is turned off in the component configuration.',
  'not-supported': 'The file format does not support this.',
  source: 'This is not possible on the source language.',
};

/** The text for a refusal: Weblate's reason, or the generic "You do not have permission…". */
export function refusalText(reason: DenyReason): string | undefined {
  return REASONS[reason];
}

/** What a permission is checked on, built from catalog objects. */
export function targetOf(ctx: RequestContext, project: Project, component?: Component, translation?: Translation, unit?: { state: number }): PermissionTarget {
  const t: TranslationScope | undefined = translation && {
    language: ctx.catalog.languages.get(translation.languageId)?.code ?? translation.languageCode,
    isSource: translation.isSource,
  };
  const u: UnitScope | undefined = unit && { readOnly: unit.state === State.READONLY, approved: unit.state === State.APPROVED };
  return { project: projectScope(project), component: component && componentScope(component), translation: t, unit: u };
}

/** The refusal of `permission` on `target` (null when allowed). */
export function refusal(ctx: RequestContext, permission: Permission, target: PermissionTarget): DenyReason | null {
  const result = checkPermission(ctx.access.principal, permission, target);
  return result.allowed ? null : result.reason;
}

/**
 * Whether the user may edit the same string in another component of the project (where a translated edit propagates
 * to): the editor's `unit.edit` there.
 */
export function mayEditElsewhere(ctx: RequestContext): (other: { projectId: number; componentId: number; translationId: number; state: number }) => boolean {
  return (other) => {
    const t = ctx.catalog.translationsById.get(other.translationId);
    const c = ctx.catalog.componentsById.get(other.componentId);
    const p = ctx.catalog.projectsById.get(other.projectId);
    return t !== undefined && c !== undefined && p !== undefined && refusal(ctx, 'unit.edit', targetOf(ctx, p, c, t, { state: other.state })) === null;
  };
}

/** 403 unless allowed; `specific` uses Weblate's reason text where there is one, else the generic one. */
export function requirePermission(ctx: RequestContext, permission: Permission, target: PermissionTarget, specific = true): void {
  const reason = refusal(ctx, permission, target);
  if (reason !== null) throw permissionDenied((specific && refusalText(reason)) || undefined);
}

/** The configured project and component behind catalog objects (404 when the configuration no longer has them). */
export function configOf(ctx: RequestContext, project: Project, component?: Component): { project: ProjectConfig; component: ComponentConfig } {
  const p = ctx.services.config.projects.find((x) => x.slug === project.slug);
  const c = component ? p?.components.find((x) => x.slug === component.slug) : p?.components[0];
  if (!p || (component && !c)) throw notFound();
  return { project: p, component: c! };
}

/** The component handle behind a catalog component, for the domain's operations (404 when the store lacks it). */
export async function handleOf(ctx: RequestContext, project: Project, component: Component): Promise<ComponentHandle> {
  const config = configOf(ctx, project, component);
  return openComponent(ctx.services.store, ctx.services.config, config.project, config.component, { git: ctx.services.git });
}

/** The configured project behind a catalog project. */
export function projectConfigOf(ctx: RequestContext, project: Project): ProjectConfig {
  const p = ctx.services.config.projects.find((x) => x.slug === project.slug);
  if (!p) throw notFound();
  return p;
}

/** The catalog's component of a configured one, or undefined when the store does not have it. */
export function catalogComponent(catalog: Catalog, project: ProjectConfig, component: ComponentConfig): Component | undefined {
  return catalog.componentsByPath.get(`${project.slug}/${component.slug}`);
}

/** A 400 with one message on several fields (Weblate's "Please provide both state and target…"). */
export function fieldsError(fields: readonly string[], detail: string, code = 'invalid'): ApiError {
  return new ApiError(
    400,
    fields.map((attr) => ({ code, detail, attr })),
    {},
    true,
  );
}
