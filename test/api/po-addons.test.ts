// Weblate's gettext add-ons: msgmerge after each sync that brings a new POT (committed, pushed), MO files on commit, /api/addons/.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import type { Store } from '../../src/store/index.js';
import { findComponent, syncedCommitOf } from '../../src/store/projects.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { repoRoot } from '../helpers/corpus.js';
import { commitToUpstream, gitCli, readUpstreamFile } from '../helpers/git-repo.js';
import { type HttpRequest, httpRequest } from '../helpers/http.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

const FIXTURES = path.join(repoRoot, 'fixtures', 'formats', 'po');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const gettext = spawnSync('msgmerge', ['--version']).status === 0 && spawnSync('msgunfmt', ['--version']).status === 0;
if (!gettext) console.warn('[skip] gettext add-ons: msgmerge/msgunfmt are not installed (Debian package gettext)');

(gettext ? describe : describe.skip)('gettext add-ons (weblate.gettext.msgmerge, weblate.gettext.mo)', () => {
  let env: SyncEnv;
  let config: Config;
  let store: Store;
  let server: RunningServer;
  let manager: string;
  const errors: string[] = [];
  const request = (method: string, url: string, opts: Omit<HttpRequest, 'method'> = {}) => httpRequest(server.url, url, { ...opts, method });

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('po', { 'po/messages.pot': fixture('messages.pot'), 'po/cs.po': fixture('cs.po') });
    config = env.config([
      {
        name: 'Hello',
        slug: 'hello',
        components: [
          {
            name: 'Po',
            slug: 'po',
            repo: env.server.url('po.git', CREDENTIALS),
            branch: 'main',
            filemask: 'po/*.po',
            new_base: 'po/messages.pot',
            file_format: 'po',
            addons: [{ name: 'weblate.gettext.msgmerge' }, { name: 'weblate.gettext.mo', configuration: {} }],
          },
        ],
      },
    ]);
    store = await env.openStore();
    const mike = await store.write((tx) => createUser(tx, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' }));
    await store.write((tx) => joinTeams(tx, mike.user.id, ['Managers']));
    manager = mike.token;
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
  });
  afterAll(async () => {
    await server?.close();
    await env?.close();
    expect(errors).toEqual([]);
  });

  /** What GNU msgmerge makes of a PO file and a POT, run as Weblate runs it. */
  function msgmerge(po: string, pot: string): string {
    const dir = env.root;
    writeFileSync(path.join(dir, 'in.po'), po);
    writeFileSync(path.join(dir, 'in.pot'), pot);
    execFileSync('msgmerge', ['--previous', '--output-file', 'out.po', 'in.po', 'in.pot'], {
      cwd: dir,
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
      stdio: 'ignore',
    });
    return readFileSync(path.join(dir, 'out.po'), 'utf8');
  }

  it('the first sync merges the PO files with the POT and commits and pushes that as the add-on', async () => {
    const [result] = await syncProject(store, config, 'hello', 'po');
    expect(result?.ok, result?.error).toBe(true);
    const upstream = env.upstream('po');
    expect(await gitCli(upstream, ['log', '-1', '--format=%an|%s'])).toBe('tms|Update translation files');
    expect(await gitCli(upstream, ['log', '-1', '--format=%b'])).toContain('Updated by "Update PO files to match POT (msgmerge)" add-on in tms.');
    const cs = (await readUpstreamFile(upstream, 'main', 'po/cs.po'))!.toString('utf8');
    expect(cs).toBe(msgmerge(fixture('cs.po'), fixture('messages.pot')));
    // the store read the merged file (the working copy's head is the add-on's commit)
    const po = (await store.read((tx) => findComponent(tx, 'hello', 'po')))!;
    expect(await store.read((tx) => syncedCommitOf(tx, po.id))).toBe(await gitCli(upstream, ['rev-parse', 'main']));
  });

  it('/api/addons/ lists both add-ons of the component with their configuration', async () => {
    const addons = (await request('GET', '/api/addons/', { token: manager })).json.results;
    expect(addons.map((a: { name: string }) => a.name)).toEqual(['weblate.gettext.msgmerge', 'weblate.gettext.mo']);
    expect(addons[0]).toMatchObject({ component: `${server.url}/api/components/hello/po/`, configuration: {} });
  });

  it('a new string in the POT upstream reaches the PO file at the next sync, by the add-on', async () => {
    const pot = `${fixture('messages.pot')}\nmsgid "Wednesday"\nmsgstr ""\n`;
    await commitToUpstream(env.upstream('po'), { 'po/messages.pot': pot }, { message: 'New string' });
    const [result] = await syncProject(store, config, 'hello', 'po');
    expect(result?.ok, result?.error).toBe(true);
    const upstream = env.upstream('po');
    expect(await gitCli(upstream, ['log', '-2', '--format=%s'])).toBe('Update translation files\nNew string');
    expect((await readUpstreamFile(upstream, 'main', 'po/cs.po'))!.toString('utf8')).toContain('msgid "Wednesday"\nmsgstr ""\n');
    const units = (await request('GET', '/api/translations/hello/po/cs/units/')).json.results;
    expect(units.map((u: { source: string[] }) => u.source[0])).toContain('Wednesday');
  });

  it('a sync that brings no POT change leaves the files alone', async () => {
    await commitToUpstream(env.upstream('po'), { README: 'docs\n' }, { message: 'Docs' });
    const [result] = await syncProject(store, config, 'hello', 'po');
    expect(result?.ok).toBe(true);
    expect(await gitCli(env.upstream('po'), ['log', '-1', '--format=%s'])).toBe('Docs');
  });

  it('a commit writes the MO file beside the PO file, and msgunfmt reads the edit back', async () => {
    const units = (await request('GET', '/api/translations/hello/po/cs/units/')).json.results;
    const monday = units.find((u: { source: string[] }) => u.source[0] === 'Monday');
    const r = await request('PATCH', `/api/units/${monday.id}/`, { token: manager, json: { target: ['Pondělí!'], state: 20 } });
    expect(r.status, r.text).toBe(200);
    const c = await request('POST', '/api/components/hello/po/repository/', { token: manager, json: { operation: 'commit' } });
    expect(c.status, c.text).toBe(200);
    const upstream = env.upstream('po');
    expect((await gitCli(upstream, ['diff', '--name-only', 'main~1', 'main'])).split('\n').sort()).toEqual(['po/cs.mo', 'po/cs.po']);
    const mo = (await readUpstreamFile(upstream, 'main', 'po/cs.mo'))!;
    writeFileSync(path.join(env.root, 'cs.mo'), mo);
    const text = execFileSync('msgunfmt', [path.join(env.root, 'cs.mo')], { encoding: 'utf8' });
    expect(text).toContain('msgid "Monday"\nmsgstr "Pondělí!"\n');
    expect(text).not.toContain('Tuesday');
  });
});
