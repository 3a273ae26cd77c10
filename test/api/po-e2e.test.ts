// gettext PO end to end: sync from a git upstream on loopback, edit through the API, commit, the upstream diff, wlc, MO and PO downloads, a new language.
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
import { gettextAvailable, msgfmtCheck, msgunfmt } from '../helpers/gettext.js';
import { gitCli, readUpstreamFile } from '../helpers/git-repo.js';
import { type HttpAnswer, type HttpRequest, httpRequest } from '../helpers/http.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';
import { toolkitAvailable, toolkitUnits } from '../helpers/toolkit.js';

const run = promisify(execFile);
const wlcVersion = spawnSync('wlc', ['--version'], { encoding: 'utf8' }).status === 0;
if (!wlcVersion) console.warn('[skip] PO wlc steps: the `wlc` client is not installed (Debian package wlc)');

const FIXTURES = path.join(repoRoot, 'fixtures', 'formats', 'po');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
// Transifex's Russian: 4 plural forms where the language has 3 (as Midnight Commander's ru.po)
const RU_PLURAL =
  'nplurals=4; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : n%10==0 || (n%10>=5 && n%10<=9) || (n%100>=11 && n%100<=14)? 2 : 3);';
const RU_PO = [
  'msgid ""',
  'msgstr ""',
  '"Language: ru\\n"',
  '"Content-Type: text/plain; charset=UTF-8\\n"',
  `"Plural-Forms: ${RU_PLURAL}\\n"`,
  '',
  'msgid "%d file"',
  'msgid_plural "%d files"',
  'msgstr[0] "%d файл"',
  'msgstr[1] "%d файла"',
  'msgstr[2] "%d файлов"',
  'msgstr[3] "%d файла (дробь)"',
  '',
].join('\n');

describe('gettext PO end to end', () => {
  let env: SyncEnv;
  let config: Config;
  let store: Store;
  let server: RunningServer;
  let tokens: { jane: string; mike: string };
  const errors: string[] = [];
  const request = (method: string, url: string, opts: Omit<HttpRequest, 'method'> = {}): Promise<HttpAnswer> =>
    httpRequest(server.url, url, { ...opts, method });

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('po', { 'po/messages.pot': fixture('messages.pot'), 'po/cs.po': fixture('cs.po'), 'po/ru.po': RU_PO, README: 'po files\n' });
    config = env.config(
      [
        {
          name: 'Hello',
          slug: 'hello',
          components: [
            {
              name: 'Po',
              slug: 'po',
              vcs: 'git',
              branch: 'main',
              repo: env.server.url('po.git', CREDENTIALS),
              filemask: 'po/*.po',
              new_base: 'po/messages.pot',
              file_format: 'po',
              new_lang: 'add',
            },
          ],
        },
      ],
      { committer: { name: 'tms test', email: 'tms@test.invalid' }, site_url: 'http://tms.example' },
    );
    store = await env.openStore();
    await store.write((tx) => applyConfig(tx, config));
    const [result] = await syncProject(store, config, 'hello', 'po');
    expect(result?.ok, result?.error).toBe(true);
    const jane = await store.write((tx) => createUser(tx, { username: 'jana', fullName: 'Jana Nováková', email: 'jana@example.org' }));
    const mike = await store.write((tx) => createUser(tx, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' }));
    await store.write((tx) => joinTeams(tx, mike.user.id, ['Managers']));
    tokens = { jane: jane.token, mike: mike.token };
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
  });
  afterAll(async () => {
    await server?.close();
    await env?.close();
    expect(errors).toEqual([]);
  });

  async function unitOf(language: string, source: string) {
    const units = (await request('GET', `/api/translations/hello/po/${language}/units/`)).json.results;
    return units.find((u: { source: string[] }) => u.source[0] === source);
  }

  it('lists the units as Weblate does (fuzzy, plural forms, context)', async () => {
    const units = (await request('GET', '/api/translations/hello/po/cs/units/')).json.results;
    expect(units).toHaveLength(5);
    expect(units[1]).toMatchObject({ context: 'No known user', source: ['None'], state: 10, flags: 'python-format', previous_source: 'Nobody' });
    expect(units[2]).toMatchObject({ source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'] });
  });

  it('an API edit, committed and pushed: upstream changes that entry and the header lines Weblate changes, nothing else', async () => {
    const monday = await unitOf('cs', 'Monday');
    const r = await request('PATCH', `/api/units/${monday.id}/`, { token: tokens.jane, json: { target: ['Pondělí!'], state: 20 } });
    expect(r.status, r.text).toBe(200);
    const c = await request('POST', '/api/components/hello/po/repository/', { token: tokens.mike, json: { operation: 'commit' } });
    expect(c.status, c.text).toBe(200);
    const upstream = env.upstream('po');
    const diff = await gitCli(upstream, ['diff', '--unified=0', 'main~1', 'main']);
    const changed = diff.split('\n').filter((l) => /^[-+][^-+]/.test(l));
    expect(changed.filter((l) => l.startsWith('-'))).toEqual([
      '-"PO-Revision-Date: 2024-02-01 10:00+0000\\n"',
      '-"Last-Translator: Jane Doe <jane@example.org>\\n"',
      '-"Language-Team: Czech <cs@li.org>\\n"',
      '-msgstr "Pondělí"',
    ]);
    const added = changed.filter((l) => l.startsWith('+'));
    expect(added[0]).toMatch(/^\+"PO-Revision-Date: \d{4}-\d\d-\d\d \d\d:\d\d\+0000\\n"$/);
    expect(added.slice(1)).toEqual([
      '+"Last-Translator: Jana Nováková <jana@example.org>\\n"',
      '+"Language-Team: Czech <http://tms.example/projects/hello/po/cs/>\\n"',
      '+"X-Generator: tms\\n"',
      '+msgstr "Pondělí!"',
    ]);
    expect(await gitCli(upstream, ['log', '-1', '--format=%an <%ae>'])).toBe('Jana Nováková <jana@example.org>');
    // the next sync does not see a change to undo
    const [again] = await syncProject(store, config, 'hello', 'po');
    expect(again?.ok).toBe(true);
    expect((await unitOf('cs', 'Monday')).target).toEqual(['Pondělí!']);
  });

  it('a file whose Plural-Forms has more forms than the language (Transifex’s Russian: 4) is listed and edited with all of them', async () => {
    const files = await unitOf('ru', '%d file');
    expect(files.target).toEqual(['%d файл', '%d файла', '%d файлов', '%d файла (дробь)']);
    const three = await request('PATCH', `/api/units/${files.id}/`, { token: tokens.jane, json: { target: ['%d файл!', '%d файла', '%d файлов'], state: 20 } });
    expect(three.status).toBe(400);
    const target = ['%d файл!', '%d файла', '%d файлов', '%d файла (дробь)'];
    const r = await request('PATCH', `/api/units/${files.id}/`, { token: tokens.jane, json: { target, state: 20 } });
    expect(r.status, r.text).toBe(200);
    const c = await request('POST', '/api/components/hello/po/repository/', { token: tokens.mike, json: { operation: 'commit' } });
    expect(c.status, c.text).toBe(200);
    const diff = await gitCli(env.upstream('po'), ['diff', '--unified=0', 'main~1', 'main', '--', 'po/ru.po']);
    // the edited form only (and the header): msgstr[3] stays, as the file's nplurals=4 needs it
    expect(diff.split('\n').filter((l) => /^[-+]msgstr/.test(l))).toEqual(['-msgstr[0] "%d файл"', '+msgstr[0] "%d файл!"']);
  });

  it('an upload that replaces the file is committed and pushed (push_on_commit)', async () => {
    const form = new FormData();
    form.set('method', 'replace');
    form.set('file', new Blob([RU_PO.replace('msgstr[0] "%d файл"', 'msgstr[0] "%d файл (загружен)"')]), 'ru.po');
    const r = await fetch(`${server.url}/api/translations/hello/po/ru/file/`, {
      method: 'POST',
      headers: { Authorization: `Token ${tokens.mike}` },
      body: form,
    });
    expect(r.status, await r.clone().text()).toBe(200);
    const upstream = (await readUpstreamFile(env.upstream('po'), 'main', 'po/ru.po'))!.toString('utf8');
    expect(upstream).toContain('msgstr[0] "%d файл (загружен)"');
  });

  (wlcVersion ? describe : describe.skip)('wlc', () => {
    let home = '';
    async function wlc(...args: string[]): Promise<string> {
      writeFileSync(path.join(home, 'wlc.ini'), `[weblate]\nurl = ${server.url}/api/\nkey = ${tokens.mike}\n`);
      const { stdout, stderr } = await run('wlc', ['--config', path.join(home, 'wlc.ini'), ...args], {
        cwd: home,
        env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, XDG_CONFIG_DIRS: home },
        timeout: 60_000,
        encoding: 'utf8',
      });
      expect(stderr).toBe('');
      return stdout;
    }
    it('download gives the PO file as committed', async () => {
      home = env.root;
      const out = path.join(home, 'cs-download.po');
      await wlc('download', 'hello/po/cs', '--output', out);
      const upstream = await readUpstreamFile(env.upstream('po'), 'main', 'po/cs.po');
      expect(readFileSync(out).equals(upstream!)).toBe(true);
    });

    it('upload takes a translated entry from an edited file', async () => {
      const file = readFileSync(path.join(home, 'cs-download.po'), 'utf8').replace(
        '"one line of the file."\nmsgstr ""',
        '"one line of the file."\nmsgstr "Dlouhý text."',
      );
      const input = path.join(home, 'cs-upload.po');
      writeFileSync(input, file);
      await wlc('upload', 'hello/po/cs', '--input', input, '--method', 'translate');
      const units = (await request('GET', '/api/translations/hello/po/cs/units/')).json.results;
      expect(units[3]).toMatchObject({ target: ['Dlouhý text.'], pending: true, state: 20 });
      // a fuzzy entry is not taken by the "translate" method, as in Weblate
      expect(units[4]).toMatchObject({ source: ['Tuesday'], target: [''] });
    });
  });

  (gettextAvailable && toolkitAvailable() ? it : it.skip)(
    'downloads converted to MO: the translated strings (fuzzy and empty ones left out), as msgunfmt reads them; to PO: every string',
    async () => {
      const mo = await request('GET', '/api/translations/hello/po/cs/file/?format=mo');
      expect(mo.status, mo.text).toBe(200);
      expect(mo.headers.get('content-type')).toBe('application/x-gettext-catalog; charset=utf-8');
      expect(mo.headers.get('content-disposition')).toBe('attachment; filename=hello-po-cs.mo');
      const moFile = path.join(env.root, 'cs-export.mo');
      writeFileSync(moFile, mo.bytes);
      const back = msgunfmt(moFile);
      expect(back).toContain('"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"');
      expect(back.split('\n').filter((l) => /^msg(id|str)/.test(l))).toEqual([
        'msgid ""',
        'msgstr ""',
        'msgid "%d file"',
        'msgid_plural "%d files"',
        'msgstr[0] "%d soubor"',
        'msgstr[1] "%d soubory"',
        'msgstr[2] "%d souborů"',
        'msgid "Monday"',
        'msgstr "Pondělí!"',
        'msgid ""',
        'msgstr "Dlouhý text."',
      ]);
      const po = await request('GET', '/api/translations/hello/po/cs/file/?format=po');
      const poFile = path.join(env.root, 'cs-export.po');
      writeFileSync(poFile, po.bytes);
      expect(msgfmtCheck(poFile)).toEqual([]);
      const units = (await request('GET', '/api/translations/hello/po/cs/units/')).json.results as { context: string; source: string[]; target: string[] }[];
      const read = (await toolkitUnits(poFile, 'po')).units.filter((u) => !u.header);
      expect(read.map((u) => [u.context, u.source, u.target])).toEqual(units.map((u) => [u.context, u.source, u.target]));
    },
  );

  it('a new language from the POT: po/fr.po with French plurals and the header Weblate writes, committed and pushed', async () => {
    const r = await request('POST', '/api/components/hello/po/translations/', { token: tokens.mike, json: { language_code: 'fr' } });
    expect(r.status, r.text).toBe(201);
    // pushed with the commit (push_on_commit), as Weblate pushes after committing the new file
    expect(await gitCli(env.upstream('po'), ['log', '-1', '--format=%s'])).toBe('Added translation using tms (French)');
    const fr = (await readUpstreamFile(env.upstream('po'), 'main', 'po/fr.po'))!.toString('utf8');
    expect(fr).toContain('"Language: fr\\n"');
    expect(fr).toContain('"Plural-Forms: nplurals=2; plural=n > 1;\\n"');
    expect(fr).toContain('"Last-Translator: Automatically generated\\n"');
    expect(fr).toContain('"Language-Team: none\\n"');
    expect(fr).toContain('msgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n');
    const units = (await request('GET', '/api/translations/hello/po/fr/units/')).json.results;
    expect(units).toHaveLength(5);
    expect(units.every((u: { state: number }) => u.state === 0)).toBe(true);
  });

  it('the editor lists a plural string in the other languages that translated it, every form, and not where it is untranslated', async () => {
    const files = await unitOf('cs', '%d file');
    const page = await request('GET', `/translate/hello/po/cs/?q=${encodeURIComponent('source:"%d file"')}`);
    expect(page.status).toBe(200);
    const others = page.text.slice(page.text.indexOf('<ul class="others">'), page.text.indexOf('</ul>', page.text.indexOf('<ul class="others">')));
    expect(files).toBeDefined();
    expect(others).toContain('Russian');
    expect(others).toContain('%d файл (загружен) | %d файла | %d файлов | %d файла (дробь)');
    // French was added from the POT: its forms are all empty
    expect(others).not.toContain('French');
  });
});
