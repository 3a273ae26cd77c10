// `tms serve` keeps in step with its configuration file: a component added while serving is synced, listed by the API,
// and usable by the write side (which needs its configuration), and webhooks are mounted at /hooks/.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { runServe } from '../../src/cli/serve.js';
import { openStore } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { DEMO, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';
import { waitFor } from '../helpers/wait.js';

const component = (slug: string, repo: string) => ({ name: slug, slug, repo, branch: 'main', filemask: 'glossary/*.tbx', file_format: 'tbx' });

describe('tms serve with a changing configuration file', () => {
  let env: SyncEnv;
  let stop!: () => void;
  let served: Promise<number>;
  let url: string;
  let token: string;
  const lines: string[] = [];
  const write = (components: unknown[]) =>
    writeFileSync(
      path.join(env.root, 'tms.config.json'),
      JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'Hello', slug: 'hello', components }] }),
    );

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('glossary', { fixture: path.join(DEMO, 'glossary'), into: 'glossary' });
    write([component('one', env.upstream('glossary'))]);
    const config = env.config([{ name: 'Hello', slug: 'hello', components: [component('one', env.upstream('glossary'))] }]);
    const store = await openStore(config.database);
    await syncProject(store, config, 'hello');
    token = (await store.write((tx) => createUser(tx, { username: 'root', admin: true }))).token;
    await store.close();
    const io: CliIo = { out: (l) => lines.push(l), err: (l) => lines.push(l), isTty: false };
    served = runServe(config, io, {
      host: '127.0.0.1',
      port: 0,
      stop: new Promise<void>((resolve) => {
        stop = resolve;
      }),
    });
    url = await waitFor('the server to start', async () => lines.map((l) => /serving the API on (\S+)\/api\//.exec(l)?.[1]).find(Boolean));
  });
  afterAll(async () => {
    stop();
    expect(await served).toBe(0);
    await env.close();
  });

  it('syncs, lists and operates on a component added to the file while serving', async () => {
    write([component('one', env.upstream('glossary')), component('two', env.upstream('glossary'))]);
    const translations = await waitFor('the added component to be synced', async () => {
      const r = await fetch(`${url}/api/components/hello/two/translations/`);
      if (r.status !== 200) return undefined;
      const body = (await r.json()) as { count: number };
      return body.count > 0 ? body : undefined;
    });
    expect(translations.count).toBe(3);
    const status = await fetch(`${url}/api/components/hello/two/repository/`, { headers: { Authorization: `Token ${token}` } });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ needs_commit: false, needs_merge: false, needs_push: false });
  });

  it('answers webhooks at /hooks/ next to the API', async () => {
    const ping = await fetch(`${url}/hooks/github/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'ping', 'X-GitHub-Delivery': 'd-1' },
      body: JSON.stringify({ zen: 'hello', hook_id: 1 }),
    });
    expect(ping.status).toBe(201);
    expect(await ping.json()).toMatchObject({ message: 'Hook working' });
  });
});
