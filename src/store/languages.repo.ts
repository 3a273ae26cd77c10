// Languages in the store: seeded from the language database, plus generated ones for unknown codes.
import type { LanguageDefinition } from '../languages/languages.js';
import type { Db } from './db.js';
import { preparedOnce } from './statements.js';

export interface LanguageRow {
  id: number;
  code: string;
  name: string;
  direction: string;
  population: number;
  plural_number: number;
  plural_formula: string;
  plural_type: number;
  plural_source: number;
  aliases: string;
  generated: number;
}

const INSERT = `INSERT INTO languages (code, name, direction, population, plural_number, plural_formula, plural_type, plural_source, aliases, generated)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const sql = preparedOnce((db: Db) => ({
  codes: db.prepare('SELECT code FROM languages').pluck(),
  insert: db.prepare(INSERT),
  byCode: db.prepare('SELECT * FROM languages WHERE code = ?'),
  byId: db.prepare('SELECT * FROM languages WHERE id = ?'),
}));

function insertLanguage(db: Db, d: LanguageDefinition, generated: boolean): void {
  sql(db).insert.run(
    d.code,
    d.name,
    d.direction,
    d.population,
    d.plural.number,
    d.plural.formula,
    d.plural.type,
    d.plural.source,
    JSON.stringify(d.aliases),
    generated ? 1 : 0,
  );
}

/** Inserts the languages the store does not have yet (by code); existing rows keep their ids (call inside a transaction). */
export function seedLanguages(db: Db, definitions: Iterable<LanguageDefinition>): number {
  const known = new Set(sql(db).codes.all() as string[]);
  let added = 0;
  for (const d of definitions) {
    if (known.has(d.code)) continue;
    insertLanguage(db, d, false);
    added++;
  }
  return added;
}

/** The stored language for a definition, inserting it (as generated when asked) if missing. */
export function ensureLanguage(db: Db, d: LanguageDefinition, generated = false): LanguageRow {
  const existing = findLanguageByCode(db, d.code);
  if (existing) return existing;
  insertLanguage(db, d, generated);
  return findLanguageByCode(db, d.code)!;
}

export function findLanguageByCode(db: Db, code: string): LanguageRow | undefined {
  return sql(db).byCode.get(code) as LanguageRow | undefined;
}

export function findLanguageById(db: Db, id: number): LanguageRow | undefined {
  return sql(db).byId.get(id) as LanguageRow | undefined;
}
