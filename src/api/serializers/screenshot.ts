// The screenshot record (`/api/screenshots/<id>/`), as Weblate's ScreenshotSerializer.
import type { ScreenshotRow } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import { type Ctx, translationPath } from './common.js';

/** Its translation and units as links; `repository_filename` is empty (tms takes no screenshots from the repository). */
export const screenshotSerializer = new Serializer<ScreenshotRow, Ctx>('Screenshot', [
  { name: 'id', type: t.integer, get: (s) => s.id },
  { name: 'name', type: t.string, get: (s) => s.name },
  { name: 'repository_filename', type: t.string, get: () => '' },
  {
    name: 'translation',
    type: t.url,
    get: (s, ctx) => ctx.urls.api(`translations/${translationPath(ctx.catalog, ctx.catalog.translationsById.get(s.translation_id)!)}`),
  },
  { name: 'file_url', type: t.url, get: (s, ctx) => ctx.urls.api(`screenshots/${s.id}/file/`) },
  { name: 'units', type: t.array(t.url), get: (s, ctx) => s.units.map((id) => ctx.urls.api(`units/${id}/`)) },
  { name: 'url', type: t.url, get: (s, ctx) => ctx.urls.api(`screenshots/${s.id}/`) },
]);
