// The Translation record, as Weblate's TranslationSerializer (language and component nested, statistics inline).

import { percent } from '../../domain/percent.js';
import type { Translation } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import { type Counts, emptyCounts } from '../statistics.js';
import { seg } from '../urls.js';
import { type Ctx, iso, translationPath } from './common.js';
import { componentSerializer } from './component.js';
import { languageSerializer } from './language.js';

/** The translation's path `<p>/<c>/<lang>/`, computed once per answer. */
export function pathOf(tr: Translation, ctx: Ctx): string {
  const key = `path:${tr.id}`;
  let path = ctx.memo.get(key);
  if (path === undefined) {
    path = translationPath(ctx.catalog, tr);
    ctx.memo.set(key, path);
  }
  return path;
}

export function countsOf(tr: Translation, ctx: Ctx): Counts {
  return ctx.catalog.stats.get(tr.id) ?? emptyCounts();
}

/** Review is on for the source translation with source review, for others with translation review. */
export function reviewOf(tr: Translation, ctx: Ctx): boolean {
  const component = ctx.catalog.componentsById.get(tr.componentId)!;
  const project = ctx.catalog.projectsById.get(component.projectId)!;
  return Boolean(tr.isSource ? project.settings.source_review : project.settings.translation_review);
}

const api = (tr: Translation, ctx: Ctx, sub = '') => ctx.urls.api(`translations/${pathOf(tr, ctx)}${sub}`);
const count = (key: keyof Counts) => (tr: Translation, ctx: Ctx) => countsOf(tr, ctx)[key];
const pct = (key: 'translated' | 'fuzzy' | 'failing', zeroComplete: boolean) => (tr: Translation, ctx: Ctx) => {
  const c = countsOf(tr, ctx);
  return percent(c[key], c.total, zeroComplete && !reviewOf(tr, ctx));
};

/** `/api/translations/<project>/<component>/<language>/` */
export const translationSerializer = new Serializer<Translation, Ctx>('Translation', [
  { name: 'language', type: t.record(languageSerializer), get: (tr, ctx) => ctx.catalog.languages.get(tr.languageId)! },
  { name: 'component', type: t.record(componentSerializer), get: (tr, ctx) => ctx.catalog.componentsById.get(tr.componentId)! },
  { name: 'language_code', type: t.string, get: (tr) => tr.languageCode },
  { name: 'id', type: t.integer, get: (tr) => tr.id },
  { name: 'filename', type: t.string, get: (tr) => tr.filename },
  { name: 'revision', type: t.string, get: (tr) => tr.revision },
  { name: 'web_url', type: t.url, get: (tr, ctx) => ctx.urls.web(`projects/${pathOf(tr, ctx)}`) },
  {
    name: 'share_url',
    type: t.url,
    get: (tr, ctx) => {
      const component = ctx.catalog.componentsById.get(tr.componentId)!;
      const project = ctx.catalog.projectsById.get(component.projectId)!;
      return ctx.urls.web(`engage/${seg(project.slug)}/-/${seg(ctx.catalog.languages.get(tr.languageId)!.code)}/`);
    },
  },
  { name: 'translate_url', type: t.url, get: (tr, ctx) => ctx.urls.web(`translate/${pathOf(tr, ctx)}`) },
  { name: 'url', type: t.url, get: (tr, ctx) => api(tr, ctx) },
  { name: 'is_template', type: t.boolean, get: (tr) => tr.isTemplate },
  { name: 'is_source', type: t.boolean, get: (tr) => tr.isSource },
  { name: 'total', type: t.integer, get: count('total') },
  { name: 'total_words', type: t.integer, get: count('total_words') },
  { name: 'translated', type: t.integer, get: count('translated') },
  { name: 'translated_words', type: t.integer, get: count('translated_words') },
  { name: 'translated_percent', type: t.percent, get: pct('translated', true) },
  { name: 'fuzzy', type: t.integer, get: count('fuzzy') },
  { name: 'fuzzy_words', type: t.integer, get: count('fuzzy_words') },
  { name: 'fuzzy_percent', type: t.percent, get: pct('fuzzy', false) },
  { name: 'failing_checks', type: t.integer, get: count('failing') },
  { name: 'failing_checks_words', type: t.integer, get: count('failing_words') },
  { name: 'failing_checks_percent', type: t.percent, get: pct('failing', false) },
  { name: 'have_suggestion', type: t.integer, get: count('suggestions') },
  { name: 'have_comment', type: t.integer, get: count('comments') },
  { name: 'last_change', type: t.nullable(t.timestamp), get: (tr, ctx) => iso(countsOf(tr, ctx).last_change) },
  { name: 'last_author', type: t.nullable(t.string), get: (tr, ctx) => countsOf(tr, ctx).last_author },
  { name: 'repository_url', type: t.url, get: (tr, ctx) => api(tr, ctx, 'repository/') },
  { name: 'file_url', type: t.url, get: (tr, ctx) => api(tr, ctx, 'file/') },
  { name: 'statistics_url', type: t.url, get: (tr, ctx) => api(tr, ctx, 'statistics/') },
  { name: 'changes_list_url', type: t.url, get: (tr, ctx) => api(tr, ctx, 'changes/') },
  { name: 'units_list_url', type: t.url, get: (tr, ctx) => api(tr, ctx, 'units/') },
]);

/** A translation listed under its component: the same record without `component`. */
export const componentTranslationSerializer = translationSerializer.without('ComponentTranslation', 'component');
