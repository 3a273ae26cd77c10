// A source string changed upstream in a monolingual component: after the sync the translation needs editing, its
// previous source is the old text (API), and the editor shows it beside the new source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncProject } from '../../src/sync/index.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { commitToUpstream, readUpstreamFile } from '../helpers/git-repo.js';

describe('a source string changed in the template', () => {
  let env: WriteEnv;
  let jane: WebSession;

  beforeAll(async () => {
    env = await createWriteEnv();
    jane = await env.signIn('jane', 'jane-password-1');
    const en = JSON.parse((await readUpstreamFile(env.upstream('web'), 'main', 'locales/en.json'))!.toString());
    en.menu.save = 'Save all';
    await commitToUpstream(env.upstream('web'), { 'locales/en.json': `${JSON.stringify(en, null, 2)}\n` });
    const [synced] = await syncProject(env.store, env.config, 'hello', 'web');
    expect(synced!.ok).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('makes the German string need editing, with the old source as its previous source', async () => {
    const units = (await env.request('GET', '/api/translations/hello/web/de/units/?q=context:menu.save', { token: env.tokens.jane })).json.results;
    expect(units).toHaveLength(1);
    expect(units[0]).toMatchObject({ source: ['Save all'], target: ['Speichern'], state: 10, previous_source: 'Save' });
    // a string whose source did not change stays translated
    const open = (await env.request('GET', '/api/translations/hello/web/de/units/?q=context:menu.open', { token: env.tokens.jane })).json.results;
    expect(open[0]).toMatchObject({ state: 20, previous_source: '' });
  });

  it('shows the previous source in the editor', async () => {
    const units = (await env.request('GET', '/api/translations/hello/web/de/units/?q=context:menu.save', { token: env.tokens.jane })).json.results;
    const url = new URL(units[0].web_url);
    const page = await env.request('GET', url.pathname + url.search, { headers: { Cookie: jane.cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<dt>Previous source<\/dt><dd data-previous-source="true" lang="en"><p>Save<\/p><\/dd>/);
  });
});
