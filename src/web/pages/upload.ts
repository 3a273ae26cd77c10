// Uploading a translation file from the translation page: the API's own upload handler (permissions, methods, conflicts).
import { jsonText } from '../../api/answer.js';
import { uploadFile } from '../../api/handlers/files.js';
import { translationOf } from '../../api/lookup.js';
import type { WriteContext } from '../../api/write.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue, refreshed } from '../context.js';
import { paths } from '../format.js';
import { html } from '../html.js';
import { page } from './layout.js';

/** `POST /upload/<p>/<c>/<lang>/` (multipart: `file`, `method`): merges the file and shows what changed. */
export async function uploadTranslationFile(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const write: WriteContext = { ...ctx, body: ctx.body!, reload: async () => refreshed(ctx) };
  const answer = await uploadFile(write);
  const result =
    'json' in answer ? (JSON.parse(jsonText(answer)) as { accepted?: number; total?: number; not_found?: number; skipped?: number; count?: number }) : {};
  const after = await refreshed(ctx);
  const back = paths.translation(after.catalog, translation);
  const conflicts = formValue(ctx, 'conflicts') ?? '';
  // a skipped string has a reason the counter does not say: the likeliest one is a choice of the form
  const why =
    conflicts === '' || conflicts === 'ignore'
      ? 'unchanged, read-only or already translated: “Existing strings” lets an upload change translated ones'
      : 'unchanged or read-only';
  const body = html`<h1>Upload</h1>
    <p role="status" class="notice" data-result="ok">
      The file was processed: ${result.accepted ?? 0} of ${result.total ?? result.count ?? 0} strings updated${result.skipped ? `, ${result.skipped} skipped (${why})` : ''}${result.not_found ? `, ${result.not_found} not found` : ''}.
    </p>
    <p><a href=${back}>Back to the translation</a></p>`;
  return { html: page(after, { title: 'Upload', body }) };
}
