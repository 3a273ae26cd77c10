// Hostile use of sign-in through the real server and CLI: where `next` may send a browser, sessions after a credential
// change, lockouts a stranger could cause, and session writes sent from another site.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentFromSite } from '../../src/api/session.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { repoRoot } from '../helpers/corpus.js';

const ENTRY = path.join(repoRoot, 'test', 'watch', 'cli-entry.ts');

/** Runs the real CLI in a child process with `input` as its standard input. */
function tms(env: WriteEnv, args: string[], input = '') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', ENTRY, '--config', path.join(env.root, 'tms.config.json'), ...args], {
    cwd: repoRoot,
    input,
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request from a chosen loopback address (the server sees it as the client's), redirects not followed. */
function requestFrom(env: WriteEnv, from: string, method: string, target: string, headers: Record<string, string> = {}, body = ''): Promise<Answer> {
  const url = new URL(env.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, localAddress: from, method, path: target, headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A browser's cookie jar for one session: the cookie header to send and the CSRF token its writes carry. */
interface Browser {
  cookie: string;
  csrf: string;
}

async function visitor(env: WriteEnv, from = '127.0.0.1'): Promise<Browser> {
  const form = await requestFrom(env, from, 'GET', '/accounts/login/');
  const csrf = /tms_csrf=([^;]+)/.exec(String(form.headers['set-cookie']))![1]!;
  return { cookie: `tms_csrf=${csrf}`, csrf };
}

async function postSignIn(env: WriteEnv, browser: Browser, fields: Record<string, string>, from = '127.0.0.1'): Promise<Answer> {
  const body = new URLSearchParams({ csrfmiddlewaretoken: browser.csrf, ...fields }).toString();
  return requestFrom(env, from, 'POST', '/accounts/login/', { Cookie: browser.cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body);
}

/** Signs in (from `browser`'s cookies, when given) and returns the signed-in browser. */
async function signIn(env: WriteEnv, username: string, password: string, browser?: Browser): Promise<Browser> {
  const before = browser ?? (await visitor(env));
  const r = await postSignIn(env, before, { username, password, next: '/' });
  expect(r.status).toBe(303);
  const set = (r.headers['set-cookie'] ?? []).join('\n');
  const session = /tms_session=([^;]+)/.exec(set)![1]!;
  const csrf = /tms_csrf=([^;]+)/.exec(set)![1]!;
  return { cookie: `tms_session=${session}; tms_csrf=${csrf}`, csrf };
}

/** Whether a Location stays on the site as a browser reads it: its resolution keeps the origin. */
function staysOnSite(location: string | undefined, origin: string): boolean {
  if (location === undefined) return false;
  return new URL(location, origin).origin === origin && !location.startsWith('//') && !/[\x00-\x20\\]/.test(location);
}

describe('hostile sign-in traffic', () => {
  let env: WriteEnv;
  let unitId: number;
  const unitTarget = async () => (await env.request('GET', `/api/units/${unitId}/`, { token: env.tokens.admin })).json.target[0];
  /** An API edit of the test unit with the browser's session cookie and CSRF header. */
  const edit = (browser: Browser, target: string, headers: Record<string, string> = {}) =>
    requestFrom(
      env,
      '127.0.0.1',
      'PATCH',
      `/api/units/${unitId}/`,
      { Cookie: browser.cookie, 'X-CSRFToken': browser.csrf, 'Content-Type': 'application/json', ...headers },
      JSON.stringify({ target: [target], state: 20 }),
    );
  const profile = (browser: Browser) => requestFrom(env, '127.0.0.1', 'GET', '/accounts/profile/', { Cookie: browser.cookie });

  beforeAll(async () => {
    env = await createWriteEnv();
    unitId = (await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.admin })).json.results[0].id;
    for (const name of ['jane', 'rose', 'admin']) {
      if (name === 'rose') tms(env, ['user', 'add', 'rose', '--email', 'rose@example.org', '--password-stdin'], 'rose-secret-1\n');
      else tms(env, ['user', 'password', name], `${name}-secret-1\n`);
    }
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  describe('next after signing in', () => {
    const HOSTILE = [
      '/\t/evil.example/',
      '/\t\t/evil.example',
      '//evil.example/',
      '///evil.example/',
      '/\\evil.example/',
      '/\\/evil.example/',
      '\\\\evil.example/',
      '\\/evil.example',
      '\t//evil.example',
      ' //evil.example',
      '/\n/evil.example',
      '/\r/evil.example',
      '/\r\n/evil.example',
      '/x\r\nSet-Cookie: stolen=1',
      '/\0/evil.example',
      '\0//evil.example',
      '/a/..//evil.example',
      '/.//evil.example',
      '/./\\evil.example',
      'https:evil.example',
      'https://evil.example/',
      'HTTP://evil.example/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://evil.example@127.0.0.1/',
      '/%09/evil.example',
      '%2F%2Fevil.example',
    ];

    it('sends a signed-in browser only to pages of this site, whatever next says (never a 500)', async () => {
      const browser = await signIn(env, 'jane', 'jane-secret-1');
      const exact = await requestFrom(env, '127.0.0.1', 'GET', '/accounts/login/?next=%2F%09%2Fevil.example%2F', { Cookie: browser.cookie });
      expect(exact.status).toBe(302);
      expect(exact.headers.location).toBe('/');
      for (const next of [...HOSTILE, `//127.0.0.1:${new URL(env.origin).port}@evil.example/`]) {
        const r = await requestFrom(env, '127.0.0.1', 'GET', `/accounts/login/?next=${encodeURIComponent(next)}`, { Cookie: browser.cookie });
        expect(r.status, JSON.stringify(next)).toBe(302);
        expect(staysOnSite(r.headers.location, env.origin), `${JSON.stringify(next)} → ${JSON.stringify(r.headers.location)}`).toBe(true);
      }
    }, 60_000);

    it("keeps the sign-in form's next on this site and redirects there after the password", async () => {
      for (const next of HOSTILE) {
        const form = await requestFrom(env, '127.0.0.1', 'GET', `/accounts/login/?next=${encodeURIComponent(next)}`);
        expect(form.status, JSON.stringify(next)).toBe(200);
        const field = /name="next" value="([^"]*)"/.exec(form.text)![1]!.replace(/&amp;/g, '&');
        expect(staysOnSite(field, env.origin), `${JSON.stringify(next)} → ${field}`).toBe(true);
        const r = await postSignIn(env, await visitor(env), { username: 'jane', password: 'jane-secret-1', next });
        expect(r.status, JSON.stringify(next)).toBe(303);
        expect(staysOnSite(r.headers.location, env.origin), `${JSON.stringify(next)} → ${JSON.stringify(r.headers.location)}`).toBe(true);
      }
    }, 120_000);

    it('keeps a local next: path, query and fragment, encoded for the Location header', async () => {
      const browser = await signIn(env, 'jane', 'jane-secret-1');
      const cases: [string, string][] = [
        ['/projects/hello/?q=a b#top', '/projects/hello/?q=a%20b#top'],
        ['/translate/hello/app/de/?checksum=abc', '/translate/hello/app/de/?checksum=abc'],
        ['projects/hello/', '/projects/hello/'],
        ['/projects/héllo/', '/projects/h%C3%A9llo/'],
        [`${env.origin}/languages/`, '/languages/'],
      ];
      for (const [next, location] of cases) {
        const r = await requestFrom(env, '127.0.0.1', 'GET', `/accounts/login/?next=${encodeURIComponent(next)}`, { Cookie: browser.cookie });
        expect(r.headers.location, next).toBe(location);
      }
    }, 60_000);
  });

  describe('sessions after credential changes', () => {
    it('a password change (tms user password) ends every session of the user, for pages and API writes', async () => {
      const first = await signIn(env, 'rose', 'rose-secret-1');
      const second = await signIn(env, 'rose', 'rose-secret-1');
      expect((await profile(first)).status).toBe(200);
      expect((await edit(second, 'Datei (rose)')).status).toBe(200);
      tms(env, ['user', 'password', 'rose'], 'rose-secret-2\n');
      for (const browser of [first, second]) {
        const page = await profile(browser);
        expect(page.status).toBe(302);
        expect(page.headers.location).toMatch(/^\/accounts\/login\//);
        expect((await edit(browser, 'Datei (old session)')).status).toBe(401);
      }
      expect(await unitTarget()).toBe('Datei (rose)');
      const fresh = await signIn(env, 'rose', 'rose-secret-2');
      expect((await profile(fresh)).status).toBe(200);
    }, 60_000);

    it('disabling a user ends their sessions; enabling them again does not bring the sessions back', async () => {
      const browser = await signIn(env, 'rose', 'rose-secret-2');
      expect((await profile(browser)).status).toBe(200);
      tms(env, ['user', 'disable', 'rose']);
      expect((await profile(browser)).status).toBe(302);
      tms(env, ['user', 'enable', 'rose']);
      expect((await profile(browser)).status).toBe(302);
      expect((await edit(browser, 'Datei (revived)')).status).toBe(401);
      expect(await unitTarget()).not.toBe('Datei (revived)');
      expect((await profile(await signIn(env, 'rose', 'rose-secret-2'))).status).toBe(200);
    }, 60_000);

    it('signing in from a signed-in browser replaces its session', async () => {
      const old = await signIn(env, 'jane', 'jane-secret-1');
      expect((await profile(old)).status).toBe(200);
      const renewed = await signIn(env, 'rose', 'rose-secret-2', old);
      expect(renewed.cookie).not.toBe(old.cookie);
      expect((await profile(old)).status).toBe(302);
      expect((await edit(old, 'Datei (stale cookie)')).status).toBe(401);
      const page = await profile(renewed);
      expect(page.status).toBe(200);
      expect(page.text).toContain('rose');
    }, 60_000);
  });

  describe('lockouts and cross-site writes', () => {
    it('five wrong passwords for admin from one address hold back that address only: admin signs in from another', async () => {
      const attacker = await visitor(env, '127.0.0.2');
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await postSignIn(env, attacker, { username: 'admin', password: `guess-${i}-wrong` }, '127.0.0.2')).status);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      // the attacking address waits even with the right password
      expect((await postSignIn(env, attacker, { username: 'admin', password: 'admin-secret-1' }, '127.0.0.2')).status).toBe(429);
      // from a clean address: a wrong password is an ordinary failure, the right one signs in
      expect((await postSignIn(env, await visitor(env, '127.0.0.3'), { username: 'admin', password: 'not-it-at-all' }, '127.0.0.3')).status).toBe(400);
      const owner = await postSignIn(env, await visitor(env), { username: 'admin', password: 'admin-secret-1', next: '/' });
      expect(owner.status).toBe(303);
      expect(String(owner.headers['set-cookie'])).toContain('tms_session=');
    }, 60_000);

    it('refuses session writes sent from another site (Origin, else Referer): a 403 JSON from the API, a 403 page for forms', async () => {
      const browser = await signIn(env, 'jane', 'jane-secret-1');
      const before = await unitTarget();
      const forgeries: Record<string, string>[] = [{ Origin: 'http://evil.example' }, { Origin: 'null' }, { Referer: 'http://evil.example/page' }];
      for (const headers of forgeries) {
        const r = await edit(browser, 'Datei (forged)', headers);
        expect(r.status, JSON.stringify(headers)).toBe(403);
        expect(r.headers['content-type']).toContain('application/json');
        expect(JSON.parse(r.text).errors[0].code).toBe('permission_denied');
      }
      expect(await unitTarget()).toBe(before);
      expect((await edit(browser, 'Datei (own origin)', { Origin: env.origin })).status).toBe(200);
      expect((await edit(browser, 'Datei (own referer)', { Referer: `${env.origin}/translate/hello/app/de/` })).status).toBe(200);
      // a token is no browser: its writes are not origin-checked
      const byToken = await requestFrom(
        env,
        '127.0.0.1',
        'PATCH',
        `/api/units/${unitId}/`,
        { Authorization: `Token ${env.tokens.jane}`, Origin: 'http://evil.example', 'Content-Type': 'application/json' },
        JSON.stringify({ target: ['Datei (token)'], state: 20 }),
      );
      expect(byToken.status).toBe(200);

      const signOut = (headers: Record<string, string>) =>
        requestFrom(
          env,
          '127.0.0.1',
          'POST',
          '/accounts/logout/',
          { Cookie: browser.cookie, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
          `csrfmiddlewaretoken=${browser.csrf}`,
        );
      const forged = await signOut({ Origin: 'http://evil.example' });
      expect(forged.status).toBe(403);
      expect(forged.headers['content-type']).toContain('text/html');
      expect((await profile(browser)).status).toBe(200);
      expect((await signOut({ Origin: env.origin })).status).toBe(303);
      expect((await profile(browser)).status).toBe(302);
    }, 60_000);
  });
});

describe('sentFromSite', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as http.IncomingMessage;
  it("accepts site_url's origin or the host the request was sent to, and a request that names none", () => {
    const own = 'http://127.0.0.1:8000';
    expect(sentFromSite(req({}), '', own)).toBe(true);
    expect(sentFromSite(req({ origin: 'http://127.0.0.1:8000' }), '', own)).toBe(true);
    // behind a TLS proxy the browser's scheme differs from the socket's; the host does not
    expect(sentFromSite(req({ origin: 'https://127.0.0.1:8000' }), '', own)).toBe(true);
    expect(sentFromSite(req({ origin: 'https://tms.example.org' }), 'https://tms.example.org/', own)).toBe(true);
    expect(sentFromSite(req({ origin: 'http://tms.example.org' }), 'https://tms.example.org/', 'http://tms.example.org')).toBe(true);
    expect(sentFromSite(req({ origin: 'https://evil.example' }), 'https://tms.example.org/', own)).toBe(false);
    expect(sentFromSite(req({ origin: 'https://tms.example.org.evil.example' }), 'https://tms.example.org/', own)).toBe(false);
    expect(sentFromSite(req({ referer: 'https://tms.example.org/projects/' }), 'https://tms.example.org', own)).toBe(true);
    expect(sentFromSite(req({ referer: 'https://evil.example/https://tms.example.org/' }), 'https://tms.example.org', own)).toBe(false);
    expect(sentFromSite(req({ origin: 'null' }), '', own)).toBe(false);
    expect(sentFromSite(req({ origin: 'not a url' }), '', own)).toBe(false);
    // Origin wins over Referer
    expect(sentFromSite(req({ origin: 'https://evil.example', referer: `${own}/` }), '', own)).toBe(false);
  });
});
