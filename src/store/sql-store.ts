// The store over SQL: SQLite (better-sqlite3) or PostgreSQL (libpq) underneath, both synchronous inside, each Store
// call one transaction where it writes.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../domain/worker.js';
import { languageDataFingerprint, loadLanguages } from '../languages/languages.js';
import { seedAuth } from './auth.repo.js';
import { type Db, type SqlStatement, StoreError, type Tx, isPostgres, openDb, sqliteOf, txOf } from './db.js';
import { seedLanguagesOnce } from './languages.repo.js';
import { PgComponentLocks } from './pg/component-locks.js';
import { isPostgresUrl, openPgDb, testSchemaFor } from './pg/open.js';
import type { PgDb } from './pg/pg-db.js';
import { registerSearchFunctions } from './search.query.js';
import { versionOf } from './statements.js';
import type { ComponentLocks, Store } from './store.js';
import { Turns } from './turns.js';

/** SQLite's default checkpoint threshold (pages), and the one kept while a checkpoint thread runs. */
const DEFAULT_AUTOCHECKPOINT = 1000;
const SAFETY_AUTOCHECKPOINT = 20_000;

/**
 * The Store over one connection, SQLite's or PostgreSQL's (the repositories' SQL is SQLite's; the PostgreSQL
 * connection rewrites it). `db` is the connection, for the store's own tests and tools only.
 * @example const store = openSqlStore('tms.sqlite');
 */
export class SqlStore implements Store {
  private readonly version: () => string;
  private checkpointer: Worker | null = null;
  private locks?: ComponentLocks;
  private readonly turns = new Turns();
  /** The connection as repository functions take it. */
  readonly tx: Tx;
  private readonly control: { begin: SqlStatement; commit: SqlStatement; rollback: SqlStatement } | undefined;

  constructor(readonly db: Db) {
    this.version = versionOf(db);
    this.tx = txOf(db, isPostgres(db) ? 'postgresql' : 'sqlite', { version: this.version });
    if (!isPostgres(db)) {
      registerSearchFunctions(sqliteOf(db));
      this.control = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') };
    }
  }

  get location(): string {
    return this.db.name;
  }

  /**
   * Runs `fn` in one writing transaction: alone on the connection (others wait for their turn), committed when it
   * returns, rolled back when it throws. SQLite: BEGIN IMMEDIATE takes the write lock first, waiting up to
   * busy_timeout for another connection's writer (`tms serve --workers`): a deferred transaction that reads, then
   * writes after another connection committed cannot wait (SQLite refuses it at once, "database is locked").
   */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.turns.write(async () => {
      const pg = isPostgres(this.db) ? (this.db as PgDb) : undefined;
      if (pg) pg.openTransaction(true);
      else this.control!.begin.run();
      let result: T;
      try {
        result = await fn(this.tx);
      } catch (e) {
        if (pg) pg.rollbackTransaction();
        else if (sqliteOf(this.db).inTransaction) this.control!.rollback.run();
        throw e;
      }
      if (pg) pg.commitTransaction();
      else this.control!.commit.run();
      return result;
    });
  }

  /** Runs `fn` outside any writing transaction (beside other reads; never inside another caller's write). */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.turns.read(() => fn(this.tx));
  }

  /**
   * Moves checkpoints off this connection: a thread of its own copies the write-ahead log into the database every
   * `intervalMs`, and this connection checkpoints only past a high threshold (a safety net), so writes never wait
   * for one. For long-running servers; `close()` stops it.
   */
  checkpointInBackground(intervalMs = 500): void {
    if (this.checkpointer || this.db.name === ':memory:' || !this.db.open || isPostgres(this.db)) return;
    const worker = startWorker(import.meta.url, 'checkpoint-worker', { file: this.db.name, intervalMs });
    worker.unref();
    worker.on('error', () => {
      // without it, SQLite's own checkpoints take over again
      sqliteOf(this.db).pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
      this.checkpointer = null;
    });
    sqliteOf(this.db).pragma(`wal_autocheckpoint = ${SAFETY_AUTOCHECKPOINT}`);
    this.checkpointer = worker;
  }

  async close(): Promise<void> {
    const checkpointer = this.checkpointer;
    this.checkpointer = null;
    if (checkpointer) {
      // referenced again while it closes its connection, so the process waits for it
      checkpointer.ref();
      const exited = new Promise((resolve) => checkpointer.once('exit', resolve));
      checkpointer.postMessage('stop');
      await exited;
    }
    this.locks?.close();
    this.locks = undefined;
    if (this.db.open) this.db.close();
  }

  componentLocks(): ComponentLocks | undefined {
    if (!isPostgres(this.db)) return undefined;
    this.locks ??= new PgComponentLocks((this.db as PgDb).sibling());
    return this.locks;
  }

  ping() {
    return this.read(async (tx) => {
      await tx
        .prepare(isPostgres(tx) ? 'SELECT count(*) FROM tms_schema' : 'SELECT count(*) FROM sqlite_master')
        .pluck()
        .get();
    });
  }

  async backup(file: string) {
    if (isPostgres(this.db)) {
      throw new StoreError(`${this.db.name}: a PostgreSQL store is backed up by PostgreSQL's own tools (pg_dump), not tms backup`, { file });
    }
    const { totalPages } = await sqliteOf(this.db).backup(file);
    return { pages: totalPages };
  }

  /**
   * SQLite: read on every call (no round trip). PostgreSQL: the counter is read once per turn of the event loop and
   * shared by the calls of that turn — requests handled in one turn were received before its first read, so the
   * counter is as new as each of them asks — with this connection's own writes (totalChanges) added at every call:
   * one round trip per turn instead of one per cached request.
   */
  async dataVersion() {
    return this.version();
  }
}

/**
 * Opens (creating and migrating if needed) the store — a PostgreSQL URL or a SQLite file — and seeds what a fresh
 * database needs (languages, roles, teams, the anonymous user); safe on every start. Languages are seeded again only
 * when the bundled language data changed. With `TMS_TEST_POSTGRES` set (test runs), a file name stands for a schema
 * of that PostgreSQL database.
 */
export async function openSqlStore(database: string): Promise<SqlStore> {
  const testPostgres = process.env.TMS_TEST_POSTGRES;
  const db: Db = isPostgresUrl(database)
    ? openPgDb(database)
    : testPostgres && database !== ':memory:'
      ? openPgDb(testPostgres, { schema: testSchemaFor(database) })
      : openDb(database);
  const store = new SqlStore(db);
  await store.write(async (tx) => {
    // reading the language CSVs costs tens of milliseconds: only when the bundled data changed since the last seed
    await seedLanguagesOnce(tx, languageDataFingerprint(), () => loadLanguages().values());
    await seedAuth(tx);
  });
  return store;
}
