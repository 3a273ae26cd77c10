// The checks and statistics a large automatic translation leaves (its strings' checks, `inconsistent` and source
// checks read and written for the whole chunk at once) equal what checking every string again from scratch gives:
// two components with 150 strings, one German translation filled from the other through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recheckComponent } from '../../src/checks/refresh.js';
import type { Config } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import type { Store } from '../../src/store/index.js';
import { refreshStats } from '../../src/store/stats.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { httpRequest } from '../helpers/http.js';
import { sqlOn, statisticsRows } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';
import { waitFor } from '../helpers/wait.js';

const N = 150;

/** A Qt TS file of N strings: `translate(i)` gives string i's translation (null: untranslated). */
function tsFile(language: string, translate: (i: number) => string | null): string {
  const messages = Array.from({ length: N }, (_, i) => {
    const t = translate(i);
    const translation = t === null ? '<translation type="unfinished"></translation>' : `<translation>${t}</translation>`;
    return `    <message>\n        <source>Message number ${i}.</source>\n        ${translation}\n    </message>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="${language}">\n<context>\n    <name>Main</name>\n${messages.join('\n')}\n</context>\n</TS>\n`;
}

describe('checks after a large automatic translation', () => {
  let env: SyncEnv;
  let store: Store;
  let server: RunningServer;
  let config: Config;
  let token: string;
  const errors: string[] = [];

  beforeAll(async () => {
    env = await createSyncEnv();
    // German: every string translated in `app`, the even ones without the source's full stop (end_stop fails);
    // French: the same in both components, without full stops
    const de = tsFile('de', (i) => (i % 2 === 0 ? `Nachricht Nummer ${i}` : `Nachricht Nummer ${i}.`));
    const fr = tsFile('fr', (i) => `Message numéro ${i}`);
    await env.addUpstream('app', { 'translations/app_de.ts': de, 'translations/app_fr.ts': fr });
    await env.addUpstream('copy', { 'translations/app_de.ts': tsFile('de', () => null), 'translations/app_fr.ts': fr });
    const components = ['app', 'copy'].map((slug) => ({
      name: slug,
      slug,
      vcs: 'git',
      branch: 'main',
      source_language: 'en',
      filemask: 'translations/app_*.ts',
      file_format: 'ts',
      push_on_commit: false,
      repo: env.server.url(`${slug}.git`, CREDENTIALS),
    }));
    config = env.config([{ name: 'Hello', slug: 'hello', components }], { committer: { name: 'tms test', email: 'tms@test.invalid' } });
    store = await env.openStore();
    await store.write((tx) => applyConfig(tx, config));
    for (const slug of ['app', 'copy']) {
      const [result] = await syncProject(store, config, 'hello', slug);
      if (!result?.ok) throw new Error(`sync of hello/${slug} failed: ${result?.error}`);
    }
    const admin = await store.write((tx) => createUser(tx, { username: 'admin', fullName: 'Admin', email: 'admin@example.org', admin: true }));
    token = admin.token;
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
  });
  afterAll(async () => {
    await server?.close();
    await env?.close();
    expect(errors).toEqual([]);
  });

  const checks = () =>
    sqlOn(store).rows(
      `SELECT c.slug, t.language_code, u.source, k.name, k.dismissed FROM checks k JOIN units u ON u.id = k.unit_id
         JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
       ORDER BY c.slug, t.language_code, u.source, k.name`,
    );
  const stats = () => statisticsRows(store);
  const count = async (name: string, slug: string, language: string) =>
    (await checks()).filter((r) => r.name === name && r.slug === slug && r.language_code === language).length;

  it('leaves the checks, `inconsistent` and the statistics as checking everything again would', async () => {
    // before: every German string of `app` is translated while `copy` has none (inconsistent on both sides)
    expect(await count('inconsistent', 'app', 'de')).toBe(N);
    expect(await count('inconsistent', 'copy', 'de')).toBe(N);
    // French fails end_stop and the empty German `inconsistent`: two failures, multiple_failures on every source string
    expect(await count('multiple_failures', 'copy', 'en')).toBe(N);
    // the statistics the sync of `copy` moved (150 units of `app` flagged at once) equal a full count
    const synced = await stats();
    await store.write(async (tx) => refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]));
    expect(await stats()).toEqual(synced);

    const r = await httpRequest(server.url, '/api/translations/hello/copy/de/autotranslate/', {
      method: 'POST',
      headers: { Authorization: `Token ${token}` },
      json: { mode: 'translate', auto_source: 'others', component: 'app' },
    });
    expect(r.status, r.text).toBe(200);
    const task = r.json.task_url.replace(server.url, '');
    await waitFor('the task', async () => (await httpRequest(server.url, task, { headers: { Authorization: `Token ${token}` } })).json.completed === true);

    // the chunk's writes changed many strings on every side
    expect(await count('inconsistent', 'app', 'de')).toBe(0);
    expect(await count('inconsistent', 'copy', 'de')).toBe(0);
    expect(await count('end_stop', 'copy', 'de')).toBe(N / 2);
    // the odd strings are left with French's one failure
    expect(await count('multiple_failures', 'copy', 'en')).toBe(N / 2);
    const kept = { checks: await checks(), stats: await stats() };
    // every check of both components and every statistic again, string by string
    await store.write(async (tx) => {
      for (const id of (await tx.prepare('SELECT id FROM components').pluck().all()) as number[]) await recheckComponent(tx, id);
      await refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]);
    });
    expect(await checks()).toEqual(kept.checks);
    expect(await stats()).toEqual(kept.stats);
  });
});
