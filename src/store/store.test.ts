import { appendFileSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sqlOn } from '../../test/helpers/store.js';
import { DEFAULT_ROLES, DEFAULT_TEAMS } from '../auth/defaults.js';
import { LANGUAGE_DATA_DIR, LANGUAGE_DATA_FILES, languageDataFingerprint, loadLanguages } from '../languages/languages.js';
import { listGroups, listRoles } from './auth.repo.js';
import { openStore } from './index.js';
import { findLanguageByCode } from './languages.repo.js';

describe('openStore', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-store-')), 'tms.sqlite');

  it('seeds languages with their plurals, directions and aliases', async () => {
    const store = await openStore(file);
    const sql = sqlOn(store);
    expect(await sql.value('SELECT count(*) FROM languages')).toBe(loadLanguages().size);
    const language = (code: string) => store.read((tx) => findLanguageByCode(tx, code));
    expect(await language('cs')).toMatchObject({ name: 'Czech', plural_number: 3, plural_type: 22, direction: 'ltr' });
    expect(await language('ar')).toMatchObject({ plural_number: 6, plural_type: 12, direction: 'rtl' });
    expect(await language('ja')).toMatchObject({ plural_number: 1, plural_formula: '0', plural_type: 0 });
    expect(JSON.parse((await language('he'))!.aliases)).toContain('iw');
    await store.close();
  });

  it('seeds the default roles, teams and the anonymous user', async () => {
    const store = await openStore(file);
    const sql = sqlOn(store);
    expect((await store.read(listRoles)).map((r) => r.name)).toEqual(DEFAULT_ROLES.map((r) => r.name));
    expect((await store.read(listGroups)).map((g) => g.name)).toEqual(DEFAULT_TEAMS.map((t) => t.name));
    const guests = await sql.values(
      `SELECT r.name FROM group_roles gr JOIN roles r ON r.id = gr.role_id JOIN groups g ON g.id = gr.group_id WHERE g.name = 'Guests' ORDER BY r.name`,
    );
    expect(guests).toEqual(['Access repository', 'Add suggestion']);
    const anonymous = await sql.values(
      `SELECT g.name FROM users u JOIN user_groups ug ON ug.user_id = u.id JOIN groups g ON g.id = ug.group_id WHERE u.username = 'anonymous' ORDER BY g.name`,
    );
    expect(anonymous).toEqual(['Guests', 'Viewers']);
    await store.close();
  });

  it('does not seed twice and keeps ids on reopen', async () => {
    const store = await openStore(file);
    const ids = await sqlOn(store).rows('SELECT code, id FROM languages ORDER BY id');
    const roles = await sqlOn(store).value('SELECT count(*) FROM roles');
    await store.close();
    const again = await openStore(file);
    const sql = sqlOn(again);
    expect(await sql.rows('SELECT code, id FROM languages ORDER BY id')).toEqual(ids);
    expect(await sql.value('SELECT count(*) FROM roles')).toBe(roles);
    expect(await sql.value("SELECT count(*) FROM users WHERE username = 'anonymous'")).toBe(1);
    await again.close();
  });

  it('reads the language data again only when its fingerprint changed', async () => {
    const seeded = await openStore(file);
    // a row gone behind the store's back shows whether seeding ran (tms itself never deletes languages)
    await sqlOn(seeded).run("DELETE FROM languages WHERE code = 'tlh'");
    await seeded.close();
    const unchanged = await openStore(file);
    expect(await unchanged.read((tx) => findLanguageByCode(tx, 'tlh'))).toBeUndefined();
    // other bundled data (an upgrade of tms): seeded again
    await sqlOn(unchanged).run("UPDATE store_meta SET value = 'older data' WHERE key = 'languages_seeded_from'");
    await unchanged.close();
    const upgraded = await openStore(file);
    expect(await upgraded.read((tx) => findLanguageByCode(tx, 'tlh'))).toMatchObject({ name: 'Klingon' });
    expect(await sqlOn(upgraded).value('SELECT count(*) FROM languages')).toBe(loadLanguages().size);
    await upgraded.close();
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
