// The Language record (with its nested Plural), as Weblate's LanguageSerializer.
import type { Language } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import { seg } from '../urls.js';
import type { Ctx } from './common.js';

export const pluralSerializer = new Serializer<Language, Ctx>('Plural', [
  // A language has one plural in tms; its id is the language's.
  { name: 'id', type: t.integer, get: (l) => l.id },
  { name: 'source', type: t.integer, get: (l) => l.pluralSource },
  { name: 'number', type: t.integer, get: (l) => l.pluralNumber },
  { name: 'formula', type: t.string, get: (l) => l.pluralFormula },
  { name: 'type', type: t.integer, get: (l) => l.pluralType },
]);

/** `/api/languages/<code>/` */
export const languageSerializer = new Serializer<Language, Ctx>(
  'Language',
  [
    { name: 'id', type: t.integer, get: (l) => l.id },
    { name: 'code', type: t.string, get: (l) => l.code },
    { name: 'name', type: t.string, get: (l) => l.name },
    { name: 'plural', type: t.record(pluralSerializer), get: (l) => l },
    { name: 'aliases', type: t.array(t.string), get: (l) => l.aliases },
    { name: 'direction', type: t.string, get: (l) => l.direction },
    { name: 'population', type: t.integer, get: (l) => l.population },
    { name: 'web_url', type: t.url, get: (l, ctx) => ctx.urls.web(`languages/${seg(l.code)}/`) },
    { name: 'url', type: t.url, get: (l, ctx) => ctx.urls.api(`languages/${seg(l.code)}/`) },
    { name: 'statistics_url', type: t.url, get: (l, ctx) => ctx.urls.api(`languages/${seg(l.code)}/statistics/`) },
  ],
  { key: (l) => l.id },
);
