// Configurable limits with clear errors: string length, file size (sync), request bodies, and failed authentications.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthLimiter, createSignInLimiter } from '../../src/api/auth-limit.js';
import { syncProject } from '../../src/sync/index.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { DEMO, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

describe('limits over the API', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv({ max_string_chars: 50, auth_failures_per_minute: 5 });
  });
  afterAll(() => env.close());

  it('refuses a target longer than max_string_chars with a 400 on the field', async () => {
    const units = await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane });
    const quit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Quit');
    const long = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['x'.repeat(51)], state: 20 } });
    expect(long.status).toBe(400);
    expect(long.json.errors[0]).toEqual({ code: 'invalid', detail: 'Ensure this field has no more than 50 characters (it has 51).', attr: 'target' });
    const ok = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['x'.repeat(50)], state: 20 } });
    expect(ok.status).toBe(200);
  });

  it('refuses a JSON body that is not UTF-8 with a 400 parse error instead of storing U+FFFD (found by campaign:fuzz)', async () => {
    const units = await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane });
    const quit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Quit');
    const body = Buffer.concat([Buffer.from('{"target": ["Be'), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from('enden"], "state": 20}')]);
    const bad = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, body, headers: { 'Content-Type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ type: 'client_error', errors: [{ code: 'parse_error', attr: null }] });
    expect(bad.json.errors[0].detail).toMatch(/^JSON parse error - /);
    const after = await env.request('GET', `/api/units/${quit.id}/`, { token: env.tokens.jane });
    expect(after.json.target.join('')).not.toContain('\ufffd');
  });

  it('refuses a JSON body over 10 MiB with 413 before reading it', async () => {
    const big = await env.request('PATCH', '/api/units/1/', {
      token: env.tokens.jane,
      body: `{"target": ["${'x'.repeat(11 * 1024 * 1024)}"], "state": 20}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(big.json.errors[0].code).toBe('payload_too_large');
  });

  it('answers 429 with Retry-After once an address failed to authenticate auth_failures_per_minute times', async () => {
    for (let i = 0; i < 5; i++) expect((await env.request('GET', '/api/projects/', { token: `wlu_guess${i}` })).status).toBe(401);
    const throttled = await env.request('GET', '/api/projects/', { token: 'wlu_guess5' });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.json.errors[0]).toMatchObject({
      code: 'throttled',
      detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/),
    });
    // while throttled, even a right token from that address waits (guessing gets nothing from answers)
    expect((await env.request('GET', '/api/projects/', { token: env.tokens.jane })).status).toBe(429);
  });
});

describe('createAuthLimiter', () => {
  it('counts failures per address in a one-minute window, and forgets ended windows', () => {
    let t = 0;
    const limiter = createAuthLimiter(2, () => t, 3);
    limiter.failed('a');
    expect(limiter.blocked('a')).toBeNull();
    limiter.failed('a');
    expect(limiter.blocked('a')).toBe(60);
    expect(limiter.blocked('b')).toBeNull();
    t = 59_001;
    expect(limiter.blocked('a')).toBe(1);
    t = 60_000;
    expect(limiter.blocked('a')).toBeNull();
    for (const address of ['c', 'd', 'e', 'f']) limiter.failed(address);
    limiter.failed('f');
    expect(limiter.blocked('f')).toBe(60);
  });
});

describe('createSignInLimiter', () => {
  it('holds back the failing address, for one username and then for all; a username failing elsewhere is only slowed', () => {
    let t = 0;
    const limits = createSignInLimiter({ perUsername: 5, perAddress: 8, slowAfter: 5, slowMs: 1000 }, () => t);
    for (let i = 0; i < 5; i++) limits.failed('10.0.0.9', 'Admin');
    expect(limits.blocked('10.0.0.9', 'admin')).toBe(60);
    // the owner at a clean address may still try: slowed, never refused
    expect(limits.blocked('10.0.0.1', 'admin')).toBeNull();
    expect(limits.delay('admin')).toBe(1000);
    expect(limits.delay('jane')).toBe(0);
    // the attacker's address may still try other usernames, until its own limit
    expect(limits.blocked('10.0.0.9', 'jane')).toBeNull();
    for (let i = 0; i < 3; i++) limits.failed('10.0.0.9', `user${i}`);
    expect(limits.blocked('10.0.0.9', 'jane')).toBe(60);
    expect(limits.blocked('10.0.0.1', 'jane')).toBeNull();
    t = 60_000;
    expect(limits.blocked('10.0.0.9', 'admin')).toBeNull();
    expect(limits.delay('admin')).toBe(0);
  });
});

describe('max_file_bytes in a sync', () => {
  let env: SyncEnv;
  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
  });
  afterAll(() => env.close());

  it('fails only the file over the limit, with its size, and loads the others', async () => {
    const store = await env.openStore();
    const config = env.config(
      [
        {
          name: 'Hello',
          slug: 'hello',
          components: [{ name: 'App', slug: 'app', repo: env.upstream('app'), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' }],
        },
      ],
      // app_de.ts is 1,324 bytes, app_cs.ts 1,382
      { max_file_bytes: 1350 },
    );
    const [r] = await syncProject(store, config, 'hello');
    expect(r?.ok).toBe(false);
    expect(r?.files.map((f) => [f.path, f.status, f.error])).toEqual([
      ['translations/app_cs.ts', 'failed', 'translations/app_cs.ts: 1382 bytes, more than max_file_bytes (1350); not read'],
      ['translations/app_de.ts', 'parsed', undefined],
    ]);
  });
});
