// Repository policy that belongs to the operations, whoever calls them: push_on_commit, and a pull blocked by a broken upstream file.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ComponentHandle, openComponent } from '../../src/component/handle.js';
import { Action } from '../../src/domain/actions.js';
import { State } from '../../src/domain/unit.js';
import { commitPending, editUnit, pullComponent, repositoryStatus } from '../../src/operations/index.js';
import type { UserRow } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { commitToUpstream, createUpstream, readUpstreamFile, tempDir } from '../helpers/git-repo.js';
import { sqlOn } from '../helpers/store.js';
import { DEMO, helloConfig } from '../helpers/sync-env.js';

interface Env {
  root: string;
  upstream: string;
  store: Store;
  user: UserRow;
  handle(): Promise<ComponentHandle>;
  unitId(language: string, context: string): Promise<number>;
}

const envs: Env[] = [];
afterEach(async () => {
  for (const env of envs.splice(0)) {
    await env.store.close();
    await rm(env.root, { recursive: true, force: true });
  }
});

/** The demo's monolingual JSON component (`web`, template locales/en.json) from a local bare upstream, synced. */
async function webEnv(component: Record<string, unknown>): Promise<Env> {
  const root = await tempDir('tms-policy-');
  const upstream = path.join(root, 'upstream', 'web.git');
  await createUpstream({ dir: upstream, fixture: path.join(DEMO, 'web') });
  const config = helloConfig(
    root,
    {
      name: 'Web',
      slug: 'web',
      repo: upstream,
      filemask: 'locales/*.json',
      template: 'locales/en.json',
      file_format: 'json-nested',
      merge_style: 'rebase',
      ...component,
    },
    { committer: { name: 'tms test', email: 'tms@test.invalid' } },
  );
  const store = await openStore(config.database);
  const [synced] = await syncProject(store, config, 'hello');
  if (!synced!.ok) throw new Error(synced!.error);
  const { user } = await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
  const project = config.projects[0];
  const env: Env = {
    root,
    upstream,
    store,
    user,
    handle: () => openComponent(store, config, project!, project!.components[0]!),
    unitId: async (language, context) =>
      (await sqlOn(store).value(
        `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
         WHERE l.code = ? AND u.context = ?`,
        language,
        context,
      )) as number,
  };
  envs.push(env);
  return env;
}

const upstreamJson = async (env: Env, file: string) => JSON.parse((await readUpstreamFile(env.upstream, 'main', file))!.toString('utf8'));

describe('push_on_commit is the commit operation’s own policy', () => {
  it('a commit made outside the API (CLI, webhook, UI) pushes at once when the component asks for it', async () => {
    const env = await webEnv({ push_on_commit: true });
    await editUnit(env.store, { unitId: await env.unitId('de', 'menu.open'), target: ['Öffnen!'], state: State.TRANSLATED, user: env.user });
    const result = await commitPending(await env.handle(), { user: env.user });
    expect(result.result).toBe(true);
    expect(result.commits).toHaveLength(1);
    expect((await upstreamJson(env, 'locales/de.json')).menu.open).toBe('Öffnen!');
    expect((await repositoryStatus(await env.handle())).needs_push).toBe(false);
  });

  it('without push_on_commit the commit stays local until pushed', async () => {
    const env = await webEnv({ push_on_commit: false });
    await editUnit(env.store, { unitId: await env.unitId('de', 'menu.open'), target: ['Öffnen!'], state: State.TRANSLATED, user: env.user });
    expect((await commitPending(await env.handle(), { user: env.user })).result).toBe(true);
    expect((await upstreamJson(env, 'locales/de.json')).menu.open).not.toBe('Öffnen!');
    expect((await repositoryStatus(await env.handle())).needs_push).toBe(true);
  });

  it('a pull that rebases tms’s commit over upstream pushes it afterwards (needs_push false)', async () => {
    const env = await webEnv({ push_on_commit: true });
    await editUnit(env.store, { unitId: await env.unitId('de', 'menu.open'), target: ['Öffnen!'], state: State.TRANSLATED, user: env.user });
    await commitToUpstream(env.upstream, { 'README.md': 'upstream moved\n' });
    const pulled = await pullComponent(await env.handle(), { user: env.user });
    expect(pulled.result).toBe(true);
    expect((await upstreamJson(env, 'locales/de.json')).menu.open).toBe('Öffnen!');
    expect((await readUpstreamFile(env.upstream, 'main', 'README.md'))?.toString()).toBe('upstream moved\n');
    expect((await repositoryStatus(await env.handle())).needs_push).toBe(false);
  });
});

describe('a pull blocked by an upstream file that does not parse', () => {
  it('names the file and position, records the failure once, and keeps the edit pending', async () => {
    const env = await webEnv({ push_on_commit: false });
    const unitId = await env.unitId('de', 'menu.open');
    await editUnit(env.store, { unitId, target: ['Öffnen!'], state: State.TRANSLATED, user: env.user });
    // Upstream breaks the template and changes the German file too, so the rebase must merge de.json by units.
    const de = await upstreamJson(env, 'locales/de.json');
    de.menu.quit = 'Schließen';
    await commitToUpstream(env.upstream, {
      'locales/en.json': '{\n  "menu": {\n    "open": "Open",\n  \n',
      'locales/de.json': `${JSON.stringify(de, null, 2)}\n`,
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      const pulled = await pullComponent(await env.handle(), { user: env.user });
      expect(pulled.result).toBe(false);
      expect(pulled.detail).toMatch(/locales\/en\.json:\d+:\d+: .*upstream/);
      expect(pulled.detail).not.toMatch(/conflict replaying/);
    }
    const failures = (await sqlOn(env.store).values('SELECT target FROM changes WHERE action = ?', Action.FAILED_REBASE)) as string[];
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^locales\/en\.json:\d+:\d+: /);
    const status = await repositoryStatus(await env.handle());
    expect(status.merge_failure).toBe(failures[0]);
    expect(status.needs_commit).toBe(true);
    expect(await sqlOn(env.store).row('SELECT pending, target FROM units WHERE id = ?', unitId)).toEqual({ pending: 1, target: 'Öffnen!' });
  });
});
