// `remote_timeout_s` end to end: `tms sync`, and the API's pull and push (their git work in the worker thread), give
// up on an upstream silent for longer than the configured limit with one line naming remote, operation and wait.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { runCli } from '../helpers/cli.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { CREDENTIALS } from '../helpers/sync-env.js';

const APP = '/api/components/hello/app/';

describe('an upstream silent for longer than remote_timeout_s (2 s; it answers after 4 s)', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv({ remote_timeout_s: 2 });
  });
  afterEach(() => {
    env.env.server.delay = undefined;
  });
  afterAll(() => env.close());

  const remote = () => env.env.server.url('app.git');
  const expectTimeout = (text: string, operation: string) => {
    expect(text).toContain(`${operation}: the remote sent nothing for 2 s`);
    expect(text).toContain(remote());
    expect(text).not.toContain(CREDENTIALS.password);
  };

  it('fails `tms sync` with the component, the operation, the wait and the remote', async () => {
    await commitToUpstream(env.upstream('app'), { 'README.md': 'moved on\n' });
    env.env.server.delay = { ms: 4_000 };
    const sync = await runCli(['--config', env.config.file, 'sync', 'hello', 'app']);
    expect(sync.code).toBe(1);
    const line = sync.stderr.find((l) => l.includes('hello/app')) ?? '';
    expectTimeout(line, 'ls-remote');
  }, 30_000);

  it('fails the API pull and push the same way; the edit is kept, committed by the push to go out with the next one', async () => {
    const unit = (await env.request('GET', '/api/translations/hello/app/de/units/?q=source:Quit')).json.results[0];
    const edited = await env.request('PATCH', `/api/units/${unit.id}/`, { token: env.tokens.jane, json: { target: ['Beenden!'], state: 20 } });
    expect(edited.status, edited.text).toBe(200);
    env.env.server.delay = { ms: 4_000 };
    const pull = await env.request('POST', `${APP}repository/`, { token: env.tokens.mike, json: { operation: 'pull' } });
    expect(pull.status, pull.text).toBe(200);
    expect(pull.json.result).toBe(false);
    expectTimeout(pull.json.detail, 'fetch');
    expect((await env.request('GET', `/api/units/${unit.id}/`)).json).toMatchObject({ target: ['Beenden!'], pending: true });
    const push = await env.request('POST', `${APP}repository/`, { token: env.tokens.mike, json: { operation: 'push' } });
    expect(push.json.result).toBe(false);
    expectTimeout(push.json.detail, 'fetch');
    const status = await env.request('GET', `${APP}repository/`, { token: env.tokens.mike });
    expect(status.json).toMatchObject({ needs_commit: false, needs_push: true });
    expect((await env.request('GET', `/api/units/${unit.id}/`)).json).toMatchObject({ target: ['Beenden!'], pending: false });
  }, 30_000);
});
