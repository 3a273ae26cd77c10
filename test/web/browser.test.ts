// The web interface end to end in a real browser (Debian's chromium): sign-in, dashboard figures, the editor from the
// API's translate_url with the keyboard only, the repository page for managers and translators, CSRF, anonymous
// visitors, right-to-left languages, accessibility, and every web URL the API emits.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { SCREENSHOTS, axeViolations, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

// Callbacks given to page.evaluate run in the browser; this program is typed without the DOM library.
// biome-ignore lint/suspicious/noExplicitAny: browser globals
declare const document: any, window: any, getComputedStyle: any;

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: web browser tests: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');

const PASSWORDS = { jane: 'jane-password-1', mike: 'mike-password-1', admin: 'admin-password-1' };

describe.skipIf(!chromiumPath)('web interface in a real browser', () => {
  let env: WriteEnv;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await ensureAssets();
    env = await createWriteEnv();
    for (const [name, password] of Object.entries(PASSWORDS)) {
      const hash = await hashPassword(password);
      await env.store.write((tx) => setPasswordHash(tx, name, hash));
    }
    // An Arabic translation of `web`, for right-to-left.
    const added = await env.request('POST', '/api/components/hello/web/translations/', { token: env.tokens.admin, json: { language_code: 'ar' } });
    expect(added.status).toBeLessThan(300);
    browser = await launchBrowser(chromiumPath!);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await env?.close();
  });

  async function signedIn(user: keyof typeof PASSWORDS | null, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    if (user) {
      await page.goto(`${env.origin}/accounts/login/`);
      await page.fill('input[name="username"]', user);
      await page.fill('input[name="password"]', PASSWORDS[user]);
      await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
    }
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  it('signs in with an HttpOnly, SameSite=Lax session cookie; a wrong password is refused', async () => {
    const page = await signedIn(null);
    await page.goto(`${env.origin}/accounts/login/`);
    await page.fill('input[name="username"]', 'jane');
    await page.fill('input[name="password"]', 'not-her-password');
    await page.click('button[type="submit"].primary');
    await expect(page.locator('[role="alert"]').textContent()).resolves.toContain('not correct');
    const ok = await signedIn('jane');
    const cookies = await ok.context().cookies();
    const session = cookies.find((c) => c.name === 'tms_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    await expect(ok.locator('header').textContent()).resolves.toContain('Jane Doe');
  });

  it('shows on the dashboard the percentages the API computes', async () => {
    const page = await signedIn('jane');
    const stats = (await env.request('GET', '/api/projects/hello/statistics/', { token: env.tokens.jane })).json;
    const row = page.locator('table.stats tbody tr', { hasText: 'Hello' });
    await expect(row.locator('[data-stat="translated"]').textContent()).resolves.toBe(`${stats.translated_percent}%`);
    await expect(row.locator('[data-stat="approved"]').textContent()).resolves.toBe(`${stats.approved_percent}%`);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'dashboard');
  });

  it('translates a plural string with the keyboard alone from the API translate_url, and the API shows the edit', async () => {
    const page = await signedIn('jane');
    const translation = (await env.request('GET', '/api/translations/hello/app/de/', { token: env.tokens.jane })).json;
    const plural = (await env.request('GET', `/api/translations/hello/app/de/units/?q=${encodeURIComponent('has:plural')}`, { token: env.tokens.jane })).json
      .results[0];
    await page.goto(translation.translate_url);
    // Walk to the plural string with the keyboard (Alt+PageDown), as a translator would.
    for (let i = 0; i < 10 && (await page.locator('#target_1').count()) === 0; i++) {
      const before = await page.locator('[data-position-text]').textContent();
      await page.keyboard.press('Alt+PageDown');
      await page.waitForFunction((text) => document.querySelector('[data-position-text]')?.textContent !== text, before);
    }
    await expect(page.locator('label[for="target_0"]').textContent()).resolves.toMatch(/^one: 1/);
    await expect(page.locator('label[for="target_1"]').textContent()).resolves.toMatch(/^other: 0, 2/);
    const position = await page.locator('[data-position-text]').textContent();
    await shot(page, 'editor');
    // Focus is in the first form; replace both forms and save with Ctrl+Enter.
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('target_0');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('%n Datei gewählt');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('%n Dateien gewählt');
    const started = Date.now();
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction((text) => document.querySelector('[data-position-text]')?.textContent !== text, position);
    const elapsed = Date.now() - started;
    console.log(`save-and-next: next string shown ${elapsed} ms after Ctrl+Enter`);
    expect(elapsed).toBeLessThan(2_000);
    const unit = (await env.request('GET', `/api/units/${plural.id}/`, { token: env.tokens.jane })).json;
    expect(unit.target).toEqual(['%n Datei gewählt', '%n Dateien gewählt']);
    expect(unit.pending).toBe(true);
    const changes = (await env.request('GET', '/api/changes/?action=2&action=5', { token: env.tokens.jane })).json.results;
    const change = changes.find((c: { unit: string | null }) => c.unit?.endsWith(`/api/units/${plural.id}/`));
    expect(change?.user).toMatch(/\/api\/users\/jane\/$/);
    expect([2, 5]).toContain(change.action);
  });

  it('lets a manager commit and push from the repository page; upstream changes only in that string', async () => {
    const page = await signedIn('mike');
    await page.goto(`${env.origin}/repository/hello/app/`);
    await expect(page.locator('[data-pending]').getAttribute('data-pending')).resolves.not.toBe('0');
    await page.click('button[name="operation"][value="commit"]');
    await expect(page.locator('[data-result]').getAttribute('data-result')).resolves.toBe('ok');
    await page.click('button[name="operation"][value="push"]');
    await expect(page.locator('[data-result]').getAttribute('data-result')).resolves.toBe('ok');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'repository');
    const diff = execFileSync('git', ['--git-dir', env.upstream('app'), 'diff', '--unified=0', 'HEAD~1', 'HEAD'], { encoding: 'utf8' });
    const changed = diff.split('\n').filter((l) => /^[-+]\s/.test(l));
    expect(changed.join('\n')).toContain('%n Datei gewählt');
    expect(changed.every((l) => l.includes('numerusform'))).toBe(true);
    expect(diff).toContain('app_de.ts');
    expect(diff).not.toContain('app_cs.ts');
  });

  it('shows a translator no repository buttons and refuses a forged operation (403) and a POST without CSRF token (403)', async () => {
    const page = await signedIn('jane');
    await page.goto(`${env.origin}/repository/hello/app/`);
    expect(await page.locator('button[name="operation"]').count()).toBe(0);
    await page.goto(`${env.origin}/projects/hello/app/`);
    expect(await page.locator('a[href="/repository/hello/app/"]').count()).toBe(0);
    const forged = await page.evaluate(async () => {
      const csrf = document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!;
      const r = await fetch('/repository/hello/app/', { method: 'POST', body: new URLSearchParams({ csrfmiddlewaretoken: csrf, operation: 'commit' }) });
      return r.status;
    });
    expect(forged).toBe(403);
    const noToken = await page.evaluate(async () => {
      const r = await fetch('/translate/hello/app/de/', { method: 'POST', body: new URLSearchParams({ unit: '1', target_0: 'x' }) });
      const api = await fetch('/api/units/1/', { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: '{"target":["x"],"state":20}' });
      return [r.status, api.status];
    });
    expect(noToken).toEqual([403, 403]);
  });

  it('lets anonymous visitors browse read-only and never edit', async () => {
    const page = await signedIn(null);
    await page.goto(`${env.origin}/translate/hello/app/de/`);
    expect(await page.locator('button[name="save"]').count()).toBe(0);
    await expect(page.locator('#target_0').getAttribute('readonly')).resolves.not.toBeNull();
    const statuses = await page.evaluate(async () => {
      const csrf = document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!;
      const form = await fetch('/translate/hello/app/de/', {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({ csrfmiddlewaretoken: csrf, unit: '1', target_0: 'x' }),
      });
      const api = await fetch('/api/units/1/', { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: '{"target":["x"],"state":20}' });
      return [form.type === 'opaqueredirect' ? 302 : form.status, api.status];
    });
    expect(statuses[0]).toBe(302);
    expect(statuses[1]).toBe(401);
  });

  it('renders a right-to-left language right to left, and works at 360 px', async () => {
    const page = await signedIn('jane', { width: 360, height: 780 });
    await page.goto(`${env.origin}/translate/hello/web/ar/`);
    const field = page.locator('#target_0');
    await expect(field.getAttribute('dir')).resolves.toBe('rtl');
    await expect(field.getAttribute('lang')).resolves.toBe('ar');
    await expect(field.evaluate((el) => getComputedStyle(el).direction)).resolves.toBe('rtl');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'editor-rtl-360px');
  });

  it('fits the overview pages in 360 px and asks for nothing missing', async () => {
    // a visitor in a fresh browser: the browser asks for an icon once, on its first page of the site
    const page = await signedIn(null, { width: 360, height: 780 });
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
    });
    // the browser's own request for an icon is no page response: its 404 shows as a console error
    page.on('console', (m) => {
      if (m.type() === 'error') missing.push(m.text());
    });
    for (const url of ['/', '/projects/hello/', '/projects/hello/app/', '/languages/']) {
      await page.goto(`${env.origin}${url}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, url).toBeLessThanOrEqual(0);
    }
    expect(missing).toEqual([]);
  });

  it('has no serious or critical axe violation on the main pages', async () => {
    const page = await signedIn('mike');
    const failures: string[] = [];
    for (const [name, url] of [
      ['project', '/projects/hello/'],
      ['component', '/projects/hello/app/'],
      ['translation', '/projects/hello/app/de/'],
      ['editor-cs', '/translate/hello/app/cs/?offset=2'],
      ['languages', '/languages/'],
      ['language', '/languages/de/'],
      ['changes', '/changes/?project=hello'],
      ['engage', '/engage/hello/'],
      ['profile', '/accounts/profile/'],
    ] as const) {
      await page.goto(env.origin + url);
      for (const v of await axeViolations(page)) failures.push(`${url}: ${v}`);
      if (['component', 'translation', 'changes'].includes(name)) await shot(page, name);
    }
    const anonymous = await signedIn(null);
    await anonymous.goto(`${env.origin}/accounts/login/`);
    for (const v of await axeViolations(anonymous)) failures.push(`/accounts/login/: ${v}`);
    await shot(anonymous, 'login');
    expect(failures).toEqual([]);
  });

  it('starts a new translation from the component page: the language picked, its file committed upstream, its page opened', async () => {
    const anonymous = await signedIn(null);
    await anonymous.goto(`${env.origin}/projects/hello/web/`);
    await expect(anonymous.locator('a[href="/new-lang/hello/web/"]').count()).resolves.toBe(0);
    const page = await signedIn('mike');
    await page.goto(`${env.origin}/projects/hello/web/`);
    await Promise.all([page.waitForURL(`${env.origin}/new-lang/hello/web/`), page.click('a[href="/new-lang/hello/web/"]')]);
    // languages the component has are not offered
    await expect(page.locator('#language_code option[value="de"]').count()).resolves.toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.selectOption('#language_code', 'fr');
    await Promise.all([page.waitForURL(`${env.origin}/projects/hello/web/fr/`), page.click('form.new-language button[type="submit"]')]);
    await expect(page.locator('h1').textContent()).resolves.toContain('French');
    const log = execFileSync('git', ['--git-dir', env.upstream('web'), 'log', '-1', '--name-only', '--format=%s'], { encoding: 'utf8' });
    expect(log).toContain('Added translation using tms (French)');
    expect(log).toContain('locales/fr.json');
    // a language it has now: refused with the reason, and a way back to the component
    await page.goto(`${env.origin}/new-lang/hello/web/`);
    await page.evaluate(() => {
      const option = document.createElement('option');
      option.value = 'fr';
      document.querySelector('#language_code').append(option);
      document.querySelector('#language_code').value = 'fr';
    });
    await page.click('form.new-language button[type="submit"]');
    await expect(page.locator('.error-detail').textContent()).resolves.toContain('already exists');
    await expect(page.locator('a[href="/projects/hello/web/"]').last().textContent()).resolves.toBe('Back to the component');
  });

  it('answers 200 for every web URL in every API answer', async () => {
    const seen = new Set<string>();
    const webUrls = new Set<string>();
    const queue = ['/api/'];
    const collect = (value: unknown, key = ''): void => {
      if (typeof value === 'string' && value.startsWith(env.origin)) {
        const rest = value.slice(env.origin.length);
        if (rest.startsWith('/api/')) {
          const bare = rest.replace(/\?.*$/, '');
          if (!/\/(file|repository|lock|schema)\/$/.test(bare) && !/\/changes\/\d+\/$/.test(bare) && !seen.has(rest) && seen.size < 400) queue.push(rest);
        } else webUrls.add(rest);
      } else if (Array.isArray(value)) for (const v of value) collect(v, key);
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) collect(v, k);
    };
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (seen.has(next)) continue;
      seen.add(next);
      const answer = await env.request('GET', next, { token: env.tokens.admin });
      if (answer.status === 200) collect(answer.json);
    }
    expect(webUrls.size).toBeGreaterThan(10);
    const bad: string[] = [];
    for (const url of webUrls) {
      const answer = await env.request('GET', url, { headers: { Accept: 'text/html' } });
      if (answer.status !== 200 || !answer.headers.get('content-type')?.startsWith('text/html')) bad.push(`${answer.status} ${url}`);
    }
    expect(bad).toEqual([]);
  }, 120_000);
});
