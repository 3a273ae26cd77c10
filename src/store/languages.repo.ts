// Languages in the store: seeded from the language database, plus generated ones for unknown codes.
import type { LanguageDefinition } from '../languages/languages.js';
import type { Tx } from './db.js';
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

const sql = preparedOnce((tx: Tx) => ({
  codes: tx.prepare('SELECT code FROM languages').pluck(),
  insert: tx.prepare(INSERT),
  byCode: tx.prepare('SELECT * FROM languages WHERE code = ?'),
  byId: tx.prepare('SELECT * FROM languages WHERE id = ?'),
  seededFrom: tx.prepare('SELECT value FROM store_meta WHERE key = ?').pluck(),
  setMeta: tx.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
}));

async function insertLanguage(tx: Tx, d: LanguageDefinition, generated: boolean): Promise<void> {
  await sql(tx).insert.run(
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
export async function seedLanguages(tx: Tx, definitions: Iterable<LanguageDefinition>): Promise<number> {
  const known = new Set((await sql(tx).codes.all()) as string[]);
  let added = 0;
  for (const d of definitions) {
    if (known.has(d.code)) continue;
    await insertLanguage(tx, d, false);
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
export async function seedLanguagesOnce(tx: Tx, fingerprint: string, definitions: () => Iterable<LanguageDefinition>): Promise<number> {
  const stamp = `${SEED_VERSION}:${fingerprint}`;
  if ((await sql(tx).seededFrom.get(SEEDED_FROM)) === stamp) return 0;
  const added = await seedLanguages(tx, definitions());
  await sql(tx).setMeta.run(SEEDED_FROM, stamp);
  return added;
}

/** The stored language for a definition, inserting it (as generated when asked) if missing. */
export async function ensureLanguage(tx: Tx, d: LanguageDefinition, generated = false): Promise<LanguageRow> {
  const existing = await findLanguageByCode(tx, d.code);
  if (existing) return existing;
  await insertLanguage(tx, d, generated);
  return (await findLanguageByCode(tx, d.code))!;
}

export async function findLanguageByCode(tx: Tx, code: string): Promise<LanguageRow | undefined> {
  return (await sql(tx).byCode.get(code)) as LanguageRow | undefined;
}

export async function findLanguageById(tx: Tx, id: number): Promise<LanguageRow | undefined> {
  return (await sql(tx).byId.get(id)) as LanguageRow | undefined;
}
