// A translation's plural follows its file as in Weblate: a PO file's own Plural-Forms (Midnight Commander's ru with 4
// forms where Russian has 3, pt_BR with 3 where Portuguese has 2), Android's CLDR forms (French one/many/other) and
// .stringsdict's with zero: the API's targets, the edits it takes, the editor's fields and labels, and the file written.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import type { Store } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { describeCorpus, repoRoot } from '../helpers/corpus.js';
import { gettextAvailable, msgfmtCheck } from '../helpers/gettext.js';
import { gitCli } from '../helpers/git-repo.js';
import { type HttpAnswer, type HttpRequest, httpRequest } from '../helpers/http.js';
import { sqlOn } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

const FIXTURES = path.join(repoRoot, 'fixtures', 'formats');
const RES = 'app/src/main/res';
const FRENCH = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name">Petite appli</string>
    <plurals name="files">
        <item quantity="one">%d fichier</item>
        <item quantity="many">%d de fichiers</item>
        <item quantity="other">%d fichiers</item>
    </plurals>
</resources>
`;
const QUIT = 'You have %zu opened screen. Quit anyway?';

describeCorpus('a translation’s plural follows its file', (corpus) => {
  let env: SyncEnv;
  let config: Config;
  let store: Store;
  let server: RunningServer;
  let tokens: { jane: string; mike: string };
  const errors: string[] = [];
  const request = (method: string, url: string, opts: Omit<HttpRequest, 'method'> = {}): Promise<HttpAnswer> =>
    httpRequest(server.url, url, { ...opts, method });
  const mc = (name: string) => readFileSync(path.join(corpus, 'MidnightCommander-mc', 'po', name));

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('mc', { 'po/mc.pot': mc('mc.pot'), 'po/ru.po': mc('ru.po'), 'po/pt_BR.po': mc('pt_BR.po') });
    await env.addUpstream('android', {
      [`${RES}/values/strings.xml`]: readFileSync(path.join(FIXTURES, 'android', 'values', 'strings.xml')),
      [`${RES}/values-fr/strings.xml`]: FRENCH,
    });
    await env.addUpstream('ios', {
      'Resources/en.lproj/Localizable.stringsdict': readFileSync(path.join(FIXTURES, 'apple', 'en.lproj', 'Localizable.stringsdict')),
      'Resources/cs.lproj/Localizable.stringsdict': readFileSync(path.join(FIXTURES, 'apple', 'cs.lproj', 'Localizable.stringsdict')),
    });
    const component = (slug: string, extra: Record<string, unknown>) =>
      env.component(slug, { repo: env.server.url(`${slug === 'ios-plurals' ? 'ios' : slug}.git`, CREDENTIALS), ...extra });
    const components = [
      component('mc', { filemask: 'po/*.po', new_base: 'po/mc.pot', file_format: 'po' }),
      component('android', { filemask: `${RES}/values-*/strings.xml`, template: `${RES}/values/strings.xml`, file_format: 'aresource' }),
      component('ios-plurals', {
        filemask: 'Resources/*.lproj/Localizable.stringsdict',
        template: 'Resources/en.lproj/Localizable.stringsdict',
        file_format: 'stringsdict',
      }),
    ];
    config = env.config([{ name: 'Plurals', slug: 'plurals', components }], { committer: { name: 'tms test', email: 'tms@test.invalid' } });
    store = await env.openStore();
    await store.write((tx) => applyConfig(tx, config));
    for (const c of components) {
      const [result] = await syncProject(store, config, 'plurals', c.slug);
      if (!result?.ok) throw new Error(`sync of plurals/${c.slug} failed: ${result?.error}`);
    }
    const jane = await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
    const mike = await store.write((tx) => createUser(tx, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' }));
    await store.write((tx) => joinTeams(tx, mike.user.id, ['Managers']));
    tokens = { jane: jane.token, mike: mike.token };
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await env?.close();
    expect(errors).toEqual([]);
  });

  type ApiUnit = { id: number; context: string; source: string[]; target: string[]; web_url: string };
  async function unitOf(translation: string, q: string, match: (u: ApiUnit) => boolean): Promise<ApiUnit> {
    const units = (await request('GET', `/api/translations/plurals/${translation}/units/?q=${encodeURIComponent(q)}`)).json.results as ApiUnit[];
    const unit = units.find(match);
    expect(unit, `${translation} ${q}`).toBeDefined();
    return unit!;
  }

  /** The editor's plural fields for a unit: each label with its textarea's text. */
  async function editorFields(unit: ApiUnit): Promise<[string, string][]> {
    const page = (await request('GET', new URL(unit.web_url).pathname + new URL(unit.web_url).search, { headers: { Accept: 'text/html' } })).text;
    const fields = [...page.matchAll(/<label for="target_(\d)">([^<]*)<\/label>\s*<textarea id="target_\1"[^>]*>([^<]*)<\/textarea>/g)];
    return fields.map((m) => [m[2]!, m[3]!]);
  }

  it('PO: the API lists and takes the file’s 4 Russian forms and 3 Brazilian ones; the editor shows them, labelled by the file’s formula', async () => {
    const ru = await unitOf('mc/ru', `source:"${QUIT}"`, (u) => u.source[0] === QUIT);
    expect(ru.target).toHaveLength(4);
    expect(ru.target[3]).toBe('У вас %zu открытых экранов. Всё равно выйти?');
    expect(await editorFields(ru)).toEqual([
      ['one: 1, 21, 31…', 'У вас %zu открытый экран. Всё равно выйти?'],
      ['few: 2, 3, 4…', 'У вас %zu открытых экрана. Всё равно выйти?'],
      ['many: 0, 5, 6…', 'У вас %zu открытых экранов. Всё равно выйти?'],
      ['other', 'У вас %zu открытых экранов. Всё равно выйти?'],
    ]);
    const pt = await unitOf('mc/pt_BR', `source:"${QUIT}"`, (u) => u.source[0] === QUIT);
    expect(pt.target).toHaveLength(3);
    expect((await editorFields(pt)).map(([label]) => label)).toEqual(['one: 0, 1', 'many: 1000000, 2000000, 3000000…', 'other: 2, 3, 4…']);
    // Weblate's translation API keeps showing the language's own plural in `language.plural`
    const translation = (await request('GET', '/api/translations/plurals/mc/ru/')).json;
    expect(translation.language.plural).toMatchObject({ number: 3 });

    const wrong = await request('PATCH', `/api/units/${ru.id}/`, { token: tokens.jane, json: { target: ru.target.slice(0, 3), state: 20 } });
    expect(wrong.status).toBe(400);
    const forms = [...ru.target.slice(0, 3), 'У вас %zu открытого экрана. Всё равно выйти?'];
    const edit = await request('PATCH', `/api/units/${ru.id}/`, { token: tokens.jane, json: { target: forms, state: 20 } });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.json.target).toEqual(forms);
    const commit = await request('POST', '/api/components/plurals/mc/repository/', { token: tokens.mike, json: { operation: 'commit' } });
    expect(commit.json, commit.text).toMatchObject({ result: true });
    const diff = await gitCli(env.upstream('mc'), ['show', '--format=', 'HEAD']);
    const entry = diff.split('\n').filter((l) => /^[-+]msg/.test(l));
    expect(entry).toEqual(['-msgstr[3] "У вас %zu открытых экранов. Всё равно выйти?"', '+msgstr[3] "У вас %zu открытого экрана. Всё равно выйти?"']);
  });

  /** A translation downloaded as PO (`?format=po`): its header's Plural-Forms, what msgfmt --check says, and the file. */
  async function poDownload(translation: string): Promise<{ pluralForms: string; check: string[]; text: string }> {
    const answer = await request('GET', `/api/translations/plurals/${translation}/file/?format=po`);
    expect(answer.status, answer.text).toBe(200);
    const file = path.join(env.root, `${translation.replaceAll('/', '-')}.po`);
    writeFileSync(file, answer.bytes);
    const text = answer.bytes.toString();
    // the header entry's text: its quoted lines joined (a long field is wrapped over several)
    const header = text
      .slice(0, text.indexOf('\n\n'))
      .split('\n')
      .filter((l) => l.startsWith('"'))
      .map((l) => l.slice(1, -1))
      .join('');
    return { pluralForms: /Plural-Forms: (.*?)\\n/.exec(header)?.[1] ?? '', check: gettextAvailable ? msgfmtCheck(file) : [], text };
  }

  it('PO downloads carry the translation’s plural: the file’s own, Android’s CLDR forms, .stringsdict’s with zero', async () => {
    const ru = await poDownload('mc/ru');
    expect(ru.pluralForms).toBe(
      'nplurals=4; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : n%10==0 || (n%10>=5 && n%10<=9) || (n%100>=11 && n%100<=14)? 2 : 3);',
    );
    expect(ru.text).toContain('msgstr[3] "У вас %zu открытого экрана. Всё равно выйти?"');
    expect(ru.check).toEqual([]);
    const fr = await poDownload('android/fr');
    expect(fr.pluralForms).toBe('nplurals=3; plural=(n == 0 || n == 1) ? 0 : ((n != 0 && n % 1000000 == 0) ? 1 : 2);');
    expect(fr.text).toContain(
      'msgctxt "files"\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d fichier"\nmsgstr[1] "%d de fichiers"\nmsgstr[2] "%d fichiers"',
    );
    expect(fr.check).toEqual([]);
    const cs = await poDownload('ios-plurals/cs');
    expect(cs.pluralForms).toBe('nplurals=4; plural=(n == 0) ? 0 : (((n == 1) ? 0 : ((n >= 2 && n <= 4) ? 1 : 2)) + 1);');
    expect(cs.check).toEqual([]);
  });

  it('a store from before translations had their own plural reads the PO files again at the next sync, at the same commit', async () => {
    // what migration 11 leaves: no plural of the file's known, the PO files' revisions forgotten
    await sqlOn(store).run("UPDATE translations SET plural_number = NULL, plural_formula = NULL, revision = '' WHERE filename LIKE 'po/%'");
    const before = (await unitOf('mc/ru', `source:"${QUIT}"`, (u) => u.source[0] === QUIT)).target;
    expect(before).toHaveLength(3);
    const [result] = await syncProject(store, config, 'plurals', 'mc');
    expect(result?.ok, result?.error).toBe(true);
    expect(result!.files.filter((f) => f.status === 'parsed').map((f) => f.path)).toEqual(['po/pt_BR.po', 'po/ru.po']);
    const after = await unitOf('mc/ru', `source:"${QUIT}"`, (u) => u.source[0] === QUIT);
    expect(after.target).toHaveLength(4);
    expect(after.target[3]).toBe('У вас %zu открытого экрана. Всё равно выйти?');
  });

  it('Android: French strings take CLDR’s one/many/other where French has 2 forms', async () => {
    const files = await unitOf('android/fr', 'context:files', (u) => u.context === 'files');
    expect(files.target).toEqual(['%d fichier', '%d de fichiers', '%d fichiers']);
    expect((await editorFields(files)).map(([label]) => label.replace(/:.*/, ''))).toEqual(['one', 'many', 'other']);
    const edit = await request('PATCH', `/api/units/${files.id}/`, {
      token: tokens.jane,
      json: { target: ['%d fichier', '%d de fichiers', '%d fichiers !'], state: 20 },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.json.target).toEqual(['%d fichier', '%d de fichiers', '%d fichiers !']);
  });

  it('.stringsdict: Czech variables show zero, one, few, other', async () => {
    const files = await unitOf('ios-plurals/cs', 'context:files.count:files', (u) => u.context === 'files.count:files');
    expect(files.target).toEqual(['', '%ld soubor', '%ld soubory', '%ld souborů']);
    expect(await editorFields(files)).toEqual([
      ['zero: 0', ''],
      ['one: 1', '%ld soubor'],
      ['few: 2, 3, 4', '%ld soubory'],
      ['other: 5, 6, 7…', '%ld souborů'],
    ]);
  });
});
