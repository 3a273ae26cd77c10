// A repository operation that cannot get the component's lock in time answers 423, and the component stays usable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withComponentMutex } from '../../src/component/mutex.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';

describe('423 when the component lock is held too long', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    // read once, with the configuration (TMS_LOCK_TIMEOUT_MS overrides it when the configuration is read)
    env = await createWriteEnv({ lock_timeout_ms: 150 });
  });
  afterAll(() => env.close());

  it('answers 423 repository-locked while another operation holds the lock, then works once it is released', async () => {
    let release!: () => void;
    const held = withComponentMutex(
      'hello/app',
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      5_000,
    );
    await new Promise((r) => setTimeout(r, 20));
    const blocked = await env.request('POST', '/api/components/hello/app/repository/', { token: env.tokens.mike, json: { operation: 'commit' } });
    expect(blocked.status).toBe(423);
    expect(blocked.json).toMatchObject({ type: 'client_error', errors: [{ code: 'repository-locked', attr: null }] });
    expect(blocked.json.errors[0].detail).toMatch(/lock/);
    release();
    await held;
    const after = await env.request('POST', '/api/components/hello/app/repository/', { token: env.tokens.mike, json: { operation: 'commit' } });
    expect(after.status).toBe(200);
    expect(after.json).toMatchObject({ result: true });
  });
});
