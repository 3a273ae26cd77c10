// Components sharing one repository end to end: one commit carrying two components' edits pushed once, and a webhook
// for the repository that re-reads only the component whose file changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password.js';
import { openComponent } from '../../src/component/handle.js';
import type { Config } from '../../src/config/config.js';
import { type UpdateQueue, createUpdateQueue } from '../../src/hooks/queue.js';
import { type ComponentUpdate, createComponentUpdater } from '../../src/hooks/updater.js';
import { commitPending, editUnit } from '../../src/operations/index.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import type { Store } from '../../src/store/index.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { commitToUpstream, gitCli } from '../helpers/git-repo.js';
import { type DirectSql, sqlOn } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';
import { webSignIn } from '../helpers/web-session.js';
import { hmacHex, loadFixture, readdress } from './fixtures.js';
import { type HookServer, startHookServer } from './helpers.js';

const SECRET = 'shared-s3cret';
const SLUGS = ['alpha', 'beta', 'gamma', 'delta'];

let env: SyncEnv;
let store: Store;
let sql: DirectSql;
let config: Config;
let queue: UpdateQueue;
let server: HookServer;
const done: ComponentUpdate[] = [];

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const slug of SLUGS) out[`${slug}/app_de.ts`] = demoFile('app/translations/app_de.ts');
  return out;
}

/** Smart-HTTP requests to the shared repository since `from`. */
function requestsSince(from: number): string[] {
  return env.server.requests.slice(from).filter((r) => r.includes('shared.git'));
}

async function unitOf(component: string, source: string): Promise<{ id: number; target: string; pending: number }> {
  const [row] = await sql.rows(
    `SELECT u.id, u.target, u.pending FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
     JOIN languages l ON l.id = t.language_id WHERE c.slug = ? AND l.code = 'de' AND u.source = ?`,
    component,
    source,
  );
  return row as { id: number; target: string; pending: number };
}

beforeAll(async () => {
  env = await createSyncEnv();
  await env.addUpstream('shared', files());
  config = env.config(
    [
      {
        name: 'Hello',
        slug: 'hello',
        components: SLUGS.map((slug, i) => ({
          name: slug,
          slug,
          repo: i === 0 ? env.server.url('shared.git', CREDENTIALS) : 'weblate://hello/alpha',
          ...(i === 0 ? { branch: 'main' } : {}),
          filemask: `${slug}/app_*.ts`,
          file_format: 'ts',
        })),
      },
    ],
    { hooks: { enabled: true, secret: SECRET } },
  );
  store = await env.openStore();
  sql = sqlOn(store);
  const results = await syncProject(store, config, 'hello');
  expect(results.every((r) => r.ok)).toBe(true);
  queue = createUpdateQueue({
    update: createComponentUpdater({ store, getConfig: () => config }),
    lock: false,
    onDone: (_p, _c, result) => done.push(result as ComponentUpdate),
  });
  server = await startHookServer({ store, getConfig: () => config, queue });
});
afterAll(async () => {
  await queue?.close();
  await server?.close();
  await env?.close();
});

describe('components sharing a repository', () => {
  it('commits the pending edits of two linked components in one commit and pushes it once', async () => {
    const { user: jane } = await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
    await editUnit(store, { unitId: (await unitOf('beta', 'Quit')).id, target: ['Beenden'], state: 20, user: jane });
    await editUnit(store, { unitId: (await unitOf('gamma', 'Quit')).id, target: ['Schließen'], state: 20, user: jane });
    const before = requestsSince(0).length;
    const commitsBefore = Number(await gitCli(env.upstream('shared'), ['rev-list', '--count', 'main']));
    const project = config.projects[0]!;
    const result = await commitPending(await openComponent(store, config, project, project.components[1]!), { user: jane });
    expect(result.result).toBe(true);
    expect(result.commits).toHaveLength(1);
    expect(result.commits[0]!.files.sort()).toEqual(['beta/app_de.ts', 'gamma/app_de.ts']);
    // one push: one receive-pack exchange
    expect(
      requestsSince(0)
        .slice(before)
        .filter((r) => r.startsWith('POST') && r.endsWith('git-receive-pack')),
    ).toHaveLength(1);
    // upstream got one commit with both files, written by the translator
    expect(Number(await gitCli(env.upstream('shared'), ['rev-list', '--count', 'main']))).toBe(commitsBefore + 1);
    expect((await gitCli(env.upstream('shared'), ['show', '--name-only', '--format=%an', 'main'])).split('\n').filter(Boolean)).toEqual([
      'Jane Doe',
      'beta/app_de.ts',
      'gamma/app_de.ts',
    ]);
    expect(await gitCli(env.upstream('shared'), ['show', 'main:gamma/app_de.ts'])).toContain('<translation>Schließen</translation>');
    expect(await unitOf('beta', 'Quit')).toMatchObject({ target: 'Beenden', pending: 0 });
    expect(await unitOf('gamma', 'Quit')).toMatchObject({ target: 'Schließen', pending: 0 });
    // every component's store is at the pushed commit or reads nothing new from it
    const results = await syncProject(store, config, 'hello');
    expect(results.map((r) => [r.component, r.ok, r.parsed])).toEqual(SLUGS.map((s) => [s, true, 0]));
  });

  it('re-reads only the component whose file a pushed commit changed when the repository webhook arrives', async () => {
    await commitToUpstream(env.upstream('shared'), {
      'delta/app_de.ts': demoFile('app/translations/app_de.ts').replace('Eine Datei öffnen', 'Datei öffnen'),
    });
    done.length = 0;
    const before = env.server.requests.length;
    const body = JSON.stringify(readdress(loadFixture('github', 'push').body, 'https://github.com/tms-test/hello', env.server.url('shared')));
    const res = await server.post('/hooks/github/', body, {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': 'shared-1',
      'x-hub-signature-256': `sha256=${hmacHex(SECRET, body)}`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', updated_components: ['hello/alpha'] });
    await queue.idle();
    // one update, for the repository: one fetch
    expect(done).toHaveLength(1);
    expect(requestsSince(before).filter((r) => r.startsWith('POST') && r.endsWith('git-upload-pack'))).toHaveLength(1);
    const update = done[0]!;
    expect(update.ok).toBe(true);
    const syncs = [update.sync!, ...(update.shared ?? [])];
    expect(syncs.map((s) => [s.component, s.scanned, s.parsed])).toEqual([
      ['alpha', false, 0],
      ['beta', false, 0],
      ['gamma', false, 0],
      ['delta', true, 1],
    ]);
    expect(await unitOf('delta', 'Open a file')).toMatchObject({ target: 'Datei öffnen' });
    expect(await unitOf('gamma', 'Open a file')).toMatchObject({ target: 'Eine Datei öffnen' });
  });

  it('shows the link as Weblate does: linked_component in the API, "shared with" on the repository page', async () => {
    const component = async (slug: string) => (await (await fetch(`${server.url}/api/components/hello/${slug}/`)).json()) as Record<string, unknown>;
    expect((await component('alpha')).linked_component).toBeNull();
    expect(await component('beta')).toMatchObject({ repo: 'weblate://hello/alpha', linked_component: `${server.url}/api/components/hello/alpha/` });
    const list = (await (await fetch(`${server.url}/api/components/`)).json()) as { results: { slug: string; linked_component: string | null }[] };
    expect(list.results.map((c) => [c.slug, c.linked_component !== null])).toEqual(SLUGS.map((s, i) => [s, i > 0]));

    const { user: mike } = await store.write((tx) => createUser(tx, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' }));
    await store.write((tx) => joinTeams(tx, mike.id, ['Managers']));
    const hash = await hashPassword('mike-password-1');
    await store.write((tx) => setPasswordHash(tx, 'mike', hash));
    const session = (await webSignIn(server.url, 'mike', 'mike-password-1')).cookie;
    const page = await (await fetch(`${server.url}/repository/hello/beta/`, { headers: { Cookie: session } })).text();
    const shared = /<dt>Repository<\/dt><dd data-shared="?3"?>([\s\S]*?)<\/dd>/.exec(page)?.[1] ?? '';
    expect(shared).toMatch(/^shared with /);
    expect([...shared.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual(['/projects/hello/alpha/', '/projects/hello/gamma/', '/projects/hello/delta/']);
  });
});
