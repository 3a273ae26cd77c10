// Quality checks in the web interface: shown on the string in the editor (live while typing, in a real browser),
// dismissed and restored with Weblate's permission, counted per check on the translation page with links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/sync/config.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: the live checks browser test: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');

describe('checks in the web interface', () => {
  let env: WriteEnv;
  let jane: WebSession;
  let unitId: number;
  let checksum: string;
  const form = (s: WebSession | null, fields: Record<string, string>) => ({
    headers: { ...(s ? { Cookie: s.cookie } : {}), 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  const unitApi = async () => (await env.request('GET', `/api/units/${unitId}/`, { token: env.tokens.jane })).json;
  const failingChecks = async () => (await env.request('GET', '/api/translations/hello/app/de/', { token: env.tokens.jane })).json.failing_checks as number;

  beforeAll(async () => {
    env = await createWriteEnv();
    jane = await env.signIn('jane', 'jane-password-1');
    // "Open a file" translated with a full stop the source does not have: Weblate's end_stop fails
    const units = (await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane })).json.results as {
      id: number;
      source: string[];
      web_url: string;
    }[];
    const unit = units.find((u) => u.source[0] === 'Open a file')!;
    unitId = unit.id;
    checksum = new URL(unit.web_url).searchParams.get('checksum')!;
    const saved = await env.request('PATCH', `/api/units/${unitId}/`, { token: env.tokens.jane, json: { target: ['Eine Datei öffnen.'], state: 20 } });
    expect(saved.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('shows the failing check on the string in the editor, with its name, meaning and a dismiss button', async () => {
    expect((await unitApi()).has_failing_check).toBe(true);
    const page = await env.request('GET', `/translate/hello/app/de/?checksum=${checksum}`, { headers: { Cookie: jane.cookie } });
    expect(page.status).toBe(200);
    const section = /<section class="checks"[\s\S]*?<\/section>/.exec(page.text)?.[0] ?? '';
    expect(section).toContain('Mismatched full stop');
    expect(section).toContain('Only one of source and translation ends with a full stop');
    expect(section).toContain('name="dismiss"');
    // anonymous visitors see the check but no button
    const anonymous = await env.request('GET', `/translate/hello/app/de/?checksum=${checksum}`);
    expect(anonymous.text).toContain('Mismatched full stop');
    expect(anonymous.text).not.toContain('name="dismiss"');
  });

  it('lists the translation’s failing checks with counts, each linking to its strings in the editor', async () => {
    const page = await env.request('GET', '/projects/hello/app/de/', { headers: { Cookie: jane.cookie } });
    const list = /<section aria-labelledby="checks-list">[\s\S]*?<\/section>/.exec(page.text)?.[0] ?? '';
    expect(list).toContain('Mismatched full stop');
    expect(list).toContain('href="/translate/hello/app/de/?q=check%3Aend_stop"');
    expect(list).toMatch(/Mismatched full stop<\/a> <span class="count">1<\/span>/);
    const filtered = await env.request('GET', '/translate/hello/app/de/?q=check%3Aend_stop', { headers: { Cookie: jane.cookie } });
    expect(filtered.text).toContain('Open a file');
    expect(filtered.text).toMatch(/1 \/ 1/);
  });

  it('checks the text as typed without storing it', async () => {
    const preview = (target: string) =>
      env.request('POST', '/translate/hello/app/de/checks/', {
        ...form(jane, { unit: String(unitId), target_0: target }),
        headers: { ...form(jane, {}).headers, 'X-CSRFToken': jane.csrf },
      });
    const fixed = await preview('Eine Datei öffnen');
    expect(fixed.status).toBe(200);
    expect(fixed.text).toContain('No failing checks in the text as typed');
    const other = await preview('Eine Datei öffnen!');
    expect(other.text).toContain('Mismatched exclamation mark');
    expect(other.text).not.toContain('Mismatched full stop');
    expect(other.text).not.toContain('name="dismiss"');
    // nothing stored: the string and its check are as they were
    expect((await unitApi()).target).toEqual(['Eine Datei öffnen.']);
    expect((await unitApi()).has_failing_check).toBe(true);
    // the CSRF token is required, as for every state-changing request
    const forged = await env.request('POST', '/translate/hello/app/de/checks/', form(jane, { unit: String(unitId), target_0: 'x' }));
    expect(forged.status).toBe(403);
  });

  it('dismisses and restores the check (statistics follow); refuses without CSRF token, anonymously, or an enforced check', async () => {
    const before = await failingChecks();
    const noToken = await env.request('POST', '/translate/hello/app/de/dismiss/', form(jane, { unit: String(unitId), check: 'end_stop', dismiss: '1' }));
    expect(noToken.status).toBe(403);
    const anonymous = await env.request('POST', '/translate/hello/app/de/dismiss/', form(null, { unit: String(unitId), check: 'end_stop', dismiss: '1' }));
    expect([302, 403]).toContain(anonymous.status);
    expect((await unitApi()).has_failing_check).toBe(true);

    const dismissed = await env.request(
      'POST',
      '/translate/hello/app/de/dismiss/',
      form(jane, { csrfmiddlewaretoken: jane.csrf, unit: String(unitId), check: 'end_stop', dismiss: '1' }),
    );
    expect(dismissed.status).toBe(303);
    expect(dismissed.headers.get('location')).toBe(`/translate/hello/app/de/?checksum=${checksum}`);
    expect((await unitApi()).has_failing_check).toBe(false);
    expect(await failingChecks()).toBe(before - 1);
    const page = await env.request('GET', `/translate/hello/app/de/?checksum=${checksum}`, { headers: { Cookie: jane.cookie } });
    expect(page.text).toContain('Dismissed (1)');
    expect(page.text).toContain('name="restore"');
    const search = await env.request('GET', `/api/translations/hello/app/de/units/?q=${encodeURIComponent('dismissed_check:end_stop')}`, {
      token: env.tokens.jane,
    });
    expect(search.json.results.map((u: { id: number }) => u.id)).toEqual([unitId]);

    const restored = await env.request(
      'POST',
      '/translate/hello/app/de/dismiss/',
      form(jane, { csrfmiddlewaretoken: jane.csrf, unit: String(unitId), check: 'end_stop', restore: '1' }),
    );
    expect(restored.status).toBe(303);
    expect((await unitApi()).has_failing_check).toBe(true);
    expect(await failingChecks()).toBe(before);

    // a check the component enforces cannot be dismissed (Weblate's rule for unit.check)
    const app = env.config.projects[0]!.components.find((c) => c.slug === 'app')!;
    app.enforced_checks = ['end_stop'];
    await env.store.write((tx) => applyConfig(tx, env.config));
    const enforced = await env.request(
      'POST',
      '/translate/hello/app/de/dismiss/',
      form(jane, { csrfmiddlewaretoken: jane.csrf, unit: String(unitId), check: 'end_stop', dismiss: '1' }),
    );
    expect(enforced.status).toBe(403);
    expect((await unitApi()).has_failing_check).toBe(true);
    const editor = await env.request('GET', `/translate/hello/app/de/?checksum=${checksum}`, { headers: { Cookie: jane.cookie } });
    expect(editor.text).toContain('enforced');
    expect(editor.text).not.toContain('name="dismiss"');
    app.enforced_checks = [];
    await env.store.write((tx) => applyConfig(tx, env.config));
  });

  it.skipIf(!chromiumPath)(
    'updates the failing checks while the translator types (in a real browser)',
    async () => {
      await ensureAssets();
      const browser = await launchBrowser(chromiumPath!);
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${env.origin}/accounts/login/`);
      await page.fill('input[name="username"]', 'jane');
      await page.fill('input[name="password"]', 'jane-password-1');
      await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
      await page.goto(`${env.origin}/translate/hello/app/de/?checksum=${checksum}`);
      const checks = page.locator('section[data-checks] [aria-live]');
      await expect(checks.textContent()).resolves.toContain('Mismatched full stop');
      const field = page.locator('textarea[name="target_0"]');
      await field.focus();
      await page.keyboard.press('End');
      await page.keyboard.press('Backspace');
      await page.waitForFunction(() =>
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document
          .querySelector('section[data-checks] [aria-live]')
          ?.textContent.includes('No failing checks'),
      );
      await page.keyboard.type('?');
      await page.waitForFunction(() =>
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document
          .querySelector('section[data-checks] [aria-live]')
          ?.textContent.includes('Mismatched question mark'),
      );
      // typing stored nothing
      expect((await unitApi()).target).toEqual(['Eine Datei öffnen.']);
      await browser.close();
    },
    60_000,
  );
});
