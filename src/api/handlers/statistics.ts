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
import { type Counts, emptyCounts, siteStats } from '../statistics.js';
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

export function projectStatistics(ctx: RequestContext): Answer {
  const project = projectOf(ctx);
  const row: StatisticsRecord = {
    counts: siteStats(ctx.access, ctx.catalog).projects.get(project.id) ?? emptyCounts(),
    review: Boolean(project.settings.translation_review || project.settings.source_review),
    name: project.name,
    url: ctx.urls.web(`projects/${seg(project.slug)}/`),
  };
  return json(statisticsSerializer.write(row, ctx));
}

/** A plain array (not paginated): one record per language used in the project, by language name. */
export function projectLanguages(ctx: RequestContext): Answer {
  const project = projectOf(ctx);
  const sums = siteStats(ctx.access, ctx.catalog).projectLanguages.get(project.id) ?? new Map<number, Counts>();
  const languages = [...sums.keys()].map((id) => ctx.catalog.languages.get(id)!);
  languages.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  const review = Boolean(project.settings.translation_review || project.settings.source_review);
  const records = languages.map((language) =>
    projectLanguageStatisticsSerializer.write(
      {
        counts: sums.get(language.id)!,
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
  const row: StatisticsRecord = {
    counts: siteStats(ctx.access, ctx.catalog).languages.get(language.id) ?? emptyCounts(),
    review: false,
    name: language.name,
    url: ctx.urls.web(`languages/${seg(language.code)}/`),
  };
  return json(statisticsSerializer.write(row, ctx));
}
