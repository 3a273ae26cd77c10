import { createHmac } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Config, parseConfig } from '../../src/config/config.js';
import type { Service } from '../../src/hooks/services.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { applyConfig } from '../../src/sync/config.js';
import { tempDir } from '../helpers/git-repo.js';
import { type DirectSql, sqlOn } from '../helpers/store.js';
import { hmacHex, loadFixture } from './fixtures.js';
import { type HookServer, recordingQueue, startHookServer } from './helpers.js';

const REPOS: Record<Service, string> = {
  github: 'https://github.com/tms-test/hello.git',
  gitlab: 'git@gitlab.com:tms-test/hello.git',
  bitbucket: 'https://bitbucket.org/tms-test/hello',
  gitea: 'https://gitea.example.com/tms-test/hello.git',
  forgejo: 'https://codeberg.org/tms-test/hello.git',
  gitee: 'https://gitee.com/tms-test/hello.git',
  pagure: 'https://pagure.io/tms/hello.git',
  azure: 'https://dev.azure.com/tms-test/Hello%20World/_git/hello',
};
const SERVICES = Object.keys(REPOS) as Service[];

/** The headers each service signs a body with. */
function signed(service: Service, body: string, secret: string): Record<string, string> {
  const hex = hmacHex(secret, body);
  switch (service) {
    case 'github':
      return { 'x-hub-signature-256': `sha256=${hex}` };
    case 'gitea':
      return { 'x-gitea-signature': hex };
    case 'forgejo':
      return { 'x-forgejo-signature': hex };
    case 'gitlab':
      return { 'x-gitlab-token': secret };
    case 'bitbucket':
      return { 'x-hub-signature': `sha256=${hex}` };
    case 'gitee':
      return { 'x-gitee-token': secret };
    case 'pagure':
      return { 'x-pagure-signature-256': hex };
    case 'azure':
      return { authorization: `Basic ${Buffer.from(`azure:${secret}`).toString('base64')}` };
  }
}

let root: string;
let store: Store;
let sql: DirectSql;
let server: HookServer;
let config: Config;
const queue = recordingQueue();

function makeConfig(
  extra: { hooks?: Record<string, unknown>; secrets?: Partial<Record<Service, string>>; disabled?: Service[]; private?: Service[] } = {},
): Config {
  const projects = SERVICES.map((s) => ({
    name: s,
    slug: s,
    enable_hooks: !(extra.disabled ?? []).includes(s),
    hook_secret: extra.secrets?.[s] ?? '',
    access_control: (extra.private ?? []).includes(s) ? 100 : 0,
    components: [{ name: 'App', slug: 'app', repo: REPOS[s], branch: 'main', filemask: 'translations/*.ts', file_format: 'ts' }],
  }));
  return parseConfig(JSON.stringify({ database: 'tms.sqlite', hooks: extra.hooks ?? {}, projects }), path.join(root, 'tms.config.json'));
}

async function changes53(): Promise<
  { component_id: number; user_id: number | null; unit_id: number | null; translation_id: number | null; details: string }[]
> {
  return (await sql.rows('SELECT component_id, user_id, unit_id, translation_id, details FROM changes WHERE action = 53 ORDER BY id')) as never;
}

let deliveries = 0;

/** Posts a fixture; each post is a new delivery (fresh ids) unless `headers` sets one. */
function post(service: string, name: string, opts: { secret?: string; headers?: Record<string, string>; body?: Record<string, unknown>; path?: string } = {}) {
  const f = loadFixture(service, name);
  const fresh = `delivery-${++deliveries}`;
  const ids: Record<string, string> = {};
  for (const h of ['x-github-delivery', 'x-gitlab-event-uuid', 'x-request-uuid', 'x-request-id', 'x-gitea-delivery', 'x-forgejo-delivery'])
    if (h in f.headers) ids[h] = fresh;
  const fixtureBody = service === 'azure' ? { ...f.body, id: fresh } : service === 'pagure' ? { ...f.body, msg_id: fresh } : f.body;
  const body = JSON.stringify(opts.body ?? fixtureBody);
  const headers = { ...f.headers, ...ids, ...(opts.secret ? signed(service as Service, body, opts.secret) : {}), ...opts.headers };
  return server.post(opts.path ?? `/hooks/${service}/`, body, headers);
}

beforeAll(async () => {
  root = await tempDir('tms-hooks-router-');
  config = makeConfig();
  store = await openStore(path.join(root, 'tms.sqlite'));
  sql = sqlOn(store);
  await store.write((tx) => applyConfig(tx, config));
  server = await startHookServer({ store, getConfig: () => config, queue });
});
afterAll(async () => {
  await server.close();
  await store.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  config = makeConfig();
  queue.calls.length = 0;
  await sql.run('DELETE FROM changes');
});

describe('receivers without a secret (Weblate behaviour)', () => {
  it('answers a ping with 201 "Hook working"', async () => {
    for (const [service, name] of [
      ['github', 'ping'],
      ['gitlab', 'issue'],
      ['bitbucket', 'ping'],
      ['gitea', 'issues'],
      ['forgejo', 'create'],
      ['gitee', 'issue'],
      ['pagure', 'issue'],
      ['azure', 'build'],
      ['github', 'issues'],
      ['bitbucket', 'issue'],
    ]) {
      const res = await post(service!, name!);
      expect(res.status, `${service}/${name}`).toBe(201);
      expect(res.body).toEqual({ message: 'Hook working', status: 'success', match_status: null, updated_components: null });
    }
    expect(queue.calls).toEqual([]);
    expect(await changes53()).toEqual([]);
  });

  it('triggers an update for a push from every service, records change 53 and queues the component', async () => {
    for (const service of SERVICES) {
      const res = await post(service, 'push');
      expect(res.status, service).toBe(200);
      expect(res.body).toEqual({
        message: `Update triggered: ${service}/app`,
        status: 'success',
        match_status: { repository_matches: 1, branch_matches: 1, enabled_hook_matches: 1 },
        updated_components: [`${service}/app`],
      });
    }
    expect(queue.calls).toEqual(SERVICES.map((s) => `${s}/app`));
    const recorded = await changes53();
    expect(recorded).toHaveLength(SERVICES.length);
    expect(recorded.every((c) => c.user_id === null && c.unit_id === null && c.translation_id === null && c.component_id !== null)).toBe(true);
    expect(JSON.parse(recorded[0]!.details)).toMatchObject({
      service_long_name: 'GitHub',
      branch: 'main',
      full_name: 'tms-test/hello',
      repo_url: 'https://github.com/tms-test/hello',
    });
  });

  it('accepts the path without the trailing slash and a GitHub form-encoded payload', async () => {
    const f = loadFixture('github', 'push');
    const res = await server.post('/hooks/github', `payload=${encodeURIComponent(JSON.stringify(f.body))}`, {
      ...f.headers,
      'content-type': 'application/x-www-form-urlencoded',
      'x-github-delivery': 'form-1',
    });
    expect(res.status).toBe(200);
    expect(res.body.updated_components).toEqual(['github/app']);
  });

  it('answers 202 with match_status and the reason when nothing matches', async () => {
    const body = { ...loadFixture('github', 'push').body, ref: 'refs/heads/feature' };
    const res = await post('github', 'push', { body });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      message: 'No matching repositories found!',
      status: 'failure',
      updated_components: null,
      match_status: {
        repository_matches: 1,
        branch_matches: 0,
        enabled_hook_matches: 0,
        reason: '1 component(s) use https://github.com/tms-test/hello, but none follows the pushed branch "feature".',
      },
    });
    expect(queue.calls).toEqual([]);
  });

  it('filters projects with enable_hooks off', async () => {
    config = makeConfig({ disabled: ['gitlab'] });
    const res = await post('gitlab', 'push');
    expect(res.status).toBe(202);
    expect(res.body.match_status).toMatchObject({ repository_matches: 1, branch_matches: 1, enabled_hook_matches: 0 });
    expect(queue.calls).toEqual([]);
  });

  it('405 for other methods and when hooks are disabled, 404 for an unknown service, 400 for bad payloads', async () => {
    const get = await fetch(`${server.url}/hooks/github/`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toEqual({ type: 'client_error', errors: [{ code: 'method_not_allowed', detail: 'Method "GET" not allowed.', attr: null }] });

    expect((await post('github', 'push', { path: '/hooks/sourcehut/' })).status).toBe(404);

    const bad = await server.post('/hooks/github/', '{not json', { 'content-type': 'application/json', 'x-github-event': 'push' });
    expect(bad.status).toBe(400);
    expect((bad.body.errors as { detail: string }[])[0]!.detail).toMatch(/^JSON parse error - /);
    const noPayload = await server.post('/hooks/github/', 'x=1', { 'content-type': 'application/x-www-form-urlencoded', 'x-github-event': 'push' });
    expect(noPayload.status).toBe(400);
    expect(noPayload.body).toEqual({ type: 'validation_error', errors: [{ code: 'invalid', detail: 'Missing payload parameter!', attr: null }] });
    const incomplete = await server.post('/hooks/github/', JSON.stringify({ repository: {} }), {
      'content-type': 'application/json',
      'x-github-event': 'push',
    });
    expect(incomplete.status).toBe(400);

    config = makeConfig({ hooks: { enabled: false } });
    expect((await post('github', 'push')).status).toBe(405);
    expect((await post('github', 'ping')).status).toBe(405);
    expect(queue.calls).toEqual([]);
  });

  it('does not queue a repeated delivery id twice', async () => {
    const headers = { 'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958' };
    const first = await post('github', 'push', { headers });
    const again = await post('github', 'push', { headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.updated_components).toEqual([]);
    expect(again.body.message).toContain('already received');
    expect(queue.calls).toEqual(['github/app']);
    expect(await changes53()).toHaveLength(1);
    // another delivery of the same push is a new notification
    expect((await post('github', 'push')).body.updated_components).toEqual(['github/app']);
    expect(queue.calls).toEqual(['github/app', 'github/app']);
  });
});

describe('receivers with a secret', () => {
  const SECRET = 'It5-a-s3cret';

  it('accepts every service signed with the global secret, and refuses bad or missing signatures with 401', async () => {
    config = makeConfig({ hooks: { secret: SECRET } });
    for (const service of SERVICES) {
      const id = {
        'x-github-delivery': `sig-${service}`,
        'x-gitea-delivery': `sig-${service}`,
        'x-forgejo-delivery': `sig-${service}`,
        'x-request-uuid': `sig-${service}`,
        'x-gitlab-event-uuid': `sig-${service}`,
      };
      const missing = await post(service, 'push', { headers: id });
      expect(queue.calls).not.toContain(`${service}/app`);
      expect(missing.status, `${service} missing`).toBe(401);
      expect((missing.body.errors as { detail: string }[])[0]!.detail).toContain('missing signature');
      const bad = await post(service, 'push', { secret: 'not-the-secret', headers: id });
      expect(bad.status, `${service} bad`).toBe(401);
      expect(queue.calls).not.toContain(`${service}/app`);
      const good = await post(service, 'push', { secret: SECRET, headers: id });
      expect(good.status, `${service} good`).toBe(200);
      expect(good.body.updated_components).toEqual([`${service}/app`]);
    }
    expect(queue.calls).toEqual(SERVICES.map((s) => `${s}/app`));
    expect(await changes53()).toHaveLength(SERVICES.length);
  });

  it('checks the signature over the raw bytes: a re-serialised body does not verify', async () => {
    config = makeConfig({ hooks: { secret: SECRET } });
    const f = loadFixture('github', 'push');
    const pretty = JSON.stringify(f.body, null, 2);
    const compact = JSON.stringify(f.body);
    const ok = await server.post('/hooks/github/', pretty, {
      ...f.headers,
      'x-github-delivery': 'raw-1',
      'x-hub-signature-256': `sha256=${hmacHex(SECRET, pretty)}`,
    });
    expect(ok.status).toBe(200);
    const mismatch = await server.post('/hooks/github/', pretty, {
      ...f.headers,
      'x-github-delivery': 'raw-2',
      'x-hub-signature-256': `sha256=${hmacHex(SECRET, compact)}`,
    });
    expect(mismatch.status).toBe(401);
  });

  it('refuses unsigned pings when a global secret is set', async () => {
    config = makeConfig({ hooks: { secret: SECRET } });
    expect((await post('github', 'ping')).status).toBe(401);
    expect((await post('github', 'ping', { secret: SECRET })).status).toBe(201);
  });

  it("uses a project's hook_secret for that project's components only", async () => {
    config = makeConfig({ secrets: { github: 'gh-project-secret' } });
    // other projects have no secret: unsigned deliveries work
    expect((await post('gitlab', 'push')).status).toBe(200);
    expect((await post('github', 'push', { headers: { 'x-github-delivery': 'p-1' } })).status).toBe(401);
    expect((await post('github', 'push', { secret: 'wrong', headers: { 'x-github-delivery': 'p-2' } })).status).toBe(401);
    expect((await post('github', 'push', { secret: 'gh-project-secret', headers: { 'x-github-delivery': 'p-3' } })).status).toBe(200);
    expect(queue.calls).toEqual(['gitlab/app', 'github/app']);

    // with a global secret too, the project's own secret is the one that counts for it
    config = makeConfig({ hooks: { secret: SECRET }, secrets: { github: 'gh-project-secret' } });
    expect((await post('github', 'push', { secret: SECRET, headers: { 'x-github-delivery': 'p-4' } })).status).toBe(401);
    expect((await post('gitlab', 'push', { secret: SECRET, headers: { 'x-gitlab-event-uuid': 'p-5' } })).status).toBe(200);
    expect((await post('gitlab', 'push', { secret: 'gh-project-secret', headers: { 'x-gitlab-event-uuid': 'p-6' } })).status).toBe(401);
  });

  it('remembers a delivery id only once the delivery is authenticated', async () => {
    config = makeConfig({ hooks: { secret: SECRET } });
    const headers = { 'x-github-delivery': 'replayed-id' };
    expect((await post('github', 'push', { secret: 'forged', headers })).status).toBe(401);
    expect((await post('github', 'push', { secret: SECRET, headers })).body.updated_components).toEqual(['github/app']);
    expect((await post('github', 'push', { secret: SECRET, headers })).body.updated_components).toEqual([]);
    expect(queue.calls).toEqual(['github/app']);
  });

  it('lists near misses only to an authenticated sender', async () => {
    const body = { ...loadFixture('github', 'push').body, ref: 'refs/heads/feature' };
    config = makeConfig();
    const anonymous = await post('github', 'push', { body });
    expect(anonymous.status).toBe(202);
    expect(anonymous.body.match_status).not.toHaveProperty('near_misses');
    config = makeConfig({ hooks: { secret: SECRET } });
    const signedRes = await post('github', 'push', { body, secret: SECRET });
    expect(signedRes.status).toBe(202);
    const nearMisses = (signedRes.body.match_status as Record<string, unknown>).near_misses;
    expect(nearMisses).toContainEqual({ component: 'github/app', reason: 'follows branch "main", the push was to "feature"' });
    // the same repository name on other hosts is listed too
    expect(nearMisses).toContainEqual({
      component: 'gitlab/app',
      reason: 'its repository git@gitlab.com:tms-test/hello.git is not https://github.com/tms-test/hello',
    });
  });

  it("accepts Gitee's signature mode (timestamp + HMAC of the secret)", async () => {
    config = makeConfig({ hooks: { secret: SECRET } });
    const timestamp = '1763630100000';
    const token = createHmac('sha256', SECRET).update(`${timestamp}\n${SECRET}`).digest('base64');
    expect((await post('gitee', 'push', { headers: { 'x-gitee-token': token, 'x-gitee-timestamp': timestamp } })).status).toBe(200);
    expect((await post('gitee', 'push', { headers: { 'x-gitee-token': token, 'x-gitee-timestamp': '1763630100001' } })).status).toBe(401);
  });
});

describe('/hooks/update/<project>/[<component>/]', () => {
  const SECRET = 'update-s3cret';
  const update = (path: string, init: { method?: string; secret?: string; token?: string } = {}) => {
    const body = '{}';
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.secret) headers['x-hub-signature-256'] = `sha256=${createHmac('sha256', init.secret).update(body).digest('hex')}`;
    if (init.token) headers['x-gitlab-token'] = init.token;
    return fetch(`${server.url}/hooks/update/${path}`, { method: init.method ?? 'POST', body: init.method === 'GET' ? undefined : body, headers });
  };

  it('queues a component or every component of a project (POST), without recording change 53', async () => {
    const one = await update('github/app/');
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual({ status: 'success', message: 'Update triggered' });
    expect((await update('gitlab/')).status).toBe(200);
    expect((await update('gitee')).status).toBe(200);
    expect(queue.calls).toEqual(['github/app', 'gitlab/app', 'gitee/app']);
    expect(await changes53()).toEqual([]);
  });

  it('takes POST only (405 with Allow: POST)', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await update('github/app/', { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
    expect(queue.calls).toEqual([]);
  });

  it('404 for unknown objects, 405 when hooks are off globally or for the project', async () => {
    expect((await update('nope/')).status).toBe(404);
    expect((await update('github/nope/')).status).toBe(404);
    config = makeConfig({ disabled: ['github'] });
    expect((await update('github/app/')).status).toBe(405);
    config = makeConfig({ hooks: { enabled: false } });
    expect((await update('gitlab/app/')).status).toBe(405);
    expect(queue.calls).toEqual([]);
  });

  it('requires the global secret when one is set (401), signed or as a token, and queues nothing without it', async () => {
    config = makeConfig({ hooks: { secret: SECRET } });
    const unsigned = await update('github/app/');
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('authentication_failed');
    expect((await update('github/app/', { secret: 'wrong' })).status).toBe(401);
    expect(queue.calls).toEqual([]);
    expect((await update('github/app/', { secret: SECRET })).status).toBe(200);
    expect((await update('gitlab/app/', { token: SECRET })).status).toBe(200);
    expect(queue.calls).toEqual(['github/app', 'gitlab/app']);
  });

  it("requires a project's own hook_secret for that project only", async () => {
    config = makeConfig({ secrets: { github: SECRET } });
    expect((await update('github/app/')).status).toBe(401);
    expect((await update('github/app/', { secret: SECRET })).status).toBe(200);
    expect((await update('gitlab/app/')).status).toBe(200);
    expect(queue.calls).toEqual(['github/app', 'gitlab/app']);
  });

  it('answers a private project exactly as a missing one to a caller without the secret', async () => {
    config = makeConfig({ private: ['github'] });
    const hidden = await update('github/app/');
    const missing = await update('nope/app/');
    expect([hidden.status, await hidden.text()]).toEqual([missing.status, await missing.text()]);
    expect(hidden.status).toBe(404);
    config = makeConfig({ private: ['github'], hooks: { secret: SECRET } });
    const hiddenSigned = await update('github/app/');
    const missingSigned = await update('nope/app/');
    expect([hiddenSigned.status, await hiddenSigned.text()]).toEqual([missingSigned.status, await missingSigned.text()]);
    expect(hiddenSigned.status).toBe(401);
    expect(queue.calls).toEqual([]);
    // with the secret, the private project is updated
    expect((await update('github/app/', { secret: SECRET })).status).toBe(200);
    config = makeConfig({ private: ['github'], secrets: { github: SECRET } });
    expect((await update('github/app/')).status).toBe(404);
    expect((await update('github/app/', { secret: SECRET })).status).toBe(200);
    expect(queue.calls).toEqual(['github/app', 'github/app']);
  });
});

describe('request bodies', () => {
  it('answers 413 in the error shape for a body over the limit', async () => {
    const small = await startHookServer({ store, getConfig: () => config, queue, bodyLimit: 1024 });
    const res = await fetch(`${small.url}/hooks/github/`, { method: 'POST', body: 'x'.repeat(4096), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('payload_too_large');
    await small.close();
    expect(queue.calls).toEqual([]);
  });
});
