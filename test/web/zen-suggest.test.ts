// Suggesting inside zen mode: in a project with reviews, a translator meets an approved string in zen mode, may not
// save it but may suggest on it (Suggest button or Alt+Enter) without leaving the list, and leaving its field saves
// nothing; the suggestion is stored, the string unchanged; without script the row's Suggest comes back to the list.
// In a real browser, with axe.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitSuggestions } from '../../src/store/suggestions.repo.js';
import type { Json } from '../helpers/api-client.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { SCREENSHOTS, axeViolations, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: zen suggestions browser test: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');
const DE = '/api/translations/hello/app/de/';

describe('suggestions in zen mode', () => {
  let env: WriteEnv;
  let jane: WebSession;
  let browser: Browser | undefined;
  let approved: Json;

  const unit = async (id: number) => (await env.request('GET', `/api/units/${id}/`, { token: env.tokens.mike })).json;
  const suggestions = async (id: number) => (await env.store.read((tx) => unitSuggestions(tx, id))).map((s) => s.target);

  beforeAll(async () => {
    await ensureAssets();
    env = await createWriteEnv({}, {}, [], { translation_review: true });
    jane = await env.signIn('jane', 'jane-password-1');
    const quit = (await env.request('GET', `${DE}units/?q=${encodeURIComponent('source:Quit')}`, { token: env.tokens.mike })).json.results[0] as Json;
    const done = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.mike, json: { target: ['Beenden'], state: 30 } });
    expect(done.status, done.text).toBe(200);
    approved = await unit(quit.id);
    if (chromiumPath) browser = await launchBrowser(chromiumPath);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  it('offers Suggest on every row a translator may suggest on, and only Suggest on an approved one', async () => {
    const zen = (await env.request('GET', '/zen/hello/app/de/', { headers: { Cookie: jane.cookie } })).text;
    const row = zen.slice(zen.indexOf(`id="unit-${approved.id}"`), zen.indexOf('</li>', zen.indexOf(`id="unit-${approved.id}"`)));
    expect(row).toContain('data-suggest-only="1"');
    expect(row).toContain('name="suggest"');
    expect(row).not.toContain('name="save"');
    expect(row).not.toMatch(/<textarea[^>]*readonly/);
    expect(row).toContain('data-readonly="review-needed"');
    // a string she may save has both
    const others = zen
      .split('<li class="zen-unit"')
      .slice(1)
      .filter((r) => !r.includes(`data-unit="${approved.id}"`));
    expect(others.every((r) => r.includes('name="save"') && r.includes('name="suggest"'))).toBe(true);
  });

  it('takes a suggestion posted by a zen row without script and comes back to the row in the list', async () => {
    const posted = await env.postForm(jane, '/translate/hello/app/de/', { unit: String(approved.id), zen: '1', target_0: 'Programm beenden', suggest: '1' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`/zen/hello/app/de/?offset=1#unit-${approved.id}`);
    expect(await suggestions(approved.id)).toContain('Programm beenden');
    expect((await unit(approved.id)).target).toEqual(['Beenden']);
  });

  it.skipIf(!chromiumPath)('suggests from zen mode with the button and Alt+Enter, leaving the field saves nothing', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${env.origin}/accounts/login/`);
      await page.fill('input[name="username"]', 'jane');
      await page.fill('input[name="password"]', 'jane-password-1');
      await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
      await page.goto(`${env.origin}/zen/hello/app/de/`);
      const row = page.locator(`#unit-${approved.id}`);
      const field = row.locator('textarea').first();
      await field.fill('Anwendung beenden');
      await field.press('Tab'); // leaving the field: no save is tried
      await page.waitForTimeout(300);
      await expect(row.locator('.zen-status').textContent()).resolves.toBe('');
      await row.locator('button[name="suggest"]').click();
      await page.waitForFunction((id) => document.querySelector(`#unit-${id} .zen-status`)?.textContent === 'Suggested', approved.id);
      expect(page.url()).toContain('/zen/hello/app/de/');
      expect(await suggestions(approved.id)).toContain('Anwendung beenden');

      await field.fill('Tms beenden');
      await field.press('Alt+Enter');
      await page.waitForFunction((id) => document.querySelector(`#unit-${id} .zen-status`)?.textContent === 'Suggested', approved.id);
      expect(await suggestions(approved.id)).toContain('Tms beenden');
      expect((await unit(approved.id)).target).toEqual(['Beenden']);
      expect(await axeViolations(page)).toEqual([]);
      if (SCREENSHOTS) await row.screenshot({ path: path.join(SCREENSHOTS, 'zen-suggest.png') });
    } finally {
      await context.close();
    }
  });
});

// Callbacks given to page.waitForFunction run in the browser; this program is typed without the DOM library.
// biome-ignore lint/suspicious/noExplicitAny: browser globals
declare const document: any;
