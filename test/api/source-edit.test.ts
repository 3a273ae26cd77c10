// A monolingual template's source string edited in tms (API and editor): the other translations' strings take the new
// source at once, translated ones need editing with the old source kept; the commit writes the template only, and the
// next sync keeps all of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncProject } from '../../src/sync/index.js';
import type { Json } from '../helpers/api-client.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { commitToUpstream, gitCli } from '../helpers/git-repo.js';

const WEB = '/api/translations/hello/web';

describe('a source string edited in the template of a monolingual component', () => {
  let env: WriteEnv;
  let mike: WebSession;
  /** The unit of `lang` with this key (the template's context). */
  const unitOf = async (lang: string, key: string): Promise<Json> => {
    const r = await env.request('GET', `${WEB}/${lang}/units/?q=${encodeURIComponent(`context:${key}`)}`, { token: env.tokens.admin });
    const units = (r.json.results as Json[]).filter((u) => u.context === key);
    expect(units, `${lang} ${key}`).toHaveLength(1);
    return units[0]!;
  };
  const statsOf = async (lang: string): Promise<Json> => (await env.request('GET', `${WEB}/${lang}/statistics/`, { token: env.tokens.admin })).json;
  const changesOf = async (unitId: number): Promise<Json[]> => {
    const all = (await env.request('GET', `${WEB}/de/changes/?page_size=100`, { token: env.tokens.admin })).json.results as Json[];
    return all.filter((c) => c.unit === `${env.origin}/api/units/${unitId}/`);
  };

  beforeAll(async () => {
    env = await createWriteEnv();
    mike = await env.signIn('mike', 'mike-password-1');
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('gives the other translations the new source at once: translated strings need editing with the old source kept (change 30)', async () => {
    const before = { de: await statsOf('de'), cs: await statsOf('cs') };
    const title = await unitOf('en', 'app.title');
    const r = await env.request('PATCH', `/api/units/${title.id}/`, { token: env.tokens.mike, json: { target: ['Hello from tms'], state: 20 } });
    expect(r.status, r.text).toBe(200);
    expect(await unitOf('en', 'app.title')).toMatchObject({ source: ['Hello from tms'], target: ['Hello from tms'], state: 20 });
    const de = await unitOf('de', 'app.title');
    expect(de).toMatchObject({ source: ['Hello from tms'], target: ['Hallo tms'], state: 10, previous_source: 'Hello tms' });
    expect(await unitOf('cs', 'app.title')).toMatchObject({ source: ['Hello from tms'], target: ['Ahoj tms'], state: 10, previous_source: 'Hello tms' });
    // the search finds the strings by their new source
    const found = await env.request('GET', `${WEB}/de/units/?q=${encodeURIComponent('source:"from tms"')}`, { token: env.tokens.admin });
    expect((found.json.results as Json[]).map((u) => u.context)).toEqual(['app.title']);
    // an untranslated string takes the new source and stays empty; other strings are left alone
    expect(await unitOf('cs', 'menu.open')).toMatchObject({ source: ['Open'], state: 0, previous_source: '' });
    expect(await unitOf('de', 'menu.open')).toMatchObject({ source: ['Open'], state: 20, previous_source: '' });
    // the German string's own history says why (Weblate's 30, Source string changed, with the new source)
    const [change] = await changesOf(de.id);
    expect(change).toMatchObject({ action: 30, action_name: 'Source string changed', target: 'Hello from tms' });
    // statistics follow: one string fewer translated, one more needing editing, the words of the new source
    for (const lang of ['de', 'cs'] as const) {
      const after = await statsOf(lang);
      expect(after.translated, lang).toBe(before[lang].translated - 1);
      expect(after.fuzzy, lang).toBe(before[lang].fuzzy + 1);
      expect(after.total_words, lang).toBe(before[lang].total_words + 1);
    }
    // the German and Czech strings were not edited (JSON states no "needs editing"): nothing of theirs waits for a commit
    expect(de.pending).toBe(false);
    expect((await unitOf('cs', 'app.title')).pending).toBe(false);
    expect((await unitOf('en', 'app.title')).pending).toBe(true);
  });

  it('does the same for an edit in the editor, and an edit taken back makes the strings translated again', async () => {
    const save = await unitOf('en', 'menu.save');
    const checksum = new URL(save.web_url).searchParams.get('checksum')!;
    const edit = (text: string) => env.postForm(mike, '/translate/hello/web/en/', { unit: String(save.id), checksum, target_0: text, save: '1' });
    expect((await edit('Save all')).status).toBe(303);
    expect(await unitOf('de', 'menu.save')).toMatchObject({ source: ['Save all'], target: ['Speichern'], state: 10, previous_source: 'Save' });
    expect(await unitOf('cs', 'menu.save')).toMatchObject({ source: ['Save all'], state: 0 });
    expect((await edit('Save')).status).toBe(303);
    expect(await unitOf('de', 'menu.save')).toMatchObject({ source: ['Save'], target: ['Speichern'], state: 20, previous_source: '' });
  });

  it('keeps them so over a sync of an upstream change before the commit (the template file still has the old text)', async () => {
    await commitToUpstream(env.upstream('web'), async (current) => {
      const de = JSON.parse(await current('locales/de.json'));
      de.menu.open = 'Aufmachen';
      return { 'locales/de.json': `${JSON.stringify(de, null, 2)}\n` };
    });
    const [synced] = await syncProject(env.store, env.config, 'hello', 'web');
    expect(synced!.ok).toBe(true);
    expect(await unitOf('de', 'menu.open')).toMatchObject({ target: ['Aufmachen'], state: 20 });
    expect(await unitOf('de', 'app.title')).toMatchObject({ source: ['Hello from tms'], target: ['Hallo tms'], state: 10, previous_source: 'Hello tms' });
    expect(await unitOf('en', 'app.title')).toMatchObject({ source: ['Hello from tms'], target: ['Hello from tms'], pending: true });
  });

  it('commits the template alone, and the next sync keeps the strings as they are', async () => {
    const upstream = env.upstream('web');
    const head = await gitCli(upstream, ['rev-parse', 'main']);
    const commit = await env.request('POST', '/api/components/hello/web/repository/', { token: env.tokens.mike, json: { operation: 'commit' } });
    expect(commit.json, commit.text).toMatchObject({ result: true });
    expect((await gitCli(upstream, ['diff', '--name-only', head, 'main'])).trim()).toBe('locales/en.json');
    const diff = await gitCli(upstream, ['diff', '-U0', head, 'main']);
    expect(diff.split('\n').filter((l) => /^[-+] /.test(l))).toEqual(['-    "title": "Hello tms",', '+    "title": "Hello from tms",']);

    const edited = await unitOf('de', 'app.title');
    const [synced] = await syncProject(env.store, env.config, 'hello', 'web');
    expect(synced!.ok).toBe(true);
    expect(await unitOf('de', 'app.title')).toMatchObject({ source: ['Hello from tms'], target: ['Hallo tms'], state: 10, previous_source: 'Hello tms' });
    expect(await unitOf('cs', 'app.title')).toMatchObject({ source: ['Hello from tms'], state: 10, previous_source: 'Hello tms' });
    // what the edit stored is what the files now give (the content hash, the words): the sync had nothing to change
    expect(await unitOf('de', 'app.title')).toMatchObject({ content_hash: edited.content_hash, num_words: 3 });
    expect(synced!.changed).toBe(0);
    expect(await unitOf('de', 'menu.save')).toMatchObject({ source: ['Save'], state: 20, previous_source: '' });
    const de = await unitOf('de', 'app.title');
    expect((await changesOf(de.id)).filter((c) => c.action === 30)).toHaveLength(1);
  });

  it('does the same for a search and replace in the template', async () => {
    const done = await env.postForm(mike, '/replace/hello/web/en/', { search: 'Open', replacement: 'Open file' });
    expect(done.status, done.text).toBe(303);
    expect(await unitOf('en', 'menu.open')).toMatchObject({ source: ['Open file'], target: ['Open file'] });
    expect(await unitOf('de', 'menu.open')).toMatchObject({ source: ['Open file'], target: ['Aufmachen'], state: 10, previous_source: 'Open' });
  });

  it('lets a translation edited after it be translated again', async () => {
    const de = await unitOf('de', 'app.title');
    const r = await env.request('PATCH', `/api/units/${de.id}/`, { token: env.tokens.jane, json: { target: ['Hallo von tms'], state: 20 } });
    expect(r.status, r.text).toBe(200);
    expect(await unitOf('de', 'app.title')).toMatchObject({ source: ['Hello from tms'], target: ['Hallo von tms'], state: 20 });
    const [synced] = await syncProject(env.store, env.config, 'hello', 'web');
    expect(synced!.ok).toBe(true);
    expect(await unitOf('de', 'app.title')).toMatchObject({ target: ['Hallo von tms'], state: 20 });
  });
});
