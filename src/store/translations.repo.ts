// Translations of a component: one per language, with the file (and its git blob ids) they come from.
import type { Db } from './db.js';
import { preparedOnce } from './statements.js';

/** A row of the translations table. */
export interface TranslationRow {
  id: number;
  component_id: number;
  language_id: number;
  language_code: string;
  filename: string;
  revision: string;
  is_source: number;
  is_template: number;
  parse_error: string | null;
  /** The file's own plural where it states one other than the language's (PO's Plural-Forms); null follows the language. */
  plural_number: number | null;
  plural_formula: string | null;
}

/** A translation with its language, as commits, messages and writes need it. */
export interface TranslationInfo extends Pick<TranslationRow, 'id' | 'filename' | 'revision' | 'language_id' | 'language_code' | 'is_source' | 'is_template'> {
  language_name: string;
  plural_number: number;
  plural_formula: string;
}

/** A translation found by its language's code (`Language.code`; `language_code` is the code as written in the file name). */
export interface TranslationRef extends TranslationInfo {
  code: string;
}

const INFO_COLUMNS = `t.id, t.filename, t.revision, t.language_id, t.language_code, l.name AS language_name, l.plural_number, l.plural_formula,
  t.is_source, t.is_template`;

const sql = preparedOnce((db: Db) => ({
  list: db.prepare('SELECT * FROM translations WHERE component_id = ? ORDER BY id'),
  upsert: db.prepare(
    `INSERT INTO translations (component_id, language_id, language_code, filename, is_source, is_template)
     VALUES (@component_id, @language_id, @language_code, @filename, @is_source, @is_template)
     ON CONFLICT (component_id, language_id) DO UPDATE SET language_code = excluded.language_code,
       filename = excluded.filename, is_source = excluded.is_source, is_template = excluded.is_template`,
  ),
  idOf: db.prepare('SELECT id FROM translations WHERE component_id = ? AND language_id = ?').pluck(),
  setParsed: db.prepare('UPDATE translations SET revision = ?, parse_error = ? WHERE id = ?'),
  setRevision: db.prepare('UPDATE translations SET revision = ? WHERE id = ?'),
  setPlural: db.prepare('UPDATE translations SET plural_number = ?, plural_formula = ? WHERE id = ?'),
  remove: db.prepare('DELETE FROM translations WHERE id = ?'),
  infos: db.prepare(`SELECT ${INFO_COLUMNS} FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? ORDER BY t.id`),
  byCode: db.prepare(`SELECT ${INFO_COLUMNS}, l.code FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? AND l.code = ?`),
}));

export function listTranslations(db: Db, componentId: number): TranslationRow[] {
  return sql(db).list.all(componentId) as TranslationRow[];
}

/** Creates or updates the translation of a component in a language; its id stays stable. */
export function upsertTranslation(
  db: Db,
  t: Pick<TranslationRow, 'component_id' | 'language_id' | 'language_code' | 'filename' | 'is_source' | 'is_template'>,
): number {
  const s = sql(db);
  s.upsert.run(t);
  return s.idOf.get(t.component_id, t.language_id) as number;
}

/** Records what was last parsed from the file: its revision, and the parse error if it failed. */
export function setTranslationRevision(db: Db, id: number, revision: string, parseError: string | null): void {
  sql(db).setParsed.run(revision, parseError, id);
}

/** Records the plural the translation's file states (null: none of its own, the language's applies). */
export function setTranslationPlural(db: Db, id: number, plural: { number: number; formula: string } | null): void {
  sql(db).setPlural.run(plural?.number ?? null, plural?.formula ?? null, id);
}

/** Stores a translation's revision after a commit wrote its file (the parse state is unchanged). */
export function setCommittedRevision(db: Db, id: number, revision: string): void {
  sql(db).setRevision.run(revision, id);
}

export function deleteTranslation(db: Db, id: number): void {
  sql(db).remove.run(id);
}

/** The component's translations with their languages. */
export function componentTranslations(db: Db, componentId: number): TranslationInfo[] {
  return sql(db).infos.all(componentId) as TranslationInfo[];
}

/** The component's translation in the language with this exact `Language.code`, or undefined. */
export function findTranslationByCode(db: Db, componentId: number, code: string): TranslationRef | undefined {
  return sql(db).byCode.get(componentId, code) as TranslationRef | undefined;
}
