// Handlers for add-ons.
import type { CatalogAddon } from '../../store/index.js';
import { type Answer, json } from '../answer.js';
import type { RequestContext } from '../context.js';
import { notFound } from '../errors.js';
import { idOf } from '../lookup.js';
import { paginateArray } from '../pagination.js';
import { addonSerializer } from '../serializers/addon.js';

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
