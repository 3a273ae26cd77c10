// The store's entry: opens the database and makes sure the seeded data (languages, roles, teams) is there.
import { loadLanguages } from '../languages/languages.js';
import { seedAuth } from './auth.repo.js';
import { type Db, openDb } from './db.js';
import { seedLanguages } from './languages.repo.js';

/**
 * Opens the store and seeds what a fresh database needs; safe to call on every start.
 * @example const db = openStore(config.database);
 */
export function openStore(file: string): Db {
  const db = openDb(file);
  seedLanguages(db, loadLanguages().values());
  seedAuth(db);
  return db;
}
