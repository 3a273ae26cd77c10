import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Action } from '../../src/domain/actions.js';
import { State } from '../../src/domain/unit.js';
import type { Store } from '../../src/store/index.js';
import { syncProject } from '../../src/sync/index.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { type DirectSql, sqlOn } from '../helpers/store.js';
import { DEMO, type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';

async function units(sql: DirectSql, component: string, language: string) {
  return (await sql.rows(
    `SELECT u.context, u.source, u.target, u.state, u.num_words FROM units u JOIN translations t ON t.id = u.translation_id
     JOIN components c ON c.id = t.component_id JOIN languages l ON l.id = t.language_id
     WHERE c.slug = ? AND l.code = ? ORDER BY u.position`,
    component,
    language,
  )) as { context: string; source: string; target: string; state: number; num_words: number }[];
}

async function translations(sql: DirectSql, component: string) {
  return await sql.rows(
    `SELECT l.code, t.language_code, t.filename, t.is_source, t.is_template, s.total, s.translated FROM translations t
     JOIN components c ON c.id = t.component_id JOIN languages l ON l.id = t.language_id
     JOIN translation_stats s ON s.translation_id = t.id WHERE c.slug = ? ORDER BY t.is_source DESC, l.code`,
    component,
  );
}

describe('sync of the demo project (Qt TS bilingual, nested JSON monolingual)', () => {
  let env: SyncEnv;
  let store: Store;
  let sql: DirectSql;
  const config = () =>
    env.config([
      {
        name: 'Hello',
        slug: 'hello',
        components: [
          { name: 'App', slug: 'app', repo: env.upstream('app'), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' },
          {
            name: 'Web',
            slug: 'web',
            repo: env.upstream('web'),
            branch: 'main',
            filemask: 'locales/*.json',
            template: 'locales/en.json',
            file_format: 'json-nested',
          },
        ],
      },
    ]);
  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
    await env.addUpstream('web', { fixture: path.join(DEMO, 'web') });
    store = await env.openStore();
    sql = sqlOn(store);
  });
  afterAll(() => env.close());

  it('loads TS plurals, contexts and states, with a read-only source translation', async () => {
    const results = await syncProject(store, config(), 'hello');
    expect(results.map((r) => [r.component, r.ok, r.error])).toEqual([
      ['app', true, undefined],
      ['web', true, undefined],
    ]);
    expect(await translations(sql, 'app')).toEqual([
      { code: 'en', language_code: 'en', filename: '', is_source: 1, is_template: 0, total: 5, translated: 5 },
      { code: 'cs', language_code: 'cs', filename: 'translations/app_cs.ts', is_source: 0, is_template: 0, total: 5, translated: 3 },
      { code: 'de', language_code: 'de', filename: 'translations/app_de.ts', is_source: 0, is_template: 0, total: 5, translated: 3 },
    ]);
    const cs = await units(sql, 'app', 'cs');
    expect(cs.map((u) => u.context)).toEqual(['MainWindow', 'MainWindow\ntooltip', 'MainWindow', 'MainWindow', 'AboutDialog']);
    expect(cs[2]).toMatchObject({
      source: '%n file selected\x1e\x1e%n files selected',
      target: 'Vybrán %n soubor\x1e\x1eVybrány %n soubory\x1e\x1eVybráno %n souborů',
      state: State.TRANSLATED,
    });
    expect(cs[3]).toMatchObject({ source: 'Quit', target: '', state: State.EMPTY });
    expect(cs[4]).toMatchObject({ target: 'O aplikaci %1', state: State.FUZZY });
    expect((await units(sql, 'app', 'en')).every((u) => u.state === State.READONLY && u.target === u.source)).toBe(true);
  });

  it('loads a monolingual component in template order, with missing keys empty', async () => {
    expect(await translations(sql, 'web')).toEqual([
      { code: 'en', language_code: 'en', filename: 'locales/en.json', is_source: 1, is_template: 1, total: 6, translated: 6 },
      { code: 'cs', language_code: 'cs', filename: 'locales/cs.json', is_source: 0, is_template: 0, total: 6, translated: 1 },
      { code: 'de', language_code: 'de', filename: 'locales/de.json', is_source: 0, is_template: 0, total: 6, translated: 4 },
    ]);
    expect((await units(sql, 'web', 'de')).map((u) => [u.context, u.source, u.target, u.state])).toEqual([
      ['app.title', 'Hello tms', 'Hallo tms', State.TRANSLATED],
      ['app.greeting', 'Hello, {name}!', 'Hallo, {name}!', State.TRANSLATED],
      ['menu.open', 'Open', 'Öffnen', State.TRANSLATED],
      ['menu.save', 'Save', 'Speichern', State.TRANSLATED],
      ['menu.quit', 'Quit', '', State.EMPTY],
      ['status.ready', 'Ready', '', State.EMPTY],
    ]);
    expect((await units(sql, 'web', 'en')).every((u) => u.state === State.TRANSLATED && u.target === u.source)).toBe(true);
    const sourceAdded = await sql.value(
      `SELECT count(*) FROM changes ch JOIN components c ON c.id = ch.component_id WHERE c.slug = 'web' AND ch.action = ?`,
      Action.NEW_SOURCE,
    );
    expect(sourceAdded).toBe(6);
  });

  it('re-parses every translation when the template changes, and only then', async () => {
    const template = demoFile('web/locales/en.json').replace('"quit": "Quit"', '"quit": "Quit",\n    "close": "Close"');
    await commitToUpstream(env.upstream('web'), { 'locales/en.json': template });
    const [r] = await syncProject(store, config(), 'hello', 'web');
    expect(r!.ok).toBe(true);
    expect(r!.parsed).toBe(3);
    expect((await units(sql, 'web', 'de')).map((u) => u.context)).toContain('menu.close');
    expect((await units(sql, 'web', 'cs')).find((u) => u.context === 'menu.close')).toMatchObject({ source: 'Close', target: '', state: State.EMPTY });

    await commitToUpstream(env.upstream('web'), { 'locales/cs.json': '{\n  "app": {\n    "title": "Ahoj tms",\n    "greeting": "Ahoj, {name}!"\n  }\n}\n' });
    const [one] = await syncProject(store, config(), 'hello', 'web');
    expect(one!.parsed).toBe(1);
    expect(one!.files.find((f) => f.path === 'locales/cs.json')).toMatchObject({ status: 'parsed', changed: 1 });
  });

  it('marks template units read-only when editing the template is off', async () => {
    const cfg = env.config([
      {
        name: 'Hello',
        slug: 'hello',
        components: [
          {
            name: 'Web',
            slug: 'web',
            repo: env.upstream('web'),
            branch: 'main',
            filemask: 'locales/*.json',
            template: 'locales/en.json',
            file_format: 'json-nested',
            edit_template: false,
          },
        ],
      },
    ]);
    await syncProject(store, cfg, 'hello', 'web', { force: true });
    expect((await units(sql, 'web', 'en')).every((u) => u.state === State.READONLY)).toBe(true);
    const stats = (await translations(sql, 'web'))[0] as { total: number };
    expect(
      await sql.value(
        `SELECT readonly FROM translation_stats s JOIN translations t ON t.id = s.translation_id JOIN components c ON c.id = t.component_id WHERE c.slug = 'web' AND t.is_source = 1`,
      ),
    ).toBe(stats.total);
  });
});
