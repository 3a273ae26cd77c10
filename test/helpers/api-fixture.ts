// A realistic store for API tests: fixtures/demo synced from local upstream repositories, plus users, edits, changes, add-ons.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AppServices, createServices } from '../../src/api/app.js';
import type { Principal } from '../../src/auth/check.js';
import { type Config, parseConfig } from '../../src/config/config.js';
import { recordChangeRow } from '../../src/store/changes.repo.js';
import type { ChangeInput } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { findComponent } from '../../src/store/projects.repo.js';
import { refreshStats } from '../../src/store/stats.repo.js';
import { createUser, findUserByUsername } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { repoRoot } from './corpus.js';
import { createUpstream } from './git-repo.js';

const DEMO = path.join(repoRoot, 'fixtures', 'demo');

export interface ApiFixture {
  dir: string;
  config: Config;
  store: Store;
  /** API tokens: a translator (Jane Doe) and a superuser. */
  tokens: { jane: string; admin: string };
  close(): Promise<void>;
}

const component = (slug: string, name: string, extra: Record<string, unknown>) => ({
  name,
  slug,
  vcs: 'git',
  branch: 'main',
  source_language: 'en',
  license: 'MIT',
  ...extra,
});

/**
 * Project `hello` (public): `app` (Qt TS: en source, cs, de), `glossary` (TBX), `docs` (JSON, never
 * synced, credentials in its URL); project `internal` (private): `tools` (the app files again).
 */
export function fixtureConfig(dir: string, extra: Record<string, unknown> = {}): Config {
  const upstream = (name: string) => path.join(dir, 'upstream', `${name}.git`);
  const text = JSON.stringify({
    database: 'tms.sqlite',
    repos_dir: 'repos',
    ...extra,
    projects: [
      {
        name: 'Hello',
        slug: 'hello',
        web: 'https://example.org/hello',
        instructions: 'Demo project.',
        components: [
          component('app', 'App', { repo: upstream('app'), filemask: 'translations/app_*.ts', file_format: 'ts' }),
          component('glossary', 'Glossary', { repo: upstream('glossary'), filemask: 'glossary/*.tbx', file_format: 'tbx', is_glossary: true }),
          // Not synced: no translations. Its repository URL carries credentials that must never be shown.
          component('docs', 'Docs', {
            repo: 'https://translator:s3cr3t-pa55@git.example.org/hello/docs.git',
            filemask: 'docs/*.json',
            template: 'docs/en.json',
            file_format: 'json',
          }),
        ],
      },
      {
        name: 'Internal',
        slug: 'internal',
        access_control: 100,
        components: [component('tools', 'Tools', { repo: upstream('app'), filemask: 'translations/app_*.ts', file_format: 'ts' })],
      },
    ],
  });
  return parseConfig(text, path.join(dir, 'tms.config.json'));
}

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/**
 * Builds the fixture in a temporary folder: upstream repositories made from fixtures/demo, synced
 * by the real sync; then Jane's two edits of German app strings (10:10 and 10:12 on 2025-03-01),
 * a commit (10:20), a commit in the private project (10:30) and three add-ons.
 */
export async function createApiFixture(): Promise<ApiFixture> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tms-api-'));
  await createUpstream({ dir: path.join(dir, 'upstream', 'app.git'), fixture: path.join(DEMO, 'app') });
  await createUpstream({ dir: path.join(dir, 'upstream', 'glossary.git'), fixture: path.join(DEMO, 'glossary'), into: 'glossary' });
  const config = fixtureConfig(dir);
  const store = await openStore(config.database);
  await store.write((tx) => applyConfig(tx, config));
  for (const [project, components] of [
    ['hello', ['app', 'glossary']],
    ['internal', ['tools']],
  ] as const) {
    for (const slug of components) {
      const [result] = await syncProject(store, config, project, slug);
      if (!result!.ok) throw new Error(`fixture sync of ${project}/${slug} failed: ${result!.error}`);
    }
  }
  const jane = await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
  const admin = await store.write((tx) => createUser(tx, { username: 'admin', fullName: 'Site Admin', email: 'admin@example.org', admin: true }));
  const app = (await store.read((tx) => findComponent(tx, 'hello', 'app')))!;
  const tools = (await store.read((tx) => findComponent(tx, 'internal', 'tools')))!;

  await store.write(async (tx) => {
    const record = (change: ChangeInput) => recordChangeRow(tx, change);
    const translationOf = tx
      .prepare(`SELECT t.id FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? AND l.code = ?`)
      .pluck();
    const de = (await translationOf.get(app.id, 'de')) as number;
    const unitAt = tx.prepare('SELECT id FROM units WHERE translation_id = ? AND position = ?').pluck();
    const janeId = jane.user.id;
    for (const [minutes, position, text] of [
      [10, 1, '&Datei!'],
      [12, 4, 'Beenden'],
    ] as const) {
      const unitId = (await unitAt.get(de, position)) as number;
      await tx.prepare('UPDATE units SET target = ?, state = 20 WHERE id = ?').run(text, unitId);
      await record({
        action: 2,
        timestamp: at(minutes),
        projectId: app.project_id,
        componentId: app.id,
        translationId: de,
        unitId,
        userId: janeId,
        authorId: janeId,
        target: text,
      });
    }
    await record({ action: 17, timestamp: at(20), projectId: app.project_id, componentId: app.id, translationId: de, userId: janeId });
    const toolsDe = (await translationOf.get(tools.id, 'de')) as number;
    await record({ action: 17, timestamp: at(30), projectId: tools.project_id, componentId: tools.id, translationId: toolsDe });
    await tx.prepare("INSERT INTO addons (component_id, name, configuration) VALUES (?, 'service.cleanup.generic', '{}')").run(app.id);
    await tx
      .prepare(`INSERT INTO addons (project_id, name, configuration) VALUES (?, 'service.json.customize', '{"style":"spaces","indent":2,"sort_keys":false}')`)
      .run(app.project_id);
    await tx.prepare("INSERT INTO addons (component_id, name, configuration) VALUES (?, 'service.cleanup.generic', '{}')").run(tools.id);
    await refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]);
  });

  return {
    dir,
    config,
    store,
    tokens: { jane: jane.token, admin: admin.token },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The fixture's app services, refreshed, and the principals of `names` ('anonymous' or a username), each with its name. */
export async function fixtureServices(fixture: ApiFixture, names: readonly string[]): Promise<{ services: AppServices; principals: [string, Principal][] }> {
  const services = createServices(fixture.store, () => fixture.config, 'test');
  await services.refresh();
  const principals: [string, Principal][] = [];
  for (const name of names) {
    const principal =
      name === 'anonymous'
        ? await services.principal((await services.anonymous())!)
        : await services.principal((await fixture.store.read((tx) => findUserByUsername(tx, name)))!);
    principals.push([name, principal]);
  }
  return { services, principals };
}
