// Translations of a component: one per language, with the file (and its git blob ids) they come from.
import type { Db } from './db.js';

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
}

export function listTranslations(db: Db, componentId: number): TranslationRow[] {
  return db.prepare('SELECT * FROM translations WHERE component_id = ? ORDER BY id').all(componentId) as TranslationRow[];
}

/** Creates or updates the translation of a component in a language; its id stays stable. */
export function upsertTranslation(
  db: Db,
  t: Pick<TranslationRow, 'component_id' | 'language_id' | 'language_code' | 'filename' | 'is_source' | 'is_template'>,
): number {
  db.prepare(
    `INSERT INTO translations (component_id, language_id, language_code, filename, is_source, is_template)
     VALUES (@component_id, @language_id, @language_code, @filename, @is_source, @is_template)
     ON CONFLICT (component_id, language_id) DO UPDATE SET language_code = excluded.language_code,
       filename = excluded.filename, is_source = excluded.is_source, is_template = excluded.is_template`,
  ).run(t);
  return db.prepare('SELECT id FROM translations WHERE component_id = ? AND language_id = ?').pluck().get(t.component_id, t.language_id) as number;
}

/** Records what was last parsed from the file: its revision, and the parse error if it failed. */
export function setTranslationRevision(db: Db, id: number, revision: string, parseError: string | null): void {
  db.prepare('UPDATE translations SET revision = ?, parse_error = ? WHERE id = ?').run(revision, parseError, id);
}

export function deleteTranslation(db: Db, id: number): void {
  db.prepare('DELETE FROM translations WHERE id = ?').run(id);
}
