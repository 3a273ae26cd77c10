// Pending edits as file writes: a translation file read at HEAD, its pending units and removals turned into UnitWrites.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ComponentHandle } from '../component/handle.js';
import { FormatWriteError } from '../domain/errors.js';
import { splitPlural } from '../domain/unit.js';
import type { Format, FormatContext, ParsedFile, UnitWrite } from '../formats/format.js';
import type { PendingRemoval, PendingUnit, TranslationInfo } from '../store/index.js';
import * as vcs from '../vcs/index.js';

/** Whether a pending row is a removal (a string deleted in tms) rather than an edit. */
export function isRemoval(u: PendingUnit): u is PendingRemoval {
  return (u as Partial<PendingRemoval>).removal === 1;
}

/**
 * The writes for one file's pending rows, in order: edits set target and state (a string not in the file is
 * added by the writer), removals remove. A removal of a string the file does not have (added in tms and deleted
 * before any commit) is left out; only then is the file parsed.
 */
export function unitWrites(format: Format, before: Uint8Array, ctx: FormatContext, rows: readonly PendingUnit[]): UnitWrite[] {
  let present: Set<bigint> | null = null;
  const out: UnitWrite[] = [];
  for (const u of rows) {
    if (isRemoval(u)) {
      present ??= new Set(format.parse(before, ctx).units.map((p) => p.idHash));
      if (present.has(u.id_hash)) out.push({ context: u.context, source: splitPlural(u.source), target: [], state: 0, remove: true });
      continue;
    }
    out.push({ context: u.context, source: splitPlural(u.source), target: splitPlural(u.target), state: u.state as UnitWrite['state'] });
  }
  return out;
}

/** A file as HEAD has it (as the disk has it for `vcs: local`), or null when it is not there. */
export async function readAtHead(h: ComponentHandle, file: string): Promise<Uint8Array | null> {
  return h.git ? vcs.readBlobAt({ dir: h.dir, cache: h.cache, ref: 'HEAD', path: file }) : readFile(path.join(h.dir, file)).catch(() => null);
}

/** The component's template at HEAD parsed as the sync parses it; null for a bilingual component. */
export async function templateAtHead(h: ComponentHandle): Promise<ParsedFile | null> {
  const file = h.component.template;
  if (!file) return null;
  const bytes = await readAtHead(h, file);
  if (!bytes) throw new FormatWriteError(file, 'the template is not in the repository');
  return h.format.parseTemplate(bytes, { filename: file, language: h.component.source_language, sourceLanguage: h.component.source_language }, false);
}

/** The format context of a translation's file. */
export function fileContext(
  h: ComponentHandle,
  t: Pick<TranslationInfo, 'filename' | 'language_code' | 'plural_number'>,
  template: ParsedFile | null,
): FormatContext {
  return { filename: t.filename, language: t.language_code, sourceLanguage: h.component.source_language, plurals: t.plural_number, template };
}
