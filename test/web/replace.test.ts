// Search and replace: every change previewed before it is applied (plural forms apart, RE2 patterns with groups),
// applied in one transaction keeping each string's state, recorded as 27; bad patterns refused; approved strings
// left to reviewers; in a real browser from the translation page, with axe.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { SCREENSHOTS, axeViolations, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: search and replace browser test: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');
const DE = '/api/translations/hello/app/de/';

interface Unit {
  id: number;
  source: string[];
  target: string[];
  state: number;
}

describe('search and replace', () => {
  let env: WriteEnv;
  let jane: WebSession;
  let browser: Browser | undefined;

  const units = async () => (await env.request('GET', `${DE}units/`, { token: env.tokens.jane })).json.results as Unit[];
  const preview = (params: Record<string, string>) =>
    env.request('GET', `/replace/hello/app/de/?${new URLSearchParams(params)}`, { headers: { Cookie: jane.cookie } });
  const apply = (fields: Record<string, string>) => env.postForm(jane, '/replace/hello/app/de/', fields);

  beforeAll(async () => {
    await ensureAssets();
    env = await createWriteEnv();
    jane = await env.signIn('jane', 'jane-password-1');
    if (chromiumPath) browser = await launchBrowser(chromiumPath);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  it('previews every change, plural forms apart, and changes nothing before it is applied', async () => {
    const before = await units();
    const page = await preview({ search: 'Datei', replacement: 'Akte' });
    expect(page.status).toBe(200);
    const expected = before.filter((u) => u.target.some((f) => f.includes('Datei')));
    expect(expected.length).toBeGreaterThan(1);
    expect(page.text).toContain(`data-planned="${expected.length}"`);
    for (const u of expected) expect(page.text).toContain(`data-unit="${u.id}"`);
    // the plural's both forms, each replaced on its own ("Dateien" holds "Datei" too)
    expect(page.text).toContain('%n Akte ausgewählt | %n Akteen ausgewählt');
    expect(await units()).toEqual(before);
  });

  it('applies a regular expression with groups in one go, keeping each string’s state, recorded as search and replace', async () => {
    const before = await units();
    const done = await apply({ search: '^(Eine) Datei (\\S+)$', replacement: '$2 $1 Datei', regex: '1' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/replace/hello/app/de/?changed=1');
    const after = await units();
    const open = after.find((u) => u.source[0] === 'Open a file')!;
    expect(open.target).toEqual(['öffnen Eine Datei']);
    expect(open.state).toBe(before.find((u) => u.id === open.id)!.state);
    // the plural's forms do not begin with "Eine": untouched
    expect(after.filter((u) => u.id !== open.id)).toEqual(before.filter((u) => u.id !== open.id));
    const changes = (await env.request('GET', `${DE}changes/`, { token: env.tokens.jane })).json.results as { action: number; target: string }[];
    expect(changes.find((c) => c.action === 27)?.target).toBe('öffnen Eine Datei');
  });

  it('refuses a pattern RE2 does not take and a replacement no file can hold (400), and anonymous visitors (403)', async () => {
    expect((await preview({ search: '(a', replacement: 'x', regex: '1' })).status).toBe(400);
    expect((await preview({ search: '(?=a)', replacement: 'x', regex: '1' })).status).toBe(400);
    expect((await apply({ search: 'Datei', replacement: 'A\u0007' })).status).toBe(400);
    expect((await env.request('GET', '/replace/hello/app/de/?search=Datei')).status).toBe(403);
  });

  it.skipIf(!chromiumPath)('previews then applies from the translation page in a real browser', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${env.origin}/accounts/login/`);
      await page.fill('input[name="username"]', 'jane');
      await page.fill('input[name="password"]', 'jane-password-1');
      await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
      await page.goto(`${env.origin}/projects/hello/app/de/`);
      await Promise.all([page.waitForURL(/\/replace\/hello\/app\/de\//), page.click('a[href="/replace/hello/app/de/"]')]);
      await page.fill('#search', 'ausgewählt');
      await page.fill('#replacement', 'markiert');
      await Promise.all([page.waitForURL(/search=/), page.press('#replacement', 'Enter')]);
      await expect(page.locator('[data-planned]').getAttribute('data-planned')).resolves.toBe('1');
      expect(await axeViolations(page)).toEqual([]);
      if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'replace-preview.png'), fullPage: true });
      await Promise.all([page.waitForURL(/changed=1/), page.click('.replace-apply button[type="submit"]')]);
      const plural = (await units()).find((u) => u.source.length === 2)!;
      expect(plural.target).toEqual(['%n Datei markiert', '%n Dateien markiert']);
    } finally {
      await context.close();
    }
  });
});
