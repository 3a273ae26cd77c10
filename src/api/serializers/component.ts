// The Component record, as Weblate's ComponentSerializer (the spec's fields, in its order; credentials never shown).
import { repositoryLink } from '../../config/config.js';
import type { Catalog, Component, Language } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import { seg } from '../urls.js';
import { type Ctx, componentPath } from './common.js';
import { languageSerializer } from './language.js';
import { projectSerializer } from './project.js';

const api = (c: Component, ctx: Ctx, sub = '') => ctx.urls.api(`components/${componentPath(ctx.catalog, c)}${sub}`);

function sourceLanguage(c: Component, ctx: Ctx): Language {
  const code = c.settings.source_language ?? 'en';
  return ctx.catalog.languagesByCode.get(code) ?? ctx.catalog.languagesByCode.get('en')!;
}

/** Repository fields are hidden (null) from callers without `vcs.view`, as in Weblate. */
function vcs<T>(value: (c: Component) => T): (c: Component, ctx: Ctx) => T | null {
  return (c, ctx) => {
    const project = ctx.catalog.projectsById.get(c.projectId)!;
    return ctx.access.can('vcs.view', { project, component: c }) ? value(c) : null;
  };
}

const s =
  <K extends keyof Component['settings']>(key: K, fallback: NonNullable<Component['settings'][K]>) =>
  (c: Component) =>
    c.settings[key] ?? fallback;

/** The component whose repository `c` shares (`repo: "weblate://<project>/<component>"`), or undefined. */
export function linkedTo(catalog: Catalog, c: Component): Component | undefined {
  const link = repositoryLink(c.settings.repo ?? '');
  return link ? catalog.componentsByPath.get(`${link.project}/${link.component}`) : undefined;
}

/** The other components sharing `c`'s repository: the one it links to and those linking to the same (or to `c`). */
export function sharingWith(catalog: Catalog, c: Component): Component[] {
  const owner = linkedTo(catalog, c) ?? c;
  return catalog.components.filter((o) => o.id !== c.id && (o.id === owner.id || linkedTo(catalog, o)?.id === owner.id));
}

/** Weblate's `linked_component`: the API URL of the component whose repository this one shares, null otherwise. */
function linkedComponent(c: Component, ctx: Ctx): string | null {
  const target = linkedTo(ctx.catalog, c);
  return target ? api(target, ctx) : null;
}

/** `/api/components/<project>/<component>/` */
export const componentSerializer = new Serializer<Component, Ctx>(
  'Component',
  [
    { name: 'name', type: t.string, get: (c) => c.name },
    { name: 'slug', type: t.string, get: (c) => c.slug },
    { name: 'id', type: t.integer, get: (c) => c.id },
    { name: 'source_language', type: t.record(languageSerializer), get: sourceLanguage },
    { name: 'project', type: t.record(projectSerializer), get: (c, ctx) => ctx.catalog.projectsById.get(c.projectId)! },
    { name: 'vcs', type: t.nullable(t.string), get: vcs(s('vcs', 'git')) },
    { name: 'repo', type: t.nullable(t.string), get: vcs((c) => (c.settings.vcs === 'local' ? 'local:' : (c.settings.repo ?? ''))) },
    { name: 'git_export', type: t.url, get: (c, ctx) => ctx.urls.web(`git/${componentPath(ctx.catalog, c)}`) },
    { name: 'branch', type: t.nullable(t.string), get: vcs(s('branch', '')) },
    { name: 'push_branch', type: t.string, get: s('push_branch', '') },
    { name: 'filemask', type: t.nullable(t.string), get: vcs(s('filemask', '')) },
    { name: 'screenshot_filemask', type: t.nullable(t.string), get: vcs(s('screenshot_filemask', '')) },
    { name: 'template', type: t.string, get: s('template', '') },
    { name: 'edit_template', type: t.boolean, get: s('edit_template', true) },
    { name: 'intermediate', type: t.string, get: s('intermediate', '') },
    { name: 'new_base', type: t.string, get: s('new_base', '') },
    { name: 'file_format', type: t.string, get: (c) => c.settings.file_format ?? '' },
    { name: 'license', type: t.string, get: s('license', '') },
    { name: 'license_url', type: t.string, get: s('license_url', '') },
    { name: 'agreement', type: t.string, get: s('agreement', '') },
    { name: 'web_url', type: t.url, get: (c, ctx) => ctx.urls.web(`projects/${componentPath(ctx.catalog, c)}`) },
    { name: 'url', type: t.url, get: (c, ctx) => api(c, ctx) },
    { name: 'repository_url', type: t.url, get: (c, ctx) => api(c, ctx, 'repository/') },
    { name: 'translations_url', type: t.url, get: (c, ctx) => api(c, ctx, 'translations/') },
    { name: 'statistics_url', type: t.url, get: (c, ctx) => api(c, ctx, 'statistics/') },
    { name: 'lock_url', type: t.url, get: (c, ctx) => api(c, ctx, 'lock/') },
    { name: 'links_url', type: t.url, get: (c, ctx) => api(c, ctx, 'links/') },
    { name: 'changes_list_url', type: t.url, get: (c, ctx) => api(c, ctx, 'changes/') },
    // tms runs no background tasks the API could point to.
    { name: 'task_url', type: t.nullable(t.url), get: () => null },
    { name: 'new_lang', type: t.string, get: s('new_lang', 'add') },
    { name: 'language_code_style', type: t.string, get: s('language_code_style', '') },
    { name: 'push', type: t.nullable(t.string), get: vcs(s('push', '')) },
    { name: 'check_flags', type: t.string, get: s('check_flags', '') },
    { name: 'priority', type: t.integer, get: s('priority', 100) },
    { name: 'enforced_checks', type: t.array(t.string), get: s('enforced_checks', []) },
    { name: 'restricted', type: t.boolean, get: s('restricted', false) },
    { name: 'repoweb', type: t.string, get: s('repoweb', '') },
    { name: 'report_source_bugs', type: t.string, get: s('report_source_bugs', '') },
    { name: 'merge_style', type: t.string, get: s('merge_style', 'rebase') },
    { name: 'commit_message', type: t.string, get: s('commit_message', '') },
    { name: 'add_message', type: t.string, get: s('add_message', '') },
    { name: 'delete_message', type: t.string, get: s('delete_message', '') },
    { name: 'merge_message', type: t.string, get: s('merge_message', '') },
    { name: 'addon_message', type: t.string, get: s('addon_message', '') },
    { name: 'pull_message', type: t.string, get: s('pull_message', '') },
    { name: 'allow_translation_propagation', type: t.boolean, get: s('allow_translation_propagation', true) },
    { name: 'manage_units', type: t.boolean, get: s('manage_units', false) },
    { name: 'enable_suggestions', type: t.boolean, get: s('enable_suggestions', true) },
    { name: 'suggestion_voting', type: t.boolean, get: s('suggestion_voting', false) },
    { name: 'suggestion_autoaccept', type: t.integer, get: s('suggestion_autoaccept', 0) },
    { name: 'push_on_commit', type: t.boolean, get: s('push_on_commit', true) },
    { name: 'commit_pending_age', type: t.integer, get: s('commit_pending_age', 24) },
    { name: 'auto_lock_error', type: t.boolean, get: s('auto_lock_error', true) },
    { name: 'language_regex', type: t.string, get: s('language_regex', '^[^.]+$') },
    { name: 'variant_regex', type: t.string, get: s('variant_regex', '') },
    {
      name: 'addons',
      type: t.array(t.url),
      get: (c, ctx) => ctx.catalog.addons.filter((a) => a.componentId === c.id).map((a) => ctx.urls.api(`addons/${seg(a.id)}/`)),
    },
    { name: 'is_glossary', type: t.boolean, get: s('is_glossary', false) },
    { name: 'glossary_color', type: t.string, get: s('glossary_color', 'silver') },
    // tms has no categories.
    { name: 'category', type: t.nullable(t.url), get: () => null },
    { name: 'linked_component', type: t.nullable(t.url), get: (c, ctx) => linkedComponent(c, ctx) },
  ],
  { key: (c) => c.id },
);

/** A component listed under its project: the same record without `project`. */
export const projectComponentSerializer = componentSerializer.without('ProjectComponent', 'project');
