// The review workflow over HTTP: approving through the API (who may, and the statistics it moves) and in the pages
// (the editor's Approve / Unapprove for reviewers, the read-only notice and Suggest for translators on an approved
// string, the filters with Weblate's names and counts, the dashboard's queue), source review in the source language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinTeams } from '../../src/store/auth.repo.js';
import { refreshStats } from '../../src/store/stats.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { commitToUpstream, readUpstreamFile } from '../helpers/git-repo.js';

const DE = '/api/translations/hello/app/de/';

interface Unit {
  id: number;
  source: string[];
  target: string[];
  state: number;
  web_url: string;
}

async function unitOf(env: WriteEnv, translation: string, source: string): Promise<Unit> {
  const units = (await env.request('GET', `${translation}units/`, { token: env.tokens.admin })).json.results as Unit[];
  const unit = units.find((u) => u.source[0] === source);
  if (!unit) throw new Error(`no unit ${source} in ${translation}`);
  return unit;
}

const checksumOf = (unit: Unit) => new URL(unit.web_url).searchParams.get('checksum')!;

/** A reviewer: the site-wide Reviewers team (Weblate's "Review strings" role). */
async function addReviewer(env: WriteEnv): Promise<string> {
  const rita = await env.store.write((tx) => createUser(tx, { username: 'rita', fullName: 'Rita Reviewer', email: 'rita@example.org' }));
  await env.store.write((tx) => joinTeams(tx, rita.user.id, ['Reviewers']));
  return rita.token;
}

function pageOf(env: WriteEnv, s: WebSession | null, path: string) {
  return env.request('GET', path, { headers: s ? { Cookie: s.cookie } : {} });
}

describe('review workflow with translation review on', () => {
  let env: WriteEnv;
  let ritaToken: string;
  let rita: WebSession;
  let jane: WebSession;

  beforeAll(async () => {
    env = await createWriteEnv({}, {}, [], { translation_review: true });
    ritaToken = await addReviewer(env);
    rita = await env.signIn('rita', 'rita-password-1');
    jane = await env.signIn('jane', 'jane-password-1');
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('lets a reviewer approve through the API and refuses a translator, who then may not change the approved string', async () => {
    const quit = await unitOf(env, DE, 'Quit');
    const before = (await env.request('GET', `${DE}statistics/`, { token: env.tokens.jane })).json;
    const byJane = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Beenden'], state: 30 } });
    expect(byJane.status).toBe(400);
    expect(byJane.json.errors[0].attr).toBe('state');
    const byRita = await env.request('PATCH', `/api/units/${quit.id}/`, { token: ritaToken, json: { target: ['Beenden'], state: 30 } });
    expect(byRita.status, byRita.text).toBe(200);
    expect(byRita.json.state).toBe(30);
    // the approved string is the reviewers' now
    const change = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Verlassen'], state: 20 } });
    expect(change.status).toBe(403);
    expect(change.json.errors[0].code).toBe('permission_denied');
    expect(change.json.errors[0].detail).toBe('Only reviewers can change approved strings.');
    // statistics: one more approved string, in the translation, the component and the project; the search finds it
    const after = (await env.request('GET', `${DE}statistics/`, { token: env.tokens.jane })).json;
    expect(after.approved).toBe(before.approved + 1);
    expect(after.approved_percent).toBeCloseTo(Math.floor((1000 * after.approved) / after.total) / 10, 5);
    expect(after.translated).toBe(before.translated + (quit.state >= 20 ? 0 : 1));
    const project = (await env.request('GET', '/api/projects/hello/statistics/', { token: env.tokens.jane })).json;
    expect(project.approved).toBeGreaterThanOrEqual(1);
    const found = (await env.request('GET', `${DE}units/?q=${encodeURIComponent('state:approved')}`, { token: env.tokens.jane })).json;
    expect(found.results.map((u: Unit) => u.id)).toContain(quit.id);
    expect(found.count).toBe(after.approved);
  });

  it('shows a reviewer Approve on a translated string and Unapprove on an approved one, and saves both without script', async () => {
    const open = await unitOf(env, DE, 'Open a file');
    const saved = await env.request('PATCH', `/api/units/${open.id}/`, { token: env.tokens.jane, json: { target: ['Datei öffnen'], state: 20 } });
    expect(saved.status).toBe(200);
    const editor = `/translate/hello/app/de/?checksum=${checksumOf(open)}`;
    const page = await pageOf(env, rita, editor);
    expect(page.text).toContain('name="approve"');
    expect(page.text).not.toContain('name="unapprove"');
    // the form's Approve saves the text as approved and goes on to the next string
    const approve = await env.postForm(rita, '/translate/hello/app/de/', {
      unit: String(open.id),
      checksum: checksumOf(open),
      target_0: 'Datei öffnen',
      approve: '1',
    });
    expect(approve.status).toBe(303);
    expect(approve.headers.get('location')).toContain('after=');
    expect((await env.request('GET', `/api/units/${open.id}/`, { token: ritaToken })).json.state).toBe(30);
    const approvedPage = await pageOf(env, rita, editor);
    expect(approvedPage.text).toContain('name="unapprove"');
    expect(approvedPage.text).toContain('name="save"');
    const unapprove = await env.postForm(rita, '/translate/hello/app/de/', {
      unit: String(open.id),
      checksum: checksumOf(open),
      target_0: 'Datei öffnen',
      unapprove: '1',
    });
    expect(unapprove.status).toBe(303);
    expect((await env.request('GET', `/api/units/${open.id}/`, { token: ritaToken })).json.state).toBe(20);
    // a translator's forged Approve is refused by the API's own check
    const forged = await env.postForm(jane, '/translate/hello/app/de/', {
      unit: String(open.id),
      checksum: checksumOf(open),
      target_0: 'Datei öffnen',
      approve: '1',
    });
    expect(forged.status).toBe(400);
    expect((await env.request('GET', `/api/units/${open.id}/`, { token: ritaToken })).json.state).toBe(20);
  });

  it('tells a translator why an approved string is read-only and lets them suggest on it', async () => {
    const quit = await unitOf(env, DE, 'Quit');
    expect(quit.state).toBe(30);
    const editor = `/translate/hello/app/de/?checksum=${checksumOf(quit)}`;
    const page = await pageOf(env, jane, editor);
    expect(page.text).toContain('data-readonly="review-needed"');
    expect(page.text).toContain('only reviewers can change it');
    expect(page.text).not.toContain('name="save"');
    expect(page.text).not.toContain('name="approve"');
    expect(page.text).toContain('name="suggest"');
    // no source review in this project: no report of a source issue
    expect(page.text).not.toContain('name="report"');
    // the field takes a suggestion (not read-only)
    expect(page.text).not.toMatch(/<textarea[^>]*id="target_0"[^>]*readonly/);
    const suggested = await env.postForm(jane, '/translate/hello/app/de/', { unit: String(quit.id), target_0: 'Programm beenden', suggest: '1' });
    expect(suggested.status).toBe(303);
    const after = await pageOf(env, rita, editor);
    expect(after.text).toContain('Programm beenden');
    expect((await env.request('GET', `/api/units/${quit.id}/`, { token: ritaToken })).json.target).toEqual(['Beenden']);
  });

  it('leaves approved strings out of a translator’s search and replace, not out of a reviewer’s', async () => {
    const quit = await unitOf(env, DE, 'Quit');
    expect(quit.state).toBe(30);
    const path = `/replace/hello/app/de/?${new URLSearchParams({ search: 'Beenden', replacement: 'Schließen' })}`;
    const byJane = await pageOf(env, jane, path);
    expect(byJane.text).toContain('data-planned="0"');
    expect(byJane.text).toContain('left as they are (read-only, or approved: only reviewers change them): 1 string.');
    expect((await pageOf(env, rita, path)).text).toContain(`data-unit="${quit.id}"`);
  });

  it('names the source language string read-only with its reason', async () => {
    const quit = await unitOf(env, '/api/translations/hello/app/en/', 'Quit');
    const page = await pageOf(env, jane, `/translate/hello/app/en/?checksum=${checksumOf(quit)}`);
    expect(page.text).toContain('data-readonly="read-only"');
    expect(page.text).toContain('source string of a bilingual component');
  });

  it('lists Weblate\'s filters with the counts the API searches give, "Waiting for review" among them', async () => {
    const page = await pageOf(env, jane, '/projects/hello/app/de/');
    const counts = new Map<string, number>();
    for (const m of page.text.matchAll(/data-filter(?:="([^"]*)")?>([^<]+)<\/a> <span class="count">([\d,]+)<\/span>/g)) {
      counts.set(m[2]!, Number(m[3]!.replace(/,/g, '')));
      const q = (m[1] ?? '').replace(/&lt;/g, '<');
      const api = (await env.request('GET', `${DE}units/?q=${encodeURIComponent(q)}`, { token: env.tokens.jane })).json;
      expect(Number(m[3]!.replace(/,/g, '')), `${m[2]} (${q})`).toBe(api.count);
    }
    expect([...counts.keys()]).toEqual(['All strings', 'Unfinished', 'Untranslated', 'Needs editing', 'Waiting for review', 'Approved']);
    expect(counts.get('Waiting for review')).toBeGreaterThan(0);
  });

  it('draws the approved share in every progress bar, with a legend on every page that has bars', async () => {
    const stats = (await env.request('GET', `${DE}statistics/`, { token: env.tokens.jane })).json;
    expect(stats.approved).toBeGreaterThan(0);
    const translation = await pageOf(env, jane, '/projects/hello/app/de/');
    expect(translation.text).toContain(`class="bar approved" style="width:${stats.approved_percent}%"`);
    for (const path of [
      '/',
      '/projects/hello/',
      '/projects/hello/app/',
      '/projects/hello/app/de/',
      '/projects/hello/-/de/',
      '/languages/',
      '/languages/de/',
      '/engage/hello/',
    ]) {
      const page = await pageOf(env, jane, path);
      expect(page.text, path).toContain('class="progress"');
      expect(page.text, path).toMatch(/<ul class="legend"[^>]*>.*Approved.*Needs editing/s);
    }
  });

  it('shows the reviewer, not the translator, the translations waiting for review on the dashboard', async () => {
    const dashboard = await pageOf(env, rita, '/');
    expect(dashboard.text).toContain('Waiting for review');
    expect(dashboard.text).toContain(`href="/translate/hello/app/de/?q=${encodeURIComponent('state:translated')}"`);
    const stats = (await env.request('GET', `${DE}statistics/`, { token: env.tokens.jane })).json;
    const row = /Hello \/ App — German<\/a><\/th>\s*<td class="num" data-waiting="(\d+)"/.exec(dashboard.text);
    expect(row, dashboard.text.slice(dashboard.text.indexOf('review-h'), dashboard.text.indexOf('review-h') + 600)).not.toBeNull();
    expect(Number(row?.[1])).toBe(stats.translated - stats.approved - stats.readonly);
    expect((await pageOf(env, jane, '/')).text).not.toContain('Waiting for review');
  });
});

describe('review workflow without reviews, and source review', () => {
  let env: WriteEnv;
  let ritaToken: string;
  let rita: WebSession;
  let mike: WebSession;

  beforeAll(async () => {
    env = await createWriteEnv({}, {}, [], { source_review: true });
    ritaToken = await addReviewer(env);
    rita = await env.signIn('rita', 'rita-password-1');
    mike = await env.signIn('mike', 'mike-password-1');
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('refuses approval even to a reviewer where translations are not reviewed, and offers no Approve', async () => {
    const quit = await unitOf(env, DE, 'Quit');
    const approve = await env.request('PATCH', `/api/units/${quit.id}/`, { token: ritaToken, json: { target: ['Beenden'], state: 30 } });
    expect(approve.status).toBe(400);
    expect(approve.json.errors[0].attr).toBe('state');
    const page = await pageOf(env, rita, `/translate/hello/app/de/?checksum=${checksumOf(quit)}`);
    expect(page.text).toContain('name="save"');
    expect(page.text).not.toContain('name="approve"');
    expect((await pageOf(env, rita, '/projects/hello/app/de/')).text).not.toContain('Waiting for review');
  });

  it('approves a source string of a monolingual component in the source language (source_review)', async () => {
    const units = (await env.request('GET', '/api/translations/hello/web/en/units/', { token: env.tokens.admin })).json.results as Unit[];
    const unit = units.find((u) => u.state === 20)!;
    const page = await pageOf(env, mike, `/translate/hello/web/en/?checksum=${checksumOf(unit)}`);
    expect(page.text).toContain('name="approve"');
    const approve = await env.postForm(mike, '/translate/hello/web/en/', {
      unit: String(unit.id),
      checksum: checksumOf(unit),
      target_0: unit.target[0]!,
      approve: '1',
    });
    expect(approve.status).toBe(303);
    expect((await env.request('GET', `/api/units/${unit.id}/`, { token: env.tokens.admin })).json.state).toBe(30);
    // translations of this project are not reviewed: no Approve in German
    const de = await unitOf(env, '/api/translations/hello/web/de/', unit.source[0]!);
    expect((await pageOf(env, mike, `/translate/hello/web/de/?checksum=${checksumOf(de)}`)).text).not.toContain('name="approve"');
  });

  it('lets a reviewer approve a source string that a translator cannot, and keeps it approved (and another needs editing) over a sync of an upstream change elsewhere', async () => {
    const EN = '/api/translations/hello/web/en/';
    const quit = await unitOf(env, EN, 'Quit');
    expect(quit.state).toBe(20);
    const form = { unit: String(quit.id), checksum: checksumOf(quit), target_0: 'Quit', approve: '1' };
    // a translator gets no Approve, and a forged one does not approve
    const jane = await env.signIn('jane', 'jane-password-1');
    expect((await pageOf(env, jane, `/translate/hello/web/en/?checksum=${checksumOf(quit)}`)).text).not.toContain('name="approve"');
    await env.postForm(jane, '/translate/hello/web/en/', form);
    expect((await env.request('GET', `/api/units/${quit.id}/`, { token: env.tokens.admin })).json.state).toBe(20);
    expect((await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Quit'], state: 30 } })).status).toBe(400);
    // a reviewer approves in the source language's editor
    expect((await pageOf(env, rita, `/translate/hello/web/en/?checksum=${checksumOf(quit)}`)).text).toContain('name="approve"');
    expect((await env.postForm(rita, '/translate/hello/web/en/', form)).status).toBe(303);
    expect((await env.request('GET', `/api/units/${quit.id}/`, { token: env.tokens.admin })).json.state).toBe(30);
    expect((await env.request('GET', `${EN}units/?q=state:approved`, { token: env.tokens.admin })).json.results.map((u: Unit) => u.source[0])).toContain(
      'Quit',
    );
    // and marks another "needs editing"
    const save = await unitOf(env, EN, 'Save');
    const fuzzy = { unit: String(save.id), checksum: checksumOf(save), target_0: 'Save', fuzzy: '1', save: '1' };
    expect((await env.postForm(rita, '/translate/hello/web/en/', fuzzy)).status).toBe(303);
    expect((await env.request('GET', `/api/units/${save.id}/`, { token: env.tokens.admin })).json.state).toBe(10);
    const approved = (await env.request('GET', `${EN}statistics/`, { token: env.tokens.admin })).json.approved as number;
    // committed (JSON cannot say "approved"), then an upstream change to another string of the file, then a sync
    expect((await env.request('POST', '/api/components/hello/web/repository/', { token: env.tokens.mike, json: { operation: 'commit' } })).status).toBe(200);
    const file = (await readUpstreamFile(env.upstream('web'), 'main', 'locales/en.json'))!.toString();
    await commitToUpstream(env.upstream('web'), { 'locales/en.json': file.replace('"Ready"', '"Ready now"') });
    const pull = await env.request('POST', '/api/components/hello/web/repository/', { token: env.tokens.mike, json: { operation: 'pull' } });
    expect(pull.json).toMatchObject({ result: true });
    expect((await unitOf(env, EN, 'Ready now')).state).toBe(20);
    expect((await env.request('GET', `/api/units/${quit.id}/`, { token: env.tokens.admin })).json.state).toBe(30);
    expect((await env.request('GET', `/api/units/${save.id}/`, { token: env.tokens.admin })).json.state).toBe(10);
    // the statistics as kept equal a count of every unit again
    const kept = (await env.request('GET', `${EN}statistics/`, { token: env.tokens.admin })).json;
    expect(kept.approved).toBe(approved);
    await env.store.write(async (tx) => refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]));
    expect((await env.request('GET', `${EN}statistics/`, { token: env.tokens.admin })).json).toEqual(kept);
  });

  it("lets a translator report an issue with the source string: a bilingual one gets Weblate's label, a monolingual one needs editing", async () => {
    const jane = await env.signIn('jane', 'jane-password-1');
    // bilingual (app): the source string stays read-only and gets the label "Source needs review"
    const quit = await unitOf(env, DE, 'Quit');
    const page = await pageOf(env, jane, `/translate/hello/app/de/?checksum=${checksumOf(quit)}`);
    expect(page.text).toContain('name="report"');
    const report = { unit: String(quit.id), checksum: checksumOf(quit), comment: 'Should this be "Exit"?', report: '1', add_comment: '1' };
    expect((await env.postForm(jane, '/translate/hello/app/de/', report)).status).toBe(303);
    const source = await unitOf(env, '/api/translations/hello/app/en/', 'Quit');
    const labelled = (await env.request('GET', `/api/units/${source.id}/`, { token: env.tokens.admin })).json;
    expect(labelled.labels.map((l: { name: string }) => l.name)).toEqual(['Source needs review']);
    expect(labelled.state).toBe(100);
    const search = await env.request('GET', `${DE}units/?q=${encodeURIComponent('label:"Source needs review"')}`, { token: env.tokens.admin });
    expect(search.json.results.map((u: Unit) => u.source[0])).toEqual(['Quit']);
    // monolingual (web): the source string is marked needs editing, and the comment is on it
    const open = await unitOf(env, '/api/translations/hello/web/de/', 'Open');
    const openSource = await unitOf(env, '/api/translations/hello/web/en/', 'Open');
    expect(openSource.state).toBe(20);
    await env.postForm(jane, '/translate/hello/web/de/', { ...report, unit: String(open.id), checksum: checksumOf(open) });
    expect((await env.request('GET', `/api/units/${openSource.id}/`, { token: env.tokens.admin })).json.state).toBe(10);
    expect((await pageOf(env, jane, `/translate/hello/web/de/?checksum=${checksumOf(open)}`)).text).toContain('Should this be');
  });
});
