// The store on PostgreSQL: a pool of asynchronous sessions (several units of work in flight at once, none blocking
// the event loop), writers one at a time across all nodes, the change token every node's caches follow.
import { DatabaseUnavailableError } from '../../domain/errors.js';
import { StoreError, type Tx, type TxShared } from '../db.js';
import { SearchFillRuns } from '../search-fill-runs.js';
import type { ComponentLocks, Store } from '../store.js';
import { Turns } from '../turns.js';
import { PgComponentLocks } from './component-locks.js';
import { WAL_FLUSHED, settling } from './dialect.js';
import { WRITE_LOCK } from './libpq.js';
import { connectionInfo, migrateDatabase, shownName } from './open.js';
import { fillSearchChunk, searchFillPending } from './search-fill.js';
import { PgSession } from './session.js';

/** Sessions a store opens at most (per process: `--workers N` has N pools). */
export const POOL_SIZE = 10;

/** A session taken from the pool: `reused` when it had served before (it may have been lost while idle). */
interface Taken {
  session: PgSession;
  reused: boolean;
}

interface Waiter {
  resolve: (t: Taken) => void;
  reject: (e: Error) => void;
}

/**
 * A PostgreSQL store: units of work on a pool of sessions. Reads run side by side; writes take turns in this process
 * and, through one advisory lock, across every node, each raising data_version, which every node's response cache
 * compares. A session the server lost is dropped: a read that met one while it was idle (the server restarted), and
 * a write whose BEGIN met one, run once more on a fresh session.
 * @example const store = await openPgStore('postgresql://tms@db/tms'); await store.read((tx) => findComponent(tx, 'hello', 'app'))
 */
export class PgStore implements Store {
  private readonly idle: PgSession[] = [];
  private readonly waiters: Waiter[] = [];
  /** Sessions open or opening. */
  private size = 0;
  /** Every open session, and the rows written through sessions closed since. */
  private readonly sessions = new Set<PgSession>();
  private rowsOfClosed = 0;
  private closed = false;
  private readonly writers = new Turns();
  private locks?: PgComponentLocks;
  /** Writing transactions this process committed: its own writes show in the token at once. */
  private ownWrites = 0;
  private lastToken = '0:0';
  private counterSent: Promise<number> | null = null;
  private counterNext: Promise<number> | null = null;
  private readonly shared: TxShared = { version: () => this.lastToken };
  /** The search's fill in the background (fillSearchIndex). */
  private readonly fills = new SearchFillRuns({
    read: (fn) => this.read(fn),
    write: (fn) => this.write(fn),
    pending: searchFillPending,
    chunk: (tx) => fillSearchChunk(tx),
    finished: () => this.settle(['unit_search']),
  });

  constructor(
    private readonly conninfo: string,
    /** How the database is shown (never credentials). */
    readonly location: string,
    private readonly max = POOL_SIZE,
  ) {}

  /** A session: an idle one (the most recently used), a new one while the pool has room, else the next given back. */
  private acquire(): Promise<Taken> {
    if (this.closed) return Promise.reject(new StoreError(`${this.location}: the store is closed`, { file: this.location }));
    const idle = this.idle.pop();
    if (idle) return Promise.resolve({ session: idle, reused: true });
    if (this.size < this.max) return this.connect();
    return new Promise<Taken>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private connect(): Promise<Taken> {
    this.size++;
    return PgSession.open(this.conninfo, this.location, this.shared).then(
      (session) => {
        this.sessions.add(session);
        return { session, reused: false };
      },
      (e: Error) => {
        this.size--;
        throw e;
      },
    );
  }

  /** Gives a session back: to the next waiter, else to the idle ones; a lost one is closed (a waiter gets a new one). */
  private release(session: PgSession): void {
    if (session.usable && !this.closed) {
      const waiter = this.waiters.shift();
      if (waiter) waiter.resolve({ session, reused: true });
      else this.idle.push(session);
      return;
    }
    this.closeSession(session);
    const waiter = this.waiters.shift();
    if (waiter && !this.closed) this.connect().then(waiter.resolve, waiter.reject);
  }

  /** The server went away: the idle sessions went with it. */
  private dropIdle(): void {
    for (const s of this.idle.splice(0)) this.closeSession(s);
  }

  private closeSession(session: PgSession): void {
    session.close();
    this.size--;
    if (this.sessions.delete(session)) this.rowsOfClosed += session.rowsWritten;
  }

  /** Rows inserted, updated or deleted through this store so far (SQLite's total_changes(), for tests). */
  get rowsWritten(): number {
    let rows = this.rowsOfClosed;
    for (const s of this.sessions) rows += s.rowsWritten;
    return rows;
  }

  async read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const { session, reused } = await this.acquire();
    try {
      return await fn(session);
    } catch (e) {
      // lost while it was idle (the server restarted): once more on a new session
      if (!reused || !(e instanceof DatabaseUnavailableError) || session.usable) throw e;
      this.dropIdle();
      const again = await this.connect();
      try {
        return await fn(again.session);
      } finally {
        this.release(again.session);
      }
    } finally {
      this.release(session);
    }
  }

  /**
   * Runs `fn` in one transaction: BEGIN, the write lock and the raise of data_version travel with `fn`'s first
   * statements; COMMIT when it returns (unless a statement failed: PostgreSQL then rolled the transaction back, and
   * its first error is thrown), ROLLBACK when it throws.
   */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.writers.write(async () => {
      for (let attempt = 0; ; attempt++) {
        const { session, reused } = await this.acquire();
        session.writing = true;
        session.failure = null;
        const begun = Promise.all([
          session.exec('BEGIN'),
          session.exec(`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`),
          session.exec('UPDATE data_version SET n = n + 1 WHERE id = 1'),
        ]);
        // awaited below; a failure must not go unhandled meanwhile
        begun.catch(() => {});
        try {
          const result = await fn(session);
          await begun;
          if (session.failure) throw session.failure;
          await session.exec('COMMIT');
          if (session.failure) throw session.failure;
          this.ownWrites++;
          this.lastToken = `${this.lastToken.split(':')[0]}:${this.ownWrites}`;
          return result;
        } catch (e) {
          if (session.usable) await session.exec('ROLLBACK').catch(() => {});
          // nothing of it reached a server that had gone away while the session was idle: once more, on a new one
          const lostAtBegin = await begun.then(
            () => false,
            (b) => b instanceof DatabaseUnavailableError,
          );
          if (attempt > 0 || !reused || !lostAtBegin) throw e;
          this.dropIdle();
        } finally {
          session.writing = false;
          this.release(session);
        }
      }
    });
  }

  /**
   * The change token: the counter every writing transaction raises (on whichever node), and this process's own
   * writes. A read of the counter already on its way when a caller asks might not see a commit just before: that
   * caller waits for the next read, sent once it is back; callers meanwhile share it (one round trip for all).
   */
  async dataVersion(): Promise<string> {
    const n = await this.counter();
    this.lastToken = `${n}:${this.ownWrites}`;
    return this.lastToken;
  }

  private counter(): Promise<number> {
    if (!this.counterSent) return this.sendCounter();
    this.counterNext ??= this.counterSent.then(
      () => this.afterCounter(),
      () => this.afterCounter(),
    );
    return this.counterNext;
  }

  private afterCounter(): Promise<number> {
    this.counterNext = null;
    return this.sendCounter();
  }

  private sendCounter(): Promise<number> {
    const sent = this.read(async (tx) => Number(await tx.prepare('SELECT n FROM data_version WHERE id = 1').pluck().get()));
    this.counterSent = sent;
    const done = () => {
      if (this.counterSent === sent) this.counterSent = null;
    };
    sent.then(done, done);
    return sent;
  }

  async ping(): Promise<void> {
    await this.read((tx) => tx.prepare('SELECT count(*) FROM tms_schema').pluck().get());
  }

  async backup(file: string): Promise<{ pages: number }> {
    throw new StoreError(`${this.location}: a PostgreSQL store is backed up by PostgreSQL's own tools (pg_dump), not tms backup`, { file });
  }

  /** Component locks on a session of their own (advisory locks belong to the session that took them). */
  componentLocks(): ComponentLocks {
    this.locks ??= new PgComponentLocks(() => PgSession.open(this.conninfo, this.location, this.shared));
    return this.locks;
  }

  /**
   * VACUUM, then ANALYZE (`settling`), of these tables on a pooled session, outside any transaction (statements of
   * their own in the pipeline), once the load's commit is on disk (WAL_FLUSHED), the event loop free meanwhile: their
   * statistics, and the visibility map that lets an index-only scan skip the heap (a deep page of /api/units/
   * otherwise fetches every row it passes), without waiting for autovacuum. The search's table, which the load left
   * to the fill (search-fill.ts), is filled in the background and settled after it.
   */
  async settleLoad(tables: readonly string[]): Promise<void> {
    // the search's table, which a first load leaves to the fill, is settled once filled (fillSearchIndex)
    const filled = await this.read(searchFillPending);
    await this.settle(filled ? tables.filter((t) => t !== 'unit_search') : tables);
    if (filled) {
      void this.fillSearchIndex().catch(() => {
        // left for the next fill (the next start, sync or first load): the search reads the units meanwhile
      });
    }
  }

  private async settle(tables: readonly string[]): Promise<void> {
    if (tables.length === 0) return;
    const names = tables.map((t) => `"${t.replace(/"/g, '""')}"`);
    await this.read(async (tx) => {
      await (tx as PgSession).exec(WAL_FLUSHED);
      for (const statement of settling(names)) await (tx as PgSession).exec(statement);
    });
  }

  /**
   * Fills the search's table where a first load left units to it (search-fill.ts), in the background (SearchFillRuns),
   * then VACUUM and ANALYZE of unit_search, as after a load. Fills of several processes (nodes) take their chunks in
   * turns under the write lock, each reading the range as the other left it.
   */
  fillSearchIndex(): Promise<void> {
    return this.fills.start();
  }

  /** Nothing to move off the request path: PostgreSQL keeps its own storage. */
  checkpointInBackground(): void {}

  async close(): Promise<void> {
    // a fill stops after its chunk (the next start or sync goes on from there)
    await this.fills.stop();
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(new StoreError(`${this.location}: the store is closed`, { file: this.location }));
    this.dropIdle();
    this.locks?.close();
    this.locks = undefined;
  }
}

/**
 * Connects to the PostgreSQL database of `url` (libpq reads the rest from the standard PG* variables), brings its
 * schema up to date and gives the store; `schema` (tests) keeps the store in a schema of its own.
 * @example const store = await openPgStore('postgresql://tms@localhost/tms')
 */
export async function openPgStore(url: string, options: { schema?: string } = {}): Promise<PgStore> {
  await migrateDatabase(url, options.schema);
  return new PgStore(connectionInfo(url, options.schema), shownName(url, options.schema));
}
