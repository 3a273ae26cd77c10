// The store on SQLite: one better-sqlite3 connection taking turns (readers together, one writer alone, BEGIN
// IMMEDIATE…COMMIT around a unit of work that awaits), WAL checkpoints in a thread of their own, online backups.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../domain/worker.js';
import { type SqlStatement, type SqliteDb, type Tx, makeStandalone, openDb, txOf } from './db.js';
import { sqliteDialect } from './dialect.js';
import { SearchFillRuns } from './search-fill-runs.js';
import { fillSearchChunk, searchFillPending } from './search-fill.repo.js';
import type { Store } from './store.js';
import { Turns } from './turns.js';

/** SQLite's default checkpoint threshold (pages), and the one kept while a checkpoint thread runs. */
const DEFAULT_AUTOCHECKPOINT = 1000;
const SAFETY_AUTOCHECKPOINT = 20_000;

/**
 * The store on one SQLite connection. `db` is the connection itself, for what only SQLite has (pragmas, the tests of
 * its own files).
 * @example const store = await openSqliteStore('tms.sqlite');
 */
export class SqliteStore implements Store {
  private readonly version: () => string;
  private checkpointer: Worker | null = null;
  private readonly turns = new Turns();
  /** The connection as repository functions take it. */
  private readonly tx: Tx;
  private readonly control: { begin: SqlStatement; commit: SqlStatement; rollback: SqlStatement };
  /** The change token as read in this turn of the event loop (dataVersion), until the turn ends or this store writes. */
  private turnVersion: string | undefined;
  /** The search's fill in the background (fillSearchIndex). */
  private readonly fills = new SearchFillRuns({
    read: (fn) => this.read(fn),
    write: (fn) => this.write(fn),
    pending: searchFillPending,
    chunk: (tx) => fillSearchChunk(tx),
  });

  constructor(readonly db: SqliteDb) {
    // another connection's commit (data_version) or a write through this one (total_changes)
    const dataVersion = db.prepare('PRAGMA data_version').pluck();
    const totalChanges = db.prepare('SELECT total_changes()').pluck();
    this.version = () => `${dataVersion.get() as number}:${totalChanges.get() as number}`;
    this.tx = txOf(db, sqliteDialect, { version: this.version });
    this.control = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') };
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
      this.control.begin.run();
      let result: T;
      try {
        result = await fn(this.tx);
      } catch (e) {
        if (this.db.inTransaction) this.control.rollback.run();
        throw e;
      } finally {
        this.turnVersion = undefined;
      }
      this.control.commit.run();
      this.turnVersion = undefined;
      return result;
    });
  }

  /** Runs `fn` outside any writing transaction (beside other reads; never inside another caller's write). */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.turns.read(() => fn(this.tx));
  }

  /**
   * SQLite's plans need no statistics gathered after a load (the first load built its indexes after the rows); the
   * search's index it left behind starts filling in the background (fillSearchIndex).
   */
  async settleLoad(_tables: readonly string[]): Promise<void> {
    void this.fillSearchIndex().catch(() => {
      // left for the next fill (the next start, sync or first load): the search reads the units meanwhile
    });
  }

  /**
   * Fills the search's index where a first load left units to it (search-fill.repo.ts), in the background
   * (SearchFillRuns): its chunks of units, then the segments the chunks left merged a step a transaction.
   */
  fillSearchIndex(): Promise<void> {
    return this.fills.start();
  }

  /**
   * Moves checkpoints off this connection: a thread of its own copies the write-ahead log into the database every
   * `intervalMs`, and this connection checkpoints only past a high threshold (a safety net), so writes never wait
   * for one. For long-running servers; `close()` stops it.
   */
  checkpointInBackground(intervalMs = 500): void {
    if (this.checkpointer || this.db.name === ':memory:' || !this.db.open) return;
    const worker = startWorker(import.meta.url, 'checkpoint-worker', { file: this.db.name, intervalMs });
    worker.unref();
    worker.on('error', () => {
      // without it, SQLite's own checkpoints take over again
      this.db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
      this.checkpointer = null;
    });
    this.db.pragma(`wal_autocheckpoint = ${SAFETY_AUTOCHECKPOINT}`);
    this.checkpointer = worker;
  }

  async close(): Promise<void> {
    // a fill stops after its chunk (the next start or sync goes on from there)
    await this.fills.stop();
    const checkpointer = this.checkpointer;
    this.checkpointer = null;
    if (checkpointer) {
      // referenced again while it closes its connection, so the process waits for it
      checkpointer.ref();
      const exited = new Promise((resolve) => checkpointer.once('exit', resolve));
      checkpointer.postMessage('stop');
      await exited;
    }
    if (this.db.open) this.db.close();
  }

  /** None: the database is one machine's file (processes on it take turns through SQLite's own locks). */
  componentLocks(): undefined {
    return undefined;
  }

  async ping(): Promise<void> {
    await this.read((tx) => tx.prepare('SELECT count(*) FROM sqlite_master').pluck().get());
  }

  /** A consistent copy of the whole database in `file` (SQLite's online backup), taken while others keep writing: one file, out of WAL mode. */
  async backup(file: string): Promise<{ pages: number }> {
    const { totalPages } = await this.db.backup(file);
    // SQLite's copy is in WAL mode, as the database is: a backup is one file
    makeStandalone(file);
    return { pages: totalPages };
  }

  /**
   * Another connection's commit (data_version) or a write through this one (total_changes), read once per turn of
   * the event loop (the requests of a turn arrived before that read, so it is as new as each of them asks: as the
   * PostgreSQL store does) and again after each write through this store.
   */
  async dataVersion(): Promise<string> {
    if (this.turnVersion === undefined) {
      this.turnVersion = this.version();
      setImmediate(() => {
        this.turnVersion = undefined;
      });
    }
    return this.turnVersion;
  }
}

/**
 * Opens (creating and migrating if needed) the SQLite store in `file`.
 * @example const store = await openSqliteStore('tms.sqlite')
 */
export function openSqliteStore(file: string): SqliteStore {
  return new SqliteStore(openDb(file));
}
