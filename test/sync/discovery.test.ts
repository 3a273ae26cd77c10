// Weblate's component discovery add-on end to end: components found in the repository added, linked, updated and removed.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import { ConfigError } from '../../src/domain/errors.js';
import { commitPending, editUnit } from '../../src/operations/index.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import type { Store } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { thrownBy } from '../helpers/errors.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { type DirectSql, sqlOn } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';

const DE = demoFile('app/translations/app_de.ts');
const CS = demoFile('app/translations/app_cs.ts');

/** The main component's rule: `<component>/<language>.ts`, Weblate's named groups as written for Python. */
const RULE = {
  match: '(?P<component>[^/]*)/(?P<language>[^/.]*)\\.ts',
  file_format: 'ts',
  name_template: '{{ component|title }} strings',
  new_base_template: '',
  remove: true,
};

let env: SyncEnv;
let store: Store;
let sql: DirectSql;
let server: RunningServer;

function project(rule: Record<string, unknown> = RULE) {
  return {
    name: 'Hello',
    slug: 'hello',
    components: [
      {
        name: 'Main',
        slug: 'main',
        repo: env.server.url('repo.git', CREDENTIALS),
        branch: 'main',
        filemask: 'main/*.ts',
        file_format: 'ts',
        addons: [{ name: 'weblate.discovery.discovery', configuration: rule }],
      },
    ],
  };
}

/** The configuration as `tms` loads it from its file: the components discovered in the working copy included. */
function configured(rule?: Record<string, unknown>): Config {
  env.config([project(rule)]);
  return loadConfig(path.join(env.root, 'tms.config.json'));
}

async function storedComponents(): Promise<{ slug: string; name: string; repo: string; filemask: string; discovered_by: string | null }[]> {
  const rows = (await sql.rows('SELECT slug, name, settings FROM components ORDER BY slug')) as { slug: string; name: string; settings: string }[];
  return rows.map((r) => {
    const s = JSON.parse(r.settings) as { repo: string; filemask: string; discovered_by?: string };
    return { slug: r.slug, name: r.name, repo: s.repo, filemask: s.filemask, discovered_by: s.discovered_by ?? null };
  });
}

beforeAll(async () => {
  env = await createSyncEnv();
  await env.addUpstream('repo', { 'main/de.ts': DE, 'main/cs.ts': CS, 'alpha/de.ts': DE, 'beta/de.ts': DE, 'beta/cs.ts': CS, 'README.md': 'x' });
  store = await env.openStore();
  sql = sqlOn(store);
});
afterAll(async () => {
  await server?.close();
  await env?.close();
});

describe('the discovery add-on', () => {
  it('creates the components the repository holds on the first sync, each linked to the main component, and loads them', async () => {
    const config = configured();
    // nothing cloned yet: the file names only the main component
    expect(config.projects[0]!.components.map((c) => c.slug)).toEqual(['main']);
    const results = await syncProject(store, config, 'hello');
    expect(results.map((r) => [r.component, r.ok, r.added > 0])).toEqual([
      ['main', true, true],
      ['alpha-strings', true, true],
      ['beta-strings', true, true],
    ]);
    expect(await storedComponents()).toEqual([
      { slug: 'alpha-strings', name: 'Alpha strings', repo: 'weblate://hello/main', filemask: 'alpha/*.ts', discovered_by: 'hello/main' },
      { slug: 'beta-strings', name: 'Beta strings', repo: 'weblate://hello/main', filemask: 'beta/*.ts', discovered_by: 'hello/main' },
      { slug: 'main', name: 'Main', repo: expect.stringContaining('repo.git'), filemask: 'main/*.ts', discovered_by: null },
    ]);
    const languages = await sql.rows(
      `SELECT c.slug, l.code FROM translations t JOIN components c ON c.id = t.component_id JOIN languages l ON l.id = t.language_id
       WHERE t.filename != '' ORDER BY c.slug, l.code`,
    );
    expect(languages.map((r) => `${r.slug}:${r.code}`)).toEqual(['alpha-strings:de', 'beta-strings:cs', 'beta-strings:de', 'main:cs', 'main:de']);
    // loaded again (a restart, a reload), the configuration holds them, from the working copy
    expect(configured().projects[0]!.components.map((c) => [c.slug, c.linkedTo?.component ?? null])).toEqual([
      ['main', null],
      ['alpha-strings', 'main'],
      ['beta-strings', 'main'],
    ]);
  });

  it('is listed in /api/addons/ and the discovered components show their link', async () => {
    const config = configured();
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: () => {} });
    const addons = (await (await fetch(`${server.url}/api/addons/`)).json()) as { results: { name: string; component: string; configuration: unknown }[] };
    expect(addons.results).toEqual([
      expect.objectContaining({ name: 'weblate.discovery.discovery', component: `${server.url}/api/components/hello/main/`, configuration: RULE }),
    ]);
    const alpha = (await (await fetch(`${server.url}/api/components/hello/alpha-strings/`)).json()) as Record<string, unknown>;
    expect(alpha).toMatchObject({ linked_component: `${server.url}/api/components/hello/main/`, filemask: 'alpha/*.ts', file_format: 'ts' });
  });

  it('adds a component upstream added and removes one whose files upstream removed', async () => {
    await commitToUpstream(env.upstream('repo'), { 'gamma/de.ts': DE, 'alpha/de.ts': null });
    const results = await syncProject(store, configured(), 'hello');
    // alpha is still configured when the sync starts (its files were in the working copy): read, found empty, then removed
    expect(results.map((r) => r.component)).toEqual(['main', 'alpha-strings', 'beta-strings', 'gamma-strings']);
    expect(results.find((r) => r.component === 'gamma-strings')).toMatchObject({ ok: true, scanned: true });
    expect((await storedComponents()).map((c) => c.slug)).toEqual(['beta-strings', 'gamma-strings', 'main']);
    const [gamma] = await sql.rows(
      "SELECT COUNT(*) AS n FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id WHERE c.slug = 'gamma-strings'",
    );
    expect(Number(gamma!.n)).toBeGreaterThan(0);
  });

  it('keeps a component the rule no longer finds while it holds pending edits, and removes it once they are committed', async () => {
    const { user: jane } = await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
    const [quit] = (await sql.rows(
      `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
       JOIN languages l ON l.id = t.language_id WHERE c.slug = 'beta-strings' AND l.code = 'de' AND u.source = 'Quit'`,
    )) as { id: number }[];
    await editUnit(store, { unitId: quit!.id, target: ['Beenden'], state: 20, user: jane });
    // the rule changes so that it no longer finds beta
    const narrower = { ...RULE, match: '(?P<component>(?!beta)[^/]*)/(?P<language>[^/.]*)\\.ts' };
    let config = configured(narrower);
    const first = await syncProject(store, config, 'hello');
    expect(first[0]!.warnings).toContain('discovery: beta-strings is no longer found; kept until its pending edits are committed');
    expect((await storedComponents()).map((c) => c.slug)).toContain('beta-strings');
    // still configured: its edit can be committed (and is pushed)
    const beta = config.projects[0]!.components.find((c) => c.slug === 'beta-strings')!;
    const committed = await commitPending(await openComponent(store, config, config.projects[0]!, beta), { user: jane });
    expect(committed.result).toBe(true);
    expect(committed.commits.map((c) => c.files)).toEqual([['beta/de.ts']]);
    // the next sync removes it
    config = configured(narrower);
    await syncProject(store, config, 'hello');
    expect((await storedComponents()).map((c) => c.slug)).toEqual(['gamma-strings', 'main']);
    expect(config.projects[0]!.components.map((c) => c.slug)).toEqual(['main', 'gamma-strings']);
  });

  it('refuses a rule without the component and language groups, or with an unknown format, naming the JSON path', () => {
    const problems = thrownBy(ConfigError, () => configured({ match: '(?P<name>[^/]*)/x\\.ts', file_format: 'nope' })).data.problems;
    expect(problems).toEqual([
      'projects[0].components[0].addons[0].configuration.match: needs a named group "component" ((?P<component>…))',
      'projects[0].components[0].addons[0].configuration.match: needs a named group "language" ((?P<language>…))',
      expect.stringMatching(/^projects\[0\]\.components\[0\]\.addons\[0\]\.configuration\.file_format: must be one of "ts", /),
    ]);
  });
});
