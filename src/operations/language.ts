// Adding a language to a component (Weblate's `POST /api/components/<p>/<c>/translations/`): a new file, committed, then re-synced.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Actor, type ComponentHandle, hasWorkingCopy } from '../component/handle.js';
import { Action } from '../domain/actions.js';
import { forbidden, invalid } from '../domain/errors.js';
import { formatLanguageCode } from '../languages/code-style.js';
import { recordChanges } from '../store/changes.repo.js';
import { now } from '../store/index.js';
import { findLanguageByCode } from '../store/languages.repo.js';
import { findTranslationByCode } from '../store/translations.repo.js';
import { type ComponentSyncResult, syncLocked, syncSharers } from '../sync/sync.js';
import { commitFiles } from './author.js';
import { withMutex } from './exclusive.js';
import { pushAfterCommit } from './operations.js';
import { readAtHead } from './pending-write.js';

export interface AddLanguageResult {
  /** The new translation, as the re-sync stored it. */
  translationId: number;
  /** The new file's repository path. */
  filename: string;
  /** The commit that added the file (null for a `vcs: local` component). */
  commit: string | null;
  sync: ComponentSyncResult;
}

export const NEW_LANGUAGE_OFF = 'Adding new translations is turned off in the component configuration.';
export const NEW_LANGUAGE_RESTRICTED = 'Adding new translations is limited to the project maintainers (new_lang is not "add").';
export const LANGUAGE_FILTERED = 'The given language is filtered by the language filter.';
export const FILE_EXISTS = 'Translation file already exists!';

/**
 * Adds a language to a component, as Weblate's `POST …/translations/` with `{"language_code": code}`: `code` must be
 * exactly a `Language.code`; the component's `new_lang` must be `add`. The file is the file mask with every `*`
 * replaced by the code in the component's `language_code_style` (project aliases applied in reverse), made by the
 * format from `new_base` (every target emptied) or its own skeleton, committed with `add_message` as `user` (and pushed
 * with `push_on_commit`, as Weblate pushes after the commit), and the component re-synced so the translation appears;
 * 48 "Language added" is recorded.
 * Errors: ValidationError on `languge_code` (sic, as Weblate) when missing, `language_code` when unknown, filtered
 * or present already; ForbiddenError when the component does not take new languages or the format cannot make the file.
 * @example const { translationId, filename } = await addLanguage(h, 'fr', user);
 */
export async function addLanguage(h: ComponentHandle, languageCode: string | undefined, user: Actor): Promise<AddLanguageResult> {
  if (typeof languageCode !== 'string' || languageCode === '') throw invalid('languge_code', "Missing 'language_code' parameter");
  const language = await h.store.read((tx) => findLanguageByCode(tx, languageCode));
  if (!language) throw invalid('language_code', `No language code '${languageCode}' found!`);
  if (h.component.new_lang === 'none') throw forbidden(NEW_LANGUAGE_OFF);
  if (h.component.new_lang !== 'add') throw forbidden(NEW_LANGUAGE_RESTRICTED);
  if (await h.store.read((tx) => findTranslationByCode(tx, h.row.id, language.code))) throw invalid('language_code', FILE_EXISTS);
  const code = formatLanguageCode(language.code, h.component.language_code_style as Parameters<typeof formatLanguageCode>[1], {
    defaultStyle: h.format.languageCodeStyle ?? 'posix',
    aliases: h.project.language_aliases,
  });
  if (!new RegExp(h.component.language_regex).test(code)) throw invalid('language_code', LANGUAGE_FILTERED);
  const filename = h.component.filemask.split('*').join(code);

  return withMutex(h, async () => {
    if (!hasWorkingCopy(h)) throw forbidden(`${h.key}: the repository has not been cloned yet (sync the component first)`);
    const full = path.join(h.dir, filename);
    if (existsSync(full)) throw invalid('language_code', FILE_EXISTS);
    let base: Uint8Array | null = null;
    if (h.component.new_base) {
      base = await readAtHead(h, h.component.new_base);
      if (!base) throw forbidden(`${h.component.new_base}: the base file for new translations is not in the repository`);
    }
    let bytes: Uint8Array;
    try {
      bytes = h.format.create(base, {
        filename,
        language: code,
        sourceLanguage: h.component.source_language,
        plurals: language.plural_number,
        pluralFormula: language.plural_formula,
        template: null,
      });
    } catch (e) {
      throw forbidden(e instanceof Error ? e.message : String(e));
    }
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, bytes);
    let commit: string | null;
    try {
      commit = await commitFiles(h, [filename], h.component.add_message, { id: 0, language_code: code, language_name: language.name }, user);
    } catch (e) {
      // Nothing was committed: leave no stray file behind.
      await rm(full, { force: true });
      throw e;
    }
    const sync = await syncLocked(h);
    if (commit) {
      // the components sharing the working copy move to the new commit too (another node aligns its copy by them)
      await syncSharers(h);
      await pushAfterCommit(h, { user });
    }
    const translation = await h.store.read((tx) => findTranslationByCode(tx, h.row.id, language.code));
    if (!translation) throw invalid('language_code', sync.error ?? `Could not add '${languageCode}'!`);
    await h.store.write((tx) =>
      recordChanges(tx, [
        {
          action: Action.ADDED_LANGUAGE,
          timestamp: now(),
          projectId: h.row.project_id,
          componentId: h.row.id,
          translationId: translation.id,
          languageId: language.id,
          userId: user.id,
          authorId: user.id,
          details: { language: language.code, filename },
        },
      ]),
    );
    return { translationId: translation.id, filename, commit, sync };
  });
}
