// What tests ask of the store's connection whichever engine runs the suite (TMS_TEST_POSTGRES selects PostgreSQL).
import { type Db, openDb } from '../../src/store/db.js';
import type { Statement, Tx } from '../../src/store/db.js';
import { openPgDb, testSchemaFor } from '../../src/store/pg/open.js';
import { PgStore } from '../../src/store/pg/pg-store.js';
import type { PgSession } from '../../src/store/pg/session.js';
import type { Store } from '../../src/store/store.js';

/** The suite runs against PostgreSQL (`TMS_TEST_POSTGRES`): tests of SQLite's own files and pragmas skip. */
export const onPostgres = Boolean(process.env.TMS_TEST_POSTGRES);

/** Rows inserted, updated or deleted through this store so far (SQLite's total_changes(), PostgreSQL's own count). */
export async function rowsWritten(store: Store): Promise<number> {
  if (store instanceof PgStore) return store.rowsWritten;
  return Number(await sqlOn(store).value('SELECT total_changes()'));
}

/**
 * Opens the database a configuration's `database` file names, as a second connection beside the store's: the SQLite
 * file, or (on PostgreSQL) the schema that stands for it.
 */
export function openDatabaseOf(file: string): Db {
  const url = process.env.TMS_TEST_POSTGRES;
  return url ? openPgDb(url, { schema: testSchemaFor(file) }) : openDb(file);
}

/** Statements run through a store's own read and write (SQL the tests check the store with, on either engine). */
export interface DirectSql {
  /** The first row, or undefined. */
  row<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  rows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** The first column of the first row, or undefined. */
  value<T = unknown>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  /** The first column of every row. */
  values<T = unknown>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** A write in a transaction of its own; rows changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
}

/**
 * SQL on a store, through `read` and `write` as the store's own work runs.
 * @example const sql = sqlOn(store); expect(await sql.value('SELECT count(*) FROM units')).toBe(3)
 */
export function sqlOn(store: Pick<Store, 'read' | 'write'>): DirectSql {
  return {
    row: (sql, ...params) => store.read(async (tx) => (await tx.prepare(sql).get(...params)) as never),
    rows: (sql, ...params) => store.read(async (tx) => (await tx.prepare(sql).all(...params)) as never),
    value: (sql, ...params) =>
      store.read(
        async (tx) =>
          (await tx
            .prepare(sql)
            .pluck()
            .get(...params)) as never,
      ),
    values: (sql, ...params) =>
      store.read(
        async (tx) =>
          (await tx
            .prepare(sql)
            .pluck()
            .all(...params)) as never,
      ),
    run: (sql, ...params) => store.write(async (tx) => (await tx.prepare(sql).run(...params)).changes),
  };
}

/**
 * Every translation's stored statistics in translation order, without the change number each write gives the row
 * (seq, what a catalog refresh reads since): the counts two ways of keeping them must agree on.
 * @example expect(await statisticsRows(store)).toEqual(countedAgain)
 */
export async function statisticsRows(store: Pick<Store, 'read' | 'write'>): Promise<Record<string, unknown>[]> {
  const rows = await sqlOn(store).rows('SELECT * FROM translation_stats ORDER BY translation_id');
  return rows.map(({ seq: _seq, ...counts }) => counts);
}

/**
 * A unit of a component's translation by its source text (German unless said): what the tests of writes look at.
 * @example expect(await unitBySource(env.store, 'copy1', 'Quit')).toMatchObject({ target: 'Beenden' })
 */
export async function unitBySource(
  store: Pick<Store, 'read' | 'write'>,
  component: string,
  source: string,
  language = 'de',
): Promise<{ id: number; target: string; state: number; pending: number }> {
  const row = await sqlOn(store).row<{ id: number; target: string; state: number; pending: number }>(
    `SELECT u.id, u.target, u.state, u.pending FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
     WHERE c.slug = ? AND t.language_code = ? AND u.source = ?`,
    component,
    language,
    source,
  );
  if (!row) throw new Error(`no ${language} unit "${source}" in ${component}`);
  return row;
}

/** Transactions and statements run through a store (every statement run is a round trip on PostgreSQL). */
export interface Counts {
  transactions: number;
  statements: number;
  /** Of the transactions, the write transactions (counted when the object has the field). */
  writes?: number;
  /** Of the statements, those run inside write transactions (counted when the object has the field). */
  writeStatements?: number;
  /** The statements run inside write transactions, by their SQL text (counted when the object has the field). */
  writeRuns?: Map<string, number>;
  /** The statements run inside write transactions with their parameters, in order (kept when the object has the field). */
  writeCalls?: { sql: string; params: unknown[] }[];
  /** The statements run inside read transactions with their parameters, in order (kept when the object has the field). */
  readCalls?: { sql: string; params: unknown[] }[];
  /** PostgreSQL's round trips inside write transactions, BEGIN and COMMIT aside (`PgSession.roundTrips`; 0 on SQLite). */
  writeRoundTrips?: number;
  /** Smart-HTTP requests to the upstream's server. */
  gitRequests?: number;
}

/** `store` with every transaction and statement run through it counted in `counts`. */
export function counting(store: Store, counts: Counts): Store {
  // the wrapped connection, one for reads and one for writes (SQLite's store keeps one connection for both)
  const txs = { read: new WeakMap<Tx, Tx>(), write: new WeakMap<Tx, Tx>() };
  const statement = (sql: string, inner: Statement, inWrite: boolean): Statement => {
    const counted =
      <A extends unknown[], R>(run: (...args: A) => R) =>
      (...args: A): R => {
        counts.statements++;
        if (inWrite && counts.writeStatements !== undefined) counts.writeStatements++;
        if (inWrite) counts.writeRuns?.set(sql, (counts.writeRuns.get(sql) ?? 0) + 1);
        if (inWrite) counts.writeCalls?.push({ sql, params: args });
        else counts.readCalls?.push({ sql, params: args });
        return run(...args);
      };
    const outer: Statement = {
      get: counted((...params) => inner.get(...params)),
      all: counted((...params) => inner.all(...params)),
      run: counted((...params) => inner.run(...params)),
      pluck: (...toggle) => {
        inner.pluck(...toggle);
        return outer;
      },
      safeIntegers: (...toggle) => {
        inner.safeIntegers(...toggle);
        return outer;
      },
      raw: (...toggle) => {
        inner.raw(...toggle);
        return outer;
      },
    };
    return outer;
  };
  const wrap = (tx: Tx, inWrite: boolean): Tx => {
    const wrapped = inWrite ? txs.write : txs.read;
    let outer = wrapped.get(tx);
    if (!outer) {
      outer = { dialect: tx.dialect, shared: tx.shared, prepare: (sql) => statement(sql, tx.prepare(sql), inWrite) };
      wrapped.set(tx, outer);
    }
    return outer;
  };
  return Object.assign(Object.create(store) as Store, {
    read: <T>(fn: (tx: Tx) => Promise<T>) => {
      counts.transactions++;
      return store.read((tx) => fn(wrap(tx, false)));
    },
    write: <T>(fn: (tx: Tx) => Promise<T>) => {
      counts.transactions++;
      if (counts.writes !== undefined) counts.writes++;
      return store.write(async (tx) => {
        const trips = () => (tx as Partial<PgSession>).roundTrips ?? 0;
        const before = trips();
        try {
          return await fn(wrap(tx, true));
        } finally {
          if (counts.writeRoundTrips !== undefined) counts.writeRoundTrips += trips() - before;
        }
      });
    },
  });
}

/**
 * How SQLite plans each statement of `calls` (those a counting store recorded), with the parameters it ran with: the
 * plan's detail lines by SQL text, each text once.
 * @example for (const [sql, details] of await sqlitePlans(store, writeCalls)) expect(details.join('\n'), sql).not.toContain('AUTOMATIC')
 */
export async function sqlitePlans(store: Pick<Store, 'read'>, calls: readonly { sql: string; params: unknown[] }[]): Promise<Map<string, string[]>> {
  const plans = new Map<string, string[]>();
  for (const { sql, params } of calls) {
    if (plans.has(sql)) continue;
    const rows = (await store.read((tx) => tx.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params))) as { detail: string }[];
    plans.set(
      sql,
      rows.map((r) => r.detail),
    );
  }
  return plans;
}
