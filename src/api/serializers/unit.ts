// The Unit record, as Weblate's UnitSerializer (plural forms as arrays, exact 64-bit hashes).

import { hashToChecksum } from '../../domain/hash.js';
import { PLURAL_SEPARATOR, State } from '../../domain/unit.js';
import { catalogPlural } from '../../operations/index.js';
import type { UnitRecord } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import { type Ctx, iso } from './common.js';
import { pathOf } from './translation.js';

/** Weblate's `?checksum=` of a unit. */
export const checksumOf = hashToChecksum;

/** Target forms: a plural unit shows exactly the translation's number of plural forms (its file's or format's, else its language's). */
function targetOf(u: UnitRecord, ctx: Ctx): string[] {
  const forms = u.target.split(PLURAL_SEPARATOR);
  if (!u.source.includes(PLURAL_SEPARATOR)) return forms.length === 1 ? forms : [u.target];
  const plurals = catalogPlural(ctx.catalog, ctx.catalog.translationsById.get(u.translationId)!).number;
  if (forms.length > plurals) return forms.slice(0, plurals);
  while (forms.length < plurals) forms.push('');
  return forms;
}

function translationOf(u: UnitRecord, ctx: Ctx) {
  return ctx.catalog.translationsById.get(u.translationId)!;
}

/** `/api/units/<id>/` */
export const unitSerializer = new Serializer<UnitRecord, Ctx>('Unit', [
  { name: 'translation', type: t.url, get: (u, ctx) => ctx.urls.api(`translations/${pathOf(translationOf(u, ctx), ctx)}`) },
  { name: 'source', type: t.array(t.string), get: (u) => u.source.split(PLURAL_SEPARATOR) },
  { name: 'previous_source', type: t.string, get: (u) => u.previousSource },
  { name: 'target', type: t.array(t.string), get: targetOf },
  { name: 'id_hash', type: t.int64, get: (u) => u.idHash },
  { name: 'content_hash', type: t.int64, get: (u) => u.contentHash },
  { name: 'location', type: t.string, get: (u) => u.location },
  { name: 'context', type: t.string, get: (u) => u.context },
  { name: 'note', type: t.string, get: (u) => u.note },
  { name: 'flags', type: t.string, get: (u) => u.flags },
  // tms keeps no labels yet.
  { name: 'labels', type: t.array(t.object), get: () => [] },
  { name: 'state', type: t.integer, get: (u) => u.state },
  { name: 'fuzzy', type: t.boolean, get: (u) => u.state === State.FUZZY },
  { name: 'translated', type: t.boolean, get: (u) => u.state >= State.TRANSLATED },
  { name: 'approved', type: t.boolean, get: (u) => u.state === State.APPROVED },
  { name: 'position', type: t.integer, get: (u) => u.position },
  { name: 'has_suggestion', type: t.boolean, get: (u) => u.hasSuggestion },
  { name: 'has_comment', type: t.boolean, get: (u) => u.hasComment },
  { name: 'has_failing_check', type: t.boolean, get: (u) => u.hasFailingCheck },
  { name: 'num_words', type: t.integer, get: (u) => u.numWords },
  { name: 'source_unit', type: t.url, get: (u, ctx) => ctx.urls.api(`units/${u.sourceUnitId ?? u.id}/`) },
  { name: 'priority', type: t.integer, get: (u) => u.priority },
  { name: 'id', type: t.integer, get: (u) => u.id },
  {
    name: 'web_url',
    type: t.url,
    get: (u, ctx) => ctx.urls.web(`translate/${pathOf(translationOf(u, ctx), ctx)}`, `checksum=${checksumOf(u.idHash)}`),
  },
  { name: 'url', type: t.url, get: (u, ctx) => ctx.urls.api(`units/${u.id}/`) },
  { name: 'explanation', type: t.string, get: (u) => u.explanation },
  { name: 'extra_flags', type: t.string, get: (u) => u.extraFlags },
  { name: 'pending', type: t.boolean, get: (u) => u.pending },
  { name: 'timestamp', type: t.timestamp, get: (u) => iso(u.timestamp) },
  // Weblate's newer versions: the unit's text is automatic translation's (its "Automatically translated" label before)
  { name: 'automatically_translated', type: t.boolean, get: (u) => u.automaticallyTranslated },
]);
