// What a site needs to run `tms serve` as a service, through the real server and CLI: /healthz, the request log,
// Weblate's API throttling, background commits of old pending edits, online backup and restore, the stored delivery log.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password.js';
import type { CliIo } from '../../src/cli/io.js';
import { runServe } from '../../src/cli/serve.js';
import { requestedUpdates } from '../../src/store/hook-deliveries.repo.js';
import { openStore } from '../../src/store/index.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { runCli } from '../helpers/cli.js';
import { commitToUpstream, gitCli } from '../helpers/git-repo.js';
import { httpRequest } from '../helpers/http.js';
import { onPostgres } from '../helpers/store.js';
import { DEMO, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';
import { waitFor } from '../helpers/wait.js';

describe('tms serve as a service', () => {
  let env: SyncEnv;
  let stop!: () => void;
  let served: Promise<number>;
  let url: string;
  let token: string;
  let configFile: string;
  let clockOffset = 0;
  const lines: string[] = [];

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
    const app = { name: 'App', slug: 'app', repo: env.upstream('app'), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' };
    const config = env.config([{ name: 'Hello', slug: 'hello', components: [app] }], {
      rate_limit: { anonymous: '5/minute' },
      commit_pending_check_seconds: 0.2,
      log_level: 'info',
    });
    configFile = config.file;
    const store = await openStore(config.database);
    await syncProject(store, config, 'hello');
    token = (await store.write((tx) => createUser(tx, { username: 'root', email: 'root@example.org', admin: true }))).token;
    const rootHash = await hashPassword('root-password-1');
    await store.write((tx) => setPasswordHash(tx, 'root', rootHash));
    await store.close();
    const io: CliIo = { out: (l) => lines.push(l), err: (l) => lines.push(l), isTty: false };
    served = runServe(config, io, {
      host: '127.0.0.1',
      port: 0,
      now: () => Date.now() + clockOffset,
      stop: new Promise<void>((resolve) => {
        stop = resolve;
      }),
    });
    url = await waitFor('the server to start', () => lines.map((l) => /serving the API on (\S+)\/api\//.exec(l)?.[1]).find(Boolean));
  });
  afterAll(async () => {
    stop();
    await served;
    await env.close();
  });

  it('answers /healthz with the database and the queue depth, without authentication or throttling', async () => {
    for (let i = 0; i < 8; i++) {
      const r = await httpRequest(url, '/healthz');
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ status: 'ok', database: 'ok', queue: { running: 0, queued: 0 } });
      expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const post = await httpRequest(url, '/healthz', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.json).toMatchObject({ type: 'client_error', errors: [{ code: 'method_not_allowed' }] });
  });

  it('logs one JSON line per request with method, path, status, time and user, never the token', async () => {
    await httpRequest(url, '/api/projects/?page_size=1', { token });
    const entry = await waitFor('the request log line', () =>
      lines
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .find((e) => e.event === 'request' && e.path === '/api/projects/' && e.user === 'root'),
    );
    expect(entry).toMatchObject({ level: 'info', method: 'GET', status: 200, address: '127.0.0.1' });
    expect(typeof entry.ms).toBe('number');
    expect(typeof entry.time).toBe('string');
    expect(lines.join('\n')).not.toContain(token);
  });

  it('logs the signed-in user of web pages too (the sign-in itself included), never the session cookie', async () => {
    const form = await httpRequest(url, '/accounts/login/');
    const csrf = /tms_csrf=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1]!;
    const signIn = await httpRequest(url, '/accounts/login/', {
      method: 'POST',
      headers: { Cookie: `tms_csrf=${csrf}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfmiddlewaretoken: csrf, username: 'root', password: 'root-password-1', next: '/' }).toString(),
    });
    expect(signIn.status).toBe(303);
    const session = signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('tms_session='))!
      .split(';')[0]!;
    expect((await httpRequest(url, '/projects/hello/', { headers: { Cookie: session } })).status).toBe(200);
    const logged = (path: string, method: string) =>
      waitFor(`the request log line of ${method} ${path}`, () =>
        lines
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l))
          .find((e) => e.event === 'request' && e.path === path && e.method === method),
      );
    expect(await logged('/accounts/login/', 'POST')).toMatchObject({ status: 303, user: 'root' });
    expect(await logged('/projects/hello/', 'GET')).toMatchObject({ status: 200, user: 'root' });
    expect(lines.join('\n')).not.toContain(session.split('=')[1]);
  });

  it('throttles anonymous callers as Weblate does (X-RateLimit-* headers, then 429 JSON), not users', async () => {
    const seen: number[] = [];
    let last = await httpRequest(url, '/api/languages/');
    for (let i = 0; i < 6 && last.status === 200; i++) {
      seen.push(Number(last.headers.get('x-ratelimit-remaining')));
      last = await httpRequest(url, '/api/languages/');
    }
    expect(last.status).toBe(429);
    expect(last.headers.get('x-ratelimit-limit')).toBe('5');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.json).toMatchObject({ type: 'client_error', errors: [{ code: 'throttled', attr: null }] });
    expect(last.json.errors[0].detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds?\.$/);
    // strictly decreasing remaining counts
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeLessThan(seen[i - 1]!);
    // a user is not limited (no user rate configured)
    for (let i = 0; i < 10; i++) expect((await httpRequest(url, '/api/languages/', { token })).status).toBe(200);
  });

  it('commits and pushes pending edits once they are older than commit_pending_age, not before', async () => {
    const head = () => gitCli(env.upstream('app'), ['rev-parse', 'main']);
    const before = await head();
    const units = await httpRequest(url, '/api/translations/hello/app/de/units/?page_size=20', { token });
    const unit = units.json.results.find((u: { read_only: boolean }) => !u.read_only);
    const edit = await httpRequest(url, `/api/units/${unit.id}/`, { method: 'PATCH', token, json: { target: ['Hintergrund-Commit'], state: 20 } });
    expect(edit.status).toBe(200);
    // several passes (every 0.2 s) go by: 24 hours have not passed
    await new Promise((r) => setTimeout(r, 800));
    expect(await head()).toBe(before);
    expect((await httpRequest(url, `/api/units/${unit.id}/`, { token })).json.pending).toBe(true);
    clockOffset = 25 * 3_600_000;
    await waitFor('the background commit', async () => (await head()) !== before);
    const file = await gitCli(env.upstream('app'), ['show', 'main:translations/app_de.ts']);
    expect(file).toContain('Hintergrund-Commit');
    expect((await httpRequest(url, `/api/units/${unit.id}/`, { token })).json.pending).toBe(false);
    const health = await httpRequest(url, '/healthz');
    expect(health.json.background_commits.commits).toBeGreaterThanOrEqual(1);
    clockOffset = 0;
  });

  it.skipIf(onPostgres)('backs the database up while serving and writing, refuses to restore over a served database', async () => {
    const backup = path.join(env.root, 'backup.sqlite');
    const units = await httpRequest(url, '/api/translations/hello/app/cs/units/?page_size=5', { token });
    const editable = units.json.results.filter((u: { read_only: boolean }) => !u.read_only);
    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing) {
        const unit = editable[n % editable.length];
        const target = unit.target.map((_: string, i: number) => `zapis ${n} ${i}`);
        n++;
        const r = await httpRequest(url, `/api/units/${unit.id}/`, { method: 'PATCH', token, json: { target, state: 20 } });
        if (r.status !== 200) throw new Error(`edit during the backup: HTTP ${r.status} ${r.text}`);
      }
      return n;
    })();
    const result = await runCli(['--config', configFile, 'backup', backup]);
    writing = false;
    expect(await writer).toBeGreaterThan(0);
    expect(result.code).toBe(0);
    expect(result.stdout.join('\n')).toMatch(/integrity ok/);
    const copy = new Database(backup, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((copy.prepare('SELECT count(*) FROM units').pluck().get() as number) > 0).toBe(true);
    copy.close();
    const refused = await runCli(['--config', configFile, 'restore', backup]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.join('\n')).toMatch(/being served.*stop tms serve first/);
    for (const leftover of ['', '-wal', '-shm']) expect(existsSync(`${backup}.tmp-${process.pid}${leftover}`)).toBe(false);
    for (const leftover of ['-wal', '-shm']) expect(existsSync(`${backup}${leftover}`)).toBe(false);
  });
});

describe('tms restore', () => {
  it.skipIf(onPostgres)('puts a backup back in place of the database once nothing serves it', async () => {
    const env = await createSyncEnv();
    try {
      await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
      const app = { name: 'App', slug: 'app', repo: env.upstream('app'), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' };
      const config = env.config([{ name: 'Hello', slug: 'hello', components: [app] }]);
      expect((await runCli(['--config', config.file, 'sync', 'hello'])).code).toBe(0);
      expect((await runCli(['--config', config.file, 'user', 'add', 'before'])).code).toBe(0);
      const backups = path.join(env.root, 'backups');
      mkdirSync(backups);
      const backup = path.join(backups, 'b.sqlite');
      expect((await runCli(['--config', config.file, 'backup', backup])).code).toBe(0);
      // the backup and nothing else: no temporary file, and no -wal or -shm of one (or of the backup)
      expect(readdirSync(backups)).toEqual(['b.sqlite']);
      expect((await runCli(['--config', config.file, 'user', 'add', 'after'])).code).toBe(0);
      const restored = await runCli(['--config', config.file, 'restore', backup]);
      expect(restored.code).toBe(0);
      // reading the backup to restore it left nothing beside it either
      expect(readdirSync(backups)).toEqual(['b.sqlite']);
      const users = await runCli(['--config', config.file, 'user', 'list']);
      expect(users.stdout.join('\n')).toContain('before');
      expect(users.stdout.join('\n')).not.toContain('after');
      // not a database: refused with a reason, the database untouched
      const junk = path.join(env.root, 'junk.sqlite');
      await import('node:fs/promises').then((fs) => fs.writeFile(junk, 'not a database at all'.repeat(100)));
      const bad = await runCli(['--config', config.file, 'restore', junk]);
      expect(bad.code).toBe(1);
      expect(bad.stderr.join('\n')).toMatch(/junk\.sqlite/);
      expect((await runCli(['--config', config.file, 'user', 'list'])).stdout.join('\n')).toContain('before');
    } finally {
      await env.close();
    }
  });
});

describe('the stored webhook delivery log', () => {
  it('remembers handled deliveries across a restart and keeps only the newest', async () => {
    const env = await createSyncEnv();
    try {
      const { createStoredDeliveryLog } = await import('../../src/hooks/index.js');
      let store = await env.openStore();
      let log = createStoredDeliveryLog(store, 3);
      expect(await log.accept('github:a', [])).toBe(true);
      expect(await log.accept('github:a', [])).toBe(false);
      await store.close();
      store = await env.openStore();
      log = createStoredDeliveryLog(store, 3);
      expect(await log.accept('github:a', [])).toBe(false);
      for (const id of ['b', 'c', 'd']) expect(await log.accept(`github:${id}`, [])).toBe(true);
      // 'a' is the oldest of four: forgotten
      expect(await log.accept('github:a', [])).toBe(true);
      expect(await log.accept('github:d', [])).toBe(false);
    } finally {
      await env.close();
    }
  });
});

describe('/healthz when the database does not answer', () => {
  it('answers 503 with the reason, so a load balancer takes the instance out', async () => {
    const { startApi } = await import('../helpers/api-client.js');
    const api = await startApi();
    try {
      expect((await api.get('/healthz')).status).toBe(200);
      await api.fixture.store.close();
      const r = await api.get('/healthz');
      expect(r.status).toBe(503);
      expect(r.json).toMatchObject({ status: 'error' });
      expect(r.json.database).toMatch(/^error: /);
    } finally {
      await api.close();
    }
  });
});

describe('updates webhooks asked for', () => {
  it('are kept in the store until they have run: a process that stopped before running one runs it at its next start', async () => {
    const env = await createSyncEnv();
    try {
      const { createStoredDeliveryLog } = await import('../../src/hooks/index.js');
      await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
      const app = { name: 'App', slug: 'app', repo: env.upstream('app'), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' };
      const config = env.config([{ name: 'Hello', slug: 'hello', components: [app] }]);
      let store = await openStore(config.database);
      await syncProject(store, config, 'hello');
      // upstream moves, a notification is accepted (as the receiver does) and the process is gone before the update ran
      const de = await gitCli(env.upstream('app'), ['show', 'main:translations/app_de.ts']);
      const moved = de.replace('</context>', '<message><source>Arrived while down</source><translation type="unfinished"></translation></message></context>');
      await commitToUpstream(env.upstream('app'), { 'translations/app_de.ts': moved });
      expect(await createStoredDeliveryLog(store).accept('github:crash-1', [{ project: 'hello', component: 'app' }])).toBe(true);
      await store.close();
      // and a write it had begun left its temporary file (pid 2147483646: no such process)
      const leftover = path.join(config.repos_dir, 'hello', 'app', '.git', 'index.tms-2147483646-1.tmp');
      writeFileSync(leftover, 'half an index');

      const lines: string[] = [];
      let stop!: () => void;
      const served = runServe(
        config,
        { out: (l) => lines.push(l), err: (l) => lines.push(l), isTty: false },
        {
          host: '127.0.0.1',
          port: 0,
          stop: new Promise<void>((resolve) => {
            stop = resolve;
          }),
        },
      );
      const url = await waitFor('the server to start', () => lines.map((l) => /serving the API on (\S+)\/api\//.exec(l)?.[1]).find(Boolean));
      expect(lines.join('\n')).toContain('resuming the update of hello/app a webhook asked for');
      expect(lines.join('\n')).toContain('removed 1 temporary file(s) an interrupted process left in working copies');
      expect(existsSync(leftover)).toBe(false);
      const arrived = await waitFor('the string pushed while down', async () => {
        const r = await httpRequest(url, '/api/translations/hello/app/de/units/?q=source:"Arrived while down"');
        return r.json.count === 1 ? r.json : undefined;
      });
      expect(arrived.results[0].source).toEqual(['Arrived while down']);
      await waitFor('the update queue to settle', async () => (await httpRequest(url, '/healthz')).json.queue.running === 0);
      stop();
      expect(await served).toBe(0);

      store = await openStore(config.database);
      expect(await store.read((tx) => requestedUpdates(tx))).toEqual([]);
      // the delivery itself stays handled: a redelivery queues nothing
      expect(await createStoredDeliveryLog(store).accept('github:crash-1', [{ project: 'hello', component: 'app' }])).toBe(false);
      expect(await store.read((tx) => requestedUpdates(tx))).toEqual([]);
      await store.close();
    } finally {
      await env.close();
    }
  });

  it('a request made while its update runs stays for the next update', async () => {
    const env = await createSyncEnv();
    try {
      const { createStoredDeliveryLog, finishingRequests } = await import('../../src/hooks/index.js');
      const store = await env.openStore();
      const log = createStoredDeliveryLog(store);
      const app = { project: 'hello', component: 'app' };
      let release!: () => void;
      expect(await log.accept('github:before', [app])).toBe(true);
      const running = finishingRequests(store, () => new Promise<void>((resolve) => (release = resolve)))('hello', 'app');
      // asked again (often within the same millisecond) while that update runs
      await Promise.resolve();
      expect(await log.accept('github:during', [app])).toBe(true);
      release();
      await running;
      expect(await store.read((tx) => requestedUpdates(tx))).toEqual([app]);
      await finishingRequests(store, async () => {})('hello', 'app');
      expect(await store.read((tx) => requestedUpdates(tx))).toEqual([]);
      await store.close();
    } finally {
      await env.close();
    }
  });
});
