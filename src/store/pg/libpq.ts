// The libpq binding as both PostgreSQL connections use it (the asynchronous session of the store, the synchronous
// one of `tms db copy` and tests): loading it, parameters in, rows out in the SQLite engine's shapes, errors.
import { createRequire } from 'node:module';
import { TmsError } from '../../domain/errors.js';
import type { RunResult } from '../db.js';
import { type NumberedSql, numberParameters } from './dialect.js';
import { toParam } from './values.js';

/** The part of the libpq binding tms uses: its synchronous calls (PgDb) and its asynchronous ones (PgSession). */
export interface Pq {
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
  putCopyData(data: Buffer): number;
  putCopyEnd(errorMessage?: string): number;
  transactionStatus(): number;
  connect(conninfo: string, done: (error?: Error) => void): void;
  setNonBlocking(on: boolean): boolean;
  enterPipelineMode(): boolean;
  pipelineModeSupported(): boolean;
  pipelineSync(): boolean;
  sendQuery(text: string): boolean;
  sendQueryParams(text: string, values: (string | null)[]): boolean;
  sendPrepare(name: string, text: string, nParams: number): boolean;
  sendQueryPrepared(name: string, values: (string | null)[]): boolean;
  flush(): number;
  startReader(): void;
  stopReader(): void;
  consumeInput(): boolean;
  isBusy(): boolean;
  getResult(): boolean;
  on(event: 'readable', listener: () => void): void;
  removeAllListeners(event: 'readable'): void;
}

/** PostgreSQL failed a statement (the SQLSTATE in `code`), or could not be reached (`code` undefined). */
export class PgError extends TmsError<{ code: string | undefined }> {}

/** The advisory lock every writing transaction takes first: writers one at a time across all nodes, as SQLite has them. */
export const WRITE_LOCK = 0x746d7300; // 'tms\0'

let binding: (new () => Pq) | undefined;

/** The libpq binding, loaded on first use (an install without PostgreSQL support still runs SQLite). */
export function loadBinding(): new () => Pq {
  if (binding) return binding;
  try {
    binding = createRequire(import.meta.url)('libpq') as new () => Pq;
  } catch (e) {
    throw new TmsError(
      `PostgreSQL support is not installed (the libpq binding failed to load: ${firstLine((e as Error).message)}); install libpq-dev and run npm install again`,
      {},
    );
  }
  return binding;
}

/** Rows as objects by column name, or arrays in column order. */
export type Row = Record<string, unknown> | unknown[];

export interface Answer {
  rows: Row[];
  changes: number;
}

/** How a statement wants its rows. */
export interface Shape {
  safeIntegers: boolean;
  arrays: boolean;
}

/** A statement's text with its parameters numbered, once per text. */
const SQL_CACHE = new Map<string, NumberedSql>();

/** A statement's text with its parameters numbered, once per text. */
export function translated(source: string): NumberedSql {
  let sql = SQL_CACHE.get(source);
  if (!sql) {
    sql = numberParameters(source);
    SQL_CACHE.set(source, sql);
  }
  return sql;
}

/** Parameters as better-sqlite3 takes them: positional values (arrays flattened) or one object of named ones. */
export function bindValues(sql: NumberedSql, params: unknown[]): (string | null)[] {
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

/** SQLSTATEs of a server that went away (connection exceptions, shutdown): the session is lost. */
export function lostSession(code: string | undefined): boolean {
  return !code || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
}

/** The rows of the result libpq holds now, and how many rows it changed. */
export function readAnswer(pq: Pq, shape: Shape): Answer {
  const changes = Number.parseInt(pq.cmdTuples(), 10) || 0;
  const nfields = pq.nfields();
  const columns: string[] = [];
  const parsers: ((text: string) => unknown)[] = [];
  for (let c = 0; c < nfields; c++) {
    columns.push(pq.fname(c));
    parsers.push(parserFor(pq.ftype(c), shape.safeIntegers));
  }
  const n = pq.ntuples();
  const rows: Row[] = new Array(n);
  for (let r = 0; r < n; r++) {
    if (shape.arrays) {
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
  return { rows, changes };
}

const OID = { bool: 16, bytea: 17, int8: 20, int2: 21, int4: 23, oid: 26, float4: 700, float8: 701, numeric: 1700 } as const;
const asText = (text: string) => text;
const asNumber = (text: string) => Number(text);
const asBigInt = (text: string) => BigInt(text);
const asFlag = (text: string) => (text === 't' ? 1 : 0);
// bytea arrives in its hex form (`\x…`, PostgreSQL's default bytea_output)
const asBytes = (text: string) => Buffer.from(text.slice(2), 'hex');

/** SQLite's shapes: integers and reals as numbers (integers as bigint when asked), booleans as 0/1, bytea as a Buffer, the rest text. */
export function parserFor(oid: number, safeIntegers: boolean): (text: string) => unknown {
  switch (oid) {
    case OID.int8:
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
    case OID.bytea:
      return asBytes;
    default:
      return asText;
  }
}

/** A statement's text on one line, cut for messages. */
export function shortSql(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 300);
}

/** The first line of a libpq message. */
export function firstLine(message: string): string {
  return message.trim().split('\n')[0] ?? '';
}

/**
 * What both connections' prepared statements share: better-sqlite3's result toggles (`pluck`, `raw`, `safeIntegers`)
 * and the rows shaped by them; a subclass sends the statement and hands its answer to `first`, `every` or `outcome`.
 */
export abstract class ShapedStatement {
  private plucked = false;
  private rawRows = false;
  private safe = false;

  constructor(readonly sql: NumberedSql) {}

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

  /** How the rows are to be read. */
  protected get shape(): Shape {
    return { safeIntegers: this.safe, arrays: this.rawRows || this.plucked };
  }

  /** `get`'s value: the first row (its first column when plucked), or undefined. */
  protected first(answer: Answer): unknown {
    const row = answer.rows[0];
    return row === undefined ? undefined : this.plucked ? (row as unknown[])[0] : row;
  }

  /** `all`'s value: every row (each its first column when plucked). */
  protected every(answer: Answer): unknown[] {
    return this.plucked ? answer.rows.map((r) => (r as unknown[])[0]) : answer.rows;
  }

  /** `run`'s value: rows changed, and the `id` a `RETURNING id` gave. */
  protected outcome(answer: Answer): RunResult {
    const first = answer.rows[0];
    const id = first === undefined ? undefined : Array.isArray(first) ? first[0] : first.id;
    return { changes: answer.changes, lastInsertRowid: typeof id === 'number' || typeof id === 'bigint' ? id : 0 };
  }
}
