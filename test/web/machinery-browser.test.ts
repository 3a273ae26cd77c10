// The editor's machine translation pane and the translation page's automatic translation form in a real browser
// (Debian's chromium), with Debian's Apertium as the engine and a hung engine beside it: each engine's suggestions
// arrive after the page, the hung one says it failed without holding the others, Alt+M copies the first suggestion;
// a manager starts automatic translation from the form and the page follows the task to its end.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { type Apertium, apertiumMissing, startApertium } from '../helpers/apertium.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';
import { type StandIn, silentStandIn } from '../helpers/mt-stand-ins.js';

const chromiumPath = findChromium();
const missing = apertiumMissing();
if (!chromiumPath) console.warn('SKIPPED: machinery browser tests: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');
if (missing) console.warn(`SKIPPED: machinery browser tests: ${missing}`);

type Unit = { id: number; source: string[]; target: string[]; state: number };

describe.skipIf(!chromiumPath || missing !== null)('machine translation in a real browser', () => {
  let env: WriteEnv;
  let apy: Apertium;
  let hung: StandIn;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await ensureAssets();
    apy = await startApertium();
    hung = await silentStandIn();
    env = await createWriteEnv(
      { machinery: { 'apertium-apy': { url: apy.url }, deepl: { url: `${hung.url}/v2/`, key: 'k', timeout_ms: 1_000 } } },
      { app: { new_base: 'translations/app_de.ts' } },
    );
    expect((await env.request('POST', '/api/components/hello/app/translations/', { token: env.tokens.mike, json: { language_code: 'es' } })).status).toBe(201);
    await env.store.write(async (tx) => setPasswordHash(tx, 'admin', await hashPassword('admin-password-1')));
    browser = await launchBrowser(chromiumPath!);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await env?.close();
    await hung?.close();
    await apy?.close();
  });

  async function signedIn(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${env.origin}/accounts/login/`);
    await page.fill('input[name="username"]', 'admin');
    await page.fill('input[name="password"]', 'admin-password-1');
    await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
    return page;
  }

  const units = async (): Promise<Unit[]> => (await env.request('GET', '/api/translations/hello/app/es/units/', { token: env.tokens.admin })).json.results;

  it("shows each engine's answer as it arrives, a hung engine as failed, and Alt+M copies Apertium's suggestion", async () => {
    const page = await signedIn();
    await page.goto(`${env.origin}/translate/hello/app/es/?q=${encodeURIComponent('source:"Open a file"')}`);
    const apertium = page.locator('[data-engine="apertium-apy"]');
    await expect.poll(() => apertium.locator('li').count(), { timeout: 10_000 }).toBe(1);
    const suggestion = await apertium.locator('[data-machine-target]').textContent();
    expect(suggestion).toMatch(/archivo|fichero|lima/i);
    // the hung engine gives up after its timeout, on its own
    await expect.poll(() => page.locator('[data-engine="deepl"] [data-engine-status]').textContent(), { timeout: 10_000 }).toBe('Failed: no answer in time');
    await page.locator('textarea[name="target_0"]').fill('');
    await page.keyboard.press('Alt+m');
    expect(await page.locator('textarea[name="target_0"]').inputValue()).toBe(suggestion);
    expect(await apertium.locator('button[data-copy]').getAttribute('aria-keyshortcuts')).toBe('Alt+1 Alt+M');
  }, 60_000);

  it('starts automatic translation from the translation page and follows the task to its end', async () => {
    const page = await signedIn();
    await page.goto(`${env.origin}/projects/hello/app/es/`);
    const form = page.locator('form.autotranslate');
    await form.locator('select[name="mode"]').selectOption('fuzzy');
    await form.locator('select[name="auto_source"]').selectOption('mt');
    await form.locator('input[name="engines"][value="weblate-translation-memory"]').uncheck();
    await form.locator('input[name="engines"][value="apertium-apy"]').check();
    await form.locator('input[name="threshold"]').fill('50');
    await Promise.all([page.waitForURL(/\/auto-translate\/hello\/app\/es\/$/), form.locator('button[type="submit"]').click()]);
    await page.locator('[data-task][data-task-done]').waitFor({ timeout: 20_000 });
    // the singular strings and the plural one (each form from the source's singular or plural)
    expect(await page.locator('[data-task-status]').textContent()).toBe('Automatic translation completed, 5 strings were updated.');
    expect(await page.locator('[data-task] progress').getAttribute('value')).toBe('100');
    const filled = (await units()).filter((u) => u.state === 10);
    expect(filled.map((u) => u.source[0]).sort()).toEqual(['%n file selected', '&File', 'About %1', 'Open a file', 'Quit']);
  }, 60_000);
});
