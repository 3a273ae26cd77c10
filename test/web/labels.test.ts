// Labels in the web interface: a manager creates a project's labels on its labels page, puts them on a search's strings
// with bulk edit and takes them off again; the editor shows a string's labels in its source information; translators
// are refused the page. In a real browser, with axe.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../helpers/api-client.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { SCREENSHOTS, axeViolations, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: labels browser test: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');

describe('labels in the web interface', () => {
  let env: WriteEnv;
  let jane: WebSession;
  let mike: WebSession;
  let browser: Browser | undefined;

  const units = async (translation: string, q: string) =>
    (await env.request('GET', `/api/translations/hello/app/${translation}/units/?q=${encodeURIComponent(q)}`, { token: env.tokens.mike })).json
      .results as Json[];
  const labels = async () => (await env.request('GET', '/api/projects/hello/labels/')).json.results as Json[];
  const form = (s: WebSession, address: string, fields: [string, string][]) => env.postForm(s, address, fields);
  const signIn = async (page: Page, user: string, password: string) => {
    await page.goto(`${env.origin}/accounts/login/`);
    await page.fill('input[name="username"]', user);
    await page.fill('input[name="password"]', password);
    await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
  };

  beforeAll(async () => {
    await ensureAssets();
    env = await createWriteEnv();
    jane = await env.signIn('jane', 'jane-password-1');
    mike = await env.signIn('mike', 'mike-password-1');
    if (chromiumPath) browser = await launchBrowser(chromiumPath);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  it('refuses the labels page and its form to a translator, and links it from the project page for managers only', async () => {
    expect((await env.request('GET', '/labels/hello/', { headers: { Cookie: jane.cookie } })).status).toBe(403);
    expect((await form(jane, '/labels/hello/', [['name', 'Sneaky']])).status).toBe(403);
    expect(await labels()).toEqual([]);
    expect((await env.request('GET', '/projects/hello/', { headers: { Cookie: jane.cookie } })).text).not.toContain('/labels/hello/');
    expect((await env.request('GET', '/projects/hello/', { headers: { Cookie: mike.cookie } })).text).toContain('href="/labels/hello/"');
  });

  it.skipIf(!chromiumPath)('creates labels on the labels page, puts one on a search’s strings with bulk edit, and the editor shows it', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await signIn(page, 'mike', 'mike-password-1');
      await page.goto(`${env.origin}/projects/hello/`);
      await Promise.all([page.waitForURL(/\/labels\/hello\/$/), page.click('a[href="/labels/hello/"]')]);
      for (const [name, description, color] of [
        ['Menu', 'Strings of the menus', 'teal'],
        ['Legal', 'Licence and terms', 'maroon'],
      ] as const) {
        await page.fill('#name', name);
        await page.fill('#description', description);
        await page.selectOption('#color', color);
        await Promise.all([page.waitForNavigation(), page.click('.label-form button[type="submit"]')]);
      }
      expect((await labels()).map((l) => [l.name, l.color])).toEqual([
        ['Legal', 'maroon'],
        ['Menu', 'teal'],
      ]);
      const menu = (await labels()).find((l) => l.name === 'Menu')!;

      await page.goto(`${env.origin}/bulk-edit/hello/app/de/?q=${encodeURIComponent('source:Quit OR source:Open')}`);
      const count = Number(await page.locator('[data-count]').getAttribute('data-count'));
      expect(count).toBe(2);
      await page.check(`input[name="add_labels"][value="${menu.id}"]`);
      expect(await axeViolations(page)).toEqual([]);
      if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'bulk-edit-labels.png'), fullPage: true });
      await Promise.all([page.waitForURL(/labelled=/), page.click('.bulk-form button[type="submit"]')]);
      expect(await page.locator('[data-labelled]').getAttribute('data-labelled')).toBe('2');

      // every language shows the label: it is the source string's
      expect((await units('cs', 'label:Menu')).map((u) => u.source[0]).sort()).toEqual(['Open a file', 'Quit']);
      const quit = (await units('de', 'source:Quit'))[0]!;
      expect(quit.labels).toEqual([menu]);
      const changes = (await env.request('GET', '/api/translations/hello/app/en/changes/?action=86')).json.results as Json[];
      expect(changes.map((c) => c.target)).toEqual(['Menu', 'Menu']);

      await page.goto(`${env.origin}/labels/hello/`);
      expect(await page.locator(`tr:has-text("Menu") [data-strings]`).getAttribute('data-strings')).toBe('2');
      expect(await axeViolations(page)).toEqual([]);
      if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'labels.png'), fullPage: true });

      await page.goto(`${env.origin}/translate/hello/app/de/?q=${encodeURIComponent('label:Menu')}`);
      await expect(page.locator('.facts .labels-list .label').allTextContents()).resolves.toEqual(['Menu']);
      expect(await axeViolations(page)).toEqual([]);
      if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'editor-labels.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('takes labels off a search’s strings with bulk edit (87 recorded), refuses an unknown label and a translator', async () => {
    const menu = (await labels()).find((l) => l.name === 'Menu')!;
    expect(
      (
        await form(jane, '/bulk-edit/hello/app/de/', [
          ['q', 'source:Quit'],
          ['remove_labels', String(menu.id)],
        ])
      ).status,
    ).toBe(403);
    expect(
      (
        await form(mike, '/bulk-edit/hello/app/de/', [
          ['q', 'source:Quit'],
          ['add_labels', '99999'],
        ])
      ).status,
    ).toBe(400);
    const done = await form(mike, '/bulk-edit/hello/app/de/', [
      ['q', 'source:Quit'],
      ['state', ''],
      ['remove_labels', String(menu.id)],
    ]);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toContain('labelled=1');
    expect((await units('de', 'label:Menu')).map((u) => u.source[0])).toEqual(['Open a file']);
    const removed = (await env.request('GET', '/api/translations/hello/app/en/changes/?action=87')).json.results as Json[];
    expect(removed.map((c) => c.target)).toEqual(['Menu']);
    // a label deleted on the labels page leaves every string
    const deleted = await form(mike, '/labels/hello/', [['delete', String(menu.id)]]);
    expect(deleted.status).toBe(303);
    expect((await labels()).map((l) => l.name)).toEqual(['Legal']);
    expect(await units('de', 'has:label')).toEqual([]);
  });
});
