// The review workflow in a real browser (Debian's chromium): a reviewer approves a string from the editor with the
// keyboard, a translator then meets it read-only with the reason and suggests on it; the pages pass axe.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinTeams } from '../../src/store/auth.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { SCREENSHOTS, axeViolations, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

// Callbacks given to page.evaluate run in the browser; this program is typed without the DOM library.
// biome-ignore lint/suspicious/noExplicitAny: browser globals
declare const document: any;

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: review browser tests: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');
const PASSWORDS = { jane: 'jane-password-1', rita: 'rita-password-1' };

describe.skipIf(!chromiumPath)('review workflow in a real browser', () => {
  let env: WriteEnv;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await ensureAssets();
    env = await createWriteEnv({}, {}, [], { translation_review: true });
    const rita = await env.store.write((tx) => createUser(tx, { username: 'rita', fullName: 'Rita Reviewer', email: 'rita@example.org' }));
    await env.store.write((tx) => joinTeams(tx, rita.user.id, ['Reviewers']));
    for (const [name, password] of Object.entries(PASSWORDS)) await env.signIn(name, password);
    browser = await launchBrowser(chromiumPath!);
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await env?.close();
  });

  async function signedIn(user: keyof typeof PASSWORDS): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${env.origin}/accounts/login/`);
    await page.fill('input[name="username"]', user);
    await page.fill('input[name="password"]', PASSWORDS[user]);
    await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  it('a reviewer approves a string that a translator then cannot change, but can suggest on', async () => {
    // a translated German string, waiting for review
    const units = (await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane })).json.results as {
      id: number;
      source: string[];
      web_url: string;
    }[];
    const unit = units.find((u) => u.source[0] === 'Open a file')!;
    const saved = await env.request('PATCH', `/api/units/${unit.id}/`, { token: env.tokens.jane, json: { target: ['Eine Datei öffnen'], state: 20 } });
    expect(saved.status).toBe(200);

    // the reviewer finds it from the dashboard's queue, in the "Waiting for review" filter
    const rita = await signedIn('rita');
    await expect(rita.locator('.review-queue').textContent()).resolves.toContain('App — German');
    expect(await axeViolations(rita)).toEqual([]);
    await shot(rita, 'dashboard-review');
    await rita.goto(`${env.origin}/translate/hello/app/de/?checksum=${new URL(unit.web_url).searchParams.get('checksum')}`);
    await expect(rita.locator('[data-state]').getAttribute('data-state')).resolves.toBe('20');
    expect(await axeViolations(rita)).toEqual([]);
    await shot(rita, 'editor-review');
    // the keyboard alone: from the field, Tab to Approve (past Needs editing, Save, Save and continue) and press it
    await expect(rita.evaluate(() => document.activeElement?.id)).resolves.toBe('target_0');
    for (let i = 0; i < 6 && (await rita.evaluate(() => document.activeElement?.name)) !== 'approve'; i++) await rita.keyboard.press('Tab');
    await expect(rita.evaluate(() => document.activeElement?.name)).resolves.toBe('approve');
    const position = await rita.locator('[data-position-text]').textContent();
    await rita.keyboard.press('Enter');
    await rita.waitForFunction((text) => document.querySelector('[data-position-text]')?.textContent !== text, position);
    const approved = (await env.request('GET', `/api/units/${unit.id}/`, { token: env.tokens.jane })).json;
    expect(approved.state).toBe(30);
    expect(approved.target).toEqual(['Eine Datei öffnen']);

    // the translator meets it read-only, is told why, and suggests instead
    const jane = await signedIn('jane');
    await jane.goto(unit.web_url);
    const notice = jane.locator('[data-readonly]');
    await expect(notice.getAttribute('data-readonly')).resolves.toBe('review-needed');
    await expect(notice.textContent()).resolves.toContain('only reviewers can change it');
    expect(await jane.locator('button[name="save"]').count()).toBe(0);
    expect(await jane.locator('button[name="approve"]').count()).toBe(0);
    expect(await axeViolations(jane)).toEqual([]);
    await shot(jane, 'editor-approved-translator');
    await jane.fill('#target_0', 'Datei öffnen …');
    await Promise.all([jane.waitForURL(/checksum=/), jane.keyboard.press('Alt+Enter')]);
    await expect(jane.locator('.suggestions li').first().textContent()).resolves.toContain('Datei öffnen …');
    // the translation itself did not change; the API refuses the translator's edit with Weblate's reason
    expect((await env.request('GET', `/api/units/${unit.id}/`, { token: env.tokens.jane })).json.target).toEqual(['Eine Datei öffnen']);
    const refused = await jane.evaluate(async (id) => {
      const csrf = document.querySelector('meta[name="csrf-token"]').getAttribute('content');
      const r = await fetch(`/api/units/${id}/`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrf },
        body: JSON.stringify({ target: ['Datei öffnen …'], state: 20 }),
      });
      return r.status;
    }, unit.id);
    expect(refused).toBe(403);
  });
});
