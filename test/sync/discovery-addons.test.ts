// The discovery add-on's copy_addons end to end: the main component's add-ons on each component it finds, applied on their syncs.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import type { Store } from '../../src/store/index.js';
import { syncProject } from '../../src/sync/index.js';
import { repoRoot } from '../helpers/corpus.js';
import { commitToUpstream, readUpstreamFile } from '../helpers/git-repo.js';
import { type Json, httpRequest } from '../helpers/http.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

const FIXTURES = path.join(repoRoot, 'fixtures', 'formats', 'po');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const gettext = spawnSync('msgmerge', ['--version']).status === 0;
if (!gettext) console.warn('[skip] discovery copy_addons: msgmerge is not installed (Debian package gettext)');

/** `po/<component>/<language>.po`, each component's POT beside its PO files. */
const RULE = {
  match: 'po/(?P<component>[^/]*)/(?P<language>[^/.]*)\\.po',
  file_format: 'po',
  name_template: '{{ component|title }}',
  new_base_template: 'po/{{ component }}/messages.pot',
};
const MSGMERGE = { name: 'weblate.gettext.msgmerge', configuration: { previous: false } };
const MO = { name: 'weblate.gettext.mo', configuration: {} };

(gettext ? describe : describe.skip)('discovery with copy_addons', () => {
  let env: SyncEnv;
  let store: Store;
  let server: RunningServer | undefined;

  function configured(rule: Record<string, unknown>, addons: unknown[] = [MSGMERGE, MO]): Config {
    env.config([
      {
        name: 'Hello',
        slug: 'hello',
        components: [
          {
            name: 'Main',
            slug: 'main',
            repo: env.server.url('po.git', CREDENTIALS),
            branch: 'main',
            filemask: 'po/main/*.po',
            new_base: 'po/main/messages.pot',
            file_format: 'po',
            addons: [...addons, { name: 'weblate.discovery.discovery', configuration: rule }],
          },
        ],
      },
    ]);
    return loadConfig(path.join(env.root, 'tms.config.json'));
  }

  /** The add-ons `/api/` shows on a component: its `addons` links followed. */
  async function addonsOf(component: string): Promise<{ name: string; configuration: unknown }[]> {
    const c = await httpRequest(server!.url, `/api/components/hello/${component}/`);
    expect(c.status, c.text).toBe(200);
    const out: { name: string; configuration: unknown }[] = [];
    for (const url of c.json.addons as string[]) {
      const a = (await httpRequest(server!.url, url)).json as Json;
      expect(a.component).toBe(`${server!.url}/api/components/hello/${component}/`);
      out.push({ name: a.name, configuration: a.configuration });
    }
    return out;
  }

  /** What GNU msgmerge makes of a PO file and a POT with `--no-previous` (the copied configuration says previous: false). */
  function msgmerge(po: string, pot: string): string {
    writeFileSync(path.join(env.root, 'in.po'), po);
    writeFileSync(path.join(env.root, 'in.pot'), pot);
    execFileSync('msgmerge', ['--output-file', 'out.po', 'in.po', 'in.pot'], { cwd: env.root, env: { ...process.env, LC_ALL: 'C.UTF-8' }, stdio: 'ignore' });
    return readFileSync(path.join(env.root, 'out.po'), 'utf8');
  }

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('po', {
      'po/main/messages.pot': fixture('messages.pot'),
      'po/main/cs.po': fixture('cs.po'),
      'po/lib/messages.pot': fixture('messages.pot'),
      'po/lib/cs.po': fixture('cs.po'),
    });
    store = await env.openStore();
  });
  afterAll(async () => {
    await server?.close();
    await env?.close();
  });

  it("gives the component it finds the main component's add-ons but not the discovery add-on, and applies them on its first sync", async () => {
    const config = configured(RULE);
    const results = await syncProject(store, config, 'hello');
    expect(results.map((r) => [r.component, r.ok, r.error ?? null])).toEqual([
      ['main', true, null],
      ['lib', true, null],
    ]);
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: () => {} });
    expect(await addonsOf('lib')).toEqual([
      { name: 'weblate.gettext.msgmerge', configuration: { previous: false } },
      { name: 'weblate.gettext.mo', configuration: {} },
    ]);
    expect((await addonsOf('main')).map((a) => a.name)).toEqual(['weblate.gettext.msgmerge', 'weblate.gettext.mo', 'weblate.discovery.discovery']);
    // msgmerge ran on lib's own files with the copied configuration, committed and pushed
    const lib = (await readUpstreamFile(env.upstream('po'), 'main', 'po/lib/cs.po'))!.toString('utf8');
    expect(lib).toBe(msgmerge(fixture('cs.po'), fixture('messages.pot')));
  });

  it("a new string in the found component's POT reaches its PO file at the next sync, by the copied add-on", async () => {
    const pot = `${fixture('messages.pot')}\nmsgid "Wednesday"\nmsgstr ""\n`;
    await commitToUpstream(env.upstream('po'), { 'po/lib/messages.pot': pot }, { message: 'New string in lib' });
    const results = await syncProject(store, configured(RULE), 'hello');
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await readUpstreamFile(env.upstream('po'), 'main', 'po/lib/cs.po'))!.toString('utf8')).toContain('msgid "Wednesday"\nmsgstr ""\n');
    // main's POT did not change: its PO file is as the first sync left it
    expect((await readUpstreamFile(env.upstream('po'), 'main', 'po/main/cs.po'))!.toString('utf8')).not.toContain('Wednesday');
    const units = (await httpRequest(server!.url, '/api/translations/hello/lib/cs/units/')).json.results as { source: string[] }[];
    expect(units.map((u) => u.source[0])).toContain('Wednesday');
  });

  it("follows a change of the main component's add-ons at the next sync (its components found have no configuration of their own)", async () => {
    const results = await syncProject(store, configured(RULE, [{ name: 'weblate.gettext.msgmerge', configuration: { previous: true } }]), 'hello');
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await addonsOf('lib')).toEqual([{ name: 'weblate.gettext.msgmerge', configuration: { previous: true } }]);
  });

  it('with copy_addons false the components found have no add-ons (taken away at the next sync)', async () => {
    const results = await syncProject(store, configured({ ...RULE, copy_addons: false }), 'hello');
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await addonsOf('lib')).toEqual([]);
    expect((await addonsOf('main')).map((a) => a.name).sort()).toEqual(['weblate.discovery.discovery', 'weblate.gettext.mo', 'weblate.gettext.msgmerge']);
  });
});
