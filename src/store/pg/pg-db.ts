// A PostgreSQL connection that answers like the store's SQLite connection: synchronous statements (libpq), the
// same result shapes (integers as numbers, booleans as 0/1), transactions that run to their end without yielding.
import { createRequire } from 'node:module';
import { DatabaseUnavailableError, TmsError } from '../../domain/errors.js';
import type { Db, DbTransaction, RunResult, SqlStatement } from '../db.js';
import { type TranslatedSql, translateSql } from './translate.js';
import { toParam } from './values.js';

/** The part of the libpq binding used here. */
interface Pq {
  connectSync(conninfo: string): void;
  finish(): void;
  exec(text: string): void;
  execParams(text: string, values: (string | null)[]): void;
  prepare(name: string, text: string, nParams: number): void;
  execPrepared(name: string, values: (string | null)[]): void;
  resultStatus(): string;
  resultErrorMessage(): string;
  resultErrorFields(): { sqlState?: string } | undefined;
  errorMessage(): string;
  ntuples(): number;
  nfields(): number;
  fname(i: number): string;
  ftype(i: number): number;
  getvalue(row: number, col: number): string;
  getisnull(row: number, col: number): boolean;
  cmdTuples(): string;
  transactionStatus(): number;
}

/** PostgreSQL failed a statement (the SQLSTATE in `code`), or could not be reached (`code` undefined). */
export class PgError extends TmsError<{ code: string | undefined }> {}

let binding: (new () => Pq) | undefined;

/** The libpq binding, loaded on first use (an install without PostgreSQL support still runs SQLite). */
function loadBinding(): new () => Pq {
  if (binding) return binding;
  try {
    binding = createRequire(import.meta.url)('libpq') as new () => Pq;
  } catch (e) {
    throw new TmsError(
      `PostgreSQL support is not installed (the libpq binding failed to load: ${(e as Error).message.split('\n')[0]}); install libpq-dev and run npm install again`,
      {},
    );
  }
  return binding;
}

const OID = { bool: 16, int8: 20, int2: 21, int4: 23, oid: 26, float4: 700, float8: 701, numeric: 1700 } as const;

/** Parameters as better-sqlite3 takes them: positional values (arrays flattened) or one object of named ones. */
function bindValues(sql: TranslatedSql, params: unknown[]): (string | null)[] {
  if (sql.names.length > 0) {
    const named = (params[0] ?? {}) as Record<string, unknown>;
    return sql.names.map((name) => {
      if (!(name in named)) throw new RangeError(`missing named parameter "${name}"`);
      return toParam(named[name]);
    });
  }
  const flat = params.flatMap((p) => (Array.isArray(p) ? p : [p]));
  if (flat.length !== sql.positional) throw new RangeError(`the statement takes ${sql.positional} parameters, got ${flat.length}`);
  return flat.map(toParam);
}

interface Result {
  /** Objects by column name, or arrays in column order (raw). */
  rows: (Record<string, unknown> | unknown[])[];
  columns: string[];
  changes: number;
}

/** A prepared statement with better-sqlite3's interface (the part the store uses). */
class PgStatement implements SqlStatement {
  private plucked = false;
  private rawRows = false;
  private safe = false;
  private translated?: TranslatedSql;

  constructor(
    private readonly db: PgDb,
    readonly source: string,
  ) {}

  private get sql(): TranslatedSql {
    this.translated ??= translateSql(this.source);
    return this.translated;
  }

  pluck(toggle = true): this {
    this.plucked = toggle;
    return this;
  }

  raw(toggle = true): this {
    this.rawRows = toggle;
    return this;
  }

  safeIntegers(toggle = true): this {
    this.safe = toggle;
    return this;
  }

  private execute(params: unknown[]): Result {
    return this.db.execute(this.sql, bindValues(this.sql, params), this.safe, this.rawRows || this.plucked);
  }

  private shape(row: Record<string, unknown> | unknown[]): unknown {
    return this.plucked ? (row as unknown[])[0] : row;
  }

  get(...params: unknown[]): unknown {
    const result = this.execute(params);
    const row = result.rows[0];
    return row === undefined ? undefined : this.shape(row);
  }

  all(...params: unknown[]): unknown[] {
    const result = this.execute(params);
    return this.plucked ? result.rows.map((r) => this.shape(r)) : result.rows;
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.all(...params)[Symbol.iterator]();
  }

  run(...params: unknown[]): RunResult {
    const result = this.execute(params);
    const id = (result.rows[0] as Record<string, unknown> | undefined)?.id;
    return { changes: result.changes, lastInsertRowid: typeof id === 'number' || typeof id === 'bigint' ? id : 0 };
  }
}

/** The lock every writing transaction takes first: writers one at a time across all nodes, as SQLite has them. */
const WRITE_LOCK = 0x746d7300; // 'tms\0'

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
    if (!code || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') {
      this.drop();
      throw new DatabaseUnavailableError(`${this.name}: PostgreSQL is unavailable: ${message}`, { engine: 'postgresql' });
    }
    throw new PgError(`${message} (SQLSTATE ${code}) in: ${text.replace(/\s+/g, ' ').slice(0, 300)}`, { code });
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
  execute(sql: TranslatedSql, values: (string | null)[], safeIntegers: boolean, arrays: boolean): Result {
    const had = this.pq !== null;
    try {
      return this.executeOnce(sql, values, safeIntegers, arrays);
    } catch (e) {
      if (!(e instanceof DatabaseUnavailableError) || !had || this.depth > 0 || sql.writes) throw e;
      return this.executeOnce(sql, values, safeIntegers, arrays);
    }
  }

  private executeOnce(sql: TranslatedSql, values: (string | null)[], safeIntegers: boolean, arrays: boolean): Result {
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
    const result = readResult(pq, safeIntegers, arrays);
    if (sql.writes && result.changes > 0) {
      this.totalChanges += result.changes;
      // a write outside a writing transaction (those raise it at their start) still tells the caches
      if (this.depth === 0 && this.versioned) this.run1('UPDATE data_version SET n = n + 1 WHERE id = 1');
    }
    return result;
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

function firstLine(message: string): string {
  return message.trim().split('\n')[0] ?? '';
}

function readResult(pq: Pq, safeIntegers: boolean, arrays: boolean): Result {
  const changes = Number.parseInt(pq.cmdTuples(), 10) || 0;
  const nfields = pq.nfields();
  const columns: string[] = [];
  const parsers: ((text: string) => unknown)[] = [];
  for (let c = 0; c < nfields; c++) {
    columns.push(pq.fname(c));
    parsers.push(parserFor(pq.ftype(c), safeIntegers));
  }
  const n = pq.ntuples();
  const rows: (Record<string, unknown> | unknown[])[] = new Array(n);
  for (let r = 0; r < n; r++) {
    if (arrays) {
      const row: unknown[] = new Array(nfields);
      for (let c = 0; c < nfields; c++) {
        const text = pq.getvalue(r, c);
        row[c] = text === '' && pq.getisnull(r, c) ? null : parsers[c]!(text);
      }
      rows[r] = row;
    } else {
      const row: Record<string, unknown> = {};
      for (let c = 0; c < nfields; c++) {
        const text = pq.getvalue(r, c);
        row[columns[c]!] = text === '' && pq.getisnull(r, c) ? null : parsers[c]!(text);
      }
      rows[r] = row;
    }
  }
  return { rows, columns, changes };
}

const asText = (text: string) => text;
const asNumber = (text: string) => Number(text);
const asBigInt = (text: string) => BigInt(text);
const asFlag = (text: string) => (text === 't' ? 1 : 0);

/** SQLite's shapes: integers and reals as numbers (int8 as bigint when asked), booleans as 0/1, the rest text. */
function parserFor(oid: number, safeIntegers: boolean): (text: string) => unknown {
  switch (oid) {
    case OID.int8:
      return safeIntegers ? asBigInt : asNumber;
    case OID.int2:
    case OID.int4:
    case OID.oid:
      return safeIntegers ? asBigInt : asNumber;
    case OID.float4:
    case OID.float8:
    case OID.numeric:
      return asNumber;
    case OID.bool:
      return asFlag;
    default:
      return asText;
  }
}
