// The PostgreSQL engine's own behaviour: the SQL it is given, URLs and credentials, a server that goes away, text it
// cannot hold. The rest of the suite runs on it too (npm run test:postgres).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toApiError } from '../../src/api/errors.js';
import { isPostgresUrl, shownDatabase } from '../../src/config/database.js';
import { DatabaseUnavailableError, ValidationError } from '../../src/domain/errors.js';
import { openStore } from '../../src/store/index.js';
import { findLanguageByCode } from '../../src/store/languages.repo.js';
import { openPgDb, withTimeouts } from '../../src/store/pg/open.js';
import { PgDb } from '../../src/store/pg/pg-db.js';
import { translateSql } from '../../src/store/pg/translate.js';
import { createUser, listUsers } from '../../src/store/users.repo.js';
import { sqlOn } from '../helpers/store.js';

describe('the store SQL as PostgreSQL reads it', () => {
  it('numbers placeholders outside quotes and comments, and names repeat their number', () => {
    expect(translateSql("SELECT * FROM units WHERE id = ? AND note <> '?' -- ?\n AND state = ?").text).toBe(
      "SELECT * FROM units WHERE id = $1 AND note <> '?' -- ?\n AND state = $2",
    );
    const named = translateSql('UPDATE t SET a = @a, b = @b WHERE id = @id AND a <> @a');
    expect(named.text).toBe('UPDATE t SET a = $1, b = $2 WHERE id = $3 AND a <> $1');
    expect(named.names).toEqual(['a', 'b', 'id']);
  });

  it('spells the SQLite idioms the PostgreSQL way', () => {
    expect(translateSql('INSERT OR IGNORE INTO checks (unit_id, name) VALUES (?, ?)').text).toBe(
      'INSERT INTO checks (unit_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    );
    expect(translateSql('INSERT INTO users (username) VALUES (?)').text).toBe('INSERT INTO users (username) VALUES ($1) RETURNING id');
    expect(translateSql('SELECT 1 FROM m WHERE project_id IS ? AND user_id IS NOT ? AND x IS NULL AND y IS NOT NULL').text).toBe(
      'SELECT 1 FROM m WHERE project_id IS NOT DISTINCT FROM $1 AND user_id IS DISTINCT FROM $2 AND x IS NULL AND y IS NOT NULL',
    );
    expect(translateSql('SELECT c.id AS componentId FROM components c WHERE name LIKE ?').text).toBe(
      'SELECT c.id AS "componentId" FROM components c WHERE name ILIKE $1',
    );
    expect(translateSql('SELECT 1 FROM units u CROSS JOIN translations t ON t.id = u.translation_id').text).toBe(
      'SELECT 1 FROM units u JOIN translations t ON t.id = u.translation_id',
    );
  });

  it('tells URLs from files and never shows a password', () => {
    expect(isPostgresUrl('postgresql://db/tms')).toBe(true);
    expect(isPostgresUrl('postgres://db/tms')).toBe(true);
    expect(isPostgresUrl('tms.sqlite')).toBe(false);
    expect(shownDatabase('postgresql://tms:s3cret@db:5432/tms')).toBe('postgresql://db:5432/tms');
    expect(shownDatabase('postgresql://db/tms?user=tms&password=s3cret')).toBe('postgresql://db/tms?user=tms&password=***');
  });

  it('gives libpq timeouts where the URL names none, so no connection or statement waits forever', () => {
    expect(withTimeouts('postgresql://db/tms')).toBe('postgresql://db/tms?connect_timeout=10&tcp_user_timeout=30000');
    expect(withTimeouts('postgresql://db/tms?connect_timeout=2')).toBe('postgresql://db/tms?connect_timeout=2&tcp_user_timeout=30000');
  });

  it('fails to reach a server with one clear error, without the credentials', async () => {
    // port 1 on loopback: nothing listens there
    const url = 'postgresql://tms:s3cret@127.0.0.1:1/tms?connect_timeout=2';
    const error = await openStore(url).then(
      () => null,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(error!.message).toMatch(/^postgresql:\/\/127\.0\.0\.1:1\/tms\?connect_timeout=2: cannot connect to PostgreSQL: /);
    expect(error!.message).not.toContain('s3cret');
    expect(toApiError(error)?.status).toBe(503);
  });
});

const url = process.env.TMS_TEST_POSTGRES;
if (!url) console.warn('test/store/postgres.test.ts: TMS_TEST_POSTGRES is not set: the PostgreSQL server tests skip (npm run test:postgres runs them)');

describe.skipIf(!url)('a PostgreSQL store', () => {
  let file: string;
  let admin: PgDb;
  beforeAll(() => {
    file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-pg-')), 'tms.sqlite');
    // a plain session (not openPgDb: that would migrate the shared public schema, which every test schema's
    // search path falls back to)
    admin = new PgDb(url!, 'admin');
  });
  afterAll(() => admin.close());

  it('is opened by URL, migrated and seeded; a second open finds it as it is', async () => {
    const schema = `tms_url_${process.pid}`;
    const withSchema = `${url}&options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
    admin.exec(`CREATE SCHEMA ${schema}`);
    try {
      const store = await openStore(withSchema);
      expect(store.location).not.toContain('password');
      expect(await store.read((tx) => findLanguageByCode(tx, 'de'))).toMatchObject({ code: 'de', plural_number: 2 });
      const before = await store.dataVersion();
      await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane', email: 'jane@example.org', admin: false }));
      expect(await store.dataVersion()).not.toBe(before);
      await store.close();
      const again = await openStore(withSchema);
      expect((await again.read((tx) => listUsers(tx))).map((u) => u.username)).toContain('jane');
      await again.close();
    } finally {
      admin.exec(`DROP SCHEMA ${schema} CASCADE`);
    }
  });

  it('refuses text with U+0000 as bad input and stores nothing of the transaction', async () => {
    const store = await openStore(file);
    const users = (await store.read((tx) => listUsers(tx))).length;
    const error = await store
      .write((tx) => createUser(tx, { username: 'nuluser', fullName: 'a\u0000b', email: '', admin: false }))
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error).toBeInstanceOf(ValidationError);
    expect(toApiError(error)?.status).toBe(400);
    expect((await store.read((tx) => listUsers(tx))).length).toBe(users);
    await store.close();
  });

  it('reconnects by itself when the server ended its session', async () => {
    const store = await openStore(file);
    await store.ping();
    const pid = (await sqlOn(store).value<number>('SELECT pg_backend_pid()'))!;
    admin.prepare('SELECT pg_terminate_backend(?)').get(pid);
    // a read that meets the closed session runs again on a new one; were it a write half-way, it fails as unavailable
    const first = await store.ping().then(
      () => null,
      (e: Error) => e,
    );
    if (first) expect(first).toBeInstanceOf(DatabaseUnavailableError);
    await store.ping();
    expect(await sqlOn(store).value('SELECT pg_backend_pid()')).not.toBe(pid);
    await store.close();
  });

  it('survives sessions closed and collected at once (the socket watcher of the binding outlives its object)', () => {
    // a process that opens, closes and garbage-collects sessions in a loop; node aborted (uv__finish_close) before
    const module = pathToFileURL(path.resolve('dist/store/pg/session.js')).href;
    const script = `import { PgSession } from ${JSON.stringify(module)};
      for (let i = 0; i < 100; i++) {
        const session = await PgSession.open(process.env.TMS_TEST_POSTGRES, 'x', { version: () => '' });
        await session.prepare('SELECT 1').get();
        session.close();
        globalThis.gc();
        await new Promise((r) => setImmediate(r));
      }
      console.log('closed 100');`;
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/uv__finish_close|Assertion/);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('closed 100');
  });

  it('keeps the write token moving for writes made by another session', async () => {
    const store = await openStore(file);
    const other = openPgDb(url!, { schema: (store.location.split('#')[1] ?? '') || undefined });
    const before = await store.dataVersion();
    other.prepare("UPDATE users SET full_name = 'Changed elsewhere' WHERE username = 'anonymous'").run();
    // a caller after the commit reads the counter anew (or shares a read sent after it asked)
    expect(await store.dataVersion()).not.toBe(before);
    other.close();
    await store.close();
  });
});
