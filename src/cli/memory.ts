// `tms memory import|export`: the translation memory to and from TMX or Weblate's JSON dump.
import { type FileHandle, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FormatParseError } from '../domain/errors.js';
import { MemoryCategory, createMemoryJsonReader, writeMemoryJson } from '../formats/memory/json.js';
import { type MemoryFileEntry, type MemoryFileReader, createTmxReader, writeTmx } from '../formats/memory/tmx.js';
import type { MemoryExportScope, MemoryImportEntry, MemoryImportResult, MemoryRow, MemoryScope, MemorySkipReason, Store } from '../store/index.js';
import { exportMemory, importMemory } from '../store/memory.repo.js';
import { findProjectBySlug } from '../store/projects.repo.js';
import { findUserByUsername } from '../store/users.repo.js';
import { CliFailure, type CliIo } from './io.js';

export type MemoryFileFormat = 'tmx' | 'json';

export interface MemoryScopeOptions {
  project?: string;
  user?: string;
}

/** The format asked for, or the one the file name says (`.tmx`, `.json`); a usage error otherwise. */
function formatOf(file: string, asked: string | undefined, sniff?: Uint8Array): MemoryFileFormat {
  if (asked !== undefined) {
    if (asked === 'tmx' || asked === 'json') return asked;
    throw new CliFailure(`unknown memory format "${asked}" (tmx or json)`, 2);
  }
  const ext = path.extname(file).toLowerCase();
  if (ext === '.tmx') return 'tmx';
  if (ext === '.json') return 'json';
  if (sniff) {
    const head = new TextDecoder()
      .decode(sniff.subarray(0, 64))
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (head.startsWith('[')) return 'json';
    if (head.startsWith('<')) return 'tmx';
  }
  throw new CliFailure(`cannot tell the format of "${file}": name it .tmx or .json, or pass --format`, 2);
}

async function scopeOf(store: Store, opts: MemoryScopeOptions): Promise<MemoryScope> {
  if (opts.project !== undefined && opts.user !== undefined) throw new CliFailure('pass --project or --user, not both', 2);
  if (opts.project !== undefined) {
    const slug = opts.project;
    const project = await store.read((tx) => findProjectBySlug(tx, slug));
    if (!project) throw new CliFailure(`project "${opts.project}" not found`);
    return { kind: 'project', projectId: project.id };
  }
  if (opts.user !== undefined) {
    const username = opts.user;
    const user = await store.read((tx) => findUserByUsername(tx, username));
    if (!user) throw new CliFailure(`user "${opts.user}" not found`);
    return { kind: 'user', userId: user.id };
  }
  return { kind: 'shared' };
}

function describe(scope: MemoryScope, opts: MemoryScopeOptions): string {
  if (scope.kind === 'project') return `the memory of project ${opts.project}`;
  if (scope.kind === 'user') return `the personal memory of ${opts.user}`;
  return 'the shared memory';
}

/** Entries stored per transaction: a few thousand keep the import quick and never hold the writer long. */
const BATCH = 5000;

const SKIP_REASONS: readonly [MemorySkipReason, string][] = [
  ['duplicate', 'already in the memory'],
  ['unknown-language', 'in a language this instance does not know'],
  ['same-language', 'from a language to itself'],
  ['empty', 'with an empty source or translation'],
];

/** "4 skipped: 3 already in the memory, 1 in a language this instance does not know (zz)", or "0 skipped". */
export function skippedText(result: MemoryImportResult): string {
  if (result.skipped === 0) return '0 skipped';
  const parts = SKIP_REASONS.filter(([reason]) => result.reasons[reason]).map(([reason, text]) => {
    let part = `${result.reasons[reason]} ${text}`;
    if (reason === 'unknown-language') {
      const codes = result.unknownLanguages;
      part += ` (${codes.slice(0, 5).join(', ')}${codes.length > 5 ? `, and ${codes.length - 5} more` : ''})`;
    }
    return part;
  });
  return `${result.skipped} skipped: ${parts.join(', ')}`;
}

function addResult(total: MemoryImportResult, batch: MemoryImportResult): void {
  total.imported += batch.imported;
  total.skipped += batch.skipped;
  for (const [reason, n] of Object.entries(batch.reasons) as [MemorySkipReason, number][]) total.reasons[reason] = (total.reasons[reason] ?? 0) + n;
  for (const code of batch.unknownLanguages) if (!total.unknownLanguages.includes(code)) total.unknownLanguages.push(code);
}

/** A progress bar over the file's bytes on a terminal; nothing otherwise (the final line says what happened). */
async function importProgress(io: CliIo, name: string, size: number): Promise<{ update(bytes: number, entries: number): void; stop(): void }> {
  if (!io.isTty || size === 0) return { update() {}, stop() {} };
  // the CommonJS module's exports are its default export (in the bundle, esbuild gives no named ones)
  const { SingleBar } = (await import('cli-progress')).default;
  const bar = new SingleBar({ format: `${name} [{bar}] {percentage}% | {entries} entries`, hideCursor: true, clearOnComplete: true }, undefined);
  bar.start(size, 0, { entries: 0 });
  return { update: (bytes, entries) => bar.update(bytes, { entries }), stop: () => bar.stop() };
}

const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** What went wrong with a file, in words (`no such file or folder (ENOENT)`), not an errno code alone. */
function fileProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) return (e as Error).message;
  return FILE_PROBLEMS[code] ? `${FILE_PROBLEMS[code]} (${code})` : code;
}

/**
 * Imports a TMX file or Weblate JSON dump: into the shared memory, a project's (`--project`) or a user's (`--user`).
 * The file is read in pieces and stored in batches of a few thousand entries, so memory stays bounded whatever its
 * size; a terminal shows the progress. Entries take the file's name as their origin unless the file gives one;
 * entries in languages the instance does not know, empty ones and those the scope holds already are skipped, and the
 * last line counts them by reason. A file that turns out broken half-way keeps the batches stored before the error
 * (the error says how many entries; importing the corrected file again skips them as duplicates).
 */
export async function runMemoryImport(store: Store, io: CliIo, file: string, opts: MemoryScopeOptions & { format?: string }): Promise<number> {
  let handle: FileHandle;
  let size: number;
  const head = new Uint8Array(64);
  let headLength: number;
  try {
    handle = await open(file, 'r');
    size = (await handle.stat()).size;
    headLength = (await handle.read(head, 0, head.length, 0)).bytesRead;
  } catch (e) {
    throw new CliFailure(`cannot read "${file}": ${fileProblem(e)}`);
  }
  const total: MemoryImportResult = { imported: 0, skipped: 0, reasons: {}, unknownLanguages: [] };
  const name = path.basename(file);
  let progress: Awaited<ReturnType<typeof importProgress>> | undefined;
  try {
    const format = formatOf(file, opts.format, head.subarray(0, headLength));
    const scope = await scopeOf(store, opts);
    const reader: MemoryFileReader = format === 'tmx' ? createTmxReader(name) : createMemoryJsonReader(name);
    progress = await importProgress(io, name, size);
    let batch: MemoryImportEntry[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const entries = batch;
      addResult(total, await store.write((tx) => importMemory(tx, entries, scope)));
      batch = [];
    };
    const take = async (entries: MemoryFileEntry[]) => {
      for (const e of entries) {
        batch.push({ ...e, origin: e.origin || name });
        if (batch.length >= BATCH) await flush();
      }
    };
    let read = 0;
    try {
      for await (const piece of handle.createReadStream({ start: 0, highWaterMark: 1 << 20, autoClose: false }) as AsyncIterable<Buffer>) {
        read += piece.length;
        await take(reader.push(piece));
        progress.update(read, total.imported);
      }
      await take(reader.end());
      await flush();
    } catch (e) {
      if (e instanceof FormatParseError && total.imported > 0) {
        throw new CliFailure(`${e.message} (the ${total.imported} entries before it were imported; importing the corrected file again skips them)`);
      }
      if ((e as NodeJS.ErrnoException).syscall) throw new CliFailure(`cannot read "${file}": ${fileProblem(e)}`);
      throw e;
    }
    progress.update(size, total.imported);
    progress.stop();
    progress = undefined;
    io.out(`imported ${total.imported} entries into ${describe(scope, opts)} from ${name} (${format}); ${skippedText(total)}`);
    return 0;
  } finally {
    progress?.stop();
    await handle.close();
  }
}

function categoryOf(m: MemoryRow): number {
  if (m.shared === 1) return MemoryCategory.SHARED;
  if (m.user_id !== null) return MemoryCategory.USER_OFFSET + m.user_id;
  if (m.project_id !== null) return MemoryCategory.PRIVATE_OFFSET + m.project_id;
  return MemoryCategory.FILE;
}

/**
 * Exports the memory: every record (the translated strings of every project and every imported entry), or a
 * project's (`--project`: its translated strings and its imported entries), as TMX or Weblate's JSON dump.
 */
export async function runMemoryExport(store: Store, io: CliIo, file: string, opts: { project?: string; format?: string }): Promise<number> {
  const format = formatOf(file, opts.format);
  let scope: MemoryExportScope = { kind: 'all' };
  if (opts.project !== undefined) scope = await scopeOf(store, { project: opts.project });
  const rows = await store.read((tx) => exportMemory(tx, scope));
  const entries = rows.map((m) => ({
    source: m.source,
    target: m.target,
    sourceLanguage: m.source_language,
    targetLanguage: m.target_language,
    origin: m.origin,
    category: categoryOf(m),
  }));
  const bytes = format === 'tmx' ? writeTmx(entries) : writeMemoryJson(entries);
  try {
    await writeFile(file, bytes);
  } catch (e) {
    throw new CliFailure(`cannot write "${file}": ${fileProblem(e)}`);
  }
  io.out(`exported ${entries.length} entries${opts.project ? ` of project ${opts.project}` : ''} to ${file} (${format})`);
  return 0;
}
