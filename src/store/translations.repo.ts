// Translations of a component: one per language, with the file (and its git blob ids) they come from.
import type { Tx } from './db.js';
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
  /** The change number a trigger gives each insert or change of the row the catalog reads (catalog_version.translations): what a catalog refresh reads since. */
  seq: number;
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

const sql = preparedOnce((tx: Tx) => ({
  list: tx.prepare('SELECT * FROM translations WHERE component_id = ? ORDER BY id'),
  listOf: tx.prepare(`SELECT * FROM translations WHERE component_id IN (${tx.dialect.idsOfJson}) ORDER BY id`),
  upsert: tx.prepare(
    `INSERT INTO translations (component_id, language_id, language_code, filename, is_source, is_template)
     VALUES (@component_id, @language_id, @language_code, @filename, @is_source, @is_template)
     ON CONFLICT (component_id, language_id) DO UPDATE SET language_code = excluded.language_code,
       filename = excluded.filename, is_source = excluded.is_source, is_template = excluded.is_template`,
  ),
  idOf: tx.prepare('SELECT id FROM translations WHERE component_id = ? AND language_id = ?').pluck(),
  setParsed: tx.prepare('UPDATE translations SET revision = ?, parse_error = ? WHERE id = ?'),
  setRevision: tx.prepare('UPDATE translations SET revision = ? WHERE id = ?'),
  setPlural: tx.prepare('UPDATE translations SET plural_number = ?, plural_formula = ? WHERE id = ?'),
  remove: tx.prepare('DELETE FROM translations WHERE id = ?'),
  infos: tx.prepare(`SELECT ${INFO_COLUMNS} FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? ORDER BY t.id`),
  infosOf: tx.prepare(
    `SELECT t.component_id, ${INFO_COLUMNS} FROM translations t JOIN languages l ON l.id = t.language_id
     WHERE t.component_id IN (${tx.dialect.idsOfJson}) ORDER BY t.id`,
  ),
  byCode: tx.prepare(`SELECT ${INFO_COLUMNS}, l.code FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? AND l.code = ?`),
}));

export async function listTranslations(tx: Tx, componentId: number): Promise<TranslationRow[]> {
  return (await sql(tx).list.all(componentId)) as TranslationRow[];
}

/** The translations of several components (one statement), by component id; a component without any is absent. */
export async function listTranslationsOf(tx: Tx, componentIds: readonly number[]): Promise<Map<number, TranslationRow[]>> {
  const out = new Map<number, TranslationRow[]>();
  for (const row of (await sql(tx).listOf.all(JSON.stringify(componentIds))) as TranslationRow[]) {
    const list = out.get(row.component_id);
    if (list) list.push(row);
    else out.set(row.component_id, [row]);
  }
  return out;
}

/** Creates or updates the translation of a component in a language; its id stays stable. */
export async function upsertTranslation(
  tx: Tx,
  t: Pick<TranslationRow, 'component_id' | 'language_id' | 'language_code' | 'filename' | 'is_source' | 'is_template'>,
): Promise<number> {
  const s = sql(tx);
  // the id read goes out with the write (it sees the row written)
  const [, id] = await Promise.all([s.upsert.run(t), s.idOf.get(t.component_id, t.language_id)]);
  return id as number;
}

/** Records what was last parsed from the file: its revision, and the parse error if it failed. */
export async function setTranslationRevision(tx: Tx, id: number, revision: string, parseError: string | null): Promise<void> {
  await sql(tx).setParsed.run(revision, parseError, id);
}

/** Records the plural the translation's file states (null: none of its own, the language's applies). */
export async function setTranslationPlural(tx: Tx, id: number, plural: { number: number; formula: string } | null): Promise<void> {
  await sql(tx).setPlural.run(plural?.number ?? null, plural?.formula ?? null, id);
}

/** Stores a translation's revision after a commit wrote its file (the parse state is unchanged). */
export async function setCommittedRevision(tx: Tx, id: number, revision: string): Promise<void> {
  await sql(tx).setRevision.run(revision, id);
}

export async function deleteTranslation(tx: Tx, id: number): Promise<void> {
  await sql(tx).remove.run(id);
}

/** The component's translations with their languages. */
export async function componentTranslations(tx: Tx, componentId: number): Promise<TranslationInfo[]> {
  return (await sql(tx).infos.all(componentId)) as TranslationInfo[];
}

/** `componentTranslations` of several components (one statement), by component id; a component without any is absent. */
export async function componentTranslationsOf(tx: Tx, componentIds: readonly number[]): Promise<Map<number, TranslationInfo[]>> {
  const out = new Map<number, TranslationInfo[]>();
  for (const { component_id, ...info } of (await sql(tx).infosOf.all(JSON.stringify(componentIds))) as (TranslationInfo & { component_id: number })[]) {
    const id = Number(component_id);
    const list = out.get(id);
    if (list) list.push(info);
    else out.set(id, [info]);
  }
  return out;
}

/** The component's translation in the language with this exact `Language.code`, or undefined. */
export async function findTranslationByCode(tx: Tx, componentId: number, code: string): Promise<TranslationRef | undefined> {
  return (await sql(tx).byCode.get(componentId, code)) as TranslationRef | undefined;
}
