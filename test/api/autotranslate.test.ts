import path from 'node:path';
// Machine translation through the API: a new Spanish translation filled by automatic translation from Debian's
// Apertium (suggestions, then "needs editing"), from another component, nothing translated overwritten unless
// asked, every change Weblate's "Automatically translated" by the automatic translation bot; one engine's
// suggestions for a unit; the task to follow; bad input answered 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Action } from '../../src/domain/actions.js';
import { type Apertium, apertiumMissing, startApertium } from '../helpers/apertium.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { gitCli } from '../helpers/git-repo.js';
import { sqlOn } from '../helpers/store.js';

type Unit = { id: number; source: string[]; target: string[]; state: number; context: string };

const missing = apertiumMissing();
describe.skipIf(missing !== null)('automatic translation (Debian apertium-apy with apertium-eng-spa)', () => {
  let apy: Apertium;
  let env: WriteEnv;
  const units = async (path: string): Promise<Unit[]> =>
    (await env.request('GET', `/api/translations/hello/${path}/units/`, { token: env.tokens.admin })).json.results;
  const auto = (path: string, body: Record<string, unknown>, token = env.tokens.mike) =>
    env.request('POST', `/api/translations/hello/${path}/autotranslate/`, { token, json: body });

  beforeAll(async () => {
    apy = await startApertium();
    // a new TS file is made from new_base (its translations emptied)
    const base = { new_base: 'translations/app_de.ts' };
    // app2 does not take propagated edits: what it gets comes from automatic translation
    env = await createWriteEnv({ machinery: { 'apertium-apy': { url: apy.url } } }, { app: base }, [
      { slug: 'app2', settings: { ...base, allow_translation_propagation: false } },
    ]);
    for (const c of ['app', 'app2']) {
      const r = await env.request('POST', `/api/components/hello/${c}/translations/`, { token: env.tokens.mike, json: { language_code: 'es' } });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
    }
  }, 90_000);
  afterAll(async () => {
    await env?.close();
    await apy?.close();
  });

  it("shows one engine's suggestions for a unit, and a pair Apertium lacks as not available", async () => {
    const quit = (await units('app/es')).find((u) => u.source[0] === 'Open a file')!;
    const r = await env.request('GET', `/api/units/${quit.id}/machinery/apertium-apy/`, { token: env.tokens.jane });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ engine: 'apertium-apy', name: 'Apertium APy', status: 'ok' });
    expect(r.json.suggestions[0].text).toMatch(/archivo|fichero|lima/i);
    const de = (await units('app/de')).find((u) => u.source[0] === 'Quit')!;
    expect((await env.request('GET', `/api/units/${de.id}/machinery/apertium-apy/`, { token: env.tokens.jane })).json.status).toBe('unavailable');
    expect((await env.request('GET', `/api/units/${de.id}/machinery/deepl/`, { token: env.tokens.jane })).status).toBe(404);
  });

  it('answers bad input with a 400 naming the field, a translator without the permission with 403', async () => {
    for (const [body, attr] of [
      [{ mode: 'overwrite' }, 'mode'],
      [{ filter_type: 'everything' }, 'filter_type'],
      [{ auto_source: 'google' }, 'auto_source'],
      [{ auto_source: 'mt', engines: [] }, 'engines'],
      [{ auto_source: 'mt', engines: ['deepl'] }, 'engines'],
      [{ auto_source: 'mt', engines: ['apertium-apy'], threshold: 500 }, 'threshold'],
      [{ q: 'state:(' }, 'q'],
      [{ component: 'nope' }, 'component'],
    ] as const) {
      const r = await auto('app/es', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.errors[0].attr).toBe(attr);
    }
    expect((await auto('app/es', { auto_source: 'mt', engines: ['apertium-apy'] }, env.tokens.jane)).status).toBe(403);
  });

  it('fills the new Spanish translation from Apertium as suggestions, then as "needs editing", never over a translated string', async () => {
    const before = await units('app/es');
    const quit = before.find((u) => u.source[0] === 'Quit')!;
    // a translator translated one string by hand first
    expect((await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Salir'], state: 20 } })).status).toBe(200);

    const suggest = await auto('app/es', { mode: 'suggest', auto_source: 'mt', engines: ['apertium-apy'], threshold: 50 });
    expect(suggest.status).toBe(200);
    // the four strings left untranslated, the plural one among them, each given a suggestion
    expect(suggest.json.details).toBe('Automatic translation completed, 4 strings were updated.');
    const task = await env.request('GET', suggest.json.task_url, { token: env.tokens.mike });
    expect(task.json).toMatchObject({ completed: true, progress: 100, result: { updated: 4 } });
    expect((await env.request('GET', suggest.json.task_url, { token: env.tokens.jane })).status).toBe(404);
    const sql = sqlOn(env.store);
    const suggestions = await sql.rows<{ target: string; username: string; source: string }>(
      `SELECT g.target, us.username, u.source FROM suggestions g JOIN users us ON us.id = g.user_id JOIN units u ON u.id = g.unit_id ORDER BY u.id`,
    );
    expect(suggestions.map((s) => s.username)).toEqual(['automatic-translation', 'automatic-translation', 'automatic-translation', 'automatic-translation']);
    // the plural string: Apertium got the source's singular and plural ("%n file selected", "%n files selected", made
    // from Qt's "(s)") for Spanish's two forms, each a translation keeping its %n
    const plural = suggestions.find((s) => s.source.includes('%n'))!;
    expect(plural.source.split('\x1e\x1e')).toHaveLength(2);
    const forms = plural.target.split('\x1e\x1e');
    expect(forms).toHaveLength(2);
    for (const f of forms) {
      expect(f).toContain('%n');
    }
    expect(plural.source.split('\x1e\x1e')).toEqual(['%n file selected', '%n files selected']);
    expect(forms[0]).toMatch(/lima(?!s)/);
    expect(forms[1]).toMatch(/limas/);
    expect(suggestions.find((s) => s.source === 'Open a file')!.target).toMatch(/archivo|fichero|lima/i);
    // About %1: the placeable survives Apertium
    expect(suggestions.find((s) => s.source === 'About %1')!.target).toContain('%1');
    // suggestions change no string ("About %1" came from new_base as German needing editing)
    expect((await units('app/es')).map((u) => [u.source[0], u.state])).toEqual(before.map((u) => [u.source[0], u.source[0] === 'Quit' ? 20 : u.state]));

    const fuzzy = await auto('app/es', { mode: 'fuzzy', filter_type: 'all', auto_source: 'mt', engines: ['apertium-apy'], threshold: 50 });
    expect(fuzzy.json.details).toBe('Automatic translation completed, 4 strings were updated.');
    const after = await units('app/es');
    for (const u of after.filter((x) => x.source[0] !== 'Quit')) {
      expect(u.state, u.source[0]).toBe(10);
      expect(u.target[0]).not.toBe('');
    }
    expect(after.find((u) => u.source[0] === 'Quit')).toMatchObject({ target: ['Salir'], state: 20 });
    expect(after.find((u) => u.source[0]!.includes('%n'))).toMatchObject({ state: 10, target: forms });

    // the suggestions were Weblate's "Suggestion added", the strings filled "Automatically translated"
    const suggested = (await env.request('GET', `/api/translations/hello/app/es/changes/?action=${Action.SUGGESTION}`, { token: env.tokens.admin })).json;
    expect(suggested.count).toBe(4);
    for (const c of suggested.results)
      expect(c).toMatchObject({ action_name: 'Suggestion added', author: expect.stringMatching(/\/automatic-translation\/$/) });
    const changes = (await env.request('GET', `/api/translations/hello/app/es/changes/?action=${Action.AUTO}`, { token: env.tokens.admin })).json;
    expect(changes.count).toBe(4);
    for (const c of changes.results) {
      expect(c.author).toMatch(/\/api\/users\/automatic-translation\/$/);
      expect(c.user).toMatch(/\/api\/users\/mike\/$/);
      expect(c.action_name).toBe('Automatically translated');
    }
    // a reviewer finds the automatic results with Weblate's change_action: and changed_by: lookups
    const search = async (q: string) =>
      (
        (await env.request('GET', `/api/translations/hello/app/es/units/?q=${encodeURIComponent(q)}`, { token: env.tokens.admin })).json as {
          results: { source: string[] }[];
        }
      ).results
        .map((u) => u.source[0])
        .sort();
    const filled = after
      .filter((x) => x.state === 10)
      .map((u) => u.source[0])
      .sort();
    expect(await search('change_action:automatically-translated')).toEqual(filled);
    expect(await search('change_action:"Automatically translated"')).toEqual(filled);
    expect(await search('changed_by:automatic-translation')).toEqual(filled);
    expect(await search('changed_by:jane')).toEqual(['Quit']);
    expect(await search('NOT change_action:automatically-translated AND state:translated')).toEqual(['Quit']);
    const bot = (await env.request('GET', '/api/users/automatic-translation/', { token: env.tokens.admin })).json;
    expect(bot.full_name).toBe('Automatic translation');
    // the commit of the automatic translations is authored by the bot (no e-mail address: a no-reply one)
    expect((await env.request('POST', '/api/components/hello/app/repository/', { token: env.tokens.mike, json: { operation: 'commit' } })).status).toBe(200);
    const authors = await gitCli(path.join(env.config.repos_dir, 'hello', 'app'), ['log', '--format=%an <%ae>']);
    expect(authors).toMatch(/^Automatic translation <noreply\+\d+@test\.invalid>$/m);

    // asked for: translate with a filter that includes translated strings replaces "Salir"
    const overwrite = await auto('app/es', {
      mode: 'translate',
      filter_type: 'all',
      q: 'source:Quit',
      auto_source: 'mt',
      engines: ['apertium-apy'],
      threshold: 50,
    });
    expect(overwrite.json.details).toMatch(/completed, (1 string was|[2-9]\d* strings were) updated/);
    const replaced = (await units('app/es')).find((u) => u.source[0] === 'Quit')!;
    expect(replaced.state).toBe(20);
    expect(replaced.target[0]).not.toBe('Salir');
  });

  it("fills a component's strings from the same strings translated in another component", async () => {
    const es = await units('app/es');
    const open = es.find((u) => u.source[0] === 'Open a file')!;
    await env.request('PATCH', `/api/units/${open.id}/`, { token: env.tokens.jane, json: { target: ['Abrir un archivo'], state: 20 } });
    const r = await auto('app2/es', { mode: 'translate', auto_source: 'others', component: 'app' });
    expect(r.status).toBe(200);
    const filled = await units('app2/es');
    expect(filled.find((u) => u.source[0] === 'Open a file')).toMatchObject({ target: ['Abrir un archivo'], state: 20 });
    expect(filled.find((u) => u.source[0] === 'Quit')!.state).toBe(20);
    // strings app has only as "needs editing" are not a source
    expect(filled.find((u) => u.source[0] === 'About %1')).toMatchObject({ target: ['Über %1'], state: 10 });
    expect(r.json.details).toBe('Automatic translation completed, 2 strings were updated.');
  });

  it('marks what automatic translation filled (Weblate\'s "Automatically translated"), finds and counts it; an edit by a person clears the mark', async () => {
    const search = async (q: string) =>
      (
        (await env.request('GET', `/api/translations/hello/app2/es/units/?q=${encodeURIComponent(q)}`, { token: env.tokens.admin })).json as {
          results: { source: string[] }[];
        }
      ).results
        .map((u) => u.source[0])
        .sort();
    const marked = async () =>
      ((await units('app2/es')) as (Unit & { automatically_translated: boolean })[])
        .filter((u) => u.automatically_translated)
        .map((u) => u.source[0])
        .sort();
    // the previous test filled these two from app
    expect(await marked()).toEqual(['Open a file', 'Quit']);
    expect(await search('label:"Automatically translated"')).toEqual(['Open a file', 'Quit']);
    expect(await search('has:label')).toEqual(['Open a file', 'Quit']);
    expect(await search('label:"Something else"')).toEqual([]);
    const count = async () => {
      const page = await env.request('GET', '/projects/hello/app2/es/', { token: env.tokens.admin });
      expect(page.status).toBe(200);
      return /Automatically translated<\/a> <span class="count">(\d+)<\/span>/.exec(page.text)?.[1];
    };
    expect(await count()).toBe('2');

    const open = (await units('app2/es')).find((u) => u.source[0] === 'Open a file')!;
    const edit = await env.request('PATCH', `/api/units/${open.id}/`, { token: env.tokens.jane, json: { target: ['Abre un archivo'], state: 20 } });
    expect(edit.status).toBe(200);
    expect(await marked()).toEqual(['Quit']);
    expect(await search('label:"Automatically translated"')).toEqual(['Quit']);
    expect(await count()).toBe('1');
  });
});
