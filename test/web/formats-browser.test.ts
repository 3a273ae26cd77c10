// gettext PO, XLIFF, Android and Apple projects edited in the web editor (Debian's chromium): synced from git upstreams
// on loopback, a string and a plural string saved in the editor, committed from the repository page or the API, and
// upstream's `git diff` showing only the edited entries.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import type { Store } from '../../src/store/index.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { SCREENSHOTS, ensureAssets, findChromium, launchBrowser } from '../helpers/browser.js';
import { repoRoot } from '../helpers/corpus.js';
import { gitCli } from '../helpers/git-repo.js';
import { type HttpAnswer, type HttpRequest, httpRequest } from '../helpers/http.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('SKIPPED: format browser tests: no chromium found (apt-get install chromium, or set CHROMIUM=/path)');

const FIXTURES = path.join(repoRoot, 'fixtures', 'formats');
const fixture = (rel: string) => readFileSync(path.join(FIXTURES, rel));
const RES = 'app/src/main/res';
const PASSWORDS = { jane: 'jane-password-1', mike: 'mike-password-1' };

/** The lines the upstream's last commit changed: `-`/`+` lines of `git show`, file headers left out. */
async function changedLines(upstream: string): Promise<string[]> {
  const diff = await gitCli(upstream, ['show', '--format=', 'HEAD']);
  return diff.split('\n').filter((l) => /^[-+]/.test(l) && !/^(?:---|\+\+\+) /.test(l));
}

describe.skipIf(!chromiumPath)('file formats edited in the web editor', () => {
  let env: SyncEnv;
  let store: Store;
  let server: RunningServer;
  let browser: Browser;
  let tokens: { jane: string; mike: string };
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  const request = (method: string, url: string, opts: Omit<HttpRequest, 'method'> = {}): Promise<HttpAnswer> =>
    httpRequest(server.url, url, { ...opts, method });

  beforeAll(async () => {
    await ensureAssets();
    env = await createSyncEnv();
    await env.addUpstream('po', { 'po/messages.pot': fixture('po/messages.pot'), 'po/cs.po': fixture('po/cs.po') });
    await env.addUpstream('ng', { 'src/locale/messages.xlf': fixture('xliff/angular.xlf'), 'src/locale/messages.de.xlf': fixture('xliff/angular.de.xlf') });
    await env.addUpstream('android', { fixture: path.join(FIXTURES, 'android'), into: RES });
    await env.addUpstream('ios', {
      'Resources/en.lproj/Localizable.strings': fixture('apple/en.lproj/Localizable.strings'),
      'Resources/cs.lproj/Localizable.strings': fixture('apple/cs.lproj/Localizable.strings'),
      'Resources/en.lproj/Localizable.stringsdict': fixture('apple/en.lproj/Localizable.stringsdict'),
      'Resources/cs.lproj/Localizable.stringsdict': fixture('apple/cs.lproj/Localizable.stringsdict'),
    });
    const component = (slug: string, upstream: string, extra: Record<string, unknown>) => ({
      name: slug,
      slug,
      vcs: 'git',
      branch: 'main',
      source_language: 'en',
      repo: env.server.url(`${upstream}.git`, CREDENTIALS),
      ...extra,
    });
    const components = [
      component('po', 'po', { filemask: 'po/*.po', new_base: 'po/messages.pot', file_format: 'po' }),
      component('xliff', 'ng', { filemask: 'src/locale/messages.*.xlf', new_base: 'src/locale/messages.xlf', file_format: 'xliff' }),
      component('android', 'android', { filemask: `${RES}/values-*/strings.xml`, template: `${RES}/values/strings.xml`, file_format: 'aresource' }),
      component('ios', 'ios', {
        filemask: 'Resources/*.lproj/Localizable.strings',
        template: 'Resources/en.lproj/Localizable.strings',
        file_format: 'strings-utf8',
      }),
      component('ios-plurals', 'ios', {
        filemask: 'Resources/*.lproj/Localizable.stringsdict',
        template: 'Resources/en.lproj/Localizable.stringsdict',
        file_format: 'stringsdict',
      }),
    ];
    const config = env.config([{ name: 'Formats', slug: 'formats', components }], {
      committer: { name: 'tms test', email: 'tms@test.invalid' },
      site_url: 'http://tms.example',
    });
    store = await env.openStore();
    await store.write((tx) => applyConfig(tx, config));
    for (const c of components) {
      const [result] = await syncProject(store, config, 'formats', c.slug);
      if (!result?.ok) throw new Error(`sync of formats/${c.slug} failed: ${result?.error}`);
    }
    const jane = await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
    const mike = await store.write((tx) => createUser(tx, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' }));
    await store.write((tx) => joinTeams(tx, mike.user.id, ['Managers']));
    for (const [name, password] of Object.entries(PASSWORDS)) {
      const hash = await hashPassword(password);
      await store.write((tx) => setPasswordHash(tx, name, hash));
    }
    tokens = { jane: jane.token, mike: mike.token };
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
    browser = await launchBrowser(chromiumPath!);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.close();
    await env?.close();
    expect(errors).toEqual([]);
  });

  async function signedIn(user: keyof typeof PASSWORDS): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/accounts/login/`);
    await page.fill('input[name="username"]', user);
    await page.fill('input[name="password"]', PASSWORDS[user]);
    await Promise.all([page.waitForURL(`${server.url}/`), page.click('button[type="submit"].primary')]);
    return page;
  }

  type ApiUnit = { id: number; context: string; source: string[]; target: string[]; web_url: string; pending: boolean; state: number };
  async function unitOf(translation: string, match: (u: ApiUnit) => boolean): Promise<ApiUnit> {
    const units = (await request('GET', `/api/translations/formats/${translation}/units/`, { token: tokens.jane })).json.results as ApiUnit[];
    const unit = units.find(match);
    expect(unit, translation).toBeDefined();
    return unit!;
  }

  /**
   * Opens the string's web_url in the editor, checks its fields' labels, types `forms` into them and saves with the
   * Save button; returns the labels. The API then shows the string with those forms, pending.
   */
  async function editInBrowser(
    page: Page,
    translation: string,
    unit: ApiUnit,
    forms: string[],
    screenshot?: string,
    beforeTyping?: () => Promise<void>,
  ): Promise<string[]> {
    await page.goto(unit.web_url.replace('http://tms.example', server.url));
    const fields = page.locator('.translate-form textarea[name^="target_"]');
    await expect(fields.count()).resolves.toBe(forms.length);
    const labels: string[] = [];
    for (let i = 0; i < forms.length; i++) labels.push(((await page.locator(`label[for="target_${i}"]`).textContent()) ?? '').trim());
    if (screenshot && SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${screenshot}.png`), fullPage: true });
    await beforeTyping?.();
    for (let i = 0; i < forms.length; i++) await page.fill(`#target_${i}`, forms[i]!);
    const saved = page.waitForResponse((r) => r.url().endsWith(`/api/units/${unit.id}/`) && r.request().method() === 'PATCH');
    await page.click('button[name="save"]');
    expect((await saved).status()).toBe(200);
    await expect(page.locator('[data-save-error]').count()).resolves.toBe(0);
    const after = (await request('GET', `/api/units/${unit.id}/`, { token: tokens.jane })).json;
    expect(after.target, translation).toEqual(forms);
    expect(after.pending).toBe(true);
    return labels;
  }

  async function commitFromPage(component: string): Promise<void> {
    const page = await signedIn('mike');
    await page.goto(`${server.url}/repository/formats/${component}/`);
    await expect(page.locator('[data-pending]').getAttribute('data-pending')).resolves.not.toBe('0');
    await page.click('button[name="operation"][value="commit"]');
    await expect(page.locator('[data-result]').getAttribute('data-result')).resolves.toBe('ok');
  }

  async function commitByApi(component: string): Promise<void> {
    const r = await request('POST', `/api/components/formats/${component}/repository/`, { token: tokens.mike, json: { operation: 'commit' } });
    expect(r.json, r.text).toMatchObject({ result: true });
  }

  it('gettext PO: a string and a plural string saved in the editor, committed from the repository page: upstream changes those entries and the header', async () => {
    const page = await signedIn('jane');
    await editInBrowser(page, 'po/cs', await unitOf('po/cs', (u) => u.source[0] === 'Monday'), ['Pondělí!']);
    const plural = await unitOf('po/cs', (u) => u.source[0] === '%d file');
    // the memory offers the Android string of the same source, form by form; Copy fills each field with its form
    const fromMemory = async () => {
      const match = page.locator('.memory li[data-memory]', { hasText: 'formats/android' });
      await expect(match.locator('[data-memory-target]').textContent()).resolves.toBe('%d soubor | %d soubory | %d souborů');
      await match.locator('button[data-copy]').click();
      await expect(page.locator('.translate-form textarea').evaluateAll((t) => t.map((x) => (x as { value: string }).value))).resolves.toEqual([
        '%d soubor',
        '%d soubory',
        '%d souborů',
      ]);
    };
    const labels = await editInBrowser(page, 'po/cs', plural, ['%d soubor!', '%d soubory!', '%d souborů!'], 'editor-po-plural', fromMemory);
    expect(labels).toEqual(['one: 1', 'few: 2, 3, 4', 'other: 0, 5, 6…']);
    await commitFromPage('po');
    const changed = await changedLines(env.upstream('po'));
    const entries = changed.filter((l) => !/^[-+]"/.test(l));
    expect(entries).toEqual([
      '-msgstr "Pondělí"',
      '+msgstr "Pondělí!"',
      '-msgstr[0] "%d soubor"',
      '-msgstr[1] "%d soubory"',
      '-msgstr[2] "%d souborů"',
      '+msgstr[0] "%d soubor!"',
      '+msgstr[1] "%d soubory!"',
      '+msgstr[2] "%d souborů!"',
    ]);
    // the rest are the header's lines Weblate rewrites on a commit (Last-Translator was Jane already)
    expect(changed.filter((l) => /^[-+]"/.test(l)).map((l) => l.replace(/: .*/, ''))).toEqual([
      '-"PO-Revision-Date',
      '+"PO-Revision-Date',
      '-"Language-Team',
      '+"Language-Team',
      '+"X-Generator',
    ]);
  });

  it('XLIFF: a string saved in the editor, committed through the API: upstream gains that <target> only', async () => {
    const page = await signedIn('jane');
    await editInBrowser(page, 'xliff/de', await unitOf('xliff/de', (u) => u.source[0] === 'Create Account'), ['Konto anlegen']);
    await commitByApi('xliff');
    expect(await changedLines(env.upstream('ng'))).toEqual(['+        <target state="translated">Konto anlegen</target>']);
  });

  it('Android: a string and a <plurals> string saved in the editor (the file’s CLDR forms), committed from the repository page', async () => {
    const page = await signedIn('jane');
    await editInBrowser(page, 'android/cs', await unitOf('android/cs', (u) => u.context === 'app_name'), ['Moje aplikace']);
    const labels = await editInBrowser(page, 'android/cs', await unitOf('android/cs', (u) => u.context === 'files'), [
      '%d soubor',
      '%d soubory',
      '%d souborů!',
    ]);
    expect(labels.map((l) => l.replace(/:.*/, ''))).toEqual(['one', 'few', 'other']);
    await commitFromPage('android');
    expect(await changedLines(env.upstream('android'))).toEqual([
      '-    <string name="app_name">Malá aplikace</string>',
      '+    <string name="app_name">Moje aplikace</string>',
      '-        <item quantity="other">%d souborů</item>',
      '+        <item quantity="other">%d souborů!</item>',
    ]);
  });

  it('Apple: a .strings value and a .stringsdict plural (zero first) saved in the editor, committed through the API', async () => {
    const page = await signedIn('jane');
    await editInBrowser(page, 'ios/cs', await unitOf('ios/cs', (u) => u.context === 'welcome'), ['Ahoj, %@!']);
    await commitByApi('ios');
    expect(await changedLines(env.upstream('ios'))).toEqual(['-"welcome" = "Vítejte, %@!";', '+"welcome" = "Ahoj, %@!";']);
    const plural = await unitOf('ios-plurals/cs', (u) => u.context === 'files.count:files');
    expect(plural.target).toEqual(['', '%ld soubor', '%ld soubory', '%ld souborů']);
    const labels = await editInBrowser(page, 'ios-plurals/cs', plural, ['', '%ld soubor', '%ld soubory', '%ld souborů!']);
    expect(labels.map((l) => l.replace(/:.*/, ''))).toEqual(['zero', 'one', 'few', 'other']);
    await commitFromPage('ios-plurals');
    expect(await changedLines(env.upstream('ios'))).toEqual(['-\t\t\t<string>%ld souborů</string>', '+\t\t\t<string>%ld souborů!</string>']);
  });
});
