// The unit-aware file merge a rebase uses, built from plain data so that it runs wherever the git work runs.
import type { FormatContext, ParsedFile } from '../formats/format.js';
import { getFormat } from '../formats/registry.js';
import * as vcs from '../vcs/index.js';
import { type UnitConflict, mergeUnits, parseUpstream } from './merge-units.js';

/** What the merge needs to know of a component: its format, template and translation files. */
export interface MergerSpec {
  format: string;
  /** The template file of a monolingual component ('' for bilingual ones). */
  template: string;
  sourceLanguage: string;
  branch: string;
  translations: { filename: string; is_template: number; language_code: string; plural_number: number }[];
  /** The components sharing the working copy (weblate:// links): their files are merged by their own format. */
  linked?: MergerSpec[];
}

export type FileConflict = UnitConflict & { path: string };

/**
 * The unit-aware `mergeFile` for vcs.rebase: translation files of the component are merged by units with the
 * upstream template (monolingual components); other files, and files added or removed on a side, get the
 * default whole-file rule. Conflicts are collected, the last replayed commit's text winning.
 */
export function createUnitMerger(repo: vcs.RepoOptions, spec: MergerSpec): { mergeFile: vcs.MergeFile; conflicts: () => FileConflict[] } {
  if (!spec.linked?.length) return componentMerger(repo, spec);
  // each file is merged by the component it belongs to
  const mergers = [spec, ...spec.linked].map((s) => ({
    files: new Set(s.translations.map((t) => t.filename).filter((f) => f !== '')),
    merger: componentMerger(repo, { ...s, linked: undefined }),
  }));
  return {
    mergeFile: (input) => (mergers.find((m) => m.files.has(input.path))?.merger ?? mergers[0]!.merger).mergeFile(input),
    conflicts: () => mergers.flatMap((m) => m.merger.conflicts()),
  };
}

function componentMerger(repo: vcs.RepoOptions, spec: MergerSpec): { mergeFile: vcs.MergeFile; conflicts: () => FileConflict[] } {
  const format = getFormat(spec.format);
  const translations = new Map(spec.translations.filter((t) => t.filename !== '').map((t) => [t.filename, t]));
  const found = new Map<string, FileConflict>();
  let template: ParsedFile | null | undefined;
  const templateStore = async (): Promise<ParsedFile | null> => {
    if (template !== undefined) return template;
    const file = spec.template;
    const bytes = file ? await vcs.readBlobAt({ ...repo, ref: `refs/remotes/${vcs.REMOTE}/${spec.branch}`, path: file }) : null;
    const ctx = { filename: file, language: spec.sourceLanguage, sourceLanguage: spec.sourceLanguage, template: null };
    template = bytes ? parseUpstream(format, bytes, ctx) : null;
    return template;
  };
  const mergeFile: vcs.MergeFile = async (input) => {
    const t = translations.get(input.path);
    if (!t || t.is_template || !input.base || !input.ours || !input.theirs) return vcs.defaultMergeFile(input);
    // An upstream template that does not parse fails the update with its own error (not as a conflict elsewhere).
    const store = spec.template ? await templateStore() : null;
    if (spec.template && !store) return null;
    const ctx: FormatContext = {
      filename: t.filename,
      language: t.language_code,
      sourceLanguage: spec.sourceLanguage,
      plurals: t.plural_number,
      template: store,
    };
    const merged = mergeUnits(format, ctx, input.base, input.ours, input.theirs);
    if (!merged) return null;
    for (const c of merged.conflicts) found.set(`${input.path}\0${c.idHash}`, { ...c, path: input.path });
    return merged.bytes;
  };
  return { mergeFile, conflicts: () => [...found.values()] };
}
