// Downloads: a translation file as HEAD has it plus pending edits applied in memory, and ZIPs of a component or project.
import path from 'node:path';
import { type ComponentDeps, type ComponentHandle, hasWorkingCopy, openComponent } from '../component/handle.js';
import type { Config, ProjectConfig } from '../config/config.js';
import { NotFoundError, invalid } from '../domain/errors.js';
import { hashToChecksum } from '../domain/hash.js';
import { type UnitState, splitPlural } from '../domain/unit.js';
import { EXPORTERS, type ExportContext, type ExportUnit } from '../formats/export/index.js';
import type { ParsedFile } from '../formats/format.js';
import { pendingUnits } from '../store/edits.repo.js';
import type { PendingUnit, Store, TranslationInfo, UnitFilter } from '../store/index.js';
import { pendingRemovals } from '../store/removals.repo.js';
import { getStats } from '../store/stats.repo.js';
import { componentTranslations, findTranslationByCode } from '../store/translations.repo.js';
import { translationUnitRecords } from '../store/unit-records.repo.js';
import { withMutex } from './exclusive.js';
import { fileContext, readAtHead, templateAtHead, unitWrites } from './pending-write.js';
import { type ZipEntry, zipStore } from './zip.js';

/** A file to send. */
export interface DownloadedFile {
  bytes: Uint8Array;
  /** What `Content-Disposition` names it. */
  filename: string;
  mimeType: string;
  /** For `Last-Modified`: the translation's last content change, else now. */
  lastModified: Date;
}

/**
 * The files of these translations as HEAD has them, with the pending edits and removals applied by the format's
 * minimal-diff writer, in memory: nothing is written or committed. A file HEAD lacks is left out.
 * The caller holds the component's mutex, so no commit moves HEAD meanwhile.
 */
async function filesWithPending(h: ComponentHandle, translations: readonly TranslationInfo[]): Promise<Map<number, Uint8Array>> {
  const wanted = new Set(translations.map((t) => t.id));
  const rows = new Map<number, PendingUnit[]>();
  for (const u of [...(await h.store.read((tx) => pendingUnits(tx, h.row.id))), ...(await h.store.read((tx) => pendingRemovals(tx, h.row.id)))]) {
    if (!wanted.has(u.translation_id)) continue;
    let list = rows.get(u.translation_id);
    if (!list) rows.set(u.translation_id, (list = []));
    list.push(u);
  }
  let template: ParsedFile | null | undefined;
  const out = new Map<number, Uint8Array>();
  for (const t of translations) {
    const before = await readAtHead(h, t.filename);
    if (!before) continue;
    const pending = rows.get(t.id);
    if (!pending) {
      out.set(t.id, before);
      continue;
    }
    if (template === undefined) template = await templateAtHead(h);
    const ctx = fileContext(h, t, template);
    out.set(t.id, h.format.write(before, unitWrites(h.format, before, ctx, pending), ctx));
  }
  return out;
}

function extensionOf(h: ComponentHandle, file: string): string {
  return path.extname(file) || `.${h.format.extension}`;
}

/**
 * Weblate's `GET …/translations/<p>/<c>/<lang>/file/` without `?format`: the translation's file with pending
 * edits applied in memory (Weblate commits them first; reads in tms never create commits), named
 * `<project>-<component>-<language.code><ext>`. NotFoundError for an unknown translation, the source translation of
 * a bilingual component (it has no file), or a file not in the repository.
 * @example const { bytes, filename } = await downloadTranslation(h, 'de');
 */
export async function downloadTranslation(h: ComponentHandle, language: string): Promise<DownloadedFile> {
  const t = await h.store.read((tx) => findTranslationByCode(tx, h.row.id, language));
  if (!t) throw new NotFoundError('translation', `${h.key}/${language}`);
  if (t.filename === '') throw new NotFoundError('translation file', `${h.key}/${language}`);
  const bytes = await withMutex(h, async () => (hasWorkingCopy(h) ? (await filesWithPending(h, [t])).get(t.id) : undefined));
  if (!bytes) throw new NotFoundError('translation file', `${h.key}/${t.filename}`);
  const lastChange = (await h.store.read((tx) => getStats(tx, t.id)))?.last_change;
  return {
    bytes,
    filename: `${h.project.slug}-${h.component.slug}-${t.code}${extensionOf(h, t.filename)}`,
    mimeType: h.format.mimeType,
    lastModified: lastChange ? new Date(lastChange) : new Date(),
  };
}

/**
 * Weblate's `GET …/translations/<p>/<c>/<lang>/file/?format=<exporter>`: the translation's units (position order,
 * those matching `filter` when given, pending edits included) written by one of Weblate's exporters (`xliff`,
 * `xliff11`, `tmx`, `csv`, `json`, `po`, `mo`), named `<project>-<component>-<language>.<ext>`; `plural` is the
 * translation's (plural units get its forms, PO and MO its Plural-Forms). ValidationError on `format` for an
 * exporter tms does not have or one that does not fit the component (`json` needs a template, `mo` gettext PO).
 * @example const { bytes } = await exportTranslation(h, 'de', 'po', null, catalogPlural(catalog, translation));
 */
export async function exportTranslation(
  h: ComponentHandle,
  language: string,
  format: string,
  filter: UnitFilter | null,
  plural: { number: number; formula: string },
): Promise<DownloadedFile> {
  const exporter = EXPORTERS.get(format);
  if (!exporter) throw invalid('format', `Conversion to ${format} is not supported`);
  const t = await h.store.read((tx) => findTranslationByCode(tx, h.row.id, language));
  if (!t) throw new NotFoundError('translation', `${h.key}/${language}`);
  const ctx: ExportContext = {
    sourceLanguage: h.component.source_language,
    language: t.code,
    monolingual: h.component.template !== '',
    fileFormat: h.component.file_format,
    plural: { number: plural.number, formula: plural.formula },
    languageName: t.language_name,
    projectName: h.project.name,
    url: `${h.config.site_url.replace(/\/+$/, '')}/projects/${h.project.slug}/${h.component.slug}/${t.code}/`,
    date: new Date(),
  };
  if (!exporter.supports(ctx)) throw invalid('format', 'File format is not compatible with this translation');
  const source = (await h.store.read((tx) => componentTranslations(tx, h.row.id))).find((x) => x.is_source);
  const rows = await h.store.read((tx) => translationUnitRecords(tx, t.id, source?.id ?? null, filter, { limit: Number.MAX_SAFE_INTEGER, offset: 0 }));
  const units: ExportUnit[] = rows.map((u) => ({
    context: u.context,
    source: splitPlural(u.source),
    target: splitPlural(u.target),
    note: u.note,
    location: u.location,
    flags: u.flags,
    state: u.state as UnitState,
    checksum: hashToChecksum(u.idHash),
  }));
  const lastChange = (await h.store.read((tx) => getStats(tx, t.id)))?.last_change;
  return {
    bytes: exporter.write(units, ctx),
    filename: `${h.project.slug}-${h.component.slug}-${t.code}.${exporter.extension}`,
    mimeType: `${exporter.mimeType}; charset=utf-8`,
    lastModified: lastChange ? new Date(lastChange) : new Date(),
  };
}

/** The component's translation files (pending edits applied) as ZIP entries under `prefix`, by path. */
async function componentEntries(h: ComponentHandle, prefix: string): Promise<ZipEntry[]> {
  const translations = (await h.store.read((tx) => componentTranslations(tx, h.row.id)))
    .filter((t) => t.filename !== '')
    .sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
  const files = await withMutex(h, async () => (hasWorkingCopy(h) ? filesWithPending(h, translations) : new Map<number, Uint8Array>()));
  return translations.filter((t) => files.has(t.id)).map((t) => ({ name: `${prefix}${t.filename}`, bytes: files.get(t.id)! }));
}

/**
 * Weblate's `GET /api/components/<p>/<c>/file/`: a ZIP of every translation file of the component (the template
 * included) at its repository path, pending edits applied in memory. Named `<project>-<component>.zip`.
 * @example const zip = await downloadComponentZip(h);
 */
export async function downloadComponentZip(h: ComponentHandle): Promise<DownloadedFile> {
  const modified = new Date();
  return {
    bytes: zipStore(await componentEntries(h, ''), modified),
    filename: `${h.project.slug}-${h.component.slug}.zip`,
    mimeType: 'application/zip',
    lastModified: modified,
  };
}

/**
 * Weblate's `GET /api/projects/<p>/file/`: a ZIP of every translation file of every synced component of the project,
 * each under `<component>/<path>`, pending edits applied in memory. Named `<project>.zip`.
 */
export async function downloadProjectZip(store: Store, config: Config, project: ProjectConfig, deps: ComponentDeps = {}): Promise<DownloadedFile> {
  const entries: ZipEntry[] = [];
  for (const component of project.components) {
    let h: ComponentHandle;
    try {
      h = await openComponent(store, config, project, component, deps);
    } catch (e) {
      // A component the sync has not reached yet has no files to offer.
      if (e instanceof NotFoundError) continue;
      throw e;
    }
    entries.push(...(await componentEntries(h, `${component.slug}/`)));
  }
  const modified = new Date();
  return { bytes: zipStore(entries, modified), filename: `${project.slug}.zip`, mimeType: 'application/zip', lastModified: modified };
}
