// Handlers for screenshots (`/api/screenshots/`, `/api/components/<p>/<c>/screenshots/`), as Weblate's ScreenshotViewSet answers them.
import { Action } from '../../domain/actions.js';
import { type ImageFacts, readImage } from '../../domain/image.js';
import { type ChangeInput, recordChangeRow } from '../../store/changes.repo.js';
import { now } from '../../store/index.js';
import type { Component, Project, ScreenshotRow, Translation } from '../../store/index.js';
import * as screenshots from '../../store/screenshots.repo.js';
import { findUnitBrief } from '../../store/units.repo.js';
import type { Answer } from '../answer.js';
import { json } from '../answer.js';
import { type UploadedFile, field, hasField, stringField } from '../body.js';
import type { RequestContext } from '../context.js';
import { notFound, permissionDenied, validationError } from '../errors.js';
import { componentOf, idOf, projectOfComponent } from '../lookup.js';
import { paginate, paginateArray } from '../pagination.js';
import { screenshotSerializer } from '../serializers/screenshot.js';
import { type Permission, type WriteContext, fieldsError, refusal, targetOf } from '../write.js';

/** Weblate's longest screenshot name. */
const NAME_MAX = 200;

/** A screenshot with the catalog objects it belongs to. */
interface Placed {
  screenshot: ScreenshotRow;
  translation: Translation;
  component: Component;
  project: Project;
}

const NO_CONTENT: Answer = { status: 204, bytes: new Uint8Array(), contentType: '' };

/** Ids of the components the caller may see, or null when every one. */
function visibleComponentIds(ctx: RequestContext): number[] | null {
  if (ctx.access.projectIds() === null && ctx.access.hiddenComponentIds().length === 0) return null;
  return ctx.catalog.components.filter((c) => ctx.access.component(c)).map((c) => c.id);
}

/** `GET /api/screenshots/`: the screenshots of every visible component, by id. */
export async function listScreenshots(ctx: RequestContext): Promise<Answer> {
  const { store } = ctx.services;
  const ids = visibleComponentIds(ctx);
  return json(
    await paginate(
      ctx,
      'standard',
      await store.read((tx) => screenshots.countScreenshots(tx, ids)),
      (slice) => store.read((tx) => screenshots.screenshots(tx, ids, slice)),
      (s) => screenshotSerializer.write(s, ctx),
    ),
  );
}

/** The change (57, 58 or 85) a screenshot's addition, new image or removal records on its translation. */
function screenshotChange(ctx: WriteContext, on: Omit<Placed, 'screenshot'>, action: number, name: string, timestamp: string): ChangeInput {
  return {
    action,
    timestamp,
    projectId: on.project.id,
    componentId: on.component.id,
    translationId: on.translation.id,
    languageId: on.translation.languageId,
    userId: ctx.user.id,
    target: name,
  };
}

/** `{id}` of the path: a screenshot of a visible component, else 404 (another project's stays unseen). */
async function placedOf(ctx: RequestContext): Promise<Placed> {
  const screenshot = await ctx.services.store.read((tx) => screenshots.findScreenshot(tx, idOf(ctx)));
  const translation = screenshot && ctx.catalog.translationsById.get(screenshot.translation_id);
  const component = translation && ctx.catalog.componentsById.get(translation.componentId);
  if (!screenshot || !translation || !component || !ctx.access.component(component)) throw notFound();
  return { screenshot, translation, component, project: projectOfComponent(ctx, component) };
}

/** 403 unless the caller has `permission` on the screenshot's translation (`message`: Weblate's text, else the generic one). */
function requireOn(ctx: RequestContext, permission: Permission, on: Omit<Placed, 'screenshot'>, message?: string): void {
  if (refusal(ctx, permission, targetOf(ctx, on.project, on.component, on.translation)) !== null) throw permissionDenied(message);
}

export async function getScreenshot(ctx: RequestContext): Promise<Answer> {
  return json(screenshotSerializer.write((await placedOf(ctx)).screenshot, ctx));
}

/** The record as it is after a write. */
async function fresh(ctx: WriteContext, id: number): Promise<string> {
  const after = await ctx.reload();
  const row = await after.services.store.read((tx) => screenshots.findScreenshot(tx, id));
  return screenshotSerializer.write(row!, after);
}

/** The `image` file of the body, checked by its bytes (400 on `image`). */
function imageOf(ctx: WriteContext): { file: UploadedFile; facts: ImageFacts } {
  const file = ctx.body.files.get('image');
  if (!file) {
    if (hasField(ctx.body, 'image')) throw validationError('image', 'The submitted data was not a file. Check the encoding type on the form.');
    throw validationError('image', 'No file was submitted.', 'required');
  }
  return { file, facts: readImage(file.bytes, 'image') };
}

/** The `name` field: required unless `partial`, at most 200 characters. */
function nameOf(ctx: WriteContext, partial: boolean): string | undefined {
  const name = stringField(ctx.body, 'name');
  if (name === undefined) {
    if (partial) return undefined;
    throw validationError('name', 'This field is required.', 'required');
  }
  if (name.trim() === '') throw validationError('name', 'This field may not be blank.', 'blank');
  if (name.length > NAME_MAX) throw validationError('name', `Ensure this field has no more than ${NAME_MAX} characters.`, 'max_length');
  return name.trim();
}

/** Stores a new screenshot of `translation` from the body's `name` and `image`, recorded as "Screenshot added"; 201. */
async function create(ctx: WriteContext, on: Omit<Placed, 'screenshot'>): Promise<Answer> {
  requireOn(ctx, 'screenshot.add', on, 'Can not add screenshot.');
  const name = nameOf(ctx, false)!;
  const { file, facts } = imageOf(ctx);
  const timestamp = now();
  const id = await ctx.services.store.write(async (tx) => {
    const created = await screenshots.createScreenshot(tx, {
      translationId: on.translation.id,
      name,
      image: file.bytes,
      ...facts,
      userId: ctx.user.id,
      timestamp,
    });
    await recordChangeRow(tx, screenshotChange(ctx, on, Action.SCREENSHOT_ADDED, name, timestamp));
    return created;
  });
  return { status: 201, json: await fresh(ctx, id), headers: { Location: ctx.urls.api(`screenshots/${id}/`) } };
}

/**
 * `POST /api/screenshots/`: `project_slug`, `component_slug`, `language_code` (the translation it belongs to, as
 * Weblate), `name` and a multipart `image` (PNG, JPEG or WebP); `screenshot.add`.
 */
export async function createScreenshot(ctx: WriteContext): Promise<Answer> {
  const keys = ['project_slug', 'component_slug', 'language_code'] as const;
  for (const key of keys) if (field(ctx.body, key) === undefined) throw validationError(key, 'This field is required.', 'required');
  const [project, component, language] = keys.map((k) => stringField(ctx.body, k) ?? '');
  const found = ctx.catalog.componentsByPath.get(`${project}/${component}`);
  const translation = found && ctx.catalog.translationsByKey.get(`${found.id}/${language}`);
  if (!found || !translation || !ctx.access.component(found)) {
    throw fieldsError(keys, 'Translation matching query does not exist.');
  }
  return create(ctx, { translation, component: found, project: projectOfComponent(ctx, found) });
}

/** `GET /api/components/<p>/<c>/screenshots/`: the component's screenshots by id. */
export async function listComponentScreenshots(ctx: RequestContext): Promise<Answer> {
  const component = componentOf(ctx);
  const rows = await ctx.services.store.read((tx) => screenshots.componentScreenshots(tx, component.id));
  return json(
    paginateArray(
      ctx,
      'standard',
      [...rows].sort((a, b) => a.id - b.id),
      (s) => screenshotSerializer.write(s, ctx),
    ),
  );
}

/**
 * `POST /api/components/<p>/<c>/screenshots/` (tms): `name` and `image`, for the component's source language, or the
 * translation `language_code` names.
 */
export async function createComponentScreenshot(ctx: WriteContext): Promise<Answer> {
  const component = componentOf(ctx);
  const translations = ctx.catalog.translationsByComponent.get(component.id) ?? [];
  const code = stringField(ctx.body, 'language_code');
  const translation = code ? ctx.catalog.translationsByKey.get(`${component.id}/${code}`) : translations.find((t) => t.isSource);
  if (!translation) throw validationError('language_code', 'Translation matching query does not exist.');
  return create(ctx, { translation, component, project: projectOfComponent(ctx, component) });
}

/** `PUT` / `PATCH /api/screenshots/<id>/`: its `name` (`screenshot.edit`). */
export async function updateScreenshot(ctx: WriteContext, partial: boolean): Promise<Answer> {
  const placed = await placedOf(ctx);
  requireOn(ctx, 'screenshot.edit', placed, 'Can not edit screenshot.');
  const name = nameOf(ctx, partial);
  if (name !== undefined) await ctx.services.store.write((tx) => screenshots.renameScreenshot(tx, placed.screenshot.id, name));
  return json(await fresh(ctx, placed.screenshot.id));
}

/** `DELETE /api/screenshots/<id>/` (`screenshot.delete`), recorded as "Screenshot removed"; 204. */
export async function deleteScreenshot(ctx: WriteContext): Promise<Answer> {
  const { screenshot, ...on } = await placedOf(ctx);
  requireOn(ctx, 'screenshot.delete', on, 'Can not delete screenshot.');
  const timestamp = now();
  await ctx.services.store.write(async (tx) => {
    await screenshots.deleteScreenshot(tx, screenshot.id);
    await recordChangeRow(tx, screenshotChange(ctx, on, Action.SCREENSHOT_REMOVED, screenshot.name, timestamp));
  });
  return NO_CONTENT;
}

/** `GET /api/screenshots/<id>/file/`: the image, in its own media type. */
export async function screenshotFile(ctx: RequestContext): Promise<Answer> {
  const { screenshot } = await placedOf(ctx);
  const image = await ctx.services.store.read((tx) => screenshots.screenshotImage(tx, screenshot.id));
  if (!image) throw notFound();
  return {
    bytes: image.image,
    contentType: image.media_type,
    headers: { 'Last-Modified': new Date(Date.parse(image.timestamp)).toUTCString(), 'Content-Disposition': 'inline' },
  };
}

/** `POST /api/screenshots/<id>/file/`: a new `image` in place of the old (`screenshot.edit`), recorded as "Screenshot uploaded". */
export async function replaceScreenshotFile(ctx: WriteContext): Promise<Answer> {
  const { screenshot, ...on } = await placedOf(ctx);
  requireOn(ctx, 'screenshot.edit', on);
  const { file, facts } = imageOf(ctx);
  const timestamp = now();
  await ctx.services.store.write(async (tx) => {
    await screenshots.replaceScreenshotImage(tx, screenshot.id, { bytes: file.bytes, ...facts, timestamp });
    await recordChangeRow(tx, screenshotChange(ctx, on, Action.SCREENSHOT_UPLOADED, screenshot.name, timestamp));
  });
  return json('{"result":true}');
}

/** A unit id of the screenshot's translation, or undefined. */
async function unitOfScreenshot(ctx: RequestContext, screenshot: ScreenshotRow, raw: unknown): Promise<number | undefined> {
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d{1,15}\s*$/.test(raw) ? Number.parseInt(raw, 10) : Number.NaN;
  if (!Number.isSafeInteger(id)) return undefined;
  const unit = await ctx.services.store.read((tx) => findUnitBrief(tx, id));
  return unit && unit.translation_id === screenshot.translation_id ? unit.id : undefined;
}

/** `POST /api/screenshots/<id>/units/` with `unit_id`: links a string of the screenshot's translation (`screenshot.edit`). */
export async function linkScreenshotUnit(ctx: WriteContext): Promise<Answer> {
  const { screenshot, ...on } = await placedOf(ctx);
  requireOn(ctx, 'screenshot.edit', on);
  const raw = field(ctx.body, 'unit_id');
  if (raw === undefined) throw validationError('unit_id', 'This field is required.', 'required');
  const unitId = await unitOfScreenshot(ctx, screenshot, raw);
  if (unitId === undefined) throw validationError('unit_id', 'Unit matching query does not exist.');
  await ctx.services.store.write((tx) => screenshots.setScreenshotUnit(tx, screenshot.id, unitId, true));
  return json(await fresh(ctx, screenshot.id));
}

/** `DELETE /api/screenshots/<id>/units/<unit_id>/`: unlinks the string (`screenshot.edit`); 404 for a unit of another translation. */
export async function unlinkScreenshotUnit(ctx: WriteContext): Promise<Answer> {
  const { screenshot, ...on } = await placedOf(ctx);
  requireOn(ctx, 'screenshot.edit', on);
  const unitId = await unitOfScreenshot(ctx, screenshot, String(idOf(ctx, 'unit_id')));
  if (unitId === undefined) throw notFound();
  await ctx.services.store.write((tx) => screenshots.setScreenshotUnit(tx, screenshot.id, unitId, false));
  return NO_CONTENT;
}
