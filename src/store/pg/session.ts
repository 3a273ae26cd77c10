// One PostgreSQL session that never blocks the event loop: libpq in pipeline mode (a statement is sent without waiting
// for the answers before it; answers are read in order as the socket has them), statements prepared once per session,
// rows in the shapes the SQLite engine gives (integers as numbers, or bigint when asked; booleans as 0/1).
import { DatabaseUnavailableError, TmsError } from '../../domain/errors.js';
import type { RunResult, Statement, Tx, TxShared } from '../db.js';
import { type NumberedSql, postgresDialect } from './dialect.js';
import {
  type Answer,
  PgError,
  type Pq,
  type Shape,
  ShapedStatement,
  bindValues,
  firstLine,
  loadBinding,
  lostSession,
  readAnswer,
  shortSql,
  translated,
} from './libpq.js';

/** A command sent and not yet answered, in the order sent. */
type Command =
  | { kind: 'prepare'; text: string }
  | { kind: 'query'; text: string; shape: Shape; writes: boolean; resolve: (a: Answer) => void; reject: (e: Error) => void; answer?: Answer; error?: Error }
  | { kind: 'sync' };

/** A prepared statement of one session, with the store's statement interface. */
class PgStatement extends ShapedStatement implements Statement {
  constructor(
    private readonly session: PgSession,
    sql: NumberedSql,
  ) {
    super(sql);
  }

  private execute(params: unknown[]): Promise<Answer> {
    let values: (string | null)[];
    try {
      values = bindValues(this.sql, params);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.session.send(this.sql, values, this.shape);
  }

  async get(...params: unknown[]): Promise<unknown> {
    return this.first(await this.execute(params));
  }

  async all(...params: unknown[]): Promise<unknown[]> {
    return this.every(await this.execute(params));
  }

  async run(...params: unknown[]): Promise<RunResult> {
    return this.outcome(await this.execute(params));
  }
}

/** Sessions waiting for answers, looked at now and then whatever the socket says (see `watch`). */
const waiting = new Set<PgSession>();
let watchdog: NodeJS.Timeout | undefined;
const WATCH_MS = 500;

/**
 * Looks at every session waiting for answers every WATCH_MS: libuv reports a socket in error (a write to a server that
 * had gone) as an error, not as readable, and the binding drops that event — without a look, such a session would
 * wait forever. A look at a healthy session reads nothing and changes nothing.
 */
function watch(session: PgSession): void {
  waiting.add(session);
  if (watchdog) return;
  watchdog = setInterval(() => {
    for (const s of waiting) s.look();
    if (waiting.size === 0) {
      clearInterval(watchdog);
      watchdog = undefined;
    }
  }, WATCH_MS);
  watchdog.unref();
}

/**
 * A PostgreSQL session answering through promises. In pipeline mode (the default) statements go out as they are
 * called and their answers come back in order, so a unit of work that issues several statements before awaiting
 * them pays one round trip for all; each statement is its own pipeline segment (an error fails that statement only,
 * or, inside BEGIN…COMMIT, the transaction as PostgreSQL has it).
 * @example const s = await PgSession.open('host=/run/postgresql dbname=tms', 'postgresql:///tms', shared); await s.prepare('SELECT 1').pluck().get()
 */
export class PgSession implements Tx {
  readonly dialect = postgresDialect;
  private readonly queue: Command[] = [];
  private readonly prepared = new Map<string, string>();
  private readonly statements = new Map<string, NumberedSql>();
  private broken: Error | null = null;
  private closed = false;
  private reading = false;
  private flushScheduled = false;
  /** libpq holds output the socket did not take yet: sent again as answers are read, or after a moment. */
  private pendingOutput = false;
  /** The first error of the current pipeline segment: commands after it in the segment are aborted by the server. */
  private segmentError: Error | null = null;
  /** A writing transaction is open on this session (Store.write). */
  writing = false;
  /** The first statement error of the open transaction: its COMMIT would roll back. */
  failure: Error | null = null;
  /** Rows inserted, updated or deleted through this session (SQLite's total_changes()). */
  rowsWritten = 0;
  /** Round trips: statements sent while none was waiting for its answer (those sent together count once). */
  roundTrips = 0;

  private constructor(
    private readonly pq: Pq,
    /** How the database is shown (never credentials). */
    readonly name: string,
    readonly shared: TxShared,
    readonly pipelined: boolean,
  ) {
    pq.on('readable', () => this.onReadable());
  }

  /**
   * Connects (libpq's connection runs on a thread of libuv's pool: the event loop goes on meanwhile). `pipeline:
   * false` gives a session for `exec` of whole scripts (migrations), one command at a time.
   */
  static async open(conninfo: string, name: string, shared: TxShared, opts: { pipeline?: boolean } = {}): Promise<PgSession> {
    const Pq = loadBinding();
    const pq = new Pq();
    const pipeline = opts.pipeline ?? true;
    await new Promise<void>((resolve, reject) => {
      pq.connect(conninfo, (error) => {
        if (!error) return resolve();
        try {
          pq.finish();
        } catch {
          // never connected
        }
        reject(new DatabaseUnavailableError(`${name}: cannot connect to PostgreSQL: ${firstLine(error.message)}`, { engine: 'postgresql' }));
      });
    });
    pq.setNonBlocking(true);
    if (pipeline) {
      if (!pq.pipelineModeSupported() || !pq.enterPipelineMode()) {
        pq.finish();
        throw new TmsError(`${name}: the libpq binding has no pipeline mode (it needs libpq 14 or newer at build time)`, {});
      }
    }
    const session = new PgSession(pq, name, shared, pipeline);
    // libpq prints notices (CREATE … IF NOT EXISTS, …) to stderr: only warnings and errors
    await session.exec("SET client_min_messages = 'warning'");
    return session;
  }

  /** Whether the session can take statements (not closed, not lost). */
  get usable(): boolean {
    return !this.closed && this.broken === null;
  }

  prepare(source: string): Statement {
    let sql = this.statements.get(source);
    if (!sql) {
      sql = translated(source);
      this.statements.set(source, sql);
    }
    return new PgStatement(this, sql);
  }

  /**
   * Runs SQL without parameters: in pipeline mode one statement (BEGIN, SET …), else a whole script in one round trip
   * (the simple protocol: several statements, no parameters).
   */
  exec(text: string): Promise<void> {
    if (!this.pipelined) return this.script(text).then(() => undefined);
    return this.send({ text, positional: 0, names: [], writes: false }, [], { safeIntegers: false, arrays: true }, false).then(() => undefined);
  }

  /**
   * Sends one statement; its answer comes back in order. `prepared` (the default) names it on the server once per
   * session (the Parse travels in the same packet as its first Bind).
   */
  send(sql: NumberedSql, values: (string | null)[], shape: Shape, prepared = true): Promise<Answer> {
    if (this.closed) return Promise.reject(new PgError(`${this.name}: the session is closed`, { code: undefined }));
    if (this.broken) return Promise.reject(this.broken);
    if (sql.writes && !this.writing) {
      return Promise.reject(new TmsError(`${this.name}: a write outside a writing transaction (use store.write): ${shortSql(sql.text)}`, {}));
    }
    return new Promise<Answer>((resolve, reject) => {
      if (!this.awake()) return reject(this.broken!);
      const pq = this.pq;
      let ok: boolean;
      if (prepared) {
        let name = this.prepared.get(sql.text);
        if (name === undefined) {
          name = `s${this.prepared.size + 1}`;
          if (!pq.sendPrepare(name, sql.text, 0)) return reject(this.fail(`cannot send a statement: ${firstLine(pq.errorMessage())}`));
          this.prepared.set(sql.text, name);
          this.queue.push({ kind: 'prepare', text: sql.text });
        }
        ok = pq.sendQueryPrepared(name, values);
      } else {
        ok = pq.sendQueryParams(sql.text, values);
      }
      if (!ok || !pq.pipelineSync()) return reject(this.fail(`cannot send a statement: ${firstLine(pq.errorMessage())}`));
      if (!this.queue.some((c) => c.kind === 'query')) this.roundTrips++;
      this.queue.push({ kind: 'query', text: sql.text, shape, writes: sql.writes, resolve, reject });
      this.queue.push({ kind: 'sync' });
      this.scheduleFlush();
    });
  }

  /** The rows of a script's last statement, as arrays (a session opened with `pipeline: false`). */
  async scriptRows(text: string): Promise<unknown[][]> {
    return (await this.script(text)).rows as unknown[][];
  }

  /** A whole script by the simple protocol (a session opened with `pipeline: false`, nothing else in flight). */
  private script(text: string): Promise<Answer> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<Answer>((resolve, reject) => {
      if (!this.awake()) return reject(this.broken!);
      if (!this.pq.sendQuery(text)) return reject(this.fail(`cannot send a statement: ${firstLine(this.pq.errorMessage())}`));
      this.queue.push({ kind: 'query', text, shape: { safeIntegers: false, arrays: true }, writes: false, resolve, reject });
      this.scheduleFlush();
    });
  }

  /** The statements called in one turn go out together: one write to the socket. */
  private scheduleFlush(): void {
    if (!this.reading) {
      this.reading = true;
      this.pq.startReader();
      watch(this);
    }
    if (this.flushScheduled || this.pendingOutput) return;
    this.flushScheduled = true;
    queueMicrotask(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.broken || this.closed) return;
    const status = this.pq.flush();
    if (status === -1) {
      this.fail(`cannot send to PostgreSQL: ${firstLine(this.pq.errorMessage())}`);
      return;
    }
    this.pendingOutput = status === 1;
    if (this.pendingOutput) {
      // the socket is full. The binding watches one direction at a time, and the server may be waiting for us to
      // read its answers before it reads more: so answers keep being read (each read tries again, as libpq asks),
      // and a timer tries again for a socket that drains without an answer to read.
      setTimeout(() => {
        if (this.pendingOutput) this.flush();
      }, 1);
    }
  }

  /** The watchdog's look: what the socket has, if anything (a lost connection shows here). */
  look(): void {
    if (!this.reading) waiting.delete(this);
    else this.onReadable();
  }

  /**
   * Before the first statement after a pause: a server that ended the session meanwhile (a restart) has said so and
   * closed the socket; reading that now fails the statement at once, instead of writing to a closed socket.
   */
  private awake(): boolean {
    if (this.reading) return true;
    if (this.pq.consumeInput()) return true;
    this.fail(`PostgreSQL is unavailable: ${firstLine(this.pq.errorMessage())}`);
    return false;
  }

  /** Reads what the socket has: every complete answer settles its statement, in order. */
  private onReadable(): void {
    try {
      if (!this.pq.consumeInput()) {
        this.fail(`PostgreSQL is unavailable: ${firstLine(this.pq.errorMessage())}`);
        return;
      }
      this.readResults();
      if (this.pendingOutput) this.flush();
    } catch (e) {
      // never out of an event of the binding (node would abort): the session is dropped instead
      this.fail(`the PostgreSQL session failed: ${(e as Error).message}`);
    }
  }

  private readResults(): void {
    const pq = this.pq;
    while (this.queue.length > 0 && !pq.isBusy()) {
      const head = this.queue[0]!;
      if (head.kind === 'sync') {
        // PGRES_PIPELINE_SYNC: the end of the segment (no NULL follows it)
        if (!pq.getResult()) break;
        this.queue.shift();
        this.segmentError = null;
        continue;
      }
      if (pq.getResult()) {
        this.takeResult(head);
        continue;
      }
      // NULL: the command's answers are complete
      this.queue.shift();
      if (head.kind === 'query') {
        if (head.error) head.reject(head.error);
        else head.resolve(head.answer ?? { rows: [], changes: 0 });
      }
    }
    if (this.queue.length === 0 && this.reading && !this.pendingOutput) {
      // idle: nothing to read until the next statement (an idle session must not keep the process alive)
      this.reading = false;
      this.pq.stopReader();
      waiting.delete(this);
    }
  }

  /** One result of the command at the head of the queue (a script gives one per statement: the last one's rows count). */
  private takeResult(head: Exclude<Command, { kind: 'sync' }>): void {
    const pq = this.pq;
    const status = pq.resultStatus();
    if (status === 'PGRES_TUPLES_OK' || status === 'PGRES_COMMAND_OK' || status === 'PGRES_EMPTY_QUERY') {
      if (head.kind === 'query' && !head.error) {
        head.answer = readAnswer(pq, head.shape);
        if (head.writes) this.rowsWritten += head.answer.changes;
      }
      return;
    }
    if (status === 'PGRES_PIPELINE_ABORTED') {
      // an earlier command of the segment failed (a prepare): that error is this statement's
      if (head.kind === 'query' && !head.error) head.error = this.segmentError ?? new PgError(`${this.name}: the statement was not run`, { code: undefined });
      return;
    }
    const code = pq.resultErrorFields()?.sqlState;
    const message = firstLine(pq.resultErrorMessage() || pq.errorMessage());
    let error: Error;
    if (lostSession(code)) {
      error = new DatabaseUnavailableError(`${this.name}: PostgreSQL is unavailable: ${message}`, { engine: 'postgresql' });
      this.broken ??= error;
    } else {
      error = new PgError(`${message} (SQLSTATE ${code}) in: ${shortSql(head.text)}`, { code });
    }
    this.segmentError ??= error;
    if (head.kind === 'prepare') this.prepared.delete(head.text);
    else head.error ??= error;
    if (this.writing) this.failure ??= error;
  }

  /** The session is lost: every statement waiting fails as unavailable; the session is closed. */
  private fail(message: string): Error {
    const error = this.broken ?? new DatabaseUnavailableError(`${this.name}: ${message}`, { engine: 'postgresql' });
    this.broken = error;
    const waiting = this.queue.splice(0);
    for (const c of waiting) if (c.kind === 'query') c.reject(error);
    this.finish();
    return error;
  }

  /** Closes the session (statements still waiting fail). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const error = new PgError(`${this.name}: the session is closed`, { code: undefined });
    for (const c of this.queue.splice(0)) if (c.kind === 'query') c.reject(error);
    this.finish();
  }

  private finish(): void {
    const pq = this.pq;
    if ((this as { finished?: boolean }).finished) return;
    (this as { finished?: boolean }).finished = true;
    this.reading = false;
    waiting.delete(this);
    try {
      pq.removeAllListeners('readable');
      pq.finish();
    } catch {
      // already gone
    }
    // finish() hands the binding's socket watcher to libuv to close at the end of the loop's turn and lets go of the
    // object; collected before that turn ends, it frees the watcher libuv still holds and node aborts
    // (uv__finish_close). Held a moment longer, it is collected after.
    setTimeout(() => void pq, 1000).unref();
  }
}
