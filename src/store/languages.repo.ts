// Languages in the store: seeded from the language database, plus generated ones for unknown codes.
import type { LanguageDefinition } from '../languages/languages.js';
import type { Db } from './db.js';

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

/** Inserts the languages the store does not have yet (by code); existing rows keep their ids. */
export function seedLanguages(db: Db, definitions: Iterable<LanguageDefinition>): number {
  const known = new Set(db.prepare('SELECT code FROM languages').pluck().all() as string[]);
  const insert = db.prepare(
    'INSERT INTO languages (code, name, direction, population, plural_number, plural_formula, plural_type, plural_source, aliases) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  let added = 0;
  db.transaction(() => {
    for (const d of definitions) {
      if (known.has(d.code)) continue;
      insert.run(d.code, d.name, d.direction, d.population, d.plural.number, d.plural.formula, d.plural.type, d.plural.source, JSON.stringify(d.aliases));
      added++;
    }
  })();
  return added;
}

/** The stored language for a definition, inserting it (as generated when asked) if missing. */
export function ensureLanguage(db: Db, d: LanguageDefinition, generated = false): LanguageRow {
  const existing = findLanguageByCode(db, d.code);
  if (existing) return existing;
  db.prepare(
    'INSERT INTO languages (code, name, direction, population, plural_number, plural_formula, plural_type, plural_source, aliases, generated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(d.code, d.name, d.direction, d.population, d.plural.number, d.plural.formula, d.plural.type, d.plural.source, JSON.stringify(d.aliases), generated ? 1 : 0);
  return findLanguageByCode(db, d.code)!;
}

export function findLanguageByCode(db: Db, code: string): LanguageRow | undefined {
  return db.prepare('SELECT * FROM languages WHERE code = ?').get(code) as LanguageRow | undefined;
}

export function findLanguageById(db: Db, id: number): LanguageRow | undefined {
  return db.prepare('SELECT * FROM languages WHERE id = ?').get(id) as LanguageRow | undefined;
}
