// The write API end to end: the real server over upstreams served by `git http-backend` on loopback, checked through the API and the git CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../helpers/api-client.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { commitToUpstream, gitCli, readUpstreamFile } from '../helpers/git-repo.js';

const DE = '/api/translations/hello/app/de/';
const APP_DE_FILE = 'translations/app_de.ts';

/** The unit of a translation whose source is `source` (first form). */
async function unitOf(env: WriteEnv, translation: string, source: string): Promise<Json> {
  const r = await env.request('GET', `${translation}units/?page_size=100`);
  const unit = r.json.results.find((u: { source: string[] }) => u.source[0] === source || u.source.join('|') === source);
  if (!unit) throw new Error(`no unit "${source}" in ${translation}`);
  return unit;
}

/** Lines of `after` that are not at the same place in `before` (same length files: line by line). */
function changedLines(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length).toBe(a.length);
  return b.filter((line, i) => line !== a[i]);
}

describe('units: PATCH, PUT, POST, DELETE', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
  });
  afterAll(() => env.close());

  it('translates with PATCH: change 5, pending, statistics at once, and a GET after it shows the new target', async () => {
    const quit = await unitOf(env, DE, 'Quit');
    const before = await env.request('GET', DE);
    await env.request('GET', `/api/units/${quit.id}/`, { token: env.tokens.jane }); // cached now
    const r = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Beenden'], state: 20 } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ target: ['Beenden'], state: 20, explanation: '', extra_flags: '', labels: [] });
    const unit = (await env.request('GET', `/api/units/${quit.id}/`, { token: env.tokens.jane })).json;
    expect(unit).toMatchObject({ target: ['Beenden'], state: 20, translated: true, pending: true });
    const after = (await env.request('GET', DE)).json;
    expect(after.translated).toBe(before.json.translated + 1);
    const changes = (await env.request('GET', `${DE}changes/?action=5`)).json.results;
    expect(changes[0]).toMatchObject({ action: 5, target: 'Beenden', unit: `${env.origin}/api/units/${quit.id}/` });
  });

  it('records 37 for needs editing and 2 for a changed translation; takes form bodies, a string target and Bearer', async () => {
    const quit = await unitOf(env, DE, 'Quit');
    const fuzzy = await env.request('PATCH', `/api/units/${quit.id}/`, {
      token: env.tokens.jane,
      body: new URLSearchParams({ target: 'Beenden?', state: '10' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(fuzzy.status, fuzzy.text).toBe(200);
    expect(fuzzy.json.state).toBe(10);
    const changed = await env.request('PUT', `/api/units/${quit.id}/`, {
      json: { target: 'Programm beenden', state: 20, labels: [] },
      headers: { Authorization: `Bearer ${env.tokens.jane}` },
    });
    expect(changed.status, changed.text).toBe(200);
    const actions = (await env.request('GET', `${DE}changes/`)).json.results.slice(0, 2).map((c: { action: number }) => c.action);
    expect(actions).toEqual([2, 37]);
  });

  it('validates as Weblate: both fields, plural count, state rules, review, PUT requirements', async () => {
    const quit = await unitOf(env, DE, 'Quit');
    const plural = (await env.request('GET', `${DE}units/?q=has:plural`)).json.results[0];
    expect(plural.target).toHaveLength(2);
    const patch = (id: number, json: unknown) => env.request('PATCH', `/api/units/${id}/`, { token: env.tokens.jane, json });
    const only = await patch(quit.id, { target: ['x'] });
    expect(only.status).toBe(400);
    expect(only.json.errors.map((e: { attr: string }) => e.attr)).toEqual(['state', 'target']);
    expect(only.json.errors[0].detail).toBe('Please provide both state and target for a partial update');
    const cases: [number, unknown, string, string][] = [
      [plural.id, { target: ['eine'], state: 20 }, 'target', 'Number of plurals does not match'],
      [quit.id, { target: ['x'], state: 0 }, 'state', 'Can not use empty state with non empty target'],
      [quit.id, { target: [''], state: 20 }, 'state', 'Can not use non empty state with empty target'],
      [quit.id, { target: ['x'], state: 100 }, 'state', 'Invalid state'],
    ];
    for (const [id, body, attr, detail] of cases) {
      const r = await patch(id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json).toEqual({ type: 'validation_error', errors: [{ code: 'invalid', detail, attr }] });
    }
    const approve = await patch(quit.id, { target: ['x'], state: 30 });
    expect(approve.status).toBe(400);
    expect(approve.json.errors[0].attr).toBe('state');
    const put = await env.request('PUT', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { state: 20 } });
    expect(put.status).toBe(400);
    expect(put.json.errors.map((e: { attr: string }) => e.attr)).toEqual(['target', 'labels']);
  });

  it('refuses anonymous writes (401), source strings of a bilingual component (403), other body types (415)', async () => {
    const quit = await unitOf(env, DE, 'Quit');
    const anonymous = await env.request('PATCH', `/api/units/${quit.id}/`, { json: { target: ['x'], state: 20 } });
    expect(anonymous.status).toBe(401);
    const source = await unitOf(env, '/api/translations/hello/app/en/', 'Quit');
    const forbidden = await env.request('PATCH', `/api/units/${source.id}/`, { token: env.tokens.jane, json: { target: ['x'], state: 20 } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.errors[0].code).toBe('permission_denied');
    const text = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, body: 'x', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.json.errors[0].code).toBe('unsupported_media_type');
    expect((await env.request('PATCH', '/api/units/999999/', { token: env.tokens.jane, json: {} })).status).toBe(404);
  });

  it('adds a string to a monolingual source (31 per unit) for a manager, not for a translator', async () => {
    const body = { key: 'menu.help', value: ['Help'] };
    const jane = await env.request('POST', '/api/translations/hello/web/en/units/', { token: env.tokens.jane, json: body });
    expect(jane.status).toBe(403);
    const r = await env.request('POST', '/api/translations/hello/web/en/units/', { token: env.tokens.mike, json: body });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ source: ['Help'], context: 'menu.help', target: ['Help'], pending: true });
    const de = await env.request('GET', '/api/translations/hello/web/de/units/?q=context:menu.help');
    expect(de.json.results).toHaveLength(1);
    expect(de.json.results[0]).toMatchObject({ target: [''], state: 0 });
    expect((await env.request('GET', '/api/components/hello/web/changes/?action=31')).json.count).toBe(3);
    const again = await env.request('POST', '/api/translations/hello/web/en/units/', { token: env.tokens.mike, json: body });
    expect(again.status).toBe(400);
    expect(again.json.errors[0]).toEqual({ code: 'invalid', detail: 'This string seems to already exist.', attr: 'non_field_errors' });
    const notList = await env.request('POST', '/api/translations/hello/web/en/units/', { token: env.tokens.mike, json: { key: 'k', value: 'v' } });
    expect(notList.status).toBe(400);
    expect(notList.json.errors[0].attr).toBe('value');
    const bilingual = await env.request('POST', `${DE}units/`, { token: env.tokens.mike, json: { source: ['New'], target: ['Neu'] } });
    expect(bilingual.status).toBe(403);
  });

  it('deletes a string from every translation (63), for a manager', async () => {
    // A monolingual component's strings are deleted through its source (template) translation.
    const save = await unitOf(env, '/api/translations/hello/web/en/', 'Save');
    expect((await env.request('DELETE', `/api/units/${save.id}/`, { token: env.tokens.jane })).status).toBe(403);
    const r = await env.request('DELETE', `/api/units/${save.id}/`, { token: env.tokens.mike });
    expect(r.status, r.text).toBe(204);
    expect(r.text).toBe('');
    expect((await env.request('GET', `/api/units/${save.id}/`)).status).toBe(404);
    const removed = (await env.request('GET', '/api/components/hello/web/changes/?action=63')).json.results;
    expect(removed.length).toBe(3);
  });
});

describe('repository operations and locks', () => {
  let env: WriteEnv;
  const app = '/api/components/hello/app/';
  const post = (path: string, operation: string, token?: string) => env.request('POST', `${path}repository/`, { token, json: { operation } });
  const edit = async (source: string, target: string) => {
    const unit = await unitOf(env, DE, source);
    const r = await env.request('PATCH', `/api/units/${unit.id}/`, { token: env.tokens.jane, json: { target: [target], state: 20 } });
    expect(r.status, r.text).toBe(200);
    return unit;
  };
  beforeAll(async () => {
    env = await createWriteEnv();
  });
  afterAll(() => env.close());

  it('reports status, refuses operations by role, and commits then pushes only the edited lines', async () => {
    const original = (await readUpstreamFile(env.upstream('app'), 'main', APP_DE_FILE))!.toString();
    await edit('Quit', 'Beenden');
    const status = await env.request('GET', `${app}repository/`, { token: env.tokens.mike });
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ needs_commit: true, needs_merge: false, needs_push: false, merge_failure: null });
    expect(status.json.remote_commit.revision).toBe(await gitCli(env.upstream('app'), ['rev-parse', 'main']));
    expect(status.json.status).toContain('up to date');
    expect((await env.request('GET', `${app}repository/`, { token: env.tokens.jane })).status).toBe(403);
    expect((await post(app, 'commit')).status).toBe(401);
    expect((await post(app, 'commit', env.tokens.jane)).status).toBe(403);
    const bad = await post(app, 'merge', env.tokens.mike);
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0]).toMatchObject({ attr: 'operation', code: 'invalid_choice' });

    const commit = await post(app, 'commit', env.tokens.mike);
    expect(commit.status, commit.text).toBe(200);
    expect(commit.json.result).toBe(true);
    const after = (await env.request('GET', `${app}repository/`, { token: env.tokens.mike })).json;
    expect(after).toMatchObject({ needs_commit: false, needs_push: true });
    const push = await post(app, 'push', env.tokens.mike);
    expect(push.json.result, push.text).toBe(true);
    const pushed = (await readUpstreamFile(env.upstream('app'), 'main', APP_DE_FILE))!.toString();
    expect(changedLines(original, pushed)).toEqual(['        <translation>Beenden</translation>']);
    expect(await gitCli(env.upstream('app'), ['log', '-1', '--format=%an <%ae>', 'main'])).toBe('Jane Doe <jane@example.org>');
    expect((await env.request('GET', `${app}repository/`, { token: env.tokens.mike })).json.needs_push).toBe(false);
    const actions = (await env.request('GET', `${app}changes/`)).json.results.slice(0, 2).map((c: { action: number }) => c.action);
    expect(actions).toEqual([18, 17]);
  });

  it("commits and pushes at once where push_on_commit is on (Weblate's default)", async () => {
    const web = '/api/translations/hello/web/de/';
    const quit = await unitOf(env, web, 'Quit');
    expect((await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Schließen'], state: 20 } })).status).toBe(200);
    const commit = await env.request('POST', '/api/components/hello/web/repository/', { token: env.tokens.mike, json: { operation: 'commit' } });
    expect(commit.json, commit.text).toMatchObject({ result: true });
    const upstream = JSON.parse((await readUpstreamFile(env.upstream('web'), 'main', 'locales/de.json'))!.toString());
    expect(upstream.menu.quit).toBe('Schließen');
    const status = (await env.request('GET', '/api/components/hello/web/repository/', { token: env.tokens.mike })).json;
    expect(status).toMatchObject({ needs_commit: false, needs_push: false });
    const actions = (await env.request('GET', '/api/components/hello/web/changes/')).json.results.slice(0, 2).map((c: { action: number }) => c.action);
    expect(actions).toEqual([18, 17]);
  });

  it('pulls upstream changes with a pending edit of another unit: rebased, nothing lost', async () => {
    const base = (await readUpstreamFile(env.upstream('app'), 'main', APP_DE_FILE))!.toString();
    await commitToUpstream(env.upstream('app'), { [APP_DE_FILE]: base.replace('Eine Datei öffnen', 'Datei öffnen …') });
    await edit('About %1', 'Über %1 (neu)');
    const pull = await post(app, 'pull', env.tokens.mike);
    expect(pull.json.result, pull.text).toBe(true);
    expect((await unitOf(env, DE, 'Open a file')).target).toEqual(['Datei öffnen …']);
    const push = await post(app, 'push', env.tokens.mike);
    expect(push.json.result, push.text).toBe(true);
    const text = (await readUpstreamFile(env.upstream('app'), 'main', APP_DE_FILE))!.toString();
    expect(text).toContain('Datei öffnen …');
    expect(text).toContain('Über %1 (neu)');
  });

  it('pulls with a pending edit of the same unit: the conflict is reported and the edit stays pending', async () => {
    const base = (await readUpstreamFile(env.upstream('app'), 'main', APP_DE_FILE))!.toString();
    await commitToUpstream(env.upstream('app'), { [APP_DE_FILE]: base.replace('<translation>Beenden</translation>', '<translation>Schließen</translation>') });
    const unit = await edit('Quit', 'Verlassen');
    const pull = await post(app, 'pull', env.tokens.mike);
    expect(pull.status).toBe(200);
    expect(pull.json.detail).toContain('[MainWindow]');
    const after = (await env.request('GET', `/api/units/${unit.id}/`)).json;
    expect(after).toMatchObject({ target: ['Verlassen'], pending: true });
  });

  it('pushes after upstream moved: brought in first, then pushed', async () => {
    await post(app, 'commit', env.tokens.mike);
    const base = (await readUpstreamFile(env.upstream('app'), 'main', APP_DE_FILE))!.toString();
    await commitToUpstream(env.upstream('app'), { [APP_DE_FILE]: base.replace('%n Datei ausgewählt', '%n Datei gewählt') });
    const push = await post(app, 'push', env.tokens.mike);
    expect(push.json.result, push.text).toBe(true);
    const text = (await readUpstreamFile(env.upstream('app'), 'main', APP_DE_FILE))!.toString();
    expect(text).toContain('%n Datei gewählt');
    expect(text).toContain('Verlassen');
    const project = await env.request('GET', '/api/projects/hello/repository/', { token: env.tokens.mike });
    expect(project.json).toEqual({ needs_commit: false, needs_merge: false, needs_push: false, url: `${env.origin}/api/projects/hello/repository/` });
  });

  it('runs an operation on every component of a project and on a translation', async () => {
    const project = await post('/api/projects/hello/', 'file-scan', env.tokens.mike);
    expect(project.json, project.text).toMatchObject({ result: true });
    const cleanup = await post(DE, 'cleanup', env.tokens.admin);
    expect(cleanup.json.result).toBe(true);
  });

  it('locks: 14/15 recorded, edits refused while locked, only for managers', async () => {
    const lock = `${app}lock/`;
    expect((await env.request('GET', lock)).json).toEqual({ locked: false });
    expect((await env.request('POST', lock, { token: env.tokens.jane, json: { lock: true } })).status).toBe(403);
    expect((await env.request('POST', lock, { token: env.tokens.mike, json: {} })).json.errors[0]).toMatchObject({ attr: 'lock', code: 'required' });
    const locked = await env.request('POST', lock, { token: env.tokens.mike, json: { lock: true } });
    expect(locked.json).toEqual({ locked: true });
    expect((await env.request('GET', lock)).json).toEqual({ locked: true });
    const quit = await unitOf(env, DE, 'Quit');
    const refused = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Ende'], state: 20 } });
    expect(refused.status).toBe(403);
    expect(refused.json.errors[0].detail).toBe('The component is locked.');
    const unlocked = await env.request('POST', lock, {
      token: env.tokens.mike,
      body: new URLSearchParams({ lock: 'false' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(unlocked.json).toEqual({ locked: false });
    const actions = (await env.request('GET', `${app}changes/`)).json.results.slice(0, 2).map((c: { action: number }) => c.action);
    expect(actions).toEqual([15, 14]);
  });
});

describe('files: download, upload, add language', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
  });
  afterAll(() => env.close());

  it('downloads the file with pending edits applied, without committing; Last-Modified and 304', async () => {
    const head = await gitCli(`${env.root}/repos/hello/app`, ['rev-parse', 'HEAD']);
    const quit = await unitOf(env, DE, 'Quit');
    await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Beenden'], state: 20 } });
    const r = await env.request('GET', `${DE}file/`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('<translation>Beenden</translation>');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename=hello-app-de.ts');
    expect(await gitCli(`${env.root}/repos/hello/app`, ['rev-parse', 'HEAD'])).toBe(head);
    expect((await env.request('GET', '/api/components/hello/app/repository/', { token: env.tokens.admin })).json.needs_commit).toBe(true);
    const modified = r.headers.get('last-modified')!;
    expect(Date.parse(modified)).toBeGreaterThan(0);
    expect((await env.request('GET', `${DE}file/`, { headers: { 'If-Modified-Since': modified } })).status).toBe(304);
    expect((await env.request('GET', `${DE}file/?format=xlsx`)).status).toBe(400);
  });

  it('downloads ZIPs of a component and a project', async () => {
    const component = await env.request('GET', '/api/components/hello/app/file/');
    expect(component.status).toBe(200);
    expect(component.headers.get('content-type')).toBe('application/zip');
    expect(component.headers.get('content-disposition')).toBe('attachment; filename="hello-app.zip"');
    expect(component.bytes.subarray(0, 2).toString()).toBe('PK');
    expect(component.bytes.includes(Buffer.from('translations/app_de.ts'))).toBe(true);
    const project = await env.request('GET', '/api/projects/hello/file/');
    expect(project.bytes.includes(Buffer.from('web/locales/de.json'))).toBe(true);
    expect(project.bytes.includes(Buffer.from('app/translations/app_cs.ts'))).toBe(true);
  });

  it('uploads a file: six counters; conflicts; a broken file is a 400 on file; JSON is a 415', async () => {
    const file = (await env.request('GET', '/api/translations/hello/web/de/file/')).json;
    file.menu.quit = 'Beenden';
    file.menu.open = 'Aufmachen';
    const form = (fields: Record<string, string>, bytes: string) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append('file', new Blob([bytes]), 'de.json');
      return f;
    };
    const url = '/api/translations/hello/web/de/file/';
    const r = await env.request('POST', url, { token: env.tokens.jane, body: form({}, JSON.stringify(file)) });
    expect(r.status, r.text).toBe(200);
    // 6 strings (the template's), 5 translated: quit is new (accepted), open differs but is translated already (skipped).
    expect(r.json).toEqual({ not_found: 0, skipped: 4, accepted: 1, total: 6, result: true, count: 6 });
    const replace = await env.request('POST', url, { token: env.tokens.jane, body: form({ conflicts: 'replace-translated' }, JSON.stringify(file)) });
    expect(replace.json).toMatchObject({ accepted: 1, result: true });
    expect((await unitOf(env, '/api/translations/hello/web/de/', 'Open')).target).toEqual(['Aufmachen']);
    const broken = await env.request('POST', url, { token: env.tokens.jane, body: form({}, '{"menu": ') });
    expect(broken.status).toBe(400);
    expect(broken.json.errors[0].attr).toBe('file');
    // suggest: the two strings whose uploaded text differs from the translation become suggestions (4 each)
    const suggest = await env.request('POST', url, { token: env.tokens.jane, body: form({ method: 'suggest' }, JSON.stringify(file)) });
    expect(suggest.status, suggest.text).toBe(200);
    expect(suggest.json.accepted + suggest.json.skipped + suggest.json.not_found).toBeLessThanOrEqual(suggest.json.total);
    const again = await env.request('POST', url, { token: env.tokens.jane, body: form({ method: 'suggest' }, JSON.stringify(file)) });
    expect(again.json).toMatchObject({ accepted: 0, result: false });
    expect((await env.request('POST', url, { token: env.tokens.jane, json: {} })).status).toBe(415);
    expect((await env.request('POST', url, { body: form({}, '{}') })).status).toBe(401);
  });

  it('adds a language from new_base (48), committed', async () => {
    const missing = await env.request('POST', '/api/components/hello/web/translations/', { token: env.tokens.jane, json: {} });
    expect(missing.json.errors[0]).toMatchObject({ attr: 'languge_code', detail: "Missing 'language_code' parameter" });
    const unknown = await env.request('POST', '/api/components/hello/web/translations/', { token: env.tokens.jane, json: { language_code: 'xx_nope' } });
    expect(unknown.status).toBe(400);
    const r = await env.request('POST', '/api/components/hello/web/translations/', { token: env.tokens.jane, json: { language_code: 'fr' } });
    expect(r.status, r.text).toBe(201);
    expect(r.json.data).toMatchObject({ language_code: 'fr', filename: 'locales/fr.json', total: 6, translated: 0 });
    expect(r.headers.get('location')).toBe(`${env.origin}/api/translations/hello/web/fr/`);
    expect((await env.request('GET', '/api/translations/hello/web/fr/')).status).toBe(200);
    const log = await gitCli(`${env.root}/repos/hello/web`, ['log', '-1', '--name-only', '--format=%an']);
    expect(log).toContain('locales/fr.json');
    expect((await env.request('GET', '/api/components/hello/web/changes/?action=48')).json.count).toBe(1);
  });
});

describe('text no file can hold', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
  });
  afterAll(() => env.close());

  it('is refused at the API with a 400 naming the field, and nothing is stored or left pending', async () => {
    const units = await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane });
    const quit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Quit');
    for (const [target, shown] of [
      ['x\ud800y', 'U+D800'],
      ['a\u0000b', "'\\x00'"],
      ['esc\u001b[0m', "'\\x1b'"],
    ] as const) {
      const r = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: [target], state: 20 } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        type: 'validation_error',
        errors: [{ code: 'invalid', detail: `String contains control character or unpaired surrogate: ${shown}`, attr: 'target' }],
      });
    }
    const after = await env.request('GET', `/api/units/${quit.id}/`, { token: env.tokens.jane });
    expect(after.json).toMatchObject({ target: quit.target, pending: false });
    const status = await env.request('GET', '/api/components/hello/app/repository/', { token: env.tokens.mike });
    expect(status.json.needs_commit).toBe(false);
  });

  it('takes tabs and line ends, and the commit says how many edits it wrote', async () => {
    const units = await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane });
    const quit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Quit');
    expect((await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Be\tenden\r\n!'], state: 20 } })).status).toBe(
      200,
    );
    const commit = await env.request('POST', '/api/components/hello/app/repository/', { token: env.tokens.mike, json: { operation: 'commit' } });
    expect(commit.json).toEqual({ result: true, detail: 'Committed 1 pending edit(s) in 1 file(s) (1 commit(s)).' });
  });
});
