// Downloads of a translation whose file no longer parses upstream while it has pending edits: a 409 naming the file, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncProject } from '../../src/sync/index.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { commitToUpstream } from '../helpers/git-repo.js';

const DE = 'translations/app_de.ts';

describe('downloading a file that does not parse', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
    const units = await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane });
    const quit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Quit');
    const edit = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Beenden!'], state: 20 } });
    expect(edit.status).toBe(200);
    // Upstream breaks the German file; the sync fast-forwards the working copy to it (the edit stays pending).
    await commitToUpstream(env.upstream('app'), { [DE]: '<?xml version="1.0" encoding="utf-8"?>\n<TS version="2.1" language="de">\n<context>\n' });
    const [synced] = await syncProject(env.store, env.config, 'hello', 'app');
    expect(synced?.files.find((f) => f.path === DE)?.status).toBe('failed');
  });
  afterAll(() => env.close());

  for (const [name, path] of [
    ['the translation file', '/api/translations/hello/app/de/file/'],
    ["the component's ZIP", '/api/components/hello/app/file/'],
    ["the project's ZIP", '/api/projects/hello/file/'],
  ] as const) {
    it(`answers 409 for ${name}, naming file, line and column`, async () => {
      const r = await env.request('GET', path, { token: env.tokens.jane });
      expect(r.status).toBe(409);
      expect(r.json).toEqual({
        type: 'client_error',
        errors: [{ code: 'parse_error', detail: expect.stringMatching(/^translations\/app_de\.ts:\d+:\d+: /), attr: null }],
      });
      expect(r.text).not.toMatch(/at .*\.ts:\d+/);
    });
  }

  it('still serves the files that parse', async () => {
    const r = await env.request('GET', '/api/translations/hello/app/cs/file/', { token: env.tokens.jane });
    expect(r.status).toBe(200);
    expect(r.text).toContain('<TS');
  });
});
