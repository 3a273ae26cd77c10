import { appendFileSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLES, DEFAULT_TEAMS } from '../auth/defaults.js';
import { LANGUAGE_DATA_DIR, LANGUAGE_DATA_FILES, languageDataFingerprint, loadLanguages } from '../languages/languages.js';
import { listGroups, listRoles } from './auth.repo.js';
import { findLanguageByCode } from './languages.repo.js';
import { openSqlStore } from './sql-store.js';

describe('openSqlStore', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-store-')), 'tms.sqlite');

  it('seeds languages with their plurals, directions and aliases', () => {
    const db = openSqlStore(file).db;
    expect(db.prepare('SELECT count(*) FROM languages').pluck().get()).toBe(loadLanguages().size);
    expect(findLanguageByCode(db, 'cs')).toMatchObject({ name: 'Czech', plural_number: 3, plural_type: 22, direction: 'ltr' });
    expect(findLanguageByCode(db, 'ar')).toMatchObject({ plural_number: 6, plural_type: 12, direction: 'rtl' });
    expect(findLanguageByCode(db, 'ja')).toMatchObject({ plural_number: 1, plural_formula: '0', plural_type: 0 });
    expect(JSON.parse(findLanguageByCode(db, 'he')!.aliases)).toContain('iw');
    db.close();
  });

  it('seeds the default roles, teams and the anonymous user', () => {
    const db = openSqlStore(file).db;
    expect(listRoles(db).map((r) => r.name)).toEqual(DEFAULT_ROLES.map((r) => r.name));
    expect(listGroups(db).map((g) => g.name)).toEqual(DEFAULT_TEAMS.map((t) => t.name));
    const guests = db
      .prepare(
        `SELECT r.name FROM group_roles gr JOIN roles r ON r.id = gr.role_id JOIN groups g ON g.id = gr.group_id WHERE g.name = 'Guests' ORDER BY r.name`,
      )
      .pluck()
      .all();
    expect(guests).toEqual(['Access repository', 'Add suggestion']);
    const anonymous = db
      .prepare(
        `SELECT g.name FROM users u JOIN user_groups ug ON ug.user_id = u.id JOIN groups g ON g.id = ug.group_id WHERE u.username = 'anonymous' ORDER BY g.name`,
      )
      .pluck()
      .all();
    expect(anonymous).toEqual(['Guests', 'Viewers']);
    db.close();
  });

  it('does not seed twice and keeps ids on reopen', () => {
    const db = openSqlStore(file).db;
    const ids = db.prepare('SELECT code, id FROM languages ORDER BY id').all();
    const roles = db.prepare('SELECT count(*) FROM roles').pluck().get();
    db.close();
    const again = openSqlStore(file).db;
    expect(again.prepare('SELECT code, id FROM languages ORDER BY id').all()).toEqual(ids);
    expect(again.prepare('SELECT count(*) FROM roles').pluck().get()).toBe(roles);
    expect(again.prepare("SELECT count(*) FROM users WHERE username = 'anonymous'").pluck().get()).toBe(1);
    again.close();
  });

  it('reads the language data again only when its fingerprint changed', () => {
    const seeded = openSqlStore(file).db;
    // a row gone behind the store's back shows whether seeding ran (tms itself never deletes languages)
    seeded.prepare("DELETE FROM languages WHERE code = 'tlh'").run();
    seeded.close();
    const unchanged = openSqlStore(file).db;
    expect(findLanguageByCode(unchanged, 'tlh')).toBeUndefined();
    // other bundled data (an upgrade of tms): seeded again
    unchanged.prepare("UPDATE store_meta SET value = 'older data' WHERE key = 'languages_seeded_from'").run();
    unchanged.close();
    const upgraded = openSqlStore(file).db;
    expect(findLanguageByCode(upgraded, 'tlh')).toMatchObject({ name: 'Klingon' });
    expect(upgraded.prepare('SELECT count(*) FROM languages').pluck().get()).toBe(loadLanguages().size);
    upgraded.close();
  });
});

describe('languageDataFingerprint', () => {
  it('changes with the bytes of any data file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tms-langdata-'));
    for (const name of LANGUAGE_DATA_FILES) copyFileSync(new URL(name, LANGUAGE_DATA_DIR), path.join(dir, name));
    const copy = pathToFileURL(`${dir}/`);
    expect(languageDataFingerprint(copy)).toBe(languageDataFingerprint());
    appendFileSync(path.join(dir, 'population.csv'), 'xx,1\n');
    expect(languageDataFingerprint(copy)).not.toBe(languageDataFingerprint());
  });
});
