// Where a translator lands: the profile chooses the languages they translate; the dashboard lists those languages'
// strings that need work (from the kept statistics) with a link into the editor's filter, suggestions waiting for
// those who may accept them, their own and the site's recent activity, and a site-wide search box whose page lists
// the strings of every visible translation; project pages put the visitor's languages first. In a real browser, with
// axe, at 1280 and 360 px.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suggest } from '../../src/operations/index.js';
import { findUserByUsername } from '../../src/store/users.repo.js';
import type { Json } from '../helpers/api-client.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { SCREENSHOTS, axeViolations, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's own global, evaluated in the browser
declare const document: any;

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: dashboard browser test: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');

/** The rows of a dashboard section: translation name → the number in its count cell. */
function rowsOf(text: string, section: string, attr: string): Map<string, number> {
  const start = text.indexOf(`class="queue ${section}"`);
  if (start < 0) return new Map();
  const part = text.slice(start, text.indexOf('</section>', start));
  return new Map([...part.matchAll(new RegExp(`>([^<]+)</a></th>\\s*<td class="num" ${attr}="(\\d+)"`, 'g'))].map((m) => [m[1]!, Number(m[2])]));
}

describe('the dashboard of a translator', () => {
  let env: WriteEnv;
  let jane: WebSession;
  let mike: WebSession;
  let browser: Browser | undefined;

  const get = (address: string, s?: WebSession) => env.request('GET', address, { headers: s ? { Cookie: s.cookie } : {} });
  const post = (s: WebSession, address: string, fields: [string, string][]) => env.postForm(s, address, fields);
  const stats = async (component: string, lang: string) => (await env.request('GET', `/api/translations/hello/${component}/${lang}/statistics/`)).json;

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

  it('asks a translator without languages to choose them, and saves the choice from the profile', async () => {
    const before = await get('/', jane);
    expect(before.text).toContain('href="/accounts/profile/#languages"');
    expect(rowsOf(before.text, 'my-work', 'data-unfinished').size).toBe(0);
    const profile = await get('/accounts/profile/', jane);
    expect(profile.text).toContain('name="languages" value="de"');
    expect(profile.text).toContain('name="languages" value="cs"');
    expect(
      (
        await post(jane, '/accounts/profile/', [
          ['save_languages', '1'],
          ['languages', 'xx-nowhere'],
        ])
      ).status,
    ).toBe(400);
    const saved = await post(jane, '/accounts/profile/', [
      ['save_languages', '1'],
      ['languages', 'de'],
    ]);
    expect(saved.status).toBe(303);
    expect((await get('/accounts/profile/', jane)).text).toMatch(/name="languages" value="de" checked/);
    // the token form still regenerates the token (mike's: jane's token is used below)
    expect((await post(mike, '/accounts/profile/', [['regenerate', '1']])).text).toContain('Your new API token');
  });

  it('lists the strings of the translator’s languages that need work, counted as the statistics count them, each a link into the editor', async () => {
    const dashboard = (await get('/', jane)).text;
    const rows = rowsOf(dashboard, 'my-work', 'data-unfinished');
    const app = await stats('app', 'de');
    expect(rows.get('Hello / App — German')).toBe(app.total - app.translated);
    expect([...rows.keys()].every((name) => name.endsWith('— German'))).toBe(true);
    expect(dashboard).toContain('href="/translate/hello/app/de/?q=state%3A%3Ctranslated"');
    // the filter the link opens holds exactly that many strings
    const unfinished = (await env.request('GET', `/api/translations/hello/app/de/units/?q=${encodeURIComponent('state:<translated')}`)).json.count;
    expect(unfinished).toBe(app.total - app.translated);
    // anonymous visitors get no such section, and no one else's languages
    expect((await get('/')).text).not.toContain('my-work');
  });

  it('puts the visitor’s languages first on project and component pages', async () => {
    const order = (text: string) => [...text.matchAll(/<th scope="row"><a href="\/projects\/hello\/(?:-|app)\/(cs|de|en)\/">/g)].map((m) => m[1]);
    const anonymous = order((await get('/projects/hello/')).text);
    const janes = order((await get('/projects/hello/', jane)).text);
    expect(anonymous.indexOf('cs')).toBeLessThan(anonymous.indexOf('de'));
    expect(janes[0]).toBe('de');
    expect(order((await get('/projects/hello/app/', jane)).text)[0]).toBe('de');
  });

  it('shows suggestions waiting to whoever may accept them, and the visitor’s and the site’s recent activity', async () => {
    const quit = (await env.request('GET', `/api/translations/hello/app/de/units/?q=${encodeURIComponent('source:Quit')}`)).json.results[0] as Json;
    const janeId = (await env.store.read((tx) => findUserByUsername(tx, 'jane')))!.id;
    await suggest(env.store, { unitId: quit.id, target: ['Beenden'], user: { id: janeId } });
    const saved = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Programm beenden'], state: 20 } });
    expect(saved.status).toBe(200);

    const managers = (await get('/', mike)).text;
    expect(rowsOf(managers, 'suggestion-queue', 'data-suggestions').get('Hello / App — German')).toBe((await stats('app', 'de')).suggestions);
    expect(managers).toContain('href="/translate/hello/app/de/?q=has%3Asuggestion"');
    expect((await get('/')).text).not.toContain('suggestion-queue');

    const janes = (await get('/', jane)).text;
    const own = janes.slice(janes.indexOf('own-activity-h'), janes.indexOf('</section>', janes.indexOf('own-activity-h')));
    expect(own).toContain('Programm beenden');
    expect((await get('/', mike)).text).toContain('Programm beenden'); // the site's activity
    const mikes = (await get('/', mike)).text;
    expect(mikes.slice(mikes.indexOf('own-activity-h'), mikes.indexOf('</section>', mikes.indexOf('own-activity-h')))).not.toContain('Programm beenden');
  });

  it('searches the strings of every visible translation from the dashboard’s search box, a page at a time', async () => {
    const found = await get(`/search/?q=${encodeURIComponent('source:Quit')}`);
    expect(found.status).toBe(200);
    const links = [...found.text.matchAll(/<li>\s*<a href="(\/translate\/hello\/app\/[a-z]+\/\?checksum=[0-9a-f]{16})">Quit<\/a>/g)].map((m) => m[1]);
    expect(links.length).toBe(3);
    const open = await get(links.find((l) => l!.includes('/de/'))!);
    expect(open.status).toBe(200);
    expect(open.text).toContain('Programm beenden');
    expect((await get(`/search/?q=${encodeURIComponent('source:(')}`)).status).toBe(400);
    expect((await get('/search/')).text).not.toContain('search-results');
  });

  it.skipIf(!chromiumPath)('works in a real browser: profile, dashboard (1280 and 360 px), search; axe finds nothing serious', async () => {
    for (const width of [1280, 360]) {
      const context = await browser!.newContext({ viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(`${env.origin}/accounts/login/`);
        await page.fill('input[name="username"]', 'jane');
        await page.fill('input[name="password"]', 'jane-password-1');
        await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
        if (width === 1280) {
          await page.goto(`${env.origin}/accounts/profile/`);
          await page.check('input[name="languages"][value="cs"]');
          await Promise.all([page.waitForURL(/saved=1/), page.click('#languages button[type="submit"]')]);
          await expect(page.locator('#languages [role="status"]').textContent()).resolves.toContain('saved');
          expect(await axeViolations(page)).toEqual([]);
          if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'profile-languages.png'), fullPage: true });
        }
        await page.goto(`${env.origin}/`);
        await expect(page.locator('.my-work tbody tr').count()).resolves.toBeGreaterThan(1);
        expect(await axeViolations(page)).toEqual([]);
        // nothing scrolls sideways
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        if (SCREENSHOTS)
          await page.screenshot({ path: path.join(SCREENSHOTS, width === 1280 ? 'dashboard-translator.png' : 'dashboard-360px.png'), fullPage: true });
        if (width === 1280) {
          await page.fill('#site-q', 'file');
          await Promise.all([page.waitForURL(/\/search\/\?q=file/), page.press('#site-q', 'Enter')]);
          await expect(page.locator('.search-results li').count()).resolves.toBeGreaterThan(1);
          expect(await axeViolations(page)).toEqual([]);
          if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'search.png'), fullPage: true });
        }
      } finally {
        await context.close();
      }
    }
  });
});
