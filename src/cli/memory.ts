// `tms memory import|export`: the translation memory to and from TMX or Weblate's JSON dump.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MemoryCategory, parseMemoryJson, writeMemoryJson } from '../formats/memory/json.js';
import { type MemoryFileEntry, parseTmx, writeTmx } from '../formats/memory/tmx.js';
import type { MemoryExportScope, MemoryRow, MemoryScope, Store } from '../store/index.js';
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

/**
 * Imports a TMX file or Weblate JSON dump: into the shared memory, a project's (`--project`) or a user's (`--user`).
 * Entries take the file's name as their origin unless the file gives one; entries in languages the instance does not
 * know, empty ones and those the scope holds already are skipped.
 */
export async function runMemoryImport(store: Store, io: CliIo, file: string, opts: MemoryScopeOptions & { format?: string }): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new CliFailure(`cannot read "${file}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const format = formatOf(file, opts.format, bytes);
  const scope = await scopeOf(store, opts);
  const name = path.basename(file);
  const entries: MemoryFileEntry[] = format === 'tmx' ? parseTmx(bytes, name) : parseMemoryJson(bytes, name);
  const result = await store.write((tx) =>
    importMemory(
      tx,
      entries.map((e) => ({ ...e, origin: e.origin || name })),
      scope,
    ),
  );
  io.out(`imported ${result.imported} entries into ${describe(scope, opts)} from ${name} (${format}); ${result.skipped} skipped`);
  return 0;
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
    throw new CliFailure(`cannot write "${file}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  io.out(`exported ${entries.length} entries${opts.project ? ` of project ${opts.project}` : ''} to ${file} (${format})`);
  return 0;
}
