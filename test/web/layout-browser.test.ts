// The pages' layout in a real browser (Debian's chromium), as a new user found it: tables using the page's width at
// 1280 px and never scrolling sideways at 360 px, the search field showing its whole example, and the site's icon.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

// Callbacks given to page.evaluate run in the browser; this program is typed without the DOM library.
// biome-ignore lint/suspicious/noExplicitAny: browser globals
declare const document: any, window: any, getComputedStyle: any;

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: layout browser tests: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');

// every page with a table: statistics, recent changes, the change history
const TABLE_PAGES = [
  '/',
  '/projects/hello/',
  '/projects/hello/app/',
  '/projects/hello/app/de/',
  '/projects/hello/-/de/',
  '/languages/',
  '/languages/de/',
  '/changes/',
];

describe('page layout', () => {
  let env: WriteEnv;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // before the server starts: it reads the built assets once
    await ensureAssets();
    env = await createWriteEnv();
    // a change for the change tables
    const units = (await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane })).json.results as {
      id: number;
      source: string[];
    }[];
    const unit = units.find((u) => u.source[0] === 'Quit')!;
    const saved = await env.request('PATCH', `/api/units/${unit.id}/`, { token: env.tokens.jane, json: { target: ['Programm beenden'], state: 20 } });
    expect(saved.status).toBe(200);
    if (chromiumPath) browser = await launchBrowser(chromiumPath);
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await env?.close();
  });

  async function open(width: number): Promise<Page> {
    const context = await browser!.newContext({ viewport: { width, height: 900 } });
    contexts.push(context);
    return context.newPage();
  }

  it('answers /favicon.ico with the icon the pages name (no 404 for browsers and tools that ask for it)', async () => {
    const icon = await env.request('GET', '/favicon.ico');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    // an ICO file: reserved 0, type 1
    expect([...icon.bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    const page = await env.request('GET', '/');
    const named = /<link rel="icon" href="([^"]+)"/.exec(page.text)?.[1];
    expect(named).toMatch(/^\/static\/favicon-[0-9a-f]+\.ico$/);
    const linked = await env.request('GET', named!);
    expect(linked.status).toBe(200);
    expect(Buffer.compare(linked.bytes, icon.bytes)).toBe(0);
  });

  it.skipIf(!chromiumPath)('lets tables use the page width at 1280 px (the dashboard used half of it)', async () => {
    const page = await open(1280);
    const narrow: string[] = [];
    for (const url of TABLE_PAGES) {
      await page.goto(env.origin + url);
      const widths = await page.evaluate(() => {
        const main = document.querySelector('main');
        const style = getComputedStyle(main);
        const content = main.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        // a row's width, not the table box's: a table made a block is as wide as the page while its rows are not
        return [...document.querySelectorAll('main table tr')].map(
          (t: { getBoundingClientRect(): { width: number } }) => t.getBoundingClientRect().width / content,
        );
      });
      expect(widths.length, url).toBeGreaterThan(0);
      for (const share of widths) if (share < 0.98) narrow.push(`${url}: ${Math.round(share * 100)}%`);
    }
    expect(narrow).toEqual([]);
  });

  it.skipIf(!chromiumPath)('never scrolls a table sideways at 360 px: rows stack, each figure named', async () => {
    const page = await open(360);
    const scrolling: string[] = [];
    for (const url of TABLE_PAGES) {
      await page.goto(env.origin + url);
      const overflow = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth - window.innerWidth,
        tables: [...document.querySelectorAll('main table')].map(
          (t: { scrollWidth: number; clientWidth: number; className: string }) => [t.className, t.scrollWidth - t.clientWidth] as const,
        ),
      }));
      expect(overflow.page, url).toBeLessThanOrEqual(0);
      for (const [name, extra] of overflow.tables) if (extra > 0) scrolling.push(`${url} table.${name}: ${extra}px`);
    }
    expect(scrolling).toEqual([]);
    // a stacked figure still says what it is
    await page.goto(`${env.origin}/projects/hello/`);
    const label = await page
      .locator('table.stats td[data-stat="approved"]')
      .first()
      .evaluate((td) => getComputedStyle(td, '::before').content);
    expect(label).toBe('"Approved: "');
  });

  it.skipIf(!chromiumPath)('shows the search field’s whole example at 1280 px and at 360 px', async () => {
    for (const width of [1280, 360]) {
      const page = await open(width);
      await page.goto(`${env.origin}/projects/hello/app/de/`);
      const fit = await page.locator('#q').evaluate((input) => {
        const style = getComputedStyle(input);
        const canvas = document.createElement('canvas').getContext('2d');
        canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return { text: canvas.measureText(input.placeholder).width, room };
      });
      expect(fit.text, `${width} px`).toBeLessThanOrEqual(fit.room);
    }
  });
});
