// Regular-expression searches run on RE2: a pathological pattern cannot stall the server for anyone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';

describe('q=…:r"…"', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
    const units = await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane });
    const quit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Quit');
    // 30 × 'a' then 'b': JavaScript's backtracking engine needs ~2^30 steps to reject ^(a|a)+$ on it
    const r = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: [`${'a'.repeat(30)}b`], state: 20 } });
    expect(r.status).toBe(200);
  });
  afterAll(() => env.close());

  it('answers a catastrophic-backtracking pattern at once, and a concurrent request is not held up', async () => {
    const started = performance.now();
    const search = env.request('GET', `/api/translations/hello/app/de/units/?q=${encodeURIComponent('target:r"^(a|a)+$"')}`, { token: env.tokens.jane });
    const other = env.request('GET', '/api/projects/', { token: env.tokens.jane }).then((r) => ({ r, ms: performance.now() - started }));
    const [found, { r, ms }] = await Promise.all([search, other]);
    expect(found.status).toBe(200);
    expect(found.json.count).toBe(0);
    expect(r.status).toBe(200);
    // generous: the backtracking engine took seconds here; RE2 takes well under a millisecond per string
    expect(ms).toBeLessThan(2_000);
    const many = await env.request('GET', `/api/units/?q=${encodeURIComponent('source:r"^(.|.){1,18}ZZZ"')}`, { token: env.tokens.jane });
    expect(many.status).toBe(200);
  });

  it('still finds what a pattern matches (case folding with (?i), Unicode classes)', async () => {
    const r = await env.request('GET', `/api/translations/hello/app/de/units/?q=${encodeURIComponent('target:r"^a{30}b$"')}`, { token: env.tokens.jane });
    expect(r.json.count).toBe(1);
    const folded = await env.request('GET', `/api/translations/hello/app/de/units/?q=${encodeURIComponent('source:r"(?i)^QUIT$"')}`, {
      token: env.tokens.jane,
    });
    expect(folded.json.count).toBe(1);
  });

  it('refuses what RE2 cannot run (lookaround, backreferences) with a 400 on q', async () => {
    for (const pattern of ['a(?=b)', '(?<=a)b']) {
      const r = await env.request('GET', `/api/units/?q=${encodeURIComponent(`source:r"${pattern}"`)}`, { token: env.tokens.jane });
      expect(r.status).toBe(400);
      expect(r.json.errors[0]).toMatchObject({ attr: 'q', detail: expect.stringMatching(/^Could not parse query string: .*invalid regular expression/) });
    }
  });
});
