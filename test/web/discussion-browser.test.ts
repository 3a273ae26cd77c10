// The editor's side panes in a real browser (Debian's chromium): a user who may only suggest suggests, a reviewer
// accepts the suggestion, a comment is added and resolved, and a memory match is copied into the field with Alt+1.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import { importMemory } from '../../src/store/memory.repo.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';

// Callbacks given to page.evaluate run in the browser; this program is typed without the DOM library.
// biome-ignore lint/suspicious/noExplicitAny: browser globals
declare const document: any;

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: editor pane browser tests: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');

const PASSWORDS: Record<string, string> = { sam: 'sam-password-1', admin: 'admin-password-1', jane: 'jane-password-1' };

interface ApiUnit {
  id: number;
  source: string[];
  target: string[];
  web_url: string;
  has_suggestion: boolean;
  has_comment: boolean;
  pending: boolean;
}

describe.skipIf(!chromiumPath)('editor panes in a real browser', () => {
  let env: WriteEnv;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await ensureAssets();
    env = await createWriteEnv();
    // sam may only suggest: the Guests team (Add suggestion, Access repository) instead of the new users' teams
    const { user } = await env.store.write((tx) => createUser(tx, { username: 'sam', fullName: 'Sam Suggester', email: 'sam@example.org' }));
    await env.store.write(async (tx) => {
      await tx.prepare('DELETE FROM user_groups WHERE user_id = ?').run(user.id);
      await joinTeams(tx, user.id, ['Guests']);
    });
    for (const [name, password] of Object.entries(PASSWORDS)) {
      const hash = await hashPassword(password);
      await env.store.write((tx) => setPasswordHash(tx, name, hash));
    }
    browser = await launchBrowser(chromiumPath!);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await env?.close();
  });

  async function signedIn(user: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${env.origin}/accounts/login/`);
    await page.fill('input[name="username"]', user);
    await page.fill('input[name="password"]', PASSWORDS[user]!);
    await Promise.all([page.waitForURL(`${env.origin}/`), page.click('button[type="submit"].primary')]);
    return page;
  }

  const unit = async (id: number): Promise<ApiUnit> => (await env.request('GET', `/api/units/${id}/`, { token: env.tokens.admin })).json;
  /** A German string of `app` without plurals, by its source text. */
  async function germanUnit(source: string): Promise<ApiUnit> {
    const q = encodeURIComponent(`source:"${source}"`);
    const found = (await env.request('GET', `/api/translations/hello/app/de/units/?q=${q}`, { token: env.tokens.admin })).json.results as ApiUnit[];
    const exact = found.find((u) => u.source.length === 1 && u.source[0] === source);
    expect(exact, `a German unit for "${source}"`).toBeDefined();
    return exact!;
  }

  it('a user who may only suggest gets Suggest instead of Save; a reviewer accepts the suggestion into the string', async () => {
    const target = await germanUnit('Open a file');
    const before = target.target;
    const sam = await signedIn('sam');
    await sam.goto(target.web_url);
    await expect(sam.locator('.translate-form button[name="suggest"]').count()).resolves.toBe(1);
    await expect(sam.locator('.translate-form button[name="save_next"]').count()).resolves.toBe(0);
    await sam.fill('#target_0', 'Eine Datei öffnen …');
    await Promise.all([sam.waitForURL(/checksum=/), sam.click('.translate-form button[name="suggest"]')]);
    const suggestion = sam.locator('.suggestions li[data-suggestion]');
    await expect(suggestion.count()).resolves.toBe(1);
    await expect(suggestion.locator('span').textContent()).resolves.toBe('Eine Datei öffnen …');
    await expect(suggestion.locator('small').textContent()).resolves.toContain('Sam Suggester');
    // sam may not accept it
    await expect(suggestion.locator('button[name="accept"]').count()).resolves.toBe(0);
    let now = await unit(target.id);
    expect(now.target).toEqual(before);
    expect(now.has_suggestion).toBe(true);

    const admin = await signedIn('admin');
    await admin.goto(target.web_url);
    const pending = admin.locator('.suggestions li[data-suggestion]');
    await expect(pending.locator('span').textContent()).resolves.toBe('Eine Datei öffnen …');
    await Promise.all([admin.waitForURL(/checksum=/), pending.locator('button[name="accept"]').click()]);
    await expect(admin.locator('.suggestions li[data-suggestion]').count()).resolves.toBe(0);
    await expect(admin.locator('#target_0').inputValue()).resolves.toBe('Eine Datei öffnen …');
    // (the API answered this unit before: its cached answer must not outlive the web's write)
    now = await unit(target.id);
    expect(now.target).toEqual(['Eine Datei öffnen …']);
    expect(now.pending).toBe(true);
    expect(now.has_suggestion).toBe(false);
    const accepted = (await env.request('GET', '/api/changes/?action=7', { token: env.tokens.admin })).json.results as { unit: string; author: string }[];
    // the accepted string is authored by the suggestion's author
    expect(accepted.find((c) => c.unit?.endsWith(`/api/units/${target.id}/`))?.author).toMatch(/\/api\/users\/sam\/$/);
  });

  it('adds a comment, and a reviewer resolves it', async () => {
    const target = await germanUnit('Quit');
    const jane = await signedIn('jane');
    await jane.goto(target.web_url);
    await jane.fill('#comment', 'Is “Beenden” right here?');
    await Promise.all([jane.waitForURL(/checksum=/), jane.click('button[name="add_comment"]')]);
    const comment = jane.locator('.comments li[data-comment]');
    await expect(comment.locator('p').textContent()).resolves.toBe('Is “Beenden” right here?');
    expect((await unit(target.id)).has_comment).toBe(true);

    const admin = await signedIn('admin');
    await admin.goto(target.web_url);
    const open = admin.locator('.comments li[data-comment]');
    await Promise.all([admin.waitForURL(/checksum=/), open.locator('button[name="resolve_comment"]').click()]);
    const resolved = admin.locator('.comments li[data-comment]');
    await expect(resolved.getAttribute('class')).resolves.toBe('resolved');
    await expect(resolved.locator('small').textContent()).resolves.toContain('resolved');
    await expect(resolved.locator('button[name="resolve_comment"]').count()).resolves.toBe(0);
    const search = `/api/translations/hello/app/de/units/?q=${encodeURIComponent('resolved_comment:Beenden')}`;
    expect((await env.request('GET', search, { token: env.tokens.admin })).json.results.map((u: ApiUnit) => u.id)).toEqual([target.id]);
  });

  it('copies a memory match into the translation field with Alt+1, without the mouse', async () => {
    const target = await germanUnit('Quit');
    // translated, so the string's own translation is in the memory (and must not be offered as a match for itself)
    const own = await env.request('PATCH', `/api/units/${target.id}/`, { token: env.tokens.admin, json: { target: ['Beenden (eigene)'], state: 20 } });
    expect(own.status).toBe(200);
    // a shared entry whose source is close to the string's: it shows among the matches
    await env.store.write((tx) =>
      importMemory(tx, [{ source: `${target.source[0]}!`, target: 'Programm beenden', sourceLanguage: 'en', targetLanguage: 'de' }], {
        kind: 'shared',
      }),
    );
    const jane = await signedIn('jane');
    await jane.goto(target.web_url);
    const matches = jane.locator('.memory li[data-memory]');
    expect(await matches.count()).toBeGreaterThan(0);
    await expect(jane.locator('.memory [data-memory-target]').allTextContents()).resolves.toContain('Programm beenden');
    // the string's own translation is no match for itself
    const ids = await matches.evaluateAll((items) => items.map((li) => li.getAttribute('data-memory')));
    expect(ids).not.toContain(String(target.id));
    await expect(jane.locator('.memory [data-memory-target]').allTextContents()).resolves.not.toContain('Beenden (eigene)');
    const first = await jane.locator('.memory li[data-memory] [data-memory-target]').first().textContent();
    await jane.focus('#target_0');
    await jane.keyboard.press('Control+A');
    await jane.keyboard.type('something else');
    await jane.keyboard.press('Alt+1');
    await expect(jane.locator('#target_0').inputValue()).resolves.toBe(first);
    await expect(jane.evaluate(() => document.activeElement?.id)).resolves.toBe('target_0');
    // the second match with Alt+2 when there is one
    if ((await matches.count()) > 1) {
      const second = await jane.locator('.memory li[data-memory] [data-memory-target]').nth(1).textContent();
      await jane.keyboard.press('Alt+2');
      await expect(jane.locator('#target_0').inputValue()).resolves.toBe(second);
    }
  });

  it('shows a plural memory match with its forms apart and copies it form by form into a plural string’s fields', async () => {
    const found = (await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.admin })).json.results as ApiUnit[];
    const plural = found.find((u) => u.source.length > 1)!;
    expect(plural).toBeDefined();
    // a plural string of another project's memory: its forms are stored joined, as a plural unit's are
    const source = plural.source.map((s) => `${s}!`).join('\x1e\x1e');
    await env.store.write((tx) =>
      importMemory(tx, [{ source, target: '%n Datei markiert\x1e\x1e%n Dateien markiert', sourceLanguage: 'en', targetLanguage: 'de' }], {
        kind: 'shared',
      }),
    );
    const jane = await signedIn('jane');
    await jane.goto(plural.web_url);
    await expect(jane.locator('.memory [data-memory-target]').allTextContents()).resolves.toContain('%n Datei markiert | %n Dateien markiert');
    const item = jane.locator('.memory li[data-memory]', { hasText: 'markiert' });
    await item.locator('button[data-copy]').click();
    await expect(jane.locator('#target_0').inputValue()).resolves.toBe('%n Datei markiert');
    await expect(jane.locator('#target_1').inputValue()).resolves.toBe('%n Dateien markiert');
  });

  it('keeps the history beside the string readable: every word whole on its line, nothing naming the string again', async () => {
    const target = await germanUnit('Open a file');
    // a long compound word, as German has: in the squeezed history table it broke mid-word over three lines
    const text = 'Die Passwortwiederherstellungsdatei öffnen, die auf dem Rechner liegt';
    const r = await env.request('PATCH', `/api/units/${target.id}/`, { token: env.tokens.admin, json: { target: [text], state: 20 } });
    expect(r.status).toBe(200);
    const jane = await signedIn('jane');
    await jane.goto(target.web_url);
    const history = jane.locator('section[aria-labelledby="history-h"]');
    await expect(history.textContent()).resolves.toContain(text);
    await expect(history.textContent()).resolves.not.toContain('Where');
    // every word of the history is drawn as one box (a word broken over lines has one per line)
    const broken = await history.evaluate((section) => {
      const out: string[] = [];
      const walker = document.createTreeWalker(section, 4);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.textContent.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          if (range.getClientRects().length > 1) out.push(m[0]);
        }
      }
      return out;
    });
    expect(broken).toEqual([]);
  });
});
