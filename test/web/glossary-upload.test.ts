// The editor's glossary pane (terms of the project's glossary components found in the source), and uploading a
// translation file from the translation page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import type { Store } from '../../src/store/index.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { type HttpRequest, httpRequest } from '../helpers/http.js';
import { sqlOn } from '../helpers/store.js';
import { CREDENTIALS, DEMO, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

describe('glossary pane and file upload in the web interface', () => {
  let env: SyncEnv;
  let store: Store;
  let server: RunningServer;
  let session: { cookie: string; csrf: string };
  const request = (method: string, url: string, opts: Omit<HttpRequest, 'method'> = {}) => httpRequest(server.url, url, { ...opts, method });

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
    await env.addUpstream('glossary', { fixture: path.join(DEMO, 'glossary') });
    const component = (slug: string, extra: Record<string, unknown>) => env.component(slug, { push_on_commit: false, ...extra });
    const config = env.config([
      {
        name: 'Hello',
        slug: 'hello',
        components: [
          component('app', { filemask: 'translations/app_*.ts', file_format: 'ts' }),
          component('glossary', { filemask: '*.tbx', file_format: 'tbx', is_glossary: true }),
        ],
      },
    ]);
    store = await env.openStore();
    for (const r of await syncProject(store, config, 'hello')) if (!r.ok) throw new Error(`${r.component}: ${r.error}`);
    await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
    const janeHash = await hashPassword('jane-password-1');
    await store.write((tx) => setPasswordHash(tx, 'jane', janeHash));
    const mike = await store.write((tx) => createUser(tx, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' }));
    await store.write((tx) => joinTeams(tx, mike.user.id, ['Managers']));
    const mikeHash = await hashPassword('mike-password-1');
    await store.write((tx) => setPasswordHash(tx, 'mike', mikeHash));
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: () => {} });
    session = await signIn('jane', 'jane-password-1');
  }, 120_000);

  async function signIn(username: string, password: string): Promise<{ cookie: string; csrf: string }> {
    const form = await request('GET', '/accounts/login/');
    const token = /tms_csrf=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1]!;
    const signed = await request('POST', '/accounts/login/', {
      headers: { Cookie: `tms_csrf=${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfmiddlewaretoken: token, username, password, next: '/' }).toString(),
    });
    const cookies = signed.headers.getSetCookie();
    const csrf = /tms_csrf=([^;]+)/.exec(cookies.join('\n'))![1]!;
    return { cookie: `${cookies.find((c) => c.startsWith('tms_session='))!.split(';')[0]}; tms_csrf=${csrf}`, csrf };
  }
  afterAll(async () => {
    await server?.close();
    await env?.close();
  });

  it('shows the glossary terms that occur in the source beside the string, in the translation’s language', async () => {
    // the API answers what the upload stored at once (its response cache does not outlive a write made by a page)
    const units = (await request('GET', '/api/translations/hello/app/de/units/')).json.results as { source: string[]; web_url: string }[];
    const open = units.find((u) => u.source[0] === 'Open a file')!;
    const page = await request('GET', new URL(open.web_url).pathname + new URL(open.web_url).search);
    expect(page.status).toBe(200);
    const pane = /<section aria-labelledby="glossary-h">[\s\S]*?<\/section>/.exec(page.text)?.[0] ?? '';
    expect(pane).toMatch(/<dt>file<\/dt><dd[^>]*>Datei<\/dd>/);
    expect(pane).not.toContain('Ordner');
    // a string with no glossary term says so
    const quit = units.find((u) => u.source[0] === 'Quit')!;
    const other = await request('GET', new URL(quit.web_url).pathname + new URL(quit.web_url).search);
    expect(other.text).toContain('No glossary terms in this string.');
  });

  it('uploads a translation file from the translation page and shows what changed', async () => {
    const file = readFileSync(path.join(DEMO, 'app', 'translations', 'app_de.ts'), 'utf8').replace(
      /(<source>Quit<\/source>\s*<translation)[^>]*>[^<]*</,
      '$1>Programm beenden<',
    );
    expect(file).toContain('Programm beenden');
    const upload = (fields: Record<string, string>) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.set(k, v);
      body.set('file', new Blob([file], { type: 'application/xml' }), 'app_de.ts');
      return request('POST', '/upload/hello/app/de/', { headers: { Cookie: session.cookie }, body });
    };
    expect((await upload({ method: 'translate' })).status).toBe(403);
    const page = await upload({ csrfmiddlewaretoken: session.csrf, method: 'translate' });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/The file was processed: 1 of \d+ strings updated/);
    const units = (await request('GET', '/api/translations/hello/app/de/units/')).json.results as { source: string[]; target: string[]; pending: boolean }[];
    expect(units.find((u) => u.source[0] === 'Quit')).toMatchObject({ target: ['Programm beenden'], pending: true });
    // anonymous visitors (with a valid form token) are sent to sign in; nothing is stored
    const form = await request('GET', '/accounts/login/');
    const token = /tms_csrf=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1]!;
    const body = new FormData();
    body.set('csrfmiddlewaretoken', token);
    body.set('method', 'translate');
    body.set('file', new Blob([file.replace('Programm beenden', 'Anonym')]), 'app_de.ts');
    const anonymous = await request('POST', '/upload/hello/app/de/', { headers: { Cookie: `tms_csrf=${token}` }, body });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toContain('/accounts/login/');
    expect(await sqlOn(store).value("SELECT count(*) FROM units WHERE target = 'Anonym'")).toBe(0);
  });

  it('shows on the repository page how many commits are pending, to push and to pull', async () => {
    const mike = await signIn('mike', 'mike-password-1');
    const facts = async () => {
      const page = await request('GET', '/repository/hello/app/', { headers: { Cookie: mike.cookie } });
      expect(page.status).toBe(200);
      return {
        pending: /data-pending="(\d+)"/.exec(page.text)?.[1],
        ahead: /data-ahead="(\d+)"[^>]*>([^<]*)/.exec(page.text)?.slice(1),
        behind: /data-behind="(\d+)"/.exec(page.text)?.[1],
      };
    };
    // the upload above left one string pending
    expect(await facts()).toEqual({ pending: '1', ahead: ['0', 'no'], behind: '0' });
    const committed = await request('POST', '/repository/hello/app/', {
      headers: { Cookie: mike.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfmiddlewaretoken: mike.csrf, operation: 'commit' }).toString(),
    });
    expect(committed.status).toBeLessThan(400);
    expect(await facts()).toEqual({ pending: '0', ahead: ['1', '1 commit to push'], behind: '0' });
  });

  it('lets an upload change translated strings when the form says so, and says why strings were skipped', async () => {
    const translationPage = await request('GET', '/projects/hello/app/de/', { headers: { Cookie: session.cookie } });
    const choice = /<select id="conflicts" name="conflicts">([\s\S]*?)<\/select>/.exec(translationPage.text)?.[1] ?? '';
    // Weblate's three choices; the third needs reviews, which this project does not have
    expect([...choice.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1])).toEqual(['ignore', 'replace-translated']);
    // "&File" is translated ("&Datei"); "Quit" as the upload above left it
    const file = readFileSync(path.join(DEMO, 'app', 'translations', 'app_de.ts'), 'utf8')
      .replace(/(<source>Quit<\/source>\s*<translation)[^>]*>[^<]*</, '$1>Programm beenden<')
      .replace('<translation>&amp;Datei</translation>', '<translation>&amp;Datei (neu)</translation>');
    const upload = (conflicts: string) => {
      const body = new FormData();
      body.set('csrfmiddlewaretoken', session.csrf);
      body.set('method', 'translate');
      body.set('conflicts', conflicts);
      body.set('file', new Blob([file], { type: 'application/xml' }), 'app_de.ts');
      return request('POST', '/upload/hello/app/de/', { headers: { Cookie: session.cookie }, body });
    };
    const target = async () =>
      ((await request('GET', '/api/translations/hello/app/de/units/')).json.results as { source: string[]; target: string[] }[]).find(
        (u) => u.source[0] === '&File',
      )!.target;
    const kept = await upload('ignore');
    expect(kept.text).toMatch(
      /The file was processed: 0 of \d+ strings updated, \d+ skipped \(unchanged, read-only or already translated: “Existing strings” lets/,
    );
    expect(await target()).toEqual(['&Datei']);
    const changed = await upload('replace-translated');
    expect(changed.text).toMatch(/The file was processed: 1 of \d+ strings updated/);
    expect(await target()).toEqual(['&Datei (neu)']);
  });
});
