// Handlers for the statistics endpoints of translations, components, projects, languages and project languages.
import type { Translation } from '../../store/index.js';
import { type Answer, json } from '../answer.js';
import type { RequestContext } from '../context.js';
import { componentOf, projectOf, translationOf } from '../lookup.js';
import { paginateArray } from '../pagination.js';
import {
  type StatisticsRecord,
  projectLanguageStatisticsSerializer,
  statisticsSerializer,
  translationStatisticsSerializer,
} from '../serializers/statistics.js';
import { countsOf, pathOf, reviewOf } from '../serializers/translation.js';
import { sumStats } from '../statistics.js';
import { seg } from '../urls.js';
import { visibleLanguage } from './catalog.js';

function translationRow(ctx: RequestContext, tr: Translation): StatisticsRecord {
  const language = ctx.catalog.languages.get(tr.languageId)!;
  return {
    counts: countsOf(tr, ctx),
    review: reviewOf(tr, ctx),
    name: language.name,
    url: ctx.urls.web(`projects/${pathOf(tr, ctx)}`),
    code: language.code,
    translateUrl: ctx.urls.web(`translate/${pathOf(tr, ctx)}`),
  };
}

export function translationStatistics(ctx: RequestContext): Answer {
  return json(translationStatisticsSerializer.write(translationRow(ctx, translationOf(ctx)), ctx));
}

/** One record per translation of the component (source included), by translation id, large pages. */
export function componentStatistics(ctx: RequestContext): Answer {
  const component = componentOf(ctx);
  const translations = ctx.catalog.translationsByComponent.get(component.id) ?? [];
  return json(paginateArray(ctx, 'large', translations, (tr) => translationStatisticsSerializer.write(translationRow(ctx, tr), ctx)));
}

function visibleProjectTranslations(ctx: RequestContext, projectId: number): Translation[] {
  const out: Translation[] = [];
  for (const component of ctx.catalog.components) {
    if (component.projectId !== projectId || !ctx.access.component(component)) continue;
    out.push(...(ctx.catalog.translationsByComponent.get(component.id) ?? []));
  }
  return out;
}

export function projectStatistics(ctx: RequestContext): Answer {
  const project = projectOf(ctx);
  const row: StatisticsRecord = {
    counts: sumStats(visibleProjectTranslations(ctx, project.id).map((tr) => ctx.catalog.stats.get(tr.id))),
    review: Boolean(project.settings.translation_review || project.settings.source_review),
    name: project.name,
    url: ctx.urls.web(`projects/${seg(project.slug)}/`),
  };
  return json(statisticsSerializer.write(row, ctx));
}

/** A plain array (not paginated): one record per language used in the project, by language name. */
export function projectLanguages(ctx: RequestContext): Answer {
  const project = projectOf(ctx);
  const byLanguage = new Map<number, Translation[]>();
  for (const tr of visibleProjectTranslations(ctx, project.id)) {
    const list = byLanguage.get(tr.languageId);
    if (list) list.push(tr);
    else byLanguage.set(tr.languageId, [tr]);
  }
  const languages = [...byLanguage.keys()].map((id) => ctx.catalog.languages.get(id)!);
  languages.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  const review = Boolean(project.settings.translation_review || project.settings.source_review);
  const records = languages.map((language) =>
    projectLanguageStatisticsSerializer.write(
      {
        counts: sumStats(byLanguage.get(language.id)!.map((tr) => ctx.catalog.stats.get(tr.id))),
        review,
        name: language.name,
        url: ctx.urls.web(`projects/${seg(project.slug)}/-/${seg(language.code)}/`),
        code: language.code,
        translateUrl: ctx.urls.web(`translate/${seg(project.slug)}/-/${seg(language.code)}/`),
      },
      ctx,
    ),
  );
  return json(`[${records.join(',')}]`);
}

export function languageStatistics(ctx: RequestContext): Answer {
  const language = visibleLanguage(ctx);
  const translations = ctx.catalog.translations.filter((tr) => tr.languageId === language.id && ctx.access.translation(tr));
  const row: StatisticsRecord = {
    counts: sumStats(translations.map((tr) => ctx.catalog.stats.get(tr.id))),
    review: false,
    name: language.name,
    url: ctx.urls.web(`languages/${seg(language.code)}/`),
  };
  return json(statisticsSerializer.write(row, ctx));
}
