// A pull that failed on a file upstream broke, then a pull after upstream fixed it: the pending edit is committed and
// pushed by the second pull as by any pull, and each answer says what happened, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { runCli } from '../helpers/cli.js';
import { commitToUpstream, gitCli, readUpstreamFile } from '../helpers/git-repo.js';

const APP = '/api/components/hello/app/';
const CS_FILE = 'translations/app_cs.ts';
const DE_FILE = 'translations/app_de.ts';

describe('a pending edit across a pull that failed on an unparsable upstream file', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    // Weblate's defaults: rebase, push on commit
    env = await createWriteEnv({}, { app: { push_on_commit: true } });
  });
  afterAll(() => env.close());

  const operate = (operation: string) => env.request('POST', `${APP}repository/`, { token: env.tokens.mike, json: { operation } });
  const pull = () => operate('pull');
  const status = async () => (await env.request('GET', `${APP}repository/`, { token: env.tokens.mike })).json;
  const upstreamText = async (file: string) => (await readUpstreamFile(env.upstream('app'), 'main', file))!.toString();
  const unitOf = async (source: string) =>
    (await env.request('GET', `/api/translations/hello/app/cs/units/?q=${encodeURIComponent(`source:"${source}"`)}`)).json.results[0];

  /**
   * An edit in cs; upstream breaks app_cs.ts (a mismatched end tag) and a pull fails; `between` runs; upstream fixes
   * the file and changes app_de.ts; the next pull (or push) must commit and push the edit, saying so once.
   */
  async function strandedEdit(source: string, target: string, between: () => Promise<void>, next: 'pull' | 'push' = 'pull'): Promise<void> {
    const unit = await unitOf(source);
    const edited = await env.request('PATCH', `/api/units/${unit.id}/`, { token: env.tokens.jane, json: { target: [target], state: 20 } });
    expect(edited.status, edited.text).toBe(200);
    const good = await upstreamText(CS_FILE);
    const headBefore = await gitCli(env.upstream('app'), ['rev-parse', 'main']);

    await commitToUpstream(env.upstream('app'), { [CS_FILE]: good.replace(`<source>${source}</source>`, `<source>${source}</translation>`) });
    const failed = await pull();
    expect(failed.status, failed.text).toBe(200);
    expect(failed.json.result).toBe(false);
    expect(failed.json.detail).toContain(CS_FILE);
    // the commit made before the rebase was taken back: the answer must not say it was made
    expect(failed.json.detail).not.toMatch(/Committed/);
    expect(failed.json.detail).toContain('Nothing was committed');
    expect(await status()).toMatchObject({ needs_commit: true });
    expect((await env.request('GET', `/api/units/${unit.id}/`)).json).toMatchObject({ target: [target], pending: true });

    await between();

    const de = await upstreamText(DE_FILE);
    await commitToUpstream(env.upstream('app'), { [CS_FILE]: good, [DE_FILE]: `${de}\n` });
    const pulled = await operate(next);
    expect(pulled.status, pulled.text).toBe(200);
    expect(pulled.json.result, pulled.json.detail).toBe(true);
    expect(pulled.json.detail.match(/Committed/g), pulled.json.detail).toEqual(['Committed']);
    expect(pulled.json.detail).toContain('Committed 1 pending edit(s) in 1 file(s) (1 commit(s)).');
    expect(pulled.json.detail).not.toContain('Could not');
    expect(await status()).toMatchObject({ needs_commit: false, needs_merge: false, needs_push: false });
    expect((await env.request('GET', `/api/units/${unit.id}/`)).json).toMatchObject({ target: [target], pending: false });
    expect(await upstreamText(CS_FILE)).toContain(`<translation>${target}</translation>`);
    expect(await upstreamText(DE_FILE)).toBe(`${de}\n`);
    // upstream's two commits and tms's one
    expect(await gitCli(env.upstream('app'), ['rev-list', '--count', `${headBefore}..main`])).toBe('3');
  }

  it('is committed and pushed by the next pull once upstream fixed the file', async () => {
    await strandedEdit('Quit', 'Ukončit', async () => {});
  }, 60_000);

  // `tms sync` (cron, a webhook, the watcher) moves the working copy onto upstream's broken file and reports it: the
  // next operation's commit, made before it brings upstream in, cannot write the file at that HEAD
  const sync = async () => {
    const synced = await runCli(['--config', env.config.file, 'sync', 'hello', 'app']);
    expect(synced.code).toBe(1);
    expect(synced.stderr.join('\n')).toContain(`${CS_FILE}:`);
  };

  it('is committed and pushed by it too when a sync followed upstream onto the broken file meanwhile', async () => {
    await strandedEdit('Open a file', 'Otevřít soubor…', sync);
  }, 60_000);

  it('is committed and pushed by a push in the same case', async () => {
    await strandedEdit('About %1', 'O aplikaci %1', sync, 'push');
  }, 60_000);
});
