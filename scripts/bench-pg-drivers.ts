// `npx tsx scripts/bench-pg-drivers.ts`: the asynchronous PostgreSQL drivers tms could use, on the work of one API
// page, so that the choice in BENCHMARKS.md rests on a measurement. A throwaway server (test/helpers/postgres-server.ts)
// holds a table of 3,300 units; a TCP proxy in a process of its own (test/helpers/latency-proxy.ts) sits in front of it,
// with no delay and with 0.5 ms each way (1 ms of round trip). Each driver gets a pool of 10 connections and 32 callers
// at once, each caller repeating one "page": 6 statements with parameters (a count, the page of 5 units, their checks,
// suggestions, comments and the translation), either one after the other (as repository functions await them) or all
// six sent at once (as a caller that needs them together can). Operations a second and CPU time an operation of this
// process (the event loop every request of a tms node shares) are printed per driver.
//   - libpq pipelined: tms's own session (src/store/pg/session.ts: the libpq binding that pg-native builds on, in
//     pipeline mode, statements prepared once per session, sent as they come without waiting for earlier answers)
//   - pg-native: pg-native's asynchronous Client (the same libpq binding, one statement in flight per connection)
//   - pg: node-postgres (pure JavaScript protocol, named prepared statements, one statement in flight per connection);
//     not a dependency of tms: measured when it is installed (`npm install --no-save pg`), skipped otherwise
// BENCH_DURATION (seconds a measurement, 5).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PgSession } from '../src/store/pg/session.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { root } from './bench-lib.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5) * 1000;
const CALLERS = 32;
const POOL = 10;
const UNITS = 3300;
const require = createRequire(import.meta.url);

/** One driver's connection: runs a statement (`$n` placeholders) and gives its rows. */
interface Connection {
  query(name: string, text: string, values: unknown[]): Promise<unknown[]>;
  close(): void;
}
type Driver = { name: string; connect(conninfo: string): Promise<Connection> };

const STATEMENTS: [string, string][] = [
  ['count', 'SELECT count(*) FROM units WHERE translation_id = $1'],
  ['page', 'SELECT id, source, target, state, position FROM units WHERE translation_id = $1 ORDER BY position LIMIT 5 OFFSET $2'],
  ['checks', 'SELECT unit_id, name FROM checks WHERE unit_id BETWEEN $1 AND $2'],
  ['suggestions', 'SELECT unit_id, target FROM suggestions WHERE unit_id BETWEEN $1 AND $2'],
  ['comments', 'SELECT unit_id, comment FROM comments WHERE unit_id BETWEEN $1 AND $2'],
  ['translation', 'SELECT id, language_code, filename FROM translations WHERE id = $1'],
];

const drivers: Driver[] = [
  {
    name: 'libpq pipelined (tms)',
    async connect(conninfo) {
      const session = await PgSession.open(conninfo, 'bench', { version: () => '0' });
      const statements = new Map(STATEMENTS.map(([name, text]) => [name, session.prepare(text.replace(/\$\d+/g, '?'))]));
      return { query: (name, _text, values) => statements.get(name)!.all(...values), close: () => session.close() };
    },
  },
  {
    name: 'pg-native',
    async connect(conninfo) {
      const Client = require('pg-native') as new () => {
        connect(conninfo: string, done: (e?: Error) => void): void;
        query(text: string, values: unknown[], done: (e: Error | null, rows: unknown[]) => void): void;
        prepare(name: string, text: string, n: number, done: (e?: Error) => void): void;
        execute(name: string, values: unknown[], done: (e: Error | null, rows: unknown[]) => void): void;
        end(): void;
      };
      const client = new Client();
      await new Promise<void>((resolve, reject) => client.connect(conninfo, (e) => (e ? reject(e) : resolve())));
      for (const [name, text] of STATEMENTS) {
        await new Promise<void>((resolve, reject) => client.prepare(name, text, (text.match(/\$\d+/g) ?? []).length, (e) => (e ? reject(e) : resolve())));
      }
      // one statement at a time (the client refuses a second while one is in flight): the others wait their turn
      let turn: Promise<unknown> = Promise.resolve();
      const execute = (name: string, values: unknown[]) =>
        new Promise<unknown[]>((resolve, reject) => client.execute(name, values, (e, rows) => (e ? reject(e) : resolve(rows))));
      return {
        query: (name, _text, values) => {
          const answer = turn.then(() => execute(name, values));
          turn = answer.catch(() => {});
          return answer;
        },
        close: () => client.end(),
      };
    },
  },
];
try {
  const pg = require('pg') as { Client: new (o: { connectionString: string }) => NodePgClient };
  interface NodePgClient {
    connect(): Promise<void>;
    query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
    end(): Promise<void>;
  }
  drivers.push({
    name: 'pg (node-postgres)',
    async connect(conninfo) {
      const client = new pg.Client({ connectionString: conninfo });
      await client.connect();
      return {
        query: async (name, text, values) => (await client.query({ name, text, values })).rows,
        close: () => void client.end(),
      };
    },
  });
} catch {
  console.log('pg (node-postgres) is not installed: skipped (npm install --no-save pg measures it too)');
}

const server = startPostgres(['drivers']);
const children = new Set<ReturnType<typeof spawn>>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  server.remove();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

server.psql(
  'drivers',
  `CREATE TABLE translations (id int PRIMARY KEY, language_code text, filename text);
   INSERT INTO translations SELECT i, 'l' || i, 'app_' || i || '.ts' FROM generate_series(1, 8) i;
   CREATE TABLE units (id int PRIMARY KEY, translation_id int, source text, target text, state int, position int);
   INSERT INTO units SELECT i, 1 + i % 8, 'source text ' || i, 'target text ' || i, 20, i / 8 FROM generate_series(1, ${UNITS}) i;
   CREATE INDEX ON units (translation_id, position);
   CREATE TABLE checks (unit_id int, name text); CREATE INDEX ON checks (unit_id);
   INSERT INTO checks SELECT i, 'same' FROM generate_series(1, ${UNITS}, 7) i;
   CREATE TABLE suggestions (unit_id int, target text); CREATE INDEX ON suggestions (unit_id);
   CREATE TABLE comments (unit_id int, comment text); CREATE INDEX ON comments (unit_id);
   ANALYZE`,
);

/** The proxy in a process of its own (this event loop must not delay it); its port. */
async function startProxy(delayMs: number): Promise<number> {
  const socket = path.join(server.dir, '.s.PGSQL.5432');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'helpers', 'latency-proxy.ts'), socket, String(delayMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(child);
  return new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the proxy exited with ${code}`)));
  });
}

/** One page: the six statements, one after the other or all at once. */
async function page(c: Connection, n: number, together: boolean): Promise<void> {
  const translation = 1 + (n % 8);
  const offset = (n * 5) % Math.floor(UNITS / 8 - 5);
  const first = 1 + ((n * 40) % (UNITS - 40));
  const values: unknown[][] = [[translation], [translation, offset], [first, first + 40], [first, first + 40], [first, first + 40], [translation]];
  if (together) {
    await Promise.all(STATEMENTS.map(([name, text], i) => c.query(name, text, values[i]!)));
    return;
  }
  for (const [i, [name, text]] of STATEMENTS.entries()) await c.query(name, text, values[i]!);
}

async function measure(driver: Driver, conninfo: string, together: boolean): Promise<{ perSecond: number; cpuMicros: number }> {
  const pool = await Promise.all(Array.from({ length: POOL }, () => driver.connect(conninfo)));
  const idle = [...pool];
  const waiting: ((c: Connection) => void)[] = [];
  const acquire = () => (idle.length ? Promise.resolve(idle.pop()!) : new Promise<Connection>((resolve) => waiting.push(resolve)));
  const release = (c: Connection) => (waiting.length ? waiting.shift()!(c) : idle.push(c));
  let done = 0;
  let n = 0;
  const run = async (until: number) => {
    while (performance.now() < until) {
      const c = await acquire();
      try {
        await page(c, n++, together);
      } finally {
        release(c);
      }
      done++;
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, () => run(performance.now() + 500))); // warm up
  done = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CALLERS }, () => run(started + DURATION)));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  for (const c of pool) c.close();
  return { perSecond: done / seconds, cpuMicros: (used.user + used.system) / done };
}

const conninfo = (port: number) => `postgresql://postgres@127.0.0.1:${port}/drivers`;
const ports = { none: await startProxy(0), '1 ms': await startProxy(0.5) };
console.log(`${CALLERS} callers, pools of ${POOL} connections, pages of ${STATEMENTS.length} statements, ${DURATION / 1000} s a measurement`);
console.log('driver                  | statements  | round trip | pages/s | CPU µs a page');
for (const together of [false, true]) {
  for (const [delay, port] of Object.entries(ports)) {
    for (const driver of drivers) {
      const r = await measure(driver, conninfo(port), together);
      console.log(
        `${driver.name.padEnd(23)} | ${(together ? 'at once' : 'in turn').padEnd(11)} | ${delay.padEnd(10)} | ${r.perSecond.toFixed(0).padStart(7)} | ${r.cpuMicros.toFixed(0).padStart(6)}`,
      );
    }
  }
}
process.exit(0);
