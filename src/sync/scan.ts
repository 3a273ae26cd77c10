// The I/O half of a sync: expand the file mask, map codes to languages, read and parse the files that changed.
import { realpathSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import type { ComponentConfig, ProjectConfig } from '../config/config.js';
import { FormatParseError, TmsError } from '../domain/errors.js';
import type { FormatContext, ParsedFile } from '../formats/format.js';
import { getFormat } from '../formats/registry.js';
import { findLanguage } from '../languages/find.js';
import type { LanguageDefinition } from '../languages/languages.js';
import { filePluralRule } from '../languages/translation-plural.js';
import { selectMaskMatches } from './filemask.js';
import type { FileOutcome, ScannedFile } from './plan.js';

export class FileMaskError extends TmsError<{ filemask: string; path?: string }> {}

export type { ScannedFile };

/** What reading one file gave (the plan's FileOutcome, with the parsed store as the format returned it). */
export type ParseOutcome = Exclude<FileOutcome, { status: 'parsed' }> | (Extract<FileOutcome, { status: 'parsed' }> & { store: ParsedFile });

export interface ScanPlan {
  files: ScannedFile[];
  /** Files in the mask that were left out, with why (duplicate language, language_regex …). */
  skipped: { path: string; reason: string }[];
  /** Files left out because another file (or the source) already has their language: Weblate's DuplicateLanguage alert. */
  duplicates: { path: string; language: string; other: string }[];
  sourceLanguage: LanguageDefinition;
}

/**
 * Paths matching the mask inside `dir`. Refuses masks, and symbolic links, that lead outside it; a link whose
 * target is matched too is dropped (Weblate lists such a file once).
 */
export async function expandFileMask(dir: string, mask: string): Promise<{ paths: string[]; refused: { path: string; reason: string }[] }> {
  if (path.isAbsolute(mask) || mask.split(/[\\/]/).includes('..')) {
    throw new FileMaskError(`file mask "${mask}" must stay inside the repository`, { filemask: mask });
  }
  // Synchronous on purpose: a directory walk is many small metadata calls the page cache answers at once, and
  // each asynchronous one waits for a turn of an event loop that may be busy serving requests (seconds in all).
  const root = realpathSync(dir);
  // Directories too (marked with a trailing "/"), so that one matching the mask (a git submodule) is reported.
  const entries = fg.sync(mask, { cwd: dir, onlyFiles: false, markDirectories: true, dot: false, followSymbolicLinks: true, unique: true });
  const refused: { path: string; reason: string }[] = [];
  const paths: string[] = [];
  for (const e of entries) {
    if (e.endsWith('/')) refused.push({ path: e.slice(0, -1), reason: 'a directory, not a file (a git submodule?)' });
    else paths.push(e);
  }
  const matched = new Set(paths);
  const inside: string[] = [];
  for (const p of paths) {
    // A name that is not valid UTF-8 reaches us with U+FFFD in it: written back it would rename the file upstream.
    if (p.includes('\ufffd')) {
      refused.push({ path: p, reason: 'its name is not valid UTF-8 (tms would not write it back under the same name)' });
      continue;
    }
    if (/[\x00-\x1f\x7f]/.test(p)) {
      refused.push({ path: JSON.stringify(p), reason: 'its name holds a control character (a line break, a tab …)' });
      continue;
    }
    let target: string | null = null;
    try {
      target = realpathSync(path.join(dir, p));
    } catch {}
    if (!target?.startsWith(root + path.sep)) {
      refused.push({ path: p, reason: 'a symbolic link that points outside the repository (or nowhere)' });
      continue;
    }
    const real = path.relative(root, target).split(path.sep).join('/');
    if (real !== p) {
      // a link to a file the mask lists too is that file, listed once (as Weblate); a link to another file would
      // have its edits written over the link itself
      if (!matched.has(real)) refused.push({ path: p, reason: `a symbolic link (to ${real}): tms reads and writes the files themselves` });
      continue;
    }
    inside.push(p);
  }
  return { paths: inside, refused };
}

/**
 * Decides which files are translations and of which language (Weblate's rules: language_regex,
 * `source` skipped, template first, one file per language — later duplicates skipped).
 */
export function planFiles(paths: readonly string[], component: ComponentConfig, project: ProjectConfig, revisions: ReadonlyMap<string, string>): ScanPlan {
  const source = findLanguage(component.source_language, { aliases: project.language_aliases });
  const selection = selectMaskMatches(paths, {
    filemask: component.filemask,
    languageRegex: component.language_regex,
    template: component.template || undefined,
    intermediate: component.intermediate || undefined,
    sourceLanguage: component.source_language,
  });
  const bilingual = !component.template;
  const files: ScannedFile[] = [];
  const skipped = [...selection.skipped];
  const duplicates: ScanPlan['duplicates'] = [];
  const taken = new Map<string, string>();
  if (bilingual) taken.set(source.language.code, '(the source language)');
  const templateRevision = component.template ? revisions.get(component.template) : undefined;
  for (const f of selection.files) {
    const isTemplate = f.path === component.template;
    const found = isTemplate ? source : findLanguage(f.code, { aliases: project.language_aliases, sourceLanguage: component.source_language });
    const other = taken.get(found.language.code);
    if (other !== undefined) {
      skipped.push({ path: f.path, reason: `duplicate language ${found.language.code} (already ${other})` });
      duplicates.push({ path: f.path, language: found.language.code, other });
      continue;
    }
    taken.set(found.language.code, f.path);
    const own = revisions.get(f.path) ?? '';
    const revision = templateRevision && !isTemplate ? `${templateRevision},${own}` : own;
    files.push({ path: f.path, code: f.code, language: found.language, generated: found.generated, revision, isTemplate });
  }
  return { files, skipped, duplicates, sourceLanguage: source.language };
}

function contextFor(file: ScannedFile, component: Pick<ComponentConfig, 'source_language'>, template: ParsedFile | null): FormatContext {
  return {
    filename: file.path,
    language: file.code,
    sourceLanguage: component.source_language,
    plurals: file.language.plural.number,
    template,
  };
}

/** A parsed file's outcome, with the plural its file states where that is not its language's (Weblate's `get_plural`). */
function parsed(file: ScannedFile, store: ParsedFile): ParseOutcome {
  return { status: 'parsed', store, plural: filePluralRule(store.pluralForms, file.language.plural) };
}

function describeError(e: unknown): string {
  if (e instanceof FormatParseError) return e.message;
  if (e instanceof TmsError) return e.message;
  if ((e as NodeJS.ErrnoException).code) return `${(e as Error).message}`;
  return `unexpected parser failure: ${(e as Error).message ?? String(e)}`;
}

/**
 * Reads and parses the files whose revision differs from `known` (path → last parsed revision).
 * Monolingual components parse the template once; when it fails, every translation fails with it.
 */
/** A file's bytes, refused unread when it is larger than `maxBytes` (memory stays bounded by the limit). */
async function readLimited(full: string, name: string, maxBytes: number): Promise<Uint8Array> {
  const size = (await stat(full)).size;
  if (size > maxBytes) throw new FileTooLargeError(`${name}: ${size} bytes, more than max_file_bytes (${maxBytes}); not read`, { path: name, size });
  return readFile(full);
}

/** A file over `max_file_bytes`. */
export class FileTooLargeError extends TmsError<{ path: string; size: number }> {}

export async function parseChanged(
  dir: string,
  plan: ScanPlan,
  component: Pick<ComponentConfig, 'file_format' | 'source_language'>,
  known: ReadonlyMap<string, string>,
  onFile?: (path: string, done: number, total: number) => void,
  maxBytes = Number.POSITIVE_INFINITY,
  verify: (path: string, bytes: Uint8Array) => Promise<Uint8Array> = async (_path, bytes) => bytes,
): Promise<Map<string, ParseOutcome>> {
  const format = getFormat(component.file_format);
  const out = new Map<string, ParseOutcome>();
  const changed = plan.files.filter((f) => known.get(f.path) !== f.revision);
  if (changed.length === 0) {
    for (const f of plan.files) out.set(f.path, { status: 'unchanged' });
    return out;
  }
  let template: ParsedFile | null = null;
  let templateError: string | null = null;
  const templateFile = plan.files.find((f) => f.isTemplate);
  if (templateFile) {
    try {
      const bytes = await verify(templateFile.path, await readLimited(path.join(dir, templateFile.path), templateFile.path, maxBytes));
      // read once: for its listing, and when it changed, as a translation of itself (key identities, its text as target)
      const own = changed.includes(templateFile);
      template = format.parseTemplate(bytes, contextFor(templateFile, component, null), own);
      if (own) out.set(templateFile.path, parsed(templateFile, template));
    } catch (e) {
      templateError = `template ${describeError(e)}`;
      out.set(templateFile.path, { status: 'failed', error: describeError(e) });
    }
  }
  const bytesOf = await Promise.all(
    changed
      .filter((f) => !f.isTemplate)
      .map(
        async (f) =>
          [
            f,
            await readLimited(path.join(dir, f.path), f.path, maxBytes).then(
              (bytes) => verify(f.path, bytes),
              (e: Error) => e,
            ),
          ] as const,
      ),
  );
  let done = 0;
  for (const [file, bytes] of bytesOf) {
    onFile?.(file.path, ++done, bytesOf.length);
    if (templateError) {
      out.set(file.path, { status: 'failed', error: templateError });
    } else if (bytes instanceof Error) {
      out.set(file.path, { status: 'failed', error: bytes instanceof FileTooLargeError ? bytes.message : `${file.path}: cannot read: ${bytes.message}` });
    } else {
      try {
        out.set(file.path, parsed(file, format.parse(bytes, contextFor(file, component, template))));
      } catch (e) {
        out.set(file.path, { status: 'failed', error: describeError(e) });
      }
    }
  }
  for (const f of plan.files) if (!out.has(f.path)) out.set(f.path, { status: 'unchanged' });
  return out;
}
