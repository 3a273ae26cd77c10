// Screenshots in a real browser (Debian's chromium): a manager uploads one from the component's screenshots page, finds a
// string with the page's search and links it with a click, and a translator's editor then shows the screenshot's
// thumbnail beside that string; axe finds nothing serious on the new pages. Without a browser: the pages' answers.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { SCREENSHOTS, axeViolations, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';
import { SVG_WITH_SCRIPT, png } from '../helpers/images.js';

// Callbacks given to page.evaluate run in the browser; this program is typed without the DOM library.
// biome-ignore lint/suspicious/noExplicitAny: browser globals
declare const document: any;

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: screenshots browser tests: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');

describe('screenshots in the web interface', () => {
  let env: WriteEnv;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await ensureAssets();
    env = await createWriteEnv();
    if (chromiumPath) browser = await launchBrowser(chromiumPath);
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await env?.close();
  });

  async function signedIn(username: string): Promise<Page> {
    await env.signIn(username, `${username}-password-1`);
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${env.origin}/accounts/login/`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', `${username}-password-1`);
    await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  it.skipIf(!chromiumPath)('uploads a screenshot, links a string by search and click, and the editor shows it', async () => {
    // "Quit" translated into German, not into Czech: the screenshot page says so
    const quit = (await env.request('GET', '/api/translations/hello/app/de/units/?q=source:Quit', { token: env.tokens.jane })).json.results[0];
    const saved = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Beenden'], state: 20 } });
    expect(saved.status).toBe(200);
    const mike = await signedIn('mike');
    await mike.goto(`${env.origin}/projects/hello/app/`);
    // the screenshot to upload: the component page as chromium draws it (a real PNG)
    const image = await mike.screenshot({ clip: { x: 0, y: 0, width: 640, height: 400 } });
    await Promise.all([mike.waitForURL(`${env.origin}/screenshots/hello/app/`), mike.click('a[href="/screenshots/hello/app/"]')]);
    expect(await axeViolations(mike)).toEqual([]);
    await mike.fill('#name', 'Main window');
    await mike.setInputFiles('#image', { name: 'main.png', mimeType: 'image/png', buffer: image });
    await Promise.all([mike.waitForURL(/\/screenshot\/\d+\/$/), mike.click('.screenshot-upload button[type="submit"]')]);
    const id = Number(/\/screenshot\/(\d+)\/$/.exec(mike.url())![1]);
    expect(await mike.textContent('h1')).toBe('Screenshot: Main window');
    // the image is served and decoded by the browser, at its size
    expect(await mike.evaluate(() => document.querySelector('figure.screenshot img').naturalWidth)).toBe(640);
    expect(await mike.textContent('#strings-h + p')).toContain('No strings are linked');

    await mike.fill('#q', 'Quit');
    await Promise.all([mike.waitForURL(/\?q=Quit$/), mike.press('#q', 'Enter')]);
    const found = mike.locator('.screenshot-found li', { hasText: 'Quit' });
    await Promise.all([mike.waitForURL(new RegExp(`/screenshot/${id}/\\?q=Quit$`)), found.getByRole('button', { name: 'Link “Quit”' }).click()]);
    const linked = mike.locator('.screenshot-strings li');
    expect(await linked.count()).toBe(1);
    expect(await linked.first().textContent()).toContain('Quit');
    expect(await linked.first().locator('.state').textContent()).toBe('translated in 1 of 2 languages');
    expect(await mike.locator('.screenshot-found li', { hasText: 'Quit' }).locator('.tag').textContent()).toBe('linked');
    expect(await axeViolations(mike)).toEqual([]);
    await shot(mike, 'screenshot');
    await mike.goto(`${env.origin}/screenshots/hello/app/`);
    expect(await mike.textContent(`li[data-screenshot="${id}"] .meta`)).toContain('1 string');
    await shot(mike, 'screenshots');

    // a translator's editor on the German string: the thumbnail, linking to the image, and the screenshot's page
    const jane = await signedIn('jane');
    await jane.goto(quit.web_url);
    const thumb = jane.locator(`.facts .thumbs li[data-screenshot="${id}"]`);
    await thumb.locator('img').waitFor();
    expect(await thumb.locator('img').getAttribute('alt')).toBe('Main window');
    await jane.waitForFunction((sid) => document.querySelector(`.thumbs li[data-screenshot="${sid}"] img`)?.naturalWidth === 640, id);
    expect(await thumb.locator('a').first().getAttribute('href')).toBe(`/screenshot/${id}/image/`);
    expect(await axeViolations(jane)).toEqual([]);
    await shot(jane, 'editor-screenshot');
    // the translator sees the screenshot page without its forms (no screenshot.edit), the manager's unlink works
    await jane.goto(`${env.origin}/screenshot/${id}/`);
    expect(await jane.locator('form button[value="unlink"]').count()).toBe(0);
    expect(await jane.locator('#q').count()).toBe(0);
    await mike.goto(`${env.origin}/screenshot/${id}/`);
    await Promise.all([mike.waitForURL(`${env.origin}/screenshot/${id}/`), mike.getByRole('button', { name: 'Unlink “Quit”' }).click()]);
    expect(await mike.locator('.screenshot-strings li').count()).toBe(0);
  });

  it('answers without a browser: the list and page for anyone, an upload refused for a bad image, a 404 for an unknown one', async () => {
    const mike = await env.signIn('mike', 'mike-password-2');
    const headers = { Cookie: mike.cookie };
    const list = await env.request('GET', '/screenshots/hello/app/', { headers });
    expect(list.status).toBe(200);
    // an SVG refused with the form shown again and the reason
    const svg = new FormData();
    svg.append('csrfmiddlewaretoken', mike.csrf);
    svg.append('name', 'Vector');
    svg.append('image', new Blob([SVG_WITH_SCRIPT]), 'x.png');
    const refused = await env.request('POST', '/screenshots/hello/app/', { headers: { ...headers, Origin: env.origin }, body: svg });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/role="alert"[^>]*>Unsupported image type: svg/);
    const good = new FormData();
    good.append('csrfmiddlewaretoken', mike.csrf);
    good.append('name', 'Dialog');
    good.append('image', new Blob([png(8, 8)]), 'x.png');
    const created = await env.request('POST', '/screenshots/hello/app/', { headers: { ...headers, Origin: env.origin }, body: good });
    expect(created.status).toBe(303);
    const at = created.headers.get('location')!;
    const anonymous = await env.request('GET', at);
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toContain('Dialog');
    expect(anonymous.text).not.toContain('name="action"');
    const image = await env.request('GET', `${at}image/`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.bytes.equals(png(8, 8))).toBe(true);
    // the page's forms: rename, a refused replacement (the old image kept, the reason shown), delete
    const post = (fields: Record<string, string>, file?: Buffer) => {
      const f = new FormData();
      f.append('csrfmiddlewaretoken', mike.csrf);
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      if (file) f.append('image', new Blob([file]), 'x.png');
      return env.request('POST', at, { headers: { ...headers, Origin: env.origin }, body: f });
    };
    const renamed = await post({ action: 'rename', name: 'Settings dialog', q: '' });
    expect(renamed.status).toBe(303);
    expect((await env.request('GET', at)).text).toContain('Screenshot: Settings dialog');
    const replaced = await post({ action: 'replace', q: 'Quit' }, Buffer.from('GIF89a\x0a\x00\x0a\x00'));
    expect(replaced.status).toBe(400);
    expect(replaced.text).toMatch(/role="alert"[^>]*>Unsupported image type: gif/);
    expect(replaced.text).toContain('value="Quit"');
    expect((await env.request('GET', `${at}image/`)).bytes.equals(png(8, 8))).toBe(true);
    const deleted = await post({ action: 'delete', q: '' });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/screenshots/hello/app/');
    expect((await env.request('GET', at)).status).toBe(404);
    expect((await env.request('GET', '/screenshot/999999/')).status).toBe(404);
    expect((await env.request('GET', '/screenshot/999999/image/')).status).toBe(404);
    // an anonymous form post is sent to sign in, never stored
    const form = new FormData();
    form.append('name', 'x');
    expect((await env.request('POST', '/screenshots/hello/app/', { body: form })).status).toBe(403);
  });
});
