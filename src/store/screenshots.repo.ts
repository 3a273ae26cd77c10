// Screenshots (Weblate's): their records and images, and the source strings each one shows.
import type { Tx } from './db.js';
import { type Slice, preparedOnce } from './statements.js';

/** A screenshot without its image, with the ids around it and the units it shows (by id). */
export interface ScreenshotRow {
  id: number;
  translation_id: number;
  component_id: number;
  project_id: number;
  name: string;
  media_type: string;
  width: number;
  height: number;
  size: number;
  user_id: number | null;
  timestamp: string;
  units: number[];
}

/** A screenshot as the editor lists it beside a string. */
export interface ScreenshotBrief {
  id: number;
  name: string;
  width: number;
  height: number;
}

/** A string a screenshot shows, with how far its translations got. */
export interface ScreenshotString {
  id: number;
  id_hash: bigint;
  source: string;
  context: string;
  position: number;
  /** Translations (the source language's aside) where the string is translated or approved. */
  translated: number;
  /** Translations (the source language's aside) that have the string. */
  translations: number;
}

export interface NewScreenshot {
  translationId: number;
  name: string;
  image: Uint8Array;
  mediaType: string;
  width: number;
  height: number;
  userId: number | null;
  timestamp: string;
}

// every column but the image: a list never reads it
const COLUMNS = `s.id, s.translation_id, t.component_id, c.project_id, s.name, s.media_type, s.width, s.height, s.size, s.user_id, s.timestamp`;
const FROM = 'FROM screenshots s JOIN translations t ON t.id = s.translation_id JOIN components c ON c.id = t.component_id';

type Record = Omit<ScreenshotRow, 'units'>;

const sql = preparedOnce((tx: Tx) => ({
  byId: tx.prepare(`SELECT ${COLUMNS} ${FROM} WHERE s.id = ?`),
  all: tx.prepare(`SELECT ${COLUMNS} ${FROM} ORDER BY s.id LIMIT ? OFFSET ?`),
  among: tx.prepare(`SELECT ${COLUMNS} ${FROM} WHERE t.component_id IN (${tx.dialect.idsOfJson}) ORDER BY s.id LIMIT ? OFFSET ?`),
  countAll: tx.prepare('SELECT count(*) FROM screenshots').pluck(),
  countAmong: tx
    .prepare(`SELECT count(*) FROM screenshots s JOIN translations t ON t.id = s.translation_id WHERE t.component_id IN (${tx.dialect.idsOfJson})`)
    .pluck(),
  ofComponent: tx.prepare(`SELECT ${COLUMNS} ${FROM} WHERE t.component_id = ? ORDER BY s.name, s.id`),
  units: tx.prepare('SELECT unit_id FROM screenshot_units WHERE screenshot_id = ? ORDER BY unit_id').pluck(),
  image: tx.prepare('SELECT media_type, timestamp, image FROM screenshots WHERE id = ?'),
  insert: tx.prepare(
    tx.dialect.returningId(
      'INSERT INTO screenshots (translation_id, name, media_type, width, height, size, user_id, timestamp, image) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
  ),
  rename: tx.prepare('UPDATE screenshots SET name = ? WHERE id = ?'),
  replace: tx.prepare('UPDATE screenshots SET media_type = ?, width = ?, height = ?, size = ?, timestamp = ?, image = ? WHERE id = ?'),
  remove: tx.prepare('DELETE FROM screenshots WHERE id = ?'),
  link: tx.prepare('INSERT INTO screenshot_units (screenshot_id, unit_id) VALUES (?, ?) ON CONFLICT DO NOTHING'),
  unlink: tx.prepare('DELETE FROM screenshot_units WHERE screenshot_id = ? AND unit_id = ?'),
  ofUnits: tx.prepare(
    `SELECT DISTINCT s.id, s.name, s.width, s.height FROM screenshot_units su JOIN screenshots s ON s.id = su.screenshot_id
     WHERE su.unit_id IN (?, ?) ORDER BY s.name, s.id`,
  ),
  strings: tx.prepare(
    `SELECT u.id, CAST(u.id_hash AS TEXT) AS id_hash, u.source, u.context, u.position,
       (SELECT count(*) FROM translations ot JOIN units o ON o.translation_id = ot.id AND o.id_hash = u.id_hash
        WHERE ot.component_id = t.component_id AND ot.is_source = 0 AND o.state >= 20) AS translated,
       (SELECT count(*) FROM translations ot JOIN units o ON o.translation_id = ot.id AND o.id_hash = u.id_hash
        WHERE ot.component_id = t.component_id AND ot.is_source = 0) AS translations
     FROM screenshot_units su JOIN units u ON u.id = su.unit_id JOIN translations t ON t.id = u.translation_id
     WHERE su.screenshot_id = ? ORDER BY u.position, u.id`,
  ),
}));

async function withUnits(tx: Tx, r: Record): Promise<ScreenshotRow> {
  return { ...r, units: (await sql(tx).units.all(r.id)) as number[] };
}

async function withUnitsAll(tx: Tx, rows: Record[]): Promise<ScreenshotRow[]> {
  const out: ScreenshotRow[] = [];
  for (const r of rows) out.push(await withUnits(tx, r));
  return out;
}

/** One screenshot without its image. */
export async function findScreenshot(tx: Tx, id: number): Promise<ScreenshotRow | undefined> {
  const r = (await sql(tx).byId.get(id)) as Record | undefined;
  return r && (await withUnits(tx, r));
}

/**
 * Screenshots by id, of the components `componentIds` (null: every component).
 * @example await screenshots(tx, [3, 4], { limit: 50, offset: 0 })
 */
export async function screenshots(tx: Tx, componentIds: readonly number[] | null, slice: Slice): Promise<ScreenshotRow[]> {
  const s = sql(tx);
  const rows = componentIds === null ? await s.all.all(slice.limit, slice.offset) : await s.among.all(JSON.stringify(componentIds), slice.limit, slice.offset);
  return withUnitsAll(tx, rows as Record[]);
}

export async function countScreenshots(tx: Tx, componentIds: readonly number[] | null): Promise<number> {
  const s = sql(tx);
  return Number(componentIds === null ? await s.countAll.get() : await s.countAmong.get(JSON.stringify(componentIds)));
}

/** A component's screenshots by name. */
export async function componentScreenshots(tx: Tx, componentId: number): Promise<ScreenshotRow[]> {
  return withUnitsAll(tx, (await sql(tx).ofComponent.all(componentId)) as Record[]);
}

/** A screenshot's image with its media type and when it was uploaded. */
export async function screenshotImage(tx: Tx, id: number): Promise<{ media_type: string; timestamp: string; image: Uint8Array } | undefined> {
  return (await sql(tx).image.get(id)) as { media_type: string; timestamp: string; image: Uint8Array } | undefined;
}

/** Stores a new screenshot; its id. */
export async function createScreenshot(tx: Tx, s: NewScreenshot): Promise<number> {
  const result = await sql(tx).insert.run(s.translationId, s.name, s.mediaType, s.width, s.height, s.image.length, s.userId, s.timestamp, s.image);
  return Number(result.lastInsertRowid);
}

export async function renameScreenshot(tx: Tx, id: number, name: string): Promise<void> {
  await sql(tx).rename.run(name, id);
}

/** Puts a new image in place of a screenshot's. */
export async function replaceScreenshotImage(
  tx: Tx,
  id: number,
  image: { bytes: Uint8Array; mediaType: string; width: number; height: number; timestamp: string },
): Promise<void> {
  await sql(tx).replace.run(image.mediaType, image.width, image.height, image.bytes.length, image.timestamp, image.bytes, id);
}

/** Deletes a screenshot with its links; false when there was none. */
export async function deleteScreenshot(tx: Tx, id: number): Promise<boolean> {
  return (await sql(tx).remove.run(id)).changes > 0;
}

/** Links (or unlinks) a unit to a screenshot; false when nothing changed. */
export async function setScreenshotUnit(tx: Tx, screenshotId: number, unitId: number, linked: boolean): Promise<boolean> {
  const s = sql(tx);
  return (await (linked ? s.link.run(screenshotId, unitId) : s.unlink.run(screenshotId, unitId))).changes > 0;
}

/**
 * The screenshots showing a unit or its source unit (a screenshot usually shows the source language's), by name: one
 * lookup in the links' unit index.
 */
export async function unitScreenshots(tx: Tx, unitId: number, sourceUnitId: number | null): Promise<ScreenshotBrief[]> {
  return (await sql(tx).ofUnits.all(unitId, sourceUnitId ?? unitId)) as ScreenshotBrief[];
}

/** The strings a screenshot shows in file order, each with its translated count. */
export async function screenshotStrings(tx: Tx, screenshotId: number): Promise<ScreenshotString[]> {
  return ((await sql(tx).strings.all(screenshotId)) as (Omit<ScreenshotString, 'id_hash'> & { id_hash: string })[]).map((r) => ({
    ...r,
    id_hash: BigInt(r.id_hash),
    translated: Number(r.translated),
    translations: Number(r.translations),
  }));
}
