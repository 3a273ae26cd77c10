// Bulk edit (Weblate's): the state of a search's strings changed at once by a manager, refused to translators, each
// string recorded as a bulk change and left pending; in a real browser from the translation page, with axe.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editedFlags } from '../../src/operations/index.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { SCREENSHOTS, axeViolations, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: bulk edit browser test: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');
const DE = '/api/translations/hello/app/de/';

describe('bulk edit', () => {
  let env: WriteEnv;
  let mike: WebSession;
  let jane: WebSession;
  let browser: Browser | undefined;

  const search = async (q: string) =>
    (await env.request('GET', `${DE}units/?q=${encodeURIComponent(q)}`, { token: env.tokens.mike })).json.results as {
      id: number;
      state: number;
      pending: boolean;
    }[];
  const post = (s: WebSession, fields: Record<string, string>) => env.postForm(s, '/bulk-edit/hello/app/de/', fields);

  beforeAll(async () => {
    await ensureAssets();
    env = await createWriteEnv();
    mike = await env.signIn('mike', 'mike-password-1');
    jane = await env.signIn('jane', 'jane-password-1');
    if (chromiumPath) browser = await launchBrowser(chromiumPath);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  it('refuses a translator without the bulk edit permission (403), page and form alike', async () => {
    const page = await env.request('GET', '/bulk-edit/hello/app/de/', { headers: { Cookie: jane.cookie } });
    expect(page.status).toBe(403);
    const before = await search('state:translated');
    expect((await post(jane, { q: 'state:translated', state: '10' })).status).toBe(403);
    expect(await search('state:translated')).toEqual(before);
    expect((await env.request('GET', '/projects/hello/app/de/', { headers: { Cookie: jane.cookie } })).text).not.toContain('/bulk-edit/');
  });

  it('marks the strings a search selects as needing editing in one go, recorded as bulk changes and pending', async () => {
    const translated = await search('state:translated');
    expect(translated.length).toBeGreaterThan(1);
    const page = await env.request('GET', `/bulk-edit/hello/app/de/?q=${encodeURIComponent('state:translated')}`, { headers: { Cookie: mike.cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-count="${translated.length}"`);
    // no approval where reviews are off
    expect(page.text).not.toContain('<option value="30"');
    const done = await post(mike, { q: 'state:translated', state: '10' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toContain(`changed=${translated.length}`);
    expect(await search('state:translated')).toEqual([]);
    const fuzzy = await search('state:needs-editing');
    for (const u of translated) expect(fuzzy.find((f) => f.id === u.id)?.pending).toBe(true);
    const changes = (await env.request('GET', `${DE}changes/`, { token: env.tokens.mike })).json.results as { action: number; unit: string }[];
    expect(changes.filter((c) => c.action === 32)).toHaveLength(translated.length);
    const approve = await post(mike, { q: 'state:needs-editing', state: '30' });
    expect(approve.status).toBe(400);
  });

  it('adds and removes flags as Weblate lists them: a flag of the same name replaced, values quoted where needed', () => {
    expect(editedFlags('', 'max-length:80', '')).toBe('max-length:80');
    expect(editedFlags('max-length:80, ignore-same', 'max-length:40, placeholders:"a,b"', 'ignore-same')).toBe('max-length:40, placeholders:"a,b"');
    expect(editedFlags('max-length:80', '', 'max-length')).toBe('');
  });

  it('sets the flags of a search’s strings in every language of the component, their checks run again', async () => {
    const quit = (await search('source:Quit'))[0]!;
    const saved = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.mike, json: { target: ['Beenden'], state: 20 } });
    expect(saved.status).toBe(200);
    expect(saved.json.state).toBe(20);
    const done = await post(mike, { q: 'source:Quit', state: '', add_flags: 'max-length:3' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toContain('flagged=1');
    const string = (await env.request('GET', `/api/units/${quit.id}/`, { token: env.tokens.mike })).json;
    expect(string.extra_flags).toBe('max-length:3');
    // "Beenden" is longer than three characters: the check the flag asks for fails now
    expect(string.has_failing_check).toBe(true);
    const cs = (await env.request('GET', `/api/translations/hello/app/cs/units/?q=${encodeURIComponent('source:Quit')}`, { token: env.tokens.mike })).json
      .results[0];
    expect(cs.extra_flags).toBe('max-length:3');
    const removed = await post(mike, { q: 'source:Quit', state: '', remove_flags: 'max-length' });
    expect(removed.headers.get('location')).toContain('flagged=1');
    // each change of a string's flags is in its history once, on the source string (79, Extra flags updated)
    const source = (await env.request('GET', `/api/translations/hello/app/en/units/?q=${encodeURIComponent('source:Quit')}`, { token: env.tokens.mike })).json
      .results[0];
    const flagChanges = (await env.request('GET', '/api/translations/hello/app/en/changes/?action=79')).json.results as { target: string; unit: string }[];
    expect(flagChanges.map((c) => [c.target, c.unit])).toEqual([
      ['', source.url],
      ['max-length:3', source.url],
    ]);
    expect((await env.request('GET', `/api/units/${cs.id}/`, { token: env.tokens.mike })).json.extra_flags).toBe('');
    expect((await env.request('GET', `/api/units/${quit.id}/`, { token: env.tokens.mike })).json.has_failing_check).toBe(false);
    expect((await post(mike, { q: 'source:Quit', state: '' })).status).toBe(400);
  });

  it.skipIf(!chromiumPath)('changes the state of a search’s strings from the translation page in a real browser', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${env.origin}/accounts/login/`);
      await page.fill('input[name="username"]', 'mike');
      await page.fill('input[name="password"]', 'mike-password-1');
      await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
      await page.goto(`${env.origin}/projects/hello/app/de/`);
      await Promise.all([page.waitForURL(/\/bulk-edit\/hello\/app\/de\//), page.click('a[href="/bulk-edit/hello/app/de/"]')]);
      await page.fill('#q', 'state:needs-editing');
      await Promise.all([page.waitForURL(/q=state/), page.press('#q', 'Enter')]);
      const count = Number(await page.locator('[data-count]').getAttribute('data-count'));
      expect(count).toBeGreaterThan(1);
      expect(await axeViolations(page)).toEqual([]);
      if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'bulk-edit.png'), fullPage: true });
      await page.selectOption('#state', '20');
      await Promise.all([page.waitForURL(/changed=/), page.click('.bulk-form button[type="submit"]')]);
      await expect(page.locator('[data-changed]').getAttribute('data-changed')).resolves.toBe(String(count));
      expect(await search('state:needs-editing')).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
