// `inconsistent` across a project: two components with the same strings, edits making and ending an inconsistency
// (made as the edit operation without propagation, as an upload or a user who may not edit the other component
// would: an API edit would fill the other component), with the statistics and `check:inconsistent` searches of both
// sides, read through the API, exact after each step.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { State } from '../../src/domain/unit.js';
import { editUnit } from '../../src/operations/index.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import type { Store } from '../../src/store/index.js';
import { refreshStats } from '../../src/store/stats.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { httpRequest } from '../helpers/http.js';
import { sqlOn, statisticsRows, unitBySource } from '../helpers/store.js';
import { CREDENTIALS, DEMO, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

describe('the inconsistent check across components', () => {
  let env: SyncEnv;
  let store: Store;
  let server: RunningServer;
  let config: Config;
  let token: string;
  let userId: number;
  const errors: string[] = [];
  const components = (extra: Record<string, Record<string, unknown>> = {}) =>
    ['app', 'copy'].map((slug) => ({
      name: slug,
      slug,
      vcs: 'git',
      branch: 'main',
      source_language: 'en',
      filemask: 'translations/app_*.ts',
      file_format: 'ts',
      push_on_commit: false,
      repo: env.server.url(`${slug}.git`, CREDENTIALS),
      ...extra[slug],
    }));
  const request = (method: string, p: string, json?: unknown) =>
    httpRequest(server.url, p, { method, headers: { Authorization: `Token ${token}` }, ...(json ? { json } : {}) });
  const get = async (p: string) => {
    const answer = await request('GET', p);
    expect(answer.status, answer.text).toBe(200);
    return answer.json as Record<string, unknown>;
  };
  const unitId = async (component: string, source: string) => (await unitBySource(store, component, source)).id;
  const edit = async (component: string, source: string, target: string, state: number = State.TRANSLATED) => {
    const result = await editUnit(store, { unitId: await unitId(component, source), target: [target], state, user: { id: userId } });
    expect(result.propagated).toEqual([]);
  };
  /** What the API says of one side: units found by check:inconsistent, and the translation's failing count. */
  const side = async (component: string) => {
    const found = (await get(`/api/translations/hello/${component}/de/units/?q=${encodeURIComponent('check:inconsistent')}`)).results as {
      source: string[];
    }[];
    const translation = await get(`/api/translations/hello/${component}/de/`);
    return { inconsistent: found.map((u) => u.source[0]).sort(), failing: translation.failing_checks as number };
  };
  /** The failing units of a translation, counted straight from the checks table. */
  const failingInDb = async (component: string) =>
    (
      (await sqlOn(store).row(
        `SELECT count(*) AS n FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
           WHERE c.slug = ? AND t.language_code = 'de' AND EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.dismissed = 0)`,
        component,
      )) as { n: number }
    ).n;
  let baseline: { app: number; copy: number };

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
    await env.addUpstream('copy', { fixture: path.join(DEMO, 'app') });
    config = env.config([{ name: 'Hello', slug: 'hello', components: components() }], { committer: { name: 'tms test', email: 'tms@test.invalid' } });
    store = await env.openStore();
    await store.write((tx) => applyConfig(tx, config));
    for (const slug of ['app', 'copy']) {
      const [result] = await syncProject(store, config, 'hello', slug);
      if (!result?.ok) throw new Error(`sync of hello/${slug} failed: ${result?.error}`);
    }
    const jane = await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
    token = jane.token;
    userId = jane.user.id;
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
    baseline = { app: await failingInDb('app'), copy: await failingInDb('copy') };
  });
  afterAll(async () => {
    await server?.close();
    await env?.close();
    expect(errors).toEqual([]);
  });

  it('finds nothing while both components translate alike', async () => {
    expect(await side('app')).toEqual({ inconsistent: [], failing: baseline.app });
    expect(await side('copy')).toEqual({ inconsistent: [], failing: baseline.copy });
  });

  it('flags both sides when one component translates a string differently, and clears both when they agree again', async () => {
    const project = (await get('/api/projects/hello/statistics/')).failing as number;
    await edit('app', '&File', '&Ablage');
    expect(await side('app')).toEqual({ inconsistent: ['&File'], failing: baseline.app + 1 });
    expect(await side('copy')).toEqual({ inconsistent: ['&File'], failing: baseline.copy + 1 });
    expect(await failingInDb('copy')).toBe(baseline.copy + 1);
    expect((await get('/api/projects/hello/statistics/')).failing).toBe(project + 2);
    expect((await get('/api/languages/de/statistics/')).failing).toBe(project + 2);
    const unit = await get(`/api/units/${await unitId('copy', '&File')}/`);
    expect(unit.has_failing_check).toBe(true);

    await edit('copy', '&File', '&Ablage');
    expect(await side('app')).toEqual({ inconsistent: [], failing: baseline.app });
    expect(await side('copy')).toEqual({ inconsistent: [], failing: baseline.copy });
    expect((await get('/api/projects/hello/statistics/')).failing).toBe(project);
    // statistics an edit moved by one unit's share equal a full count of every translation (source ones too)
    const rows = () => statisticsRows(store);
    const kept = await rows();
    await store.write(async (tx) => refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]));
    expect(await rows()).toEqual(kept);
  });

  it('flags a string translated in one component and untranslated in the other; needing editing is not translated', async () => {
    // "Quit" is empty in both; translating it in one makes both inconsistent (Weblate: "or untranslated elsewhere")
    await edit('app', 'Quit', 'Beenden');
    expect((await side('app')).inconsistent).toEqual(['Quit']);
    expect((await side('copy')).inconsistent).toEqual(['Quit']);
    // marked as needing editing it no longer counts as translated: two untranslated strings are not inconsistent
    await edit('app', 'Quit', 'Beenden', State.FUZZY);
    expect((await side('app')).inconsistent).toEqual([]);
    expect((await side('copy')).inconsistent).toEqual([]);
    // "About %1" needs editing in both: different texts alone do not make it inconsistent
    await edit('copy', 'About %1', 'Info zu %1', State.FUZZY);
    expect((await side('app')).inconsistent).toEqual([]);
    expect(await side('copy')).toEqual({ inconsistent: [], failing: await failingInDb('copy') });
    // the other side's statistics moved by each unit's share as its check came and went: equal to a full count
    const rows = () => statisticsRows(store);
    const kept = await rows();
    await store.write(async (tx) => refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]));
    expect(await rows()).toEqual(kept);
  });

  it('respects ignore-inconsistent on one component: the other side still fails', async () => {
    await edit('app', '&File', '&Datei!');
    expect((await side('copy')).inconsistent).toEqual(['&File']);
    config = env.config([{ name: 'Hello', slug: 'hello', components: components({ copy: { check_flags: 'ignore-inconsistent' } }) }], {
      committer: { name: 'tms test', email: 'tms@test.invalid' },
    });
    await store.write((tx) => applyConfig(tx, config));
    expect((await side('copy')).inconsistent).toEqual([]);
    expect((await side('copy')).failing).toBe(await failingInDb('copy'));
    expect((await side('app')).inconsistent).toEqual(['&File']);
    // a component that does not propagate translations takes no part: the other side is alone again
    config = env.config([{ name: 'Hello', slug: 'hello', components: components({ copy: { allow_translation_propagation: false } }) }], {
      committer: { name: 'tms test', email: 'tms@test.invalid' },
    });
    await store.write((tx) => applyConfig(tx, config));
    expect((await side('app')).inconsistent).toEqual([]);
    expect((await side('app')).failing).toBe(await failingInDb('app'));
    expect((await side('copy')).inconsistent).toEqual([]);
  });
});
