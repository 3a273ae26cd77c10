// Sign-in over HTTP (no browser needed): CLI passwords from standard input, session cookie flags, CSRF, lockout.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/auth/password.js';
import { findCredentials } from '../../src/store/sessions.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { repoRoot } from '../helpers/corpus.js';

const ENTRY = path.join(repoRoot, 'test', 'watch', 'cli-entry.ts');

/** Runs the real CLI in a child process with `input` as its standard input (not a terminal). */
function tms(env: WriteEnv, args: string[], input: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', ENTRY, '--config', path.join(env.root, 'tms.config.json'), ...args], {
    cwd: repoRoot,
    input,
    encoding: 'utf8',
  });
}

/** The CSRF cookie a visitor gets with the sign-in form. */
async function csrfCookie(env: WriteEnv): Promise<string> {
  const form = await env.request('GET', '/accounts/login/');
  return /tms_csrf=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1]!;
}

async function signIn(env: WriteEnv, username: string, password: string, csrf?: string) {
  const token = csrf ?? (await csrfCookie(env));
  return env.request('POST', '/accounts/login/', {
    headers: { Cookie: `tms_csrf=${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfmiddlewaretoken: token, username, password, next: '/projects/hello/' }).toString(),
  });
}

describe('web sign-in', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('sets passwords from standard input (user add --password-stdin, user password), hashed, never printed', async () => {
    const add = tms(env, ['user', 'add', 'rita', '--email', 'rita@example.org', '--password-stdin'], 'rita-secret-1\nignored line\n');
    expect(add.status).toBe(0);
    expect(add.stdout + add.stderr).not.toContain('rita-secret-1');
    const stored = await env.store.read((tx) => findCredentials(tx, 'rita'));
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('rita-secret-1', stored!.passwordHash!)).toBe(true);
    expect((await signIn(env, 'rita', 'rita-secret-1')).status).toBe(303);
    const change = tms(env, ['user', 'password', 'rita'], 'rita-secret-2\n');
    expect(change.status).toBe(0);
    expect((await signIn(env, 'rita', 'rita-secret-1')).status).toBe(400);
    expect((await signIn(env, 'rita', 'rita-secret-2')).status).toBe(303);
    const short = tms(env, ['user', 'password', 'rita'], 'short\n');
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('at least 8 characters');
    expect(tms(env, ['user', 'password', 'nobody'], 'long-enough-1\n').status).toBe(1);
  }, 60_000);

  it('answers a session cookie (HttpOnly, SameSite=Lax) that the API accepts; API writes need the CSRF header', async () => {
    tms(env, ['user', 'password', 'jane'], 'jane-secret-1\n');
    const r = await signIn(env, 'jane', 'jane-secret-1');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/projects/hello/');
    const cookies = r.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('tms_session='))!;
    expect(session).toContain('HttpOnly');
    expect(session).toContain('SameSite=Lax');
    expect(session).not.toContain('Secure');
    const csrf = /tms_csrf=([^;]+)/.exec(cookies.join('\n'))![1]!;
    const cookie = `${session.split(';')[0]}; tms_csrf=${csrf}`;
    const me = await env.request('GET', '/api/users/jane/', { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    const unit = (await env.request('GET', '/api/translations/hello/app/de/units/', { headers: { Cookie: cookie } })).json.results[0];
    const body = JSON.stringify({ target: ['Datei'], state: 20 });
    const without = await env.request('PATCH', `/api/units/${unit.id}/`, { headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body });
    expect(without.status).toBe(403);
    const withHeader = await env.request('PATCH', `/api/units/${unit.id}/`, {
      headers: { Cookie: cookie, 'Content-Type': 'application/json', 'X-CSRFToken': csrf },
      body,
    });
    expect(withHeader.status).toBe(200);
    const profile = await env.request('GET', '/accounts/profile/', { headers: { Cookie: cookie } });
    expect(profile.status).toBe(200);
    expect(profile.text).toContain('Regenerate API token');
    const out = await env.request('POST', '/accounts/logout/', {
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `csrfmiddlewaretoken=${csrf}`,
    });
    expect(out.status).toBe(303);
    expect((await env.request('GET', '/accounts/profile/', { headers: { Cookie: cookie } })).status).toBe(302);
  }, 60_000);

  it('refuses a sign-in without its CSRF token (403) and locks out after repeated failures (429)', async () => {
    const noToken = await env.request('POST', '/accounts/login/', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'username=jane&password=jane-secret-1',
    });
    expect(noToken.status).toBe(403);
    expect(noToken.headers.get('content-type')).toContain('text/html');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(env, 'mike', `wrong-${i}-password`)).status);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses[5]).toBe(429);
    // Locked out: even the right password waits.
    tms(env, ['user', 'password', 'mike'], 'mike-secret-1\n');
    expect((await signIn(env, 'mike', 'mike-secret-1')).status).toBe(429);
  }, 60_000);

  it('answers bad input to pages with HTML 4xx, never 500', async () => {
    for (const url of [
      '/translate/hello/app/de/?q=%28',
      '/translate/hello/app/de/?checksum=zz',
      '/projects/nope/',
      '/languages/xx-nope/',
      '/changes/?project=nope',
    ]) {
      const r = await env.request('GET', url);
      expect([400, 404], url).toContain(r.status);
      expect(r.headers.get('content-type'), url).toContain('text/html');
    }
  });

  it('shows a search nested 7,000 deep in the editor as other bad searches (400 naming the limit), not a 500', async () => {
    const r = await env.request('GET', `/translate/hello/app/de/?q=${encodeURIComponent(`${'('.repeat(7000)}a${')'.repeat(7000)}`)}`);
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.text).toMatch(/<p class="error-detail">Could not parse the search: [^<]*nested more than 100 levels deep/);
    // a long flat search is no error
    const flat = await env.request('GET', `/translate/hello/app/de/?q=${encodeURIComponent(Array(1200).fill('Quit').join(' OR '))}`);
    expect(flat.status).toBe(200);
  });
});

describe('web sign-in on an https site', () => {
  it('marks the session cookie Secure', async () => {
    const env = await createWriteEnv({ site_url: 'https://tms.example.org' });
    try {
      const result = spawnSync(process.execPath, ['--import', 'tsx', ENTRY, '--config', path.join(env.root, 'tms.config.json'), 'user', 'password', 'jane'], {
        cwd: repoRoot,
        input: 'jane-secret-1\n',
        encoding: 'utf8',
      });
      expect(result.status).toBe(0);
      const r = await signIn(env, 'jane', 'jane-secret-1');
      expect(r.headers.getSetCookie().find((c) => c.startsWith('tms_session='))).toContain('Secure');
    } finally {
      await env.close();
    }
  }, 120_000);
});
