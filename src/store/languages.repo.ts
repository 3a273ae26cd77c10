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
  seededFrom: db.prepare('SELECT value FROM store_meta WHERE key = ?').pluck(),
  setMeta: db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
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

/** Bump when what seeding writes changes, so that stores seeded by an older tms are seeded again. */
const SEED_VERSION = 1;
const SEEDED_FROM = 'languages_seeded_from';

/**
 * Seeds the languages unless the store was already seeded from this very data (`fingerprint`, see
 * `languageDataFingerprint`); `definitions` is only called when seeding runs (call inside a transaction).
 * Language rows are never deleted, so a store seeded from the same data still holds every one of its codes.
 */
export function seedLanguagesOnce(db: Db, fingerprint: string, definitions: () => Iterable<LanguageDefinition>): number {
  const stamp = `${SEED_VERSION}:${fingerprint}`;
  if (sql(db).seededFrom.get(SEEDED_FROM) === stamp) return 0;
  const added = seedLanguages(db, definitions());
  sql(db).setMeta.run(SEEDED_FROM, stamp);
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
