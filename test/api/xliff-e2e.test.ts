// XLIFF end to end: sync from a git upstream on loopback, edits through the API, commit and push, `git diff`, wlc download/upload, a new language.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { State } from '../../src/domain/unit.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import type { Store } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { FIXTURES } from '../formats/conformance.js';
import { gitCli, readUpstreamFile } from '../helpers/git-repo.js';
import { type HttpAnswer, httpRequest } from '../helpers/http.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

const run = promisify(execFile);
const wlcProbe = spawnSync('wlc', ['--version'], { encoding: 'utf8' });
const hasWlc = wlcProbe.status === 0;
if (!hasWlc) console.warn('[skip] XLIFF wlc steps: the `wlc` client is not installed (Debian package wlc)');

const fixtureText = (name: string) => readFileSync(path.join(FIXTURES, 'xliff', name), 'utf8');
const NG_DE = 'src/locale/messages.de.xlf';
const SYM_DE = 'translations/messages.de.xlf';

describe('XLIFF end to end: Angular (xliff, bilingual) and Symfony (plainxliff, monolingual, reviews on)', () => {
  let env: SyncEnv;
  let store: Store;
  let server: RunningServer;
  let config: Config;
  let token: string;
  const errors: string[] = [];
  const request = (method: string, url: string, json?: unknown): Promise<HttpAnswer> => httpRequest(server.url, url, { method, token, json });

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('ng', { [NG_DE]: fixtureText('angular.de.xlf'), 'src/locale/messages.xlf': fixtureText('angular.xlf') });
    await env.addUpstream('sym', { 'translations/messages.en.xlf': fixtureText('messages.en.xlf'), [SYM_DE]: fixtureText('messages.de.xlf') });
    const component = env.component;
    config = env.config(
      [
        {
          name: 'Ghost',
          slug: 'ghost',
          components: [component('ng', { filemask: 'src/locale/messages.*.xlf', new_base: 'src/locale/messages.xlf', file_format: 'xliff', new_lang: 'add' })],
        },
        {
          name: 'Kimai',
          slug: 'kimai',
          translation_review: true,
          components: [
            component('sym', {
              filemask: 'translations/messages.*.xlf',
              template: 'translations/messages.en.xlf',
              new_base: 'translations/messages.en.xlf',
              file_format: 'plainxliff',
              language_code_style: 'posix',
            }),
          ],
        },
      ],
      { committer: { name: 'tms test', email: 'tms@test.invalid' } },
    );
    store = await env.openStore();
    await store.write((tx) => applyConfig(tx, config));
    for (const [project, slug] of [
      ['ghost', 'ng'],
      ['kimai', 'sym'],
    ] as const) {
      const [result] = await syncProject(store, config, project, slug);
      expect(result?.ok, result?.error).toBe(true);
    }
    const user = await store.write((tx) => createUser(tx, { username: 'ops', fullName: 'Ops Person', email: 'ops@example.org' }));
    await store.write((tx) => joinTeams(tx, user.user.id, ['Managers']));
    token = user.token;
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
  });
  afterAll(async () => {
    await server?.close();
    await env?.close();
    expect(errors).toEqual([]);
  });

  async function units(translation: string) {
    return (await request('GET', `/api/translations/${translation}/units/`)).json.results as Array<{
      id: number;
      context: string;
      source: string[];
      target: string[];
      state: number;
      approved: boolean;
    }>;
  }

  it('syncs both: rich placeholders, monolingual keys, approved only where the project reviews', async () => {
    const de = await units('ghost/ng/de');
    expect(de.map((u) => [u.source[0], u.state])).toEqual([
      [
        'You are using the <x id="START_LINK" ctype="x-a" equiv-text="&lt;a href=&quot;/demo&quot;&gt;"/>Live Demo<x id="CLOSE_LINK" ctype="x-a" equiv-text="&lt;/a&gt;"/>.',
        State.TRANSLATED,
      ],
      ['Create Account', State.EMPTY],
      ['Hello <x id="INTERPOLATION" equiv-text="{{ name }}"/>!', State.FUZZY],
    ]);
    const sym = await units('kimai/sym/de');
    expect(sym.map((u) => [u.context, u.source[0], u.target[0], u.state])).toEqual([
      ['action.close', 'Close', 'Schließen', State.TRANSLATED],
      ['invoice.tax', 'VAT', '', State.EMPTY],
      ['menu.homepage', 'Dashboard', 'Dashboard', State.FUZZY],
      ['api_token_repeat', 'Repeat API password', 'API-Passwort wiederholen', State.TRANSLATED],
    ]);
  });

  it('an approved="yes" unit counts as approved only in a project with reviews (Weblate keeps it translated otherwise)', async () => {
    const approved = fixtureText('messages.de.xlf').replace(
      '<trans-unit id="wCazS.X" resname="action.close">',
      '<trans-unit id="wCazS.X" resname="action.close" approved="yes">',
    );
    const { commitToUpstream } = await import('../helpers/git-repo.js');
    await commitToUpstream(env.upstream('sym'), { [SYM_DE]: approved });
    await commitToUpstream(env.upstream('ng'), { [NG_DE]: fixtureText('angular.de.xlf').replace('datatype="html">', 'datatype="html" approved="yes">') });
    for (const [project, slug] of [
      ['ghost', 'ng'],
      ['kimai', 'sym'],
    ] as const) {
      const [result] = await syncProject(store, config, project, slug);
      expect(result?.ok, result?.error).toBe(true);
    }
    expect((await units('kimai/sym/de'))[0]).toMatchObject({ context: 'action.close', state: State.APPROVED, approved: true });
    expect((await units('ghost/ng/de'))[0]).toMatchObject({ state: State.TRANSLATED, approved: false });
  });

  it('approving and unapproving through the API writes approved="yes"/"no" and the target state, nothing else', async () => {
    // continues from the test above: action.close is approved="yes" upstream, api_token_repeat translated
    const sym = await units('kimai/sym/de');
    const close = sym.find((u) => u.context === 'action.close')!;
    const repeat = sym.find((u) => u.context === 'api_token_repeat')!;
    expect([close.state, repeat.state]).toEqual([State.APPROVED, State.TRANSLATED]);
    const before = await gitCli(env.upstream('sym'), ['rev-parse', 'main']);
    // the same text in another state: a review, not a translation
    for (const [u, state] of [
      [close, State.TRANSLATED],
      [repeat, State.APPROVED],
    ] as const) {
      const r = await request('PATCH', `/api/units/${u.id}/`, { target: u.target, state });
      expect(r.status, r.text).toBe(200);
    }
    const commit = await request('POST', '/api/components/kimai/sym/repository/', { operation: 'commit' });
    expect(commit.json, commit.text).toMatchObject({ result: true });
    const after = await gitCli(env.upstream('sym'), ['rev-parse', 'main']);
    const diff = await gitCli(env.upstream('sym'), ['diff', '--unified=0', before, after]);
    expect(diff.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual([
      '-      <trans-unit id="wCazS.X" resname="action.close" approved="yes">',
      '+      <trans-unit id="wCazS.X" resname="action.close" approved="no">',
      '-        <target>Schließen</target>',
      '+        <target state="translated">Schließen</target>',
      '-      <trans-unit id="aq59Sk8" resname="api_token_repeat">',
      '+      <trans-unit id="aq59Sk8" resname="api_token_repeat" approved="yes">',
      '-        <target state="translated">API-Passwort wiederholen</target>',
      '+        <target state="final">API-Passwort wiederholen</target>',
    ]);
    // read back: the states the reviews left
    const read = await units('kimai/sym/de');
    expect(read.find((u) => u.context === 'action.close')).toMatchObject({ state: State.TRANSLATED, approved: false });
    expect(read.find((u) => u.context === 'api_token_repeat')).toMatchObject({ state: State.APPROVED, approved: true });
  });

  it('edits through the API, commit and push: git diff upstream shows only the edited <target> lines', async () => {
    const de = await units('ghost/ng/de');
    const before = await gitCli(env.upstream('ng'), ['rev-parse', 'main']);
    const patch = async (id: number, target: string, state = 20) => {
      const r = await request('PATCH', `/api/units/${id}/`, { target: [target], state });
      expect(r.status, r.text).toBe(200);
    };
    await patch(de[1]!.id, 'Konto erstellen');
    await patch(de[2]!.id, 'Hallo <x id="INTERPOLATION" equiv-text="{{ name }}"/>!');
    const commit = await request('POST', '/api/components/ghost/ng/repository/', { operation: 'commit' });
    expect(commit.json, commit.text).toMatchObject({ result: true });
    const after = await gitCli(env.upstream('ng'), ['rev-parse', 'main']);
    expect(after).not.toBe(before);
    const diff = await gitCli(env.upstream('ng'), ['diff', '--unified=0', before, after]);
    const changed = diff.split('\n').filter((l) => /^[-+][^-+]/.test(l));
    expect(changed).toEqual([
      '+        <target state="translated">Konto erstellen</target>',
      '-        <target state="new">Hello <x id="INTERPOLATION" equiv-text="{{ name }}"/>!</target>',
      '+        <target state="translated">Hallo <x id="INTERPOLATION" equiv-text="{{ name }}"/>!</target>',
    ]);
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    // the synced translation reads the committed file as it was edited
    expect((await units('ghost/ng/de')).map((u) => u.state)).toEqual([State.TRANSLATED, State.TRANSLATED, State.TRANSLATED]);
  });

  it('a monolingual edit of a key the translation lacks adds the template unit, and nothing else changes', async () => {
    const sym = await units('kimai/sym/de');
    const before = (await readUpstreamFile(env.upstream('sym'), 'main', SYM_DE))!.toString();
    expect((await request('PATCH', `/api/units/${sym[1]!.id}/`, { target: ['MwSt.'], state: 20 })).status).toBe(200);
    const commit = await request('POST', '/api/components/kimai/sym/repository/', { operation: 'commit' });
    expect(commit.json, commit.text).toMatchObject({ result: true });
    const text = (await readUpstreamFile(env.upstream('sym'), 'main', SYM_DE))!.toString();
    expect(text.startsWith(before.slice(0, before.lastIndexOf('      </trans-unit>') + '      </trans-unit>'.length))).toBe(true);
    expect(text).toContain(
      '      <trans-unit id="EO57yXg" resname="invoice.tax">\n        <source>invoice.tax</source>\n        <target state="translated">MwSt.</target>\n      </trans-unit>\n    </body>',
    );
    expect(text).not.toContain('Shown on invoices');
    expect((await units('kimai/sym/de'))[1]).toMatchObject({ target: ['MwSt.'], state: State.TRANSLATED });
  });

  it('adds a new language from new_base: file named in BCP 47 (the XLIFF default style), target-language set, every target removed, committed and pushed', async () => {
    const r = await request('POST', '/api/components/ghost/ng/translations/', { language_code: 'pt_BR' });
    expect(r.status, r.text).toBe(201);
    const push = async (component: string) => {
      const answer = await request('POST', `/api/components/${component}/repository/`, { operation: 'push' });
      expect(answer.json, answer.text).toMatchObject({ result: true });
    };
    await push('ghost/ng');
    const file = (await readUpstreamFile(env.upstream('ng'), 'main', 'src/locale/messages.pt-BR.xlf'))!.toString();
    expect(file).toContain('<file source-language="en" datatype="plaintext" original="ng2.template" target-language="pt-BR">');
    expect(file).not.toContain('<target');
    const pt = await units('ghost/ng/pt_BR');
    expect(pt.map((u) => [u.source[0], u.state])).toEqual((await units('ghost/ng/de')).map((u) => [u.source[0], State.EMPTY]));
    const sym = await request('POST', '/api/components/kimai/sym/translations/', { language_code: 'fr' });
    expect(sym.status, sym.text).toBe(201);
    await push('kimai/sym');
    const fr = (await readUpstreamFile(env.upstream('sym'), 'main', 'translations/messages.fr.xlf'))!.toString();
    expect(fr).toContain('target-language="fr"');
    expect((await units('kimai/sym/fr')).map((u) => [u.context, u.target[0]])).toEqual([
      ['action.close', ''],
      ['invoice.tax', ''],
      ['menu.homepage', ''],
      ['api_token_repeat', ''],
    ]);
  });

  it('converts an XLIFF translation to XLIFF with gettext extensions keeping the placeholders as XML', async () => {
    const answer = await request('GET', '/api/translations/ghost/ng/de/file/?format=xliff');
    expect(answer.status, answer.text).toBe(200);
    const text = answer.bytes.toString();
    expect(text).toContain('<source>Hello <x id="INTERPOLATION" equiv-text="{{ name }}"/>!</source>');
    expect(text).toContain('<target state="translated">Hallo <x id="INTERPOLATION" equiv-text="{{ name }}"/>!</target>');
    // read back by the xliff format, the texts are the translation's
    const { getFormat } = await import('../../src/formats/registry.js');
    const back = getFormat('xliff').parse(answer.bytes, { filename: 'export.xlf', language: 'de', sourceLanguage: 'en' });
    expect(back.units.map((u) => [u.source, u.target])).toEqual((await units('ghost/ng/de')).map((u) => [u.source, u.target]));
  });

  (hasWlc ? it : it.skip)('wlc download and upload an XLIFF translation', async () => {
    writeFileSync(path.join(env.root, 'wlc.ini'), `[weblate]\nurl = ${server.url}/api/\nkey = ${token}\n`);
    const wlc = async (...args: string[]) => {
      const { stdout, stderr } = await run('wlc', ['--config', path.join(env.root, 'wlc.ini'), ...args], {
        cwd: env.root,
        env: { ...process.env, HOME: env.root, XDG_CONFIG_HOME: env.root, XDG_CONFIG_DIRS: env.root },
        timeout: 60_000,
        encoding: 'utf8',
      });
      expect(stderr).toBe('');
      return stdout;
    };
    const de = path.join(env.root, 'ng-de.xlf');
    await wlc('download', 'ghost/ng/de', '--output', de);
    const bytes = readFileSync(de);
    expect(bytes.equals((await request('GET', '/api/translations/ghost/ng/de/file/')).bytes)).toBe(true);
    expect(bytes.toString()).toContain('<target state="translated">Konto erstellen</target>');
    // the new Brazilian file, translated offline and uploaded: the empty string is taken
    const pt = path.join(env.root, 'ng-pt.xlf');
    await wlc('download', 'ghost/ng/pt_BR', '--output', pt);
    const filled = readFileSync(pt, 'utf8').replace('<source>Create Account</source>', '<source>Create Account</source><target>Criar conta</target>');
    writeFileSync(pt, filled);
    await wlc('upload', 'ghost/ng/pt_BR', '--input', pt);
    expect((await units('ghost/ng/pt_BR'))[1]).toMatchObject({ target: ['Criar conta'], state: State.TRANSLATED });
  });
});
