// `tms serve` watching a repository given as a local path: a commit that breaks a file in which an edit is pending
// stops the watcher's pull; that is said in the log and kept as the component's ParseError alert (the alert a sync
// records), and once upstream fixes the file the next pull clears the alert and commits and pushes the edit.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { runServe } from '../../src/cli/serve.js';
import { openStore } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { commitToUpstream, readUpstreamFile } from '../helpers/git-repo.js';
import { httpRequest } from '../helpers/http.js';
import { DEMO, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';
import { waitFor } from '../helpers/wait.js';

const CS_FILE = 'translations/app_cs.ts';

describe('a broken file in a watched upstream with an edit pending in it', () => {
  let env: SyncEnv;
  let stop!: () => void;
  let served: Promise<number>;
  let url: string;
  let token: string;
  const lines: string[] = [];

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
    const app = { name: 'App', slug: 'app', repo: env.upstream('app'), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' };
    const config = env.config([{ name: 'Hello', slug: 'hello', components: [app] }]);
    const store = await openStore(config.database);
    expect((await syncProject(store, config, 'hello')).every((r) => r.ok)).toBe(true);
    token = (await store.write((tx) => createUser(tx, { username: 'root', email: 'root@example.org', admin: true }))).token;
    await store.close();
    const io: CliIo = { out: (l) => lines.push(l), err: (l) => lines.push(l), isTty: false };
    served = runServe(config, io, {
      host: '127.0.0.1',
      port: 0,
      stop: new Promise<void>((resolve) => {
        stop = resolve;
      }),
    });
    url = await waitFor('the server', () => lines.map((l) => /serving the API on (\S+)\/api\//.exec(l)?.[1]).find(Boolean));
  });
  afterAll(async () => {
    stop();
    expect(await served).toBe(0);
    await env.close();
  });

  const api = (method: string, target: string, json?: unknown) => httpRequest(url, target, { method, headers: { Authorization: `Token ${token}` }, json });
  /** The names and files of the component's alerts, as its page lists them. */
  const alerts = async () => {
    const page = await httpRequest(url, '/projects/hello/app/', { method: 'GET' });
    return [...page.text.matchAll(/data-alert="([^"]+)"/g)].map((m) => m[1]);
  };

  it('records the ParseError alert and says so; the fix clears it and the edit goes out', async () => {
    const quit = (await api('GET', `/api/translations/hello/app/cs/units/?q=${encodeURIComponent('source:"Quit"')}`)).json.results[0];
    const edited = await api('PATCH', `/api/units/${quit.id}/`, { target: ['Ukončit'], state: 20 });
    expect(edited.status, edited.text).toBe(200);
    const good = (await readUpstreamFile(env.upstream('app'), 'main', CS_FILE))!.toString();

    await commitToUpstream(env.upstream('app'), { [CS_FILE]: good.replace('<source>Quit</source>', '<source>Quit</translation>') });
    const said = await waitFor('the failed update in the log', () => lines.find((l) => l.startsWith('tms: update of hello/app failed:')));
    expect(said).toContain(`${CS_FILE}:`);
    expect(said).toContain('mismatched end tag');
    await waitFor('the ParseError alert', async () => (await alerts()).includes('ParseError'));
    const page = (await httpRequest(url, '/projects/hello/app/', { method: 'GET' })).text;
    expect(page).toContain(CS_FILE);
    expect((await api('GET', `/api/units/${quit.id}/`)).json).toMatchObject({ target: ['Ukončit'], pending: true });

    await commitToUpstream(env.upstream('app'), { [CS_FILE]: good });
    await waitFor('the edit upstream', async () =>
      (await readUpstreamFile(env.upstream('app'), 'main', CS_FILE))!.toString().includes('<translation>Ukončit</translation>'),
    );
    await waitFor('the alert cleared', async () => !(await alerts()).includes('ParseError'));
    expect((await api('GET', `/api/units/${quit.id}/`)).json).toMatchObject({ target: ['Ukončit'], pending: false });
  }, 60_000);
});
