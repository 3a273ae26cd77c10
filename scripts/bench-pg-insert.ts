import { numberParameters } from '../src/store/pg/dialect.js';
// Ways to insert many rows into PostgreSQL through the synchronous libpq session, ids returned: one statement per row,
// multi-row VALUES batches, one INSERT … SELECT FROM unnest(array parameters) per batch, COPY into a temporary table
// then INSERT … SELECT. Needs TMS_TEST_POSTGRES (run it through scripts/with-postgres.ts).
//   tsx scripts/with-postgres.ts npx tsx scripts/bench-pg-insert.ts
import { PgDb } from '../src/store/pg/pg-db.js';

const url = process.env.TMS_TEST_POSTGRES;
if (!url) {
  console.log('bench-pg-insert: TMS_TEST_POSTGRES is not set; run it through scripts/with-postgres.ts');
  process.exit(0);
}
const ROWS = Number(process.env.BENCH_ROWS ?? 20000);
const db = new PgDb(url, 'bench');
const COLS = ['translation_id', 'id_hash', 'source', 'target', 'state', 'position'];
const TYPES = ['bigint', 'bigint', 'text', 'text', 'integer', 'integer'];
db.exec(`DROP TABLE IF EXISTS t; CREATE TABLE t (id bigserial PRIMARY KEY, translation_id bigint, id_hash bigint, source text, target text,
  state integer, position integer, UNIQUE (translation_id, id_hash))`);
const rows = Array.from({ length: ROWS }, (_, i) => [
  1,
  BigInt(i) * 7919n - 2n ** 62n,
  `Source text number ${i} with "quotes", \\ and commas,`,
  `Ziel ${i} {}`,
  20,
  i + 1,
]);

function reset() {
  db.exec('TRUNCATE t RESTART IDENTITY');
}
function timed(name: string, fn: () => number) {
  reset();
  const t = performance.now();
  const n = fn();
  const ms = performance.now() - t;
  if (n !== ROWS) throw new Error(`${name}: ${n} ids`);
  console.log(`${name}: ${ms.toFixed(0)} ms = ${Math.round(ROWS / (ms / 1000))} rows/s`);
}
const arrayLiteral = (values: unknown[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'string' ? `"${v.replace(/[\\"]/g, '\\$&')}"` : String(v))).join(',')}}`;

db.transaction(() => {
  timed('one INSERT per row', () => {
    const s = db.prepare(`INSERT INTO t (${COLS}) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`);
    let n = 0;
    for (const r of rows) if (s.run(...r).lastInsertRowid) n++;
    return n;
  });
  for (const batch of [100, 500, 1000]) {
    timed(`INSERT … VALUES, ${batch} rows a statement`, () => {
      let n = 0;
      for (let i = 0; i < rows.length; i += batch) {
        const part = rows.slice(i, i + batch);
        const text = `INSERT INTO t (${COLS}) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} RETURNING id, id_hash`;
        n += db.prepare(text).all(...part.flat()).length;
      }
      return n;
    });
  }
  for (const batch of [500, 2000, 20000]) {
    timed(`INSERT … SELECT FROM unnest(arrays), ${batch} rows a statement`, () => {
      const text = `INSERT INTO t (${COLS}) SELECT * FROM unnest(${TYPES.map((t) => `?::${t}[]`).join(', ')}) RETURNING id, id_hash`;
      const s = db.prepare(text);
      let n = 0;
      for (let i = 0; i < rows.length; i += batch) {
        const part = rows.slice(i, i + batch);
        n += s.all(...COLS.map((_, c) => arrayLiteral(part.map((r) => r[c])))).length;
      }
      return n;
    });
  }
  timed('COPY into a temporary table, INSERT … SELECT', () => {
    const pq = (db as unknown as { pq: Record<string, (...a: unknown[]) => unknown> }).pq;
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS t_in (LIKE t INCLUDING DEFAULTS) ON COMMIT DROP; TRUNCATE t_in`);
    pq.exec!(`COPY t_in (${COLS}) FROM STDIN`);
    const esc = (v: unknown) => (v === null ? '\\N' : String(v).replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!));
    const chunk: string[] = [];
    for (const r of rows) chunk.push(`${r.map(esc).join('\t')}\n`);
    pq.putCopyData!(Buffer.from(chunk.join('')));
    pq.putCopyEnd!();
    while (pq.getResult!()) if (pq.resultStatus!() === 'PGRES_FATAL_ERROR') throw new Error(String(pq.resultErrorMessage!()));
    const ids = db.execute(numberParameters(`INSERT INTO t (${COLS}) SELECT ${COLS} FROM t_in RETURNING id, id_hash`), [], false, false);
    return ids.rows.length;
  });
})();
db.close();
