// The free-text search's index follows every way a unit's text is written: an edit, an upload, a sync adding,
// changing and removing strings, automatic translation, search and replace, bulk edit, a string deleted, a component
// removed. After each, every text of every unit is found through the index, and (SQLite) the index holds no unit
// that is gone.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/store/projects.repo.js';
import { compileUnitFilter } from '../../src/store/unit-search.js';
import { syncProject } from '../../src/sync/index.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { onPostgres, sqlOn } from '../helpers/store.js';
import { DEMO } from '../helpers/sync-env.js';

const DE = '/api/translations/hello/app/de/';
type Unit = { id: number; source: string[]; target: string[]; state: number };

/**
 * The texts of units the search does not find through the index (expected none): for every unit and indexed field,
 * its first and last twelve characters searched in that field of that unit.
 */
async function missed(env: WriteEnv): Promise<string[]> {
  return env.store.read(async (tx) => {
    const units = (await tx.prepare('SELECT id, source, target, context FROM units ORDER BY id').all()) as Record<string, string | number>[];
    const out: string[] = [];
    for (const u of units) {
      for (const field of ['source', 'target', 'context'] as const) {
        const chars = [...String(u[field])];
        if (chars.length < 3) continue;
        for (const piece of new Set([chars.slice(0, 12).join(''), chars.slice(-12).join('')])) {
          const { sql, params } = compileUnitFilter({ kind: 'text', fields: [field], match: 'contains', value: piece }, tx.dialect);
          const found = await tx
            .prepare(`SELECT count(*) FROM units u WHERE u.id = ? AND ${sql}`)
            .pluck()
            .get(u.id, ...params);
          if (Number(found) !== 1) out.push(`${u.id} ${field}: ${JSON.stringify(piece)}`);
        }
      }
    }
    return out;
  });
}

/** The units the index holds that are not in the table any more (SQLite's own index; PostgreSQL's keeps itself). */
async function stale(env: WriteEnv): Promise<number[]> {
  if (onPostgres) return [];
  return (await sqlOn(env.store).values('SELECT rowid FROM units_fts WHERE rowid NOT IN (SELECT id FROM units)')).map(Number);
}

describe('the search index after every write path', () => {
  let env: WriteEnv;
  let jane: WebSession;
  let mike: WebSession;
  const units = async (p: string) => (await env.request('GET', `/api/translations/hello/${p}/units/`, { token: env.tokens.admin })).json.results as Unit[];
  /** The ids the API's site-wide search lists for `q`. */
  const search = async (q: string) =>
    ((await env.request('GET', `/api/units/?q=${encodeURIComponent(q)}`, { token: env.tokens.admin })).json.results as Unit[]).map((u) => u.id);
  const followed = async () => {
    // nothing left to the fill after a first load (SQLite): the search below reads the index alone
    if (!onPostgres) expect(await sqlOn(env.store).values('SELECT lo FROM units_fts_pending')).toEqual([]);
    expect(await missed(env)).toEqual([]);
    expect(await stale(env)).toEqual([]);
  };

  beforeAll(async () => {
    const base = { new_base: 'translations/app_de.ts' };
    // app2 takes the edits of app's strings (propagation), app3 none (the component removed at the end, with no edits)
    env = await createWriteEnv({}, { app: base }, [
      { slug: 'app2', settings: base },
      { slug: 'app3', settings: { allow_translation_propagation: false } },
    ]);
    jane = await env.signIn('jane', 'jane-password-1');
    mike = await env.signIn('mike', 'mike-password-1');
  }, 120_000);
  afterAll(() => env?.close());

  it('holds the synced strings', async () => {
    expect(await search('Datei öffnen')).not.toEqual([]);
    await followed();
  });

  it('follows a sync that adds, changes and removes strings', async () => {
    const de = readFileSync(path.join(DEMO, 'app', 'translations', 'app_de.ts'), 'utf8')
      .replace('<translation>&amp;Datei</translation>', '<translation>&amp;Ablage gewechselt</translation>')
      .replace(/<message>\s*<location filename="..\/src\/mainwindow.cpp" line="102"\/>\s*<source>Quit<\/source>[\s\S]*?<\/message>/, '')
      .replace(
        '</context>',
        '<message>\n        <source>Frobnicate the widgets</source>\n        <translation>Zauberwerk hinzugefügt</translation>\n    </message>\n</context>',
      );
    await commitToUpstream(env.upstream('app'), { 'translations/app_de.ts': de });
    const synced = await syncProject(env.store, env.config, 'hello');
    expect(
      synced.find((c) => c.component === 'app'),
      JSON.stringify(synced),
    ).toMatchObject({ ok: true, added: 1, changed: 1, removed: 1 });
    expect(await search('Ablage gewechselt')).toHaveLength(3); // app and its two copies
    expect(await search('zauberwerk')).toHaveLength(3);
    expect((await units('app/de')).some((u) => u.source[0] === 'Quit')).toBe(false);
    await followed();
  }, 60_000);

  it('follows an edit', async () => {
    const open = (await units('app/de')).find((u) => u.source[0] === 'Open a file')!;
    const r = await env.request('PATCH', `/api/units/${open.id}/`, { token: env.tokens.jane, json: { target: ['Eine Akte aufschlagen'], state: 20 } });
    expect(r.status, r.text).toBe(200);
    expect(await search('akte aufschlagen')).toContain(open.id);
    expect(await search('Eine Datei öffnen')).not.toContain(open.id);
    await followed();
  });

  it('follows an upload', async () => {
    const url = '/api/translations/hello/web/de/file/';
    const file = (await env.request('GET', url)).json;
    file.menu.quit = 'Verlassen hochgeladen';
    const form = new FormData();
    form.append('file', new Blob([JSON.stringify(file)]), 'de.json');
    form.append('conflicts', 'replace-translated');
    const r = await env.request('POST', url, { token: env.tokens.jane, body: form });
    expect(r.status, r.text).toBe(200);
    expect(await search('verlassen hochgeladen')).toHaveLength(1);
    await followed();
  });

  it('follows automatic translation', async () => {
    for (const c of ['app', 'app2']) {
      const r = await env.request('POST', `/api/components/hello/${c}/translations/`, { token: env.tokens.mike, json: { language_code: 'es' } });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
    }
    const open = (await units('app/es')).find((u) => u.source[0] === 'Open a file')!;
    await env.request('PATCH', `/api/units/${open.id}/`, { token: env.tokens.jane, json: { target: ['Abrir un archivo mágico'], state: 20 } });
    const r = await env.request('POST', '/api/translations/hello/app2/es/autotranslate/', {
      token: env.tokens.mike,
      json: { mode: 'translate', auto_source: 'others', component: 'app' },
    });
    expect(r.status, r.text).toBe(200);
    expect(await search('archivo mágico')).toHaveLength(2);
    await followed();
  });

  it('follows search and replace', async () => {
    const done = await env.postForm(jane, '/replace/hello/app/de/', { search: 'Datei', replacement: 'Mappe' });
    expect(done.status).toBe(303);
    expect(await search('mappeen ausgew')).not.toEqual([]);
    await followed();
  });

  it('follows bulk edit (states and flags: no text changes)', async () => {
    const done = await env.postForm(mike, '/bulk-edit/hello/app/de/', { q: 'state:translated', state: '10' });
    expect(done.status).toBe(303);
    await followed();
  });

  it('follows a string deleted', async () => {
    const save = (await units('web/en')).find((u) => u.source[0] === 'Save')!;
    const before = await search('save');
    expect(before).toContain(save.id);
    expect((await env.request('DELETE', `/api/units/${save.id}/`, { token: env.tokens.mike })).status).toBe(204);
    expect(await search('save')).not.toContain(save.id);
    await followed();
  });

  it('follows a component removed', async () => {
    const before = await search('ber %1');
    const config = { ...env.config, projects: env.config.projects.map((p) => ({ ...p, components: p.components.filter((c) => c.slug !== 'app3') })) };
    const written = await env.store.write((tx) => writeConfig(tx, config, { prune: true }));
    expect(written.removedComponents.map((c) => c.slug)).toEqual(['app3']);
    expect(written.keptComponents).toEqual([]);
    const after = await search('ber %1');
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThan(before.length);
    await followed();
  });

  it('answers the search in the web interface and the editor from the same index', async () => {
    const page = await env.request('GET', `/search/?q=${encodeURIComponent('akte aufschlagen')}`, { headers: { Cookie: jane.cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Eine Akte aufschlagen');
    const inTranslation = await env.request('GET', `${DE}units/?q=${encodeURIComponent('akte aufschlagen')}`, { token: env.tokens.jane });
    expect(inTranslation.json.count).toBe(1);
  });
});
