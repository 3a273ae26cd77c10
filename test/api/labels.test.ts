// Project labels (Weblate's) through the API: created by whoever may edit the project, put on source strings with
// PATCH (and flags set there, as Weblate's source string properties), shown on every translation's unit, found with
// `label:` and `has:label`, each change recorded; on the real server over real upstreams, on either engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../helpers/api-client.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';

const EN = '/api/translations/hello/app/en/';
const DE = '/api/translations/hello/app/de/';
const LABELS = '/api/projects/hello/labels/';

describe('labels', () => {
  let env: WriteEnv;
  const units = async (translation: string, q = '') =>
    (await env.request('GET', `${translation}units/?page_size=100${q ? `&q=${encodeURIComponent(q)}` : ''}`, { token: env.tokens.mike })).json
      .results as Json[];
  const unitOf = async (translation: string, source: string) => (await units(translation)).find((u) => u.source[0] === source)!;
  const patch = (id: number, token: string, json: Record<string, unknown>) => env.request('PATCH', `/api/units/${id}/`, { token, json });

  beforeAll(async () => {
    env = await createWriteEnv();
  }, 120_000);
  afterAll(() => env.close());

  it('creates labels for those who may edit the project and lists them by name', async () => {
    expect((await env.request('GET', LABELS)).json).toMatchObject({ count: 0, results: [] });
    const refused = await env.request('POST', LABELS, { token: env.tokens.jane, json: { name: 'UI', color: 'blue' } });
    expect(refused.status).toBe(403);
    const ui = await env.request('POST', LABELS, { token: env.tokens.mike, json: { name: 'UI', description: 'Menus and buttons', color: 'blue' } });
    expect(ui.status, ui.text).toBe(201);
    expect(ui.json).toEqual({ id: expect.any(Number), name: 'UI', description: 'Menus and buttons', color: 'blue' });
    const legal = await env.request('POST', LABELS, { token: env.tokens.mike, json: { name: 'Legal' } });
    expect(legal.json).toMatchObject({ name: 'Legal', color: 'navy' });
    const twice = await env.request('POST', LABELS, { token: env.tokens.mike, json: { name: 'UI' } });
    expect(twice.status).toBe(400);
    expect(twice.json.errors[0]).toMatchObject({ code: 'unique', attr: 'non_field_errors' });
    const colour = await env.request('POST', LABELS, { token: env.tokens.mike, json: { name: 'X', color: 'chartreuse' } });
    expect(colour.json.errors[0]).toMatchObject({ code: 'invalid_choice', attr: 'color' });
    expect((await env.request('POST', LABELS, { token: env.tokens.mike, json: {} })).json.errors[0]).toMatchObject({ code: 'required', attr: 'name' });
    const list = (await env.request('GET', LABELS)).json;
    expect(list.results.map((l: Json) => l.name)).toEqual(['Legal', 'UI']);
  });

  it('puts labels on a source string with PATCH: every translation shows them, 86/87 are recorded, only sources and only by editors of sources', async () => {
    const [legal, ui] = (await env.request('GET', LABELS)).json.results as Json[];
    const quit = await unitOf(EN, 'Quit');
    const deQuit = await unitOf(DE, 'Quit');
    // a translator may not, and a translation's string is not where labels go
    expect((await patch(quit.id, env.tokens.jane, { labels: [ui.id] })).status).toBe(403);
    const onTranslation = await patch(deQuit.id, env.tokens.mike, { labels: [ui.id] });
    expect(onTranslation.status).toBe(403);
    expect(onTranslation.json.errors[0].detail).toBe('Source strings properties can be set only on source strings');
    const unknown = await patch(quit.id, env.tokens.mike, { labels: [99999] });
    expect(unknown.json.errors[0]).toMatchObject({ code: 'does_not_exist', attr: 'labels' });
    // sending what the string already has changes nothing, for anyone
    expect((await patch(deQuit.id, env.tokens.jane, { labels: [] })).status).toBe(200);

    const put = await patch(quit.id, env.tokens.mike, { labels: [ui.id, legal.id] });
    expect(put.status, put.text).toBe(200);
    expect(put.json.labels.sort()).toEqual([ui.id, legal.id].sort());
    const shown = (await env.request('GET', `/api/units/${deQuit.id}/`)).json;
    expect(shown.labels).toEqual([legal, ui]);
    expect((await env.request('GET', `/api/units/${quit.id}/`)).json.labels).toEqual([legal, ui]);

    const off = await patch(quit.id, env.tokens.mike, { labels: [ui.id] });
    expect(off.json.labels).toEqual([ui.id]);
    const changes = (await env.request('GET', `${EN}changes/`)).json.results as Json[];
    const labelChanges = changes.filter((c) => c.action === 86 || c.action === 87).map((c) => [c.action, c.target, c.unit]);
    const url = `${env.origin}/api/units/${quit.id}/`;
    expect(labelChanges.sort()).toEqual(
      [
        [86, 'UI', url],
        [86, 'Legal', url],
        [87, 'Legal', url],
      ].sort(),
    );
  });

  it('finds strings by label with `label:` and `has:label`, in a translation and across the site', async () => {
    const labelled = await units(DE, 'label:ui');
    expect(labelled.map((u) => u.source[0])).toEqual(['Quit']);
    expect(await units(DE, 'label:Legal')).toEqual([]);
    const all = await units(DE);
    expect((await units(DE, 'NOT has:label')).length).toBe(all.length - 1);
    expect((await units(DE, 'has:label')).map((u) => u.source[0])).toEqual(['Quit']);
    const site = (await env.request('GET', `/api/units/?q=${encodeURIComponent('label:UI')}`, { token: env.tokens.mike })).json.results as Json[];
    // the string in every language of the component: en, cs, de
    expect(site.map((u) => u.language_code ?? u.translation).length).toBe(3);
  });

  it('sets a source string’s extra flags with PATCH: every language takes them, the checks run again, 79 recorded', async () => {
    const quit = await unitOf(EN, 'Quit');
    const deQuit = await unitOf(DE, 'Quit');
    const saved = await patch(deQuit.id, env.tokens.mike, { target: ['Programm beenden'], state: 20 });
    expect(saved.status).toBe(200);
    expect((await patch(deQuit.id, env.tokens.mike, { extra_flags: 'max-length:4' })).status).toBe(403);
    expect((await patch(quit.id, env.tokens.jane, { extra_flags: 'max-length:4' })).status).toBe(403);
    const set = await patch(quit.id, env.tokens.mike, { extra_flags: 'max-length:4' });
    expect(set.status, set.text).toBe(200);
    expect(set.json.extra_flags).toBe('max-length:4');
    const de = (await env.request('GET', `/api/units/${deQuit.id}/`)).json;
    expect(de).toMatchObject({ extra_flags: 'max-length:4', has_failing_check: true });
    const changes = (await env.request('GET', `${EN}changes/?action=79`)).json.results as Json[];
    expect(changes.map((c) => [c.target, c.unit])).toEqual([['max-length:4', `${env.origin}/api/units/${quit.id}/`]]);
    await patch(quit.id, env.tokens.mike, { extra_flags: '' });
    expect((await env.request('GET', `/api/units/${deQuit.id}/`)).json).toMatchObject({ extra_flags: '', has_failing_check: false });
  });
});
