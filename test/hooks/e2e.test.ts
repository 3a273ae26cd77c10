import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { type UpdateQueue, createUpdateQueue } from '../../src/hooks/queue.js';
import { createComponentUpdater } from '../../src/hooks/updater.js';
import type { Store } from '../../src/store/index.js';
import { syncProject } from '../../src/sync/index.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { CREDENTIALS, DEMO, type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';
import { waitFor } from '../helpers/wait.js';
import { hmacHex, loadFixture, readdress } from './fixtures.js';
import { type HookServer, startHookServer } from './helpers.js';

const SECRET = 'e2e-s3cret';

/** The demo German TS file with extra messages. */
function withMessages(messages: [string, string][]): string {
  const extra = messages.map(([s, t]) => `    <message>\n        <source>${s}</source>\n        <translation>${t}</translation>\n    </message>\n`).join('');
  return demoFile('app/translations/app_de.ts').replace('</context>', `${extra}</context>`);
}

let env: SyncEnv;
let store: Store;
let config: Config;
let queue: UpdateQueue;
let server: HookServer;
let deliveries = 0;
const updates: string[] = [];

/** Sends GitHub's push fixture for the loopback repository, signed, as a new delivery. */
async function sendPush() {
  const body = JSON.stringify(readdress(loadFixture('github', 'push').body, 'https://github.com/tms-test/hello', env.server.url('app')));
  return server.post('/hooks/github/', body, {
    'content-type': 'application/json',
    'x-github-event': 'push',
    'x-github-delivery': `e2e-${++deliveries}`,
    'x-hub-signature-256': `sha256=${hmacHex(SECRET, body)}`,
  });
}

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

type UnitPage = { count: number; results: { source: string[]; target: string[] }[] };
type ChangePage = {
  results: { action: number; action_name: string; component: string | null; unit: string | null; translation: string | null; user: string | null }[];
};

async function germanTargets(): Promise<Record<string, string>> {
  const page = await api<UnitPage>('/api/translations/hello/app/de/units/');
  return Object.fromEntries(page.results.map((u) => [u.source[0], u.target[0]]));
}

beforeAll(async () => {
  env = await createSyncEnv();
  await env.addUpstream('app', { fixture: `${DEMO}/app` });
  config = env.config(
    [
      {
        name: 'Hello',
        slug: 'hello',
        components: [
          { name: 'App', slug: 'app', repo: env.server.url('app.git', CREDENTIALS), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' },
        ],
      },
    ],
    { hooks: { enabled: true, secret: SECRET } },
  );
  store = await env.openStore();
  const [first] = await syncProject(store, config, 'hello');
  expect(first!.ok).toBe(true);
  queue = createUpdateQueue({
    update: createComponentUpdater({ store, getConfig: () => config }),
    lock: false,
    onDone: (p, c) => updates.push(`${p}/${c}`),
  });
  server = await startHookServer({ store, getConfig: () => config, queue });
});
afterAll(async () => {
  await queue?.close();
  await server?.close();
  await env?.close();
});

describe('upstream commit → webhook → API', () => {
  it('shows the new string and changes 53 and 21 after a signed GitHub push', async () => {
    expect(await germanTargets()).not.toHaveProperty('Save');
    await commitToUpstream(env.upstream('app'), { 'translations/app_de.ts': withMessages([['Save', 'Speichern']]) });
    const res = await sendPush();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', updated_components: ['hello/app'] });

    await waitFor('the new string in the units list', async () => (await germanTargets())['Save'] === 'Speichern');
    await queue.idle();
    const changes = await api<ChangePage>('/api/changes/?action=53&action=21');
    expect(changes.results.map((c) => c.action)).toEqual([21, 53]);
    const hook = changes.results[1];
    expect(hook).toMatchObject({ action_name: 'Repository notification received', unit: null, translation: null, user: null });
    expect(hook!.component).toMatch(/\/api\/components\/hello\/app\/$/);
    expect(changes.results[0]!.component).toBe(hook!.component);
  });

  it('coalesces a burst of pushes into at most two pulls, recording each notification', async () => {
    await queue.idle();
    updates.length = 0;
    const before = (await api<ChangePage>('/api/changes/?action=53')).results.length;
    await commitToUpstream(env.upstream('app'), {
      'translations/app_de.ts': withMessages([
        ['Save', 'Speichern'],
        ['Close', 'Schließen'],
      ]),
    });
    const answers = await Promise.all(Array.from({ length: 12 }, () => sendPush()));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await queue.idle();
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(2);
    expect((await germanTargets())['Close']).toBe('Schließen');
    expect((await api<ChangePage>('/api/changes/?action=53')).results.length - before).toBe(12);
  });

  it('refuses an unsigned push without queueing anything', async () => {
    await queue.idle();
    updates.length = 0;
    const body = JSON.stringify(readdress(loadFixture('github', 'push').body, 'https://github.com/tms-test/hello', env.server.url('app')));
    const res = await server.post('/hooks/github/', body, { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': 'unsigned' });
    expect(res.status).toBe(401);
    await queue.idle();
    expect(updates).toEqual([]);
  });
});
