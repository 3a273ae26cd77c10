// The category record (tms keeps no categories: its lists are empty; the record is for the schema).
import { Serializer, t } from '../serializer.js';
import type { Ctx } from './common.js';

/** Categories: tms has none, so the lists are always empty; the record is Weblate's, for the schema. */
export const categorySerializer = new Serializer<unknown, Ctx>('Category', [
  { name: 'id', type: t.integer, get: () => 0 },
  { name: 'name', type: t.string, get: () => '' },
  { name: 'slug', type: t.string, get: () => '' },
  { name: 'project', type: t.url, get: () => '' },
  { name: 'category', type: t.nullable(t.url), get: () => null },
  { name: 'url', type: t.url, get: () => '' },
  { name: 'statistics_url', type: t.url, get: () => '' },
]);
