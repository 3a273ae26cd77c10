// Handlers for files: download a translation (pending edits applied, nothing committed) or a ZIP, upload a file, add a language.
import {
  type DownloadedFile,
  addLanguage,
  catalogPlural,
  downloadComponentZip,
  downloadProjectZip,
  downloadTranslation,
  exportTranslation,
  uploadTranslation,
} from '../../operations/index.js';
import { ADD_HINT, METHOD_UNAVAILABLE } from '../../operations/upload.js';
import { type Answer, json } from '../answer.js';
import { field, stringField } from '../body.js';
import { type RequestContext, queryValue } from '../context.js';
import { notFound, permissionDenied, validationError } from '../errors.js';
import { toJson } from '../json.js';
import { componentOf, projectOf, projectOfComponent, translationOf } from '../lookup.js';
import { componentTranslationSerializer, pathOf } from '../serializers/translation.js';
import {
  type Permission,
  type WriteContext,
  handleOf,
  mayEditElsewhere,
  projectConfigOf,
  refusal,
  refusalText,
  requirePermission,
  targetOf,
} from '../write.js';
import { unitFilterOf } from './units.js';

/**
 * `attachment; filename=…` as Weblate sends it (quoted for ZIPs), for a name that a header can carry; any other name
 * (control characters, non-ASCII) goes as RFC 6266's `filename*=UTF-8''…` with an ASCII fallback.
 */
export function contentDisposition(filename: string, quoted: boolean): string {
  if (/^[\x20-\x7e]*$/.test(filename) && !/["\\]/.test(filename)) return quoted ? `attachment; filename="${filename}"` : `attachment; filename=${filename}`;
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** A downloaded file as an answer, with `Last-Modified` and a 304 for an `If-Modified-Since` at or after it. */
function fileAnswer(ctx: RequestContext, file: DownloadedFile, conditional: boolean): Answer {
  const modified = new Date(file.lastModified.getTime());
  modified.setMilliseconds(0);
  const headers: Record<string, string> = { 'Last-Modified': modified.toUTCString() };
  const since = ctx.header('if-modified-since');
  if (conditional && since && Date.parse(since) >= modified.getTime()) return { status: 304, bytes: new Uint8Array(), contentType: '', headers };
  headers['Content-Disposition'] = contentDisposition(file.filename, file.mimeType === 'application/zip');
  return { bytes: file.bytes, contentType: file.mimeType, headers };
}

/**
 * `GET /api/translations/<p>/<c>/<lang>/file/`: the file as HEAD has it with the pending edits applied in memory
 * (reads never commit). `?format=` converts the translation's units (those `?q=` finds) with one of Weblate's
 * exporters (`xliff`, `xliff11`, `tmx`, `csv`, `json`, `po`, `mo`; 400 on `format` for others).
 */
export async function translationFile(ctx: RequestContext): Promise<Answer> {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  if (!ctx.access.can('translation.download', { project, component })) throw permissionDenied();
  const conversion = queryValue(ctx, 'format');
  if (conversion !== undefined && conversion !== '') {
    const file = await exportTranslation(
      await handleOf(ctx, project, component),
      ctx.params.language!,
      conversion,
      unitFilterOf(ctx),
      catalogPlural(ctx.catalog, translation),
    );
    return fileAnswer(ctx, file, true);
  }
  if (queryValue(ctx, 'q') !== undefined) throw validationError('q', 'Query string is ignored without format');
  if (translation.filename === '') throw notFound();
  const file = await downloadTranslation(await handleOf(ctx, project, component), ctx.params.language!);
  return fileAnswer(ctx, file, true);
}

/** `?format=` of a ZIP download: `zip` (the default) is the only one tms offers. */
function zipFormat(ctx: RequestContext): void {
  const format = queryValue(ctx, 'format');
  if (format !== undefined && format !== '' && format !== 'zip') throw validationError('format', `Conversion to ${format} is not supported`);
}

/** `GET /api/components/<p>/<c>/file/`: a ZIP of the component's files, pending edits applied. */
export async function componentFile(ctx: RequestContext): Promise<Answer> {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  if (!ctx.access.can('translation.download', { project, component })) throw permissionDenied();
  zipFormat(ctx);
  return fileAnswer(ctx, await downloadComponentZip(await handleOf(ctx, project, component)), false);
}

/** `GET /api/projects/<p>/file/`: a ZIP of every visible component's files. */
export async function projectFile(ctx: RequestContext): Promise<Answer> {
  const project = projectOf(ctx);
  if (!ctx.access.can('translation.download', { project })) throw permissionDenied();
  zipFormat(ctx);
  const config = projectConfigOf(ctx, project);
  // Restricted components the caller cannot see stay out of the archive.
  const visible = new Set(ctx.catalog.components.filter((c) => c.projectId === project.id && ctx.access.component(c)).map((c) => c.slug));
  const shown = { ...config, components: config.components.filter((c) => visible.has(c.slug)) };
  return fileAnswer(ctx, await downloadProjectZip(ctx.services.store, ctx.services.config, shown, { git: ctx.services.git }), false);
}

// Which permission each upload method needs (Weblate's check_upload_method_permissions).
const METHOD_PERMISSIONS: Record<string, Permission> = {
  translate: 'unit.edit',
  fuzzy: 'unit.edit',
  approve: 'unit.review',
  suggest: 'suggestion.add',
  add: 'unit.add',
  replace: 'component.edit',
  source: 'upload.perform',
};

/**
 * `POST`/`PUT /api/translations/<p>/<c>/<lang>/file/` (multipart or form): merges the uploaded file per `method`
 * and `conflicts`, answering Weblate's six counters. A file that does not parse is a 400 on `file`.
 */
export async function uploadFile(ctx: WriteContext): Promise<Answer> {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const project = projectOfComponent(ctx, component);
  const on = targetOf(ctx, project, component, translation);
  requirePermission(ctx, 'upload.perform', on);
  const body = ctx.body;
  const method = stringField(body, 'method') || 'translate';
  const conflicts = stringField(body, 'conflicts') ?? '';
  if (conflicts !== '' && conflicts !== 'ignore' && refusal(ctx, 'upload.overwrite', on) !== null) {
    throw validationError('conflicts', 'You can not overwrite existing translations.');
  }
  if (conflicts === 'replace-approved') {
    const reason = refusal(ctx, 'unit.review', on);
    if (reason !== null) throw validationError('conflicts', refusalText(reason) ?? 'You can not overwrite approved translations.');
  }
  const needed = METHOD_PERMISSIONS[method];
  if (needed) {
    const reason = refusal(ctx, needed, on);
    // Component settings (adding disabled, add on a translation, reviews off) are the repository's to explain.
    if (reason !== null && !['units-disabled', 'reviews-disabled', 'not-supported', 'source'].includes(reason)) {
      throw validationError('method', reason === 'add-to-source' ? ADD_HINT : METHOD_UNAVAILABLE);
    }
  }
  const upload = body.files.get('file');
  if (upload === undefined && field(body, 'file') !== undefined)
    throw validationError('file', 'The submitted data was not a file. Check the encoding type on the form.');
  const result = await uploadTranslation(await handleOf(ctx, project, component), ctx.params.language!, {
    bytes: upload?.bytes ?? null,
    method,
    conflicts,
    fuzzy: stringField(body, 'fuzzy') ?? '',
    user: ctx.user,
    // uploaded translations fill the same strings where the uploader may edit them, as Weblate's upload does
    mayPropagateTo: mayEditElsewhere(ctx),
  });
  return json(
    toJson({
      not_found: result.not_found,
      skipped: result.skipped,
      accepted: result.accepted,
      total: result.total,
      result: result.result,
      count: result.count,
    }),
  );
}

/** `POST /api/components/<p>/<c>/translations/` with `language_code`: adds a language file (48); 201 with the translation. */
export async function addComponentTranslation(ctx: WriteContext): Promise<Answer> {
  const component = componentOf(ctx);
  const project = projectOfComponent(ctx, component);
  const on = targetOf(ctx, project, component);
  const reason = refusal(ctx, 'translation.add', on);
  if (reason !== null) throw permissionDenied(reason === 'no-permission' ? 'Can not create translation' : refusalText(reason));
  const code = stringField(ctx.body, 'language_code');
  const { translationId } = await addLanguage(await handleOf(ctx, project, component), code, ctx.user);
  const fresh = await ctx.reload();
  const translation = fresh.catalog.translationsById.get(translationId);
  if (!translation) throw notFound();
  const url = fresh.urls.api(`translations/${pathOf(translation, fresh)}`);
  return { status: 201, json: `{"data":${componentTranslationSerializer.write(translation, fresh)}}`, headers: { Location: url } };
}
