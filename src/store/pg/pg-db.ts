// A PostgreSQL connection that answers like the store's SQLite connection: synchronous statements (libpq), the
// same result shapes (integers as numbers, booleans as 0/1), transactions that run to their end without yielding.
import { DatabaseUnavailableError } from '../../domain/errors.js';
import type { Db, DbTransaction, RunResult, SqlStatement } from '../db.js';
import type { NumberedSql } from './dialect.js';
import {
  type Answer,
  PgError,
  type Pq,
  ShapedStatement,
  WRITE_LOCK,
  bindValues,
  firstLine,
  loadBinding,
  lostSession,
  readAnswer,
  shortSql,
  translated,
} from './libpq.js';

/** A prepared statement with better-sqlite3's interface (the part the store uses). */
class PgStatement extends ShapedStatement implements SqlStatement {
  constructor(
    private readonly db: PgDb,
    source: string,
  ) {
    super(translated(source));
  }

  private execute(params: unknown[]): Answer {
    const { safeIntegers, arrays } = this.shape;
    return this.db.execute(this.sql, bindValues(this.sql, params), safeIntegers, arrays);
  }

  get(...params: unknown[]): unknown {
    return this.first(this.execute(params));
  }

  all(...params: unknown[]): unknown[] {
    return this.every(this.execute(params));
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.all(...params)[Symbol.iterator]();
  }

  run(...params: unknown[]): RunResult {
    return this.outcome(this.execute(params));
  }
}

/**
 * One PostgreSQL session, synchronous like better-sqlite3: each statement waits for its answer, so a transaction
 * runs from BEGIN to COMMIT without yielding to other work. Statements are prepared on the server once per session.
 * @example const db = new PgDb('host=/run/postgresql dbname=tms', 'postgresql://…/tms'); db.prepare('SELECT 1').pluck().get()
 */
export class PgDb implements Db {
  readonly engine = 'postgresql';
  private pq: Pq | null = null;
  private readonly prepared = new Map<string, string>();
  private depth = 0;
  private closed = false;
  /** Rows inserted, updated or deleted through this session (SQLite's total_changes()). */
  totalChanges = 0;
  /** Writes raise data_version (set once the schema has it, after the migrations). */
  versioned = false;
  /** How many sessions this connection has opened: it moves on each reconnection (session state, as locks, is gone). */
  sessions = 0;

  /**
   * @param conninfo libpq connection string (may hold credentials; never shown)
   * @param name what the database is called in messages: without credentials
   */
  constructor(
    private readonly conninfo: string,
    readonly name: string,
  ) {
    this.connect();
  }

  get open(): boolean {
    return !this.closed;
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** The session, reconnected when it was lost — but never inside a transaction: its rest would run outside it. */
  private connect(): Pq {
    if (this.pq) return this.pq;
    if (this.depth > 0) throw new DatabaseUnavailableError(`${this.name}: the connection was lost in a transaction`, { engine: 'postgresql' });
    if (this.closed) throw new PgError(`${this.name}: the connection is closed`, { code: undefined });
    const Pq = loadBinding();
    const pq = new Pq();
    try {
      pq.connectSync(this.conninfo);
    } catch (e) {
      throw new DatabaseUnavailableError(`${this.name}: cannot connect to PostgreSQL: ${firstLine((e as Error).message)}`, { engine: 'postgresql' });
    }
    this.pq = pq;
    this.sessions++;
    this.prepared.clear();
    this.run1("SET client_min_messages = 'warning'");
    return pq;
  }

  private run1(text: string): void {
    const pq = this.pq!;
    pq.exec(text);
    this.check(pq, text);
  }

  /** Throws the statement's error; a lost connection is dropped so the next statement reconnects. */
  private check(pq: Pq, text: string): void {
    const status = pq.resultStatus();
    if (status === 'PGRES_TUPLES_OK' || status === 'PGRES_COMMAND_OK') return;
    const code = pq.resultErrorFields()?.sqlState;
    const message = firstLine(pq.resultErrorMessage() || pq.errorMessage());
    if (lostSession(code)) {
      this.drop();
      throw new DatabaseUnavailableError(`${this.name}: PostgreSQL is unavailable: ${message}`, { engine: 'postgresql' });
    }
    throw new PgError(`${message} (SQLSTATE ${code}) in: ${shortSql(text)}`, { code });
  }

  private drop(): void {
    const pq = this.pq;
    this.pq = null;
    this.prepared.clear();
    if (!pq) return;
    try {
      pq.finish();
    } catch {
      // already gone
    }
    // finish() hands the binding's socket watcher to libuv to close at the end of the loop's turn and lets go of the
    // object; collected before that turn ends, it frees the watcher libuv still holds and node aborts
    // (uv__finish_close). Held a moment longer, it is collected after.
    setTimeout(() => void pq, 1000).unref();
  }

  /**
   * Runs one statement (prepared on first use in this session) and reads its rows. A session found lost (the server
   * restarted while it was idle) is replaced once, and a read outside a transaction tried again on the new one: only
   * the first statement after a restart would otherwise fail.
   */
  execute(sql: NumberedSql, values: (string | null)[], safeIntegers: boolean, arrays: boolean): Answer {
    const had = this.pq !== null;
    try {
      return this.executeOnce(sql, values, safeIntegers, arrays);
    } catch (e) {
      if (!(e instanceof DatabaseUnavailableError) || !had || this.depth > 0 || sql.writes) throw e;
      return this.executeOnce(sql, values, safeIntegers, arrays);
    }
  }

  private executeOnce(sql: NumberedSql, values: (string | null)[], safeIntegers: boolean, arrays: boolean): Answer {
    const pq = this.connect();
    let name = this.prepared.get(sql.text);
    if (name === undefined) {
      name = `s${this.prepared.size + 1}`;
      pq.prepare(name, sql.text, 0);
      this.check(pq, sql.text);
      this.prepared.set(sql.text, name);
    }
    pq.execPrepared(name, values);
    this.check(pq, sql.text);
    const result = readAnswer(pq, { safeIntegers, arrays });
    if (sql.writes && result.changes > 0) {
      this.totalChanges += result.changes;
      // a write outside a writing transaction (those raise it at their start) still tells the caches
      if (this.depth === 0 && this.versioned) this.run1('UPDATE data_version SET n = n + 1 WHERE id = 1');
    }
    return result;
  }

  /**
   * Runs one `COPY … FROM STDIN` statement and sends it `chunks` of COPY's text format (pg/copy-text.ts); returns the
   * rows it stored. A chunk that fails to come (the iterator throws) ends the COPY as failed on the server and is
   * thrown; the server's own error (a constraint, bad input) is thrown as a statement's is.
   * @example db.copyIn('COPY units (id, source) FROM STDIN', [copyLines(rows)])
   */
  copyIn(text: string, chunks: Iterable<string>): number {
    const pq = this.connect();
    pq.exec(text);
    if (pq.resultStatus() !== 'PGRES_COPY_IN') {
      this.check(pq, text);
      throw new PgError(`not a COPY FROM STDIN: ${shortSql(text)}`, { code: undefined });
    }
    let failure: unknown;
    try {
      for (const chunk of chunks) {
        if (pq.putCopyData(Buffer.from(chunk, 'utf8')) !== 1) {
          throw new PgError(`${this.name}: sending rows to COPY failed: ${firstLine(pq.errorMessage())}`, { code: undefined });
        }
      }
    } catch (e) {
      failure = e;
    }
    pq.putCopyEnd(failure === undefined ? undefined : 'the rows to copy could not be read');
    // the COPY's result, then none: every result read before the next statement
    let error: unknown;
    let changes = 0;
    while (this.pq === pq && pq.getResult()) {
      if (pq.resultStatus() === 'PGRES_COMMAND_OK') changes = Number.parseInt(pq.cmdTuples(), 10) || 0;
      else if (error === undefined) {
        try {
          this.check(pq, text);
        } catch (e) {
          error = e;
        }
      }
    }
    if (failure !== undefined) throw failure;
    if (error !== undefined) throw error;
    this.totalChanges += changes;
    return changes;
  }

  /** BEGIN; on a session found lost (nothing of the transaction ran yet), once more on a new one. */
  private begin(retry: boolean): void {
    try {
      this.exec('BEGIN');
    } catch (e) {
      if (!(e instanceof DatabaseUnavailableError) || !retry) throw e;
      this.exec('BEGIN');
    }
  }

  /**
   * Opens a transaction that stays open across awaits (the store's turns keep others off this session meanwhile):
   * `write` takes the write lock and raises data_version, as `transaction(…).immediate()` does.
   */
  openTransaction(write: boolean): void {
    const had = this.pq !== null;
    this.connect();
    if (this.depth > 0) throw new Error(`${this.name}: a transaction is already open`);
    this.begin(had);
    this.depth++;
    try {
      if (write) this.exec(`SELECT pg_advisory_xact_lock(${WRITE_LOCK})${this.versioned ? '; UPDATE data_version SET n = n + 1 WHERE id = 1' : ''}`);
    } catch (e) {
      this.rollbackTransaction();
      throw e;
    }
  }

  /** Commits the transaction `openTransaction` opened. */
  commitTransaction(): void {
    this.depth--;
    this.exec('COMMIT');
  }

  /** Rolls back the transaction `openTransaction` opened (a lost session has rolled back by itself). */
  rollbackTransaction(): void {
    this.depth--;
    if (!this.pq) return;
    try {
      this.run1('ROLLBACK');
    } catch {
      // the connection is gone: the server rolled back
    }
  }

  prepare(source: string): SqlStatement {
    return new PgStatement(this, source);
  }

  exec(text: string): this {
    this.connect();
    this.run1(text);
    return this;
  }

  // biome-ignore lint/suspicious/noExplicitAny: better-sqlite3's own signature
  transaction<F extends (...args: any[]) => unknown>(fn: F): DbTransaction<F> {
    const run =
      (write: boolean) =>
      (...args: Parameters<F>): ReturnType<F> => {
        const had = this.pq !== null;
        this.connect();
        const nested = this.depth > 0;
        const savepoint = `tx${this.depth}`;
        if (nested) this.exec(`SAVEPOINT ${savepoint}`);
        else this.begin(had);
        this.depth++;
        let result: ReturnType<F>;
        try {
          if (write && !nested)
            this.exec(`SELECT pg_advisory_xact_lock(${WRITE_LOCK})${this.versioned ? '; UPDATE data_version SET n = n + 1 WHERE id = 1' : ''}`);
          result = fn(...args) as ReturnType<F>;
        } catch (e) {
          this.depth--;
          if (this.pq) {
            try {
              this.run1(nested ? `ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}` : 'ROLLBACK');
            } catch {
              // the connection is gone: the server rolled back
            }
          }
          throw e;
        }
        this.depth--;
        this.exec(nested ? `RELEASE SAVEPOINT ${savepoint}` : 'COMMIT');
        return result;
      };
    return Object.assign(run(false), { default: run(false), deferred: run(false), immediate: run(true), exclusive: run(true) }) as unknown as DbTransaction<F>;
  }

  /** Another session on the same database (and schema), for work that must not share this one's. */
  sibling(): PgDb {
    return new PgDb(this.conninfo, this.name);
  }

  close(): this {
    this.closed = true;
    this.drop();
    return this;
  }
}
