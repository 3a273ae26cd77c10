// Android and Apple projects end to end: synced from git upstreams on loopback, edited through the API, committed and
// pushed (upstream's diff shows the edited entry only), downloaded and uploaded with wlc, new languages added.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import type { Store } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { repoRoot } from '../helpers/corpus.js';
import { gitCli, readUpstreamFile } from '../helpers/git-repo.js';
import { httpRequest } from '../helpers/http.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

const run = promisify(execFile);
const FIXTURES = path.join(repoRoot, 'fixtures', 'formats');
const RES = 'app/src/main/res';
const probe = spawnSync('wlc', ['--version'], { encoding: 'utf8' });
const wlcVersion = probe.status === 0 ? probe.stdout.trim() : null;
if (!wlcVersion) console.warn('[skip] mobile wlc tests: the `wlc` client is not installed (Debian package wlc)');

/** The lines a commit changed in the upstream: `-`/`+` lines of `git show`, headers left out. */
async function changedLines(upstream: string): Promise<string[]> {
  const diff = await gitCli(upstream, ['show', '--format=', 'HEAD']);
  return diff.split('\n').filter((l) => /^[-+]/.test(l) && !/^(?:---|\+\+\+) /.test(l));
}

describe('Android and Apple projects end to end', () => {
  let env: SyncEnv;
  let config: Config;
  let store: Store;
  let server: RunningServer;
  let jane: string;
  let mike: string;
  const errors: string[] = [];
  const request = (method: string, url: string, opts: { token?: string; json?: unknown } = {}) => httpRequest(server.url, url, { ...opts, method });

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('android', { fixture: path.join(FIXTURES, 'android'), into: RES });
    await env.addUpstream('android-flags', { fixture: path.join(FIXTURES, 'android-flags'), into: RES });
    const apple = (lang: string, file: string) => readFileSync(path.join(FIXTURES, 'apple', `${lang}.lproj`, file));
    await env.addUpstream('ios', {
      'Resources/en.lproj/Localizable.strings': apple('en', 'Localizable.strings'),
      'Resources/cs.lproj/Localizable.strings': apple('cs', 'Localizable.strings'),
      'Resources/en.lproj/Localizable.stringsdict': apple('en', 'Localizable.stringsdict'),
      'Resources/cs.lproj/Localizable.stringsdict': apple('cs', 'Localizable.stringsdict'),
    });
    const component = (slug: string, upstream: string, extra: Record<string, unknown>) => ({
      name: slug,
      slug,
      vcs: 'git',
      branch: 'main',
      source_language: 'en',
      repo: env.server.url(`${upstream}.git`, CREDENTIALS),
      new_lang: 'add',
      ...extra,
    });
    config = env.config(
      [
        {
          name: 'Mobile',
          slug: 'mobile',
          components: [
            component('android', 'android', { filemask: `${RES}/values-*/strings.xml`, template: `${RES}/values/strings.xml`, file_format: 'aresource' }),
            component('android-flags', 'android-flags', {
              filemask: `${RES}/values-*/strings.xml`,
              template: `${RES}/values/strings.xml`,
              file_format: 'aresource',
            }),
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
          ],
        },
      ],
      { committer: { name: 'tms test', email: 'tms@test.invalid' } },
    );
    store = await env.openStore();
    await store.write((tx) => applyConfig(tx, config));
    for (const slug of ['android', 'android-flags', 'ios', 'ios-plurals']) {
      const [result] = await syncProject(store, config, 'mobile', slug);
      if (!result?.ok) throw new Error(`sync of mobile/${slug} failed: ${result?.error}`);
    }
    jane = (await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }))).token;
    const manager = await store.write((tx) => createUser(tx, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' }));
    await store.write((tx) => joinTeams(tx, manager.user.id, ['Managers']));
    mike = manager.token;
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
  });
  afterAll(async () => {
    await server?.close();
    await env?.close();
    expect(errors).toEqual([]);
  });

  async function edit(translation: string, context: string, target: string[]): Promise<void> {
    const units = (await request('GET', `/api/translations/mobile/${translation}/units/?q=context:"${context}"`)).json.results;
    const unit = units.find((u: { context: string }) => u.context === context);
    expect(unit, context).toBeDefined();
    const r = await request('PATCH', `/api/units/${unit.id}/`, { token: jane, json: { target, state: 20 } });
    expect(r.status, r.text).toBe(200);
  }

  async function commit(component: string): Promise<void> {
    const r = await request('POST', `/api/components/mobile/${component}/repository/`, { token: mike, json: { operation: 'commit' } });
    expect(r.json, r.text).toMatchObject({ result: true });
  }

  it('lists the units Weblate lists: template keys, plural forms, a read-only string', async () => {
    const cs = (await request('GET', '/api/translations/mobile/android/cs/units/')).json;
    expect(cs.count).toBe(16);
    const files = cs.results.find((u: { context: string }) => u.context === 'files');
    expect(files.target).toEqual(['%d soubor', '%d soubory', '%d souborů']);
    expect(cs.results.find((u: { context: string }) => u.context === 'nontrans').state).toBe(100);
    const dict = (await request('GET', '/api/translations/mobile/ios-plurals/cs/units/')).json.results;
    expect(dict.map((u: { context: string }) => u.context)).toEqual(['files.count', 'files.count:files', 'people', 'people:people']);
  });

  it('Android flags from maxwidth and weblate-flags attributes: shown on the unit, read-only applied, max-length checked', async () => {
    const units = (await request('GET', '/api/translations/mobile/android-flags/cs/units/')).json.results as Array<{
      context: string;
      flags: string;
      state: number;
    }>;
    const byKey = new Map(units.map((u) => [u.context, u]));
    expect(byKey.get('title')?.flags).toBe('max-length:20');
    expect(byKey.get('both')?.flags).toBe('ignore-end-stop, max-length:10');
    expect(byKey.get('code')).toMatchObject({ flags: 'read-only', state: 100 });
    const failing = (await request('GET', '/api/translations/mobile/android-flags/cs/units/?q=check:max-length')).json.results;
    expect(failing.map((u: { context: string }) => u.context)).toEqual(['title']);
  });

  it('a .stringsdict plural shows the forms an edit takes (zero first): the API takes back what it lists, the editor has a field for each', async () => {
    const units = (await request('GET', '/api/translations/mobile/ios-plurals/cs/units/?q=context:"files.count:files"')).json.results;
    const files = units.find((u: { context: string }) => u.context === 'files.count:files');
    expect(files.target).toEqual(['', '%ld soubor', '%ld soubory', '%ld souborů']);
    const r = await request('PATCH', `/api/units/${files.id}/`, { token: jane, json: { target: files.target, state: 20 } });
    expect(r.status, r.text).toBe(200);
    const editor = await request('GET', `/translate/mobile/ios-plurals/cs/?q=${encodeURIComponent('context:"files.count:files"')}`);
    expect(editor.status).toBe(200);
    const labels = [...editor.text.matchAll(/<label for="target_\d+">([^<]*)<\/label>/g)].map((m) => m[1]);
    expect(labels).toEqual(['zero: 0', 'one: 1', 'few: 2, 3, 4', 'other: 5, 6, 7…']);
    expect([...editor.text.matchAll(/<textarea id="target_\d+"[^>]*>([^<]*)<\/textarea>/g)].map((m) => m[1])).toEqual(files.target);
  });

  it('Android: an edited string and an edited plural form reach upstream as those lines only (BOM and CRLF kept)', async () => {
    await edit('android/cs', 'app_name', ['Moje aplikace']);
    await commit('android');
    expect(await changedLines(env.upstream('android'))).toEqual([
      '-    <string name="app_name">Malá aplikace</string>',
      '+    <string name="app_name">Moje aplikace</string>',
    ]);
    await edit('android/de', 'files', ['%d Datei', '%d Dateien insgesamt']);
    await commit('android');
    expect(await changedLines(env.upstream('android'))).toEqual([
      '-        <item quantity="other">%d Dateien</item>\r',
      '+        <item quantity="other">%d Dateien insgesamt</item>\r',
    ]);
    const de = (await readUpstreamFile(env.upstream('android'), 'main', `${RES}/values-de/strings.xml`))!;
    expect([...de.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('Apple: an edited .strings value and an edited .stringsdict form reach upstream as those lines only', async () => {
    await edit('ios/cs', 'welcome', ['Ahoj, %@!']);
    await commit('ios');
    expect(await changedLines(env.upstream('ios'))).toEqual(['-"welcome" = "Vítejte, %@!";', '+"welcome" = "Ahoj, %@!";']);
    await edit('ios-plurals/cs', 'files.count:files', ['', '%ld soubor', '%ld soubory!', '%ld souborů']);
    await commit('ios-plurals');
    expect(await changedLines(env.upstream('ios'))).toEqual(['-\t\t\t<string>%ld soubory</string>', '+\t\t\t<string>%ld soubory!</string>']);
  });

  it('adds languages in the formats’ folder names: values-pt-rBR and pt-BR.lproj, from Weblate’s skeletons', async () => {
    const android = await request('POST', '/api/components/mobile/android/translations/', { token: jane, json: { language_code: 'pt_BR' } });
    expect(android.status, android.text).toBe(201);
    // the read-only string counts as translated, as in Weblate
    expect(android.json.data).toMatchObject({ language_code: 'pt-rBR', filename: `${RES}/values-pt-rBR/strings.xml`, total: 16, translated: 1 });
    const ios = await request('POST', '/api/components/mobile/ios/translations/', { token: jane, json: { language_code: 'pt_BR' } });
    expect(ios.status, ios.text).toBe(201);
    expect(ios.json.data).toMatchObject({ filename: 'Resources/pt-BR.lproj/Localizable.strings', total: 7 });
    // a translated string goes into the new file, appended; the commit pushes the new file too
    await edit('android/pt_BR', 'ws', ['Olá']);
    await commit('android');
    expect(await gitCli(env.upstream('android'), ['show', `HEAD~1:${RES}/values-pt-rBR/strings.xml`])).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<resources></resources>',
    );
    expect(await changedLines(env.upstream('android'))).toEqual(
      ['-<resources></resources>', '\\ No newline at end of file', '+<resources>', '+    <string name="ws">Olá</string>', '+</resources>'].filter((l) =>
        /^[-+]/.test(l),
      ),
    );
  });

  it('checks Android strings as Java printf format (the format’s java-printf-format flag), a plural form of 0 and 1 strictly', async () => {
    const failing = async (translation: string) =>
      (
        (await request('GET', `/api/translations/mobile/${translation}/units/?q=${encodeURIComponent('check:java_printf_format')}`)).json.results as {
          context: string;
        }[]
      ).map((u) => u.context);
    await edit('android/de', 'files', ['%d Datei', '%s Dateien']);
    expect(await failing('android/de')).toEqual(['files']);
    // German's `one` is 1 alone: its form may leave the number out
    await edit('android/de', 'files', ['Eine Datei', '%d Dateien']);
    expect(await failing('android/de')).toEqual([]);
    // Portuguese's `one` is 0 and 1: Weblate lets a gettext file leave the number out there, not an Android one
    await edit('android/pt_BR', 'files', ['Um arquivo', '%d de arquivos', '%d arquivos']);
    expect(await failing('android/pt_BR')).toEqual(['files']);
    await edit('android/pt_BR', 'files', ['%d arquivo', '%d de arquivos', '%d arquivos']);
    expect(await failing('android/pt_BR')).toEqual([]);
    // the flag is the format's, as in Weblate: the string's own flags stay empty
    const unit = (await request('GET', '/api/translations/mobile/android/de/units/?q=context:files')).json.results[0];
    expect(unit.flags).toBe('');
  });

  (wlcVersion ? describe : describe.skip)(`wlc (${wlcVersion ?? 'not installed'})`, () => {
    async function wlc(...args: string[]): Promise<string> {
      const home = env.root;
      writeFileSync(path.join(home, 'wlc.ini'), `[weblate]\nurl = ${server.url}/api/\nkey = ${mike}\n`);
      const { stdout, stderr } = await run('wlc', ['--config', path.join(home, 'wlc.ini'), ...args], {
        cwd: home,
        env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, XDG_CONFIG_DIRS: home },
        timeout: 60_000,
        encoding: 'utf8',
      });
      expect(stderr).toBe('');
      return stdout;
    }

    it('downloads the translation files as they are upstream, and uploads an edited one', async () => {
      const out = path.join(env.root, 'cs.xml');
      await wlc('download', 'mobile/android/cs', '--output', out);
      expect(readFileSync(out).equals((await readUpstreamFile(env.upstream('android'), 'main', `${RES}/values-cs/strings.xml`))!)).toBe(true);
      const strings = path.join(env.root, 'cs.strings');
      await wlc('download', 'mobile/ios/cs', '--output', strings);
      expect(readFileSync(strings, 'utf8')).toContain('"welcome" = "Ahoj, %@!";');

      // a string the Czech file lacks, added to the downloaded file by hand
      writeFileSync(out, readFileSync(out, 'utf8').replace('</resources>', '    <string name="ws">Ahoj \\"světe\\"</string>\n</resources>'));
      await wlc('upload', 'mobile/android/cs', '--input', out);
      const units = (await request('GET', '/api/translations/mobile/android/cs/units/?q=context:ws')).json.results;
      expect(units[0]).toMatchObject({ target: ['Ahoj "světe"'], pending: true });
    });
  });
});
