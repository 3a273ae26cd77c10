// Opening the store: the one place that knows which engine holds the data.
import { isPostgresUrl } from '../config/database.js';
import { languageDataFingerprint, loadLanguages } from '../languages/languages.js';
import { seedAuth } from './auth.repo.js';
import { seedLanguagesOnce } from './languages.repo.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export type * from './store.js';

/**
 * Opens (creating and migrating if needed) the store named by the configuration's `database` — a SQLite file, or a
 * `postgresql://` URL — and seeds what a fresh database needs (languages, roles, teams, the anonymous user); safe on
 * every start. Languages are seeded again only when the bundled language data changed. With `TMS_TEST_POSTGRES` set
 * (test runs), a file name stands for a schema of that PostgreSQL database.
 * @example const store = await openStore(config.database);
 */
export async function openStore(database: string): Promise<Store> {
  const testPostgres = process.env.TMS_TEST_POSTGRES;
  let store: Store;
  if (isPostgresUrl(database) || (testPostgres && database !== ':memory:')) {
    // the PostgreSQL engine (and the libpq binding) load only when named
    const [{ openPgStore }, { testSchemaFor }] = await Promise.all([import('./pg/pg-store.js'), import('./pg/open.js')]);
    store = isPostgresUrl(database) ? await openPgStore(database) : await openPgStore(testPostgres!, { schema: testSchemaFor(database) });
  } else {
    store = openSqliteStore(database);
  }
  try {
    await store.write(async (tx) => {
      // reading the language CSVs costs tens of milliseconds: only when the bundled data changed since the last seed
      await seedLanguagesOnce(tx, languageDataFingerprint(), () => loadLanguages().values());
      await seedAuth(tx);
    });
  } catch (e) {
    await store.close();
    throw e;
  }
  return store;
}

/** The ISO 8601 timestamp with milliseconds and `Z` that every stored time uses. */
export { type DatabaseInspection, inspectDatabase, now, restoreDatabase } from './db.js';
