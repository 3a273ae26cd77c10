// The Project record, as Weblate's ProjectSerializer shows it (the fields the spec lists, in its order).
import type { Project } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import { type Ctx, projectPath } from './common.js';

const api = (p: Project, ctx: Ctx, sub = '') => ctx.urls.api(`projects/${projectPath(p)}${sub}`);

/** `/api/projects/<slug>/` */
export const projectSerializer = new Serializer<Project, Ctx>(
  'Project',
  [
    { name: 'name', type: t.string, get: (p) => p.name },
    { name: 'slug', type: t.string, get: (p) => p.slug },
    { name: 'id', type: t.integer, get: (p) => p.id },
    { name: 'web', type: t.string, get: (p) => p.settings.web ?? '' },
    { name: 'web_url', type: t.url, get: (p, ctx) => ctx.urls.web(`projects/${projectPath(p)}`) },
    { name: 'url', type: t.url, get: (p, ctx) => api(p, ctx) },
    { name: 'components_list_url', type: t.url, get: (p, ctx) => api(p, ctx, 'components/') },
    { name: 'repository_url', type: t.url, get: (p, ctx) => api(p, ctx, 'repository/') },
    { name: 'statistics_url', type: t.url, get: (p, ctx) => api(p, ctx, 'statistics/') },
    { name: 'categories_url', type: t.url, get: (p, ctx) => api(p, ctx, 'categories/') },
    { name: 'changes_list_url', type: t.url, get: (p, ctx) => api(p, ctx, 'changes/') },
    { name: 'languages_url', type: t.url, get: (p, ctx) => api(p, ctx, 'languages/') },
    { name: 'labels_url', type: t.url, get: (p, ctx) => api(p, ctx, 'labels/') },
    { name: 'translation_review', type: t.boolean, get: (p) => Boolean(p.settings.translation_review) },
    { name: 'source_review', type: t.boolean, get: (p) => Boolean(p.settings.source_review) },
    { name: 'set_language_team', type: t.boolean, get: (p) => p.settings.set_language_team ?? true },
    { name: 'instructions', type: t.string, get: (p) => p.settings.instructions ?? '' },
    { name: 'enable_hooks', type: t.boolean, get: (p) => p.settings.enable_hooks ?? true },
    { name: 'language_aliases', type: t.string, get: (p) => p.settings.language_aliases ?? '' },
  ],
  { key: (p) => p.id },
);
