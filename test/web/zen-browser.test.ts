// Zen mode and the strings around the editor's string, with the keyboard alone in a real browser (Debian's chromium):
// a nearby string opened with Tab and Enter, zen mode by Alt+Z, strings saved as their field is left (Tab) or with
// Ctrl+Enter, the next page appended, a refused save kept with its reason; and zen mode's no-script form.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { SCREENSHOTS, axeViolations, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

// Callbacks given to page.evaluate run in the browser; this program is typed without the DOM library.
// biome-ignore lint/suspicious/noExplicitAny: browser globals
declare const document: any;

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: zen mode browser tests: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');
const DE = '/api/translations/hello/app/de/';

interface Unit {
  id: number;
  source: string[];
  target: string[];
  state: number;
  position: number;
  web_url: string;
}

describe('zen mode and nearby strings', () => {
  let env: WriteEnv;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  let units: Unit[];

  const apiUnit = async (id: number) => (await env.request('GET', `/api/units/${id}/`, { token: env.tokens.jane })).json as Unit;

  beforeAll(async () => {
    await ensureAssets();
    env = await createWriteEnv();
    await env.signIn('jane', 'jane-password-1');
    units = (await env.request('GET', `${DE}units/`, { token: env.tokens.jane })).json.results as Unit[];
    units.sort((a, b) => a.position - b.position);
    if (chromiumPath) browser = await launchBrowser(chromiumPath);
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await env?.close();
  });

  async function jane(): Promise<Page> {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${env.origin}/accounts/login/`);
    await page.fill('input[name="username"]', 'jane');
    await page.fill('input[name="password"]', 'jane-password-1');
    await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
    return page;
  }

  /** Presses Tab until the focused element matches (at most `max` times); fails when it never does. */
  async function tabTo(page: Page, test: string, max = 60): Promise<void> {
    for (let i = 0; i < max; i++) {
      if (await page.evaluate((selector) => document.activeElement?.matches(selector) ?? false, test)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${test}`);
  }

  /** Waits for a zen row's status line to say `text`. */
  async function status(page: Page, unit: number, text: string): Promise<void> {
    await page.waitForFunction(([id, t]) => document.querySelector(`#unit-${id} .zen-status`)?.textContent.includes(t), [unit, text] as const);
  }

  async function shot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  it.skipIf(!chromiumPath)('opens a nearby string with Tab and Enter, without a page load', async () => {
    const page = await jane();
    await page.goto(`${env.origin}/translate/hello/app/de/?offset=3`);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'editor-nearby');
    const before = await page.locator('[data-position-text]').textContent();
    await tabTo(page, '.nearby a');
    const href = await page.evaluate(() => document.activeElement.getAttribute('href'));
    await page.keyboard.press('Enter');
    await page.waitForFunction((text) => document.querySelector('[data-position-text]')?.textContent !== text, before);
    const checksum = new URL(href!, env.origin).searchParams.get('checksum');
    await expect(page.locator('input[name="checksum"]').getAttribute('value')).resolves.toBe(checksum);
    // the next nearby list marks the string now shown
    await expect(page.locator('.nearby li.current').count()).resolves.toBe(1);
  });

  it.skipIf(!chromiumPath)(
    'edits strings in zen mode with the keyboard: Alt+Z, the next pages appended, saved on leaving a field and with Ctrl+Enter',
    async () => {
      const page = await jane();
      await page.goto(`${env.origin}/translate/hello/app/de/?offset=1`);
      await Promise.all([page.waitForURL(/\/zen\/hello\/app\/de\//), page.keyboard.press('Alt+z')]);
      // two strings a page: the next pages are appended as the list's end comes into view, up to its end
      await page.goto(`${env.origin}/zen/hello/app/de/?count=2`);
      await page.waitForFunction((n) => document.querySelectorAll('.zen-list > li').length === n && document.querySelector('.zen-end'), units.length);
      expect(await axeViolations(page)).toEqual([]);
      // the first field: type, leave it with Tab, and it is saved
      await tabTo(page, '.zen-list textarea');
      const first = Number(await page.evaluate(() => document.activeElement.closest('li').dataset.unit));
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Erste Übersetzung');
      await page.keyboard.press('Tab');
      await status(page, first, 'Saved');
      expect((await apiUnit(first)).target).toEqual(['Erste Übersetzung']);
      // the second with Ctrl+Enter, which moves on to the next string
      await tabTo(page, `.zen-list li:nth-child(2) textarea`);
      const second = Number(await page.evaluate(() => document.activeElement.closest('li').dataset.unit));
      const secondUnit = units.find((u) => u.id === second)!;
      await page.keyboard.press('Control+A');
      const forms = secondUnit.source.length;
      await page.keyboard.type('Zweite Übersetzung');
      for (let i = 1; i < forms; i++) {
        await page.keyboard.press('Tab');
        await page.keyboard.press('Control+A');
        await page.keyboard.type(`Zweite Übersetzung ${i}`);
      }
      await page.keyboard.press('Control+Enter');
      await status(page, second, 'Saved');
      expect((await apiUnit(second)).target[0]).toBe('Zweite Übersetzung');
      // Ctrl+Enter moved on to the next string, of the page appended
      await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe('TEXTAREA');
      const third = Number(await page.evaluate(() => document.activeElement.closest('li').dataset.unit));
      expect(third).toBe(units[2]!.id);
      await shot(page, 'zen');
      // a refused save keeps the text and says why: an approval the translator may not give (the form asks for 30)
      await page.evaluate(() => {
        const row = document.activeElement.closest('li');
        row.querySelector('[data-state]').dataset.state = '30';
      });
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Dritte Übersetzung');
      await page.keyboard.press('Tab');
      await status(page, third, 'Not saved');
      await expect(page.locator(`#unit-${third} .zen-status`).getAttribute('role')).resolves.toBe('alert');
      await expect(page.locator(`#unit-${third} textarea`).first().inputValue()).resolves.toBe('Dritte Übersetzung');
      expect((await apiUnit(third)).target[0]).not.toBe('Dritte Übersetzung');
    },
  );

  it('saves a zen row without script as a form and comes back to its place in the list', async () => {
    const s = await env.signIn('jane', 'jane-password-1');
    const zen = await env.request('GET', '/zen/hello/app/de/', { headers: { Cookie: s.cookie } });
    expect(zen.status).toBe(200);
    expect(zen.text).toContain('class="zen-list"');
    const unit = units.find((u) => u.source.length === 1 && u.source[0] === 'Quit')!;
    const posted = await env.postForm(s, '/translate/hello/app/de/', { unit: String(unit.id), target_0: 'Beenden', zen: '1', save: '1' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`/zen/hello/app/de/?offset=1#unit-${unit.id}`);
    expect((await apiUnit(unit.id)).target).toEqual(['Beenden']);
  });
});
