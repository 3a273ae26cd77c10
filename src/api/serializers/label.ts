// The label record (tms keeps no labels yet; the record is for the schema).
import { Serializer, t } from '../serializer.js';
import type { Ctx } from './common.js';

/** Labels: tms has none yet; the record is Weblate's, for the schema. */
export const labelSerializer = new Serializer<unknown, Ctx>('Label', [
  { name: 'id', type: t.integer, get: () => 0 },
  { name: 'name', type: t.string, get: () => '' },
  { name: 'description', type: t.string, get: () => '' },
  { name: 'color', type: t.string, get: () => '' },
]);
