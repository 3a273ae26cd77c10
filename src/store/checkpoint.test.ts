import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SqliteStore, openSqliteStore } from './sqlite-store.js';

describe.skipIf(!!process.env.TMS_TEST_POSTGRES)('checkpointInBackground (SQLite)', () => {
  /** Writes ~8 MB in many small transactions, as edits do. */
  function write(store: SqliteStore): void {
    store.db.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, text TEXT)');
    const insert = store.db.prepare('INSERT INTO filler (text) VALUES (?)');
    for (let i = 0; i < 400; i++) store.db.transaction(() => insert.run('x'.repeat(20_000)))();
  }
  const sizeOf = (file: string) => statSync(file).size;

  it('copies the write-ahead log into the database file from its own thread; the serving connection keeps only a safety threshold', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-checkpoint-')), 'tms.sqlite');
    const store = openSqliteStore(file);
    store.checkpointInBackground(50);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(20_000);
    const before = sizeOf(file);
    write(store);
    // this connection did not checkpoint (8 MB is under its threshold): only the thread can have grown the file
    const deadline = Date.now() + 5000;
    while (sizeOf(file) < before + 6_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(sizeOf(file)).toBeGreaterThan(before + 6_000_000);
    await store.close();
  });

  it('leaves the file alone without it (the same writes stay in the log below the threshold)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-checkpoint-')), 'tms.sqlite');
    const store = openSqliteStore(file);
    store.db.pragma('wal_autocheckpoint = 20000');
    const before = sizeOf(file);
    write(store);
    await new Promise((r) => setTimeout(r, 300));
    expect(sizeOf(file)).toBeLessThan(before + 1_000_000);
    await store.close();
  });
});
