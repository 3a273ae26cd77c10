import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreError, migrate, openDb } from './db.js';
import { MIGRATIONS } from './migrations.js';

const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'tms-db-')), 'tms.sqlite');

describe('openDb', () => {
  it('creates a fresh database at the newest schema, with WAL and foreign keys', () => {
    const file = tempFile();
    const db = openDb(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining([
        'languages',
        'projects',
        'components',
        'translations',
        'units',
        'changes',
        'users',
        'groups',
        'roles',
        'addons',
        'translation_stats',
      ]),
    );
    db.close();
  });

  it('migrates an existing database forward and keeps its rows', () => {
    const file = tempFile();
    const old = new Database(file);
    migrate(old, MIGRATIONS.slice(0, 1));
    old.prepare("INSERT INTO users (username, date_joined) VALUES ('kept', '2026-01-01T00:00:00.000Z')").run();
    old.close();
    const extra = [...MIGRATIONS, 'ALTER TABLE users ADD COLUMN note TEXT'];
    const db = new Database(file);
    expect(migrate(db, extra)).toEqual({ from: 1, to: extra.length });
    expect(db.prepare('SELECT username, note FROM users').get()).toEqual({ username: 'kept', note: null });
    expect(migrate(db, extra)).toEqual({ from: extra.length, to: extra.length });
    db.close();
  });

  it('forgets the revision of PO files when translations gain their own plural (11), so the next sync reads them again', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 10));
    db.prepare("INSERT INTO languages (id, code, name, plural_number, plural_formula, plural_type) VALUES (1, 'ru', 'Russian', 3, 'n', 2)").run();
    db.prepare("INSERT INTO projects (id, slug, name, created) VALUES (1, 'p', 'P', 'x')").run();
    const component = db.prepare("INSERT INTO components (id, project_id, slug, name, settings, created) VALUES (?, 1, ?, ?, ?, 'x')");
    component.run(1, 'po', 'PO', JSON.stringify({ file_format: 'po' }));
    component.run(2, 'ts', 'TS', JSON.stringify({ file_format: 'ts' }));
    const translation = db.prepare('INSERT INTO translations (component_id, language_id, language_code, filename, revision) VALUES (?, 1, ?, ?, ?)');
    translation.run(1, 'ru', 'po/ru.po', 'blob-po');
    translation.run(2, 'ru', 'app_ru.ts', 'blob-ts');
    migrate(db, MIGRATIONS);
    expect(db.prepare('SELECT filename, revision, plural_number, plural_formula FROM translations ORDER BY id').all()).toEqual([
      { filename: 'po/ru.po', revision: '', plural_number: null, plural_formula: null },
      { filename: 'app_ru.ts', revision: 'blob-ts', plural_number: null, plural_formula: null },
    ]);
  });

  it('rolls a failing migration back and leaves the version alone', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS);
    expect(() => migrate(db, [...MIGRATIONS, 'CREATE TABLE z (a); SELECT * FROM nope'])).toThrow(Database.SqliteError);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'z'").pluck().get()).toBe(0);
  });

  it('refuses a database from a newer tms', () => {
    const file = tempFile();
    const db = new Database(file);
    db.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    db.close();
    expect(() => openDb(file)).toThrow(StoreError);
  });

  it('stores signed 64-bit hashes exactly', () => {
    const db = openDb(':memory:');
    db.prepare("INSERT INTO languages (id, code, name, plural_number, plural_formula, plural_type) VALUES (1, 'en', 'English', 2, 'n != 1', 1)").run();
    db.prepare("INSERT INTO projects (id, slug, name, created) VALUES (1, 'p', 'P', 'x')").run();
    db.prepare("INSERT INTO components (id, project_id, slug, name, created) VALUES (1, 1, 'c', 'C', 'x')").run();
    db.prepare("INSERT INTO translations (id, component_id, language_id, language_code) VALUES (1, 1, 1, 'en')").run();
    const hashes = [-9223372036854775808n, 9223372036854775807n, -1602104568316855346n, 8445691827737211251n];
    const insert = db.prepare("INSERT INTO units (translation_id, id_hash, content_hash, position, timestamp) VALUES (1, ?, ?, ?, 'x')");
    for (const [i, h] of hashes.entries()) insert.run(h, h, i);
    const read = db.prepare('SELECT id_hash FROM units ORDER BY position').pluck().safeIntegers(true).all();
    expect(read).toEqual(hashes);
  });
});
