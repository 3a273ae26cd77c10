// `npm run bench:db-copy`: `tms db copy` of the KeePassXC corpus synced into SQLite (72k units): SQLite → SQLite,
// and with TMS_TEST_POSTGRES (e.g. under scripts/with-postgres.ts) SQLite → PostgreSQL → SQLite, timed.
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config/config.js';
import { openStore } from '../src/store/index.js';
import { PgDb } from '../src/store/pg/pg-db.js';
import { applyConfig } from '../src/sync/config.js';
import { syncProject } from '../src/sync/index.js';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { sqlOn } from '../test/helpers/store.js';
import { keepassxcFiles, keepassxcProjects } from './bench-lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'tms');
// the store is built as a SQLite file whichever way the script runs; PostgreSQL is only the copy's other end
const pgUrl = process.env.TMS_TEST_POSTGRES;
delete process.env.TMS_TEST_POSTGRES;

/** Runs `tms db copy` as its own process and returns its wall time in seconds. */
function copy(from: string, to: string): number {
  const started = performance.now();
  const r = spawnSync(bin, ['db', 'copy', from, to], { encoding: 'utf8', env: process.env });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`tms db copy failed (${r.status}):\n${r.stderr}`);
  if (process.env.BENCH_VERBOSE) process.stderr.write(r.stderr);
  return seconds;
}

async function main(): Promise<void> {
  const files = keepassxcFiles('bench:db-copy');
  const work = await tempDir('tms-bench-db-copy-');
  try {
    await createUpstream({ dir: path.join(work, 'upstream', 'keepassxc.git'), files });
    execFileSync('git', ['gc', '-q'], { cwd: path.join(work, 'upstream', 'keepassxc.git') });
    const configFile = path.join(work, 'tms.config.json');
    const text = JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: keepassxcProjects(path.join(work, 'upstream', 'keepassxc.git')) });
    writeFileSync(configFile, text);
    const config = parseConfig(text, configFile);
    const store = await openStore(config.database);
    await store.write((tx) => applyConfig(tx, config));
    for (const r of await syncProject(store, config, 'keepassxc')) if (!r.ok) throw new Error(`${r.component}: ${r.error}`);
    const count = (table: string) => sqlOn(store).value(`SELECT count(*) FROM ${table}`);
    console.log(`store: ${await count('units')} units, ${await count('changes')} changes, ${await count('memory_sources')} memory sources`);
    await store.close();

    const original = config.database;
    console.log(`SQLite → SQLite: ${copy(original, path.join(work, 'copy.sqlite')).toFixed(1)} s`);
    if (!pgUrl) {
      console.log('bench:db-copy: TMS_TEST_POSTGRES is not set; the PostgreSQL legs are not measured');
      return;
    }
    const admin = new PgDb(pgUrl, 'bench');
    admin.exec('DROP SCHEMA IF EXISTS bench_db_copy CASCADE; CREATE SCHEMA bench_db_copy');
    admin.close();
    const pg = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c search_path=bench_db_copy,public')}`;
    console.log(`SQLite → PostgreSQL: ${copy(original, pg).toFixed(1)} s`);
    console.log(`PostgreSQL → SQLite: ${copy(pg, path.join(work, 'back.sqlite')).toFixed(1)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
