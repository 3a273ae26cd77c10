// Weblate's own client on the write path: `wlc` commit, push, pull, reset, cleanup, lock, unlock, lock-status, repo, download, upload (skips without wlc).
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinTeams } from '../../src/store/auth.repo.js';
import { findUserByUsername } from '../../src/store/users.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { runCli } from '../helpers/cli.js';
import { commitToUpstream, gitCli, readUpstreamFile } from '../helpers/git-repo.js';

const run = promisify(execFile);
const probe = spawnSync('wlc', ['--version'], { encoding: 'utf8' });
const wlcVersion = probe.status === 0 ? probe.stdout.trim() : null;

if (!wlcVersion) console.warn('[skip] wlc write tests: the `wlc` client is not installed (Debian package wlc; .ci/run installs it)');

const DE_FILE = 'translations/app_de.ts';

(wlcVersion ? describe : describe.skip)(`wlc (${wlcVersion ?? 'not installed'}) writes against tms`, () => {
  let env: WriteEnv;
  let home: string;
  let token: string;

  beforeAll(async () => {
    env = await createWriteEnv();
    // The token comes from the real `tms user add`; the user then joins the Managers team.
    const added = await runCli(['--config', env.config.file, 'user', 'add', 'ops', '--full-name', 'Ops Person', '--email', 'ops@example.org']);
    expect(added.code, added.stderr.join('\n')).toBe(0);
    token = added.stdout.filter((l) => l !== '').at(-1)!;
    expect(token).toMatch(/^wlu_/);
    await env.store.write(async (tx) => joinTeams(tx, (await findUserByUsername(tx, 'ops'))!.id, ['Managers']));
    home = env.root;
    writeFileSync(path.join(home, 'wlc.ini'), `[weblate]\nurl = ${env.origin}/api/\nkey = ${token}\n`);
  });
  afterAll(() => env.close());

  /** Runs wlc with the config file; any failure (exit code, stderr) fails the test. */
  async function wlc(...args: string[]): Promise<string> {
    const { stdout, stderr } = await run('wlc', ['--config', path.join(home, 'wlc.ini'), ...args], {
      cwd: home,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, XDG_CONFIG_DIRS: home },
      timeout: 60_000,
      encoding: 'utf8',
    });
    expect(stderr).toBe('');
    return stdout;
  }
  const values = (out: string, key: string) => [...out.matchAll(new RegExp(`^${key}: (.*)$`, 'gm'))].map((m) => m[1]);

  async function translate(source: string, target: string): Promise<number> {
    const units = (await env.request('GET', '/api/translations/hello/app/de/units/')).json.results;
    const unit = units.find((u: { source: string[] }) => u.source[0] === source);
    const r = await env.request('PATCH', `/api/units/${unit.id}/`, { token, json: { target: [target], state: 20 } });
    expect(r.status, r.text).toBe(200);
    return unit.id;
  }

  it('repo, commit and push: the upstream file gets the edit', async () => {
    await translate('Quit', 'Beenden');
    const before = await wlc('repo', 'hello/app');
    expect(values(before, 'needs_commit')).toEqual(['True']);
    expect(await wlc('commit', 'hello/app')).toBe('');
    expect(values(await wlc('repo', 'hello/app'), 'needs_push')).toEqual(['True']);
    await wlc('push', 'hello/app');
    const text = (await readUpstreamFile(env.upstream('app'), 'main', DE_FILE))!.toString();
    expect(text).toContain('<translation>Beenden</translation>');
    expect(values(await wlc('repo', 'hello/app'), 'needs_push')).toEqual(['False']);
  });

  it('pull brings an upstream commit in; reset and cleanup answer result true', async () => {
    const base = (await readUpstreamFile(env.upstream('app'), 'main', DE_FILE))!.toString();
    await commitToUpstream(env.upstream('app'), { [DE_FILE]: base.replace('Eine Datei öffnen', 'Datei öffnen') });
    await wlc('pull', 'hello/app');
    const units = (await env.request('GET', '/api/translations/hello/app/de/units/?q=source:"Open a file"')).json.results;
    expect(units[0].target).toEqual(['Datei öffnen']);
    await wlc('reset', 'hello/app');
    writeFileSync(path.join(env.root, 'repos', 'hello', 'app', 'stray.txt'), 'x');
    await wlc('cleanup', 'hello/app');
    expect(() => readFileSync(path.join(env.root, 'repos', 'hello', 'app', 'stray.txt'))).toThrow();
    const head = await gitCli(path.join(env.root, 'repos', 'hello', 'app'), ['rev-parse', 'HEAD']);
    expect(head).toBe(await gitCli(env.upstream('app'), ['rev-parse', 'main']));
  });

  it('lock, lock-status, unlock', async () => {
    expect(values(await wlc('lock-status', 'hello/app'), 'locked')).toEqual(['False']);
    await wlc('lock', 'hello/app');
    expect(values(await wlc('lock-status', 'hello/app'), 'locked')).toEqual(['True']);
    expect((await env.request('GET', '/api/components/hello/app/lock/')).json).toEqual({ locked: true });
    await wlc('unlock', 'hello/app');
    expect(values(await wlc('lock-status', 'hello/app'), 'locked')).toEqual(['False']);
  });

  it('download a translation (pending edit included) and a component ZIP', async () => {
    await translate('About %1', 'Über %1!');
    const out = path.join(home, 'de.ts');
    await wlc('download', 'hello/app/de', '--output', out);
    const bytes = readFileSync(out);
    expect(bytes.toString()).toContain('Über %1!');
    const api = await env.request('GET', '/api/translations/hello/app/de/file/');
    expect(bytes.equals(api.bytes)).toBe(true);
    const zipDir = path.join(home, 'zips');
    expect(await wlc('download', 'hello/app', '--output', zipDir)).toContain('downloaded translations for component: hello/app');
    expect(readFileSync(path.join(zipDir, 'hello-app.zip')).subarray(0, 2).toString()).toBe('PK');
  });

  it('upload: the counters wlc requires, and the strings taken', async () => {
    const file = (await env.request('GET', '/api/translations/hello/web/de/file/')).json;
    file.menu.quit = 'Beenden';
    const input = path.join(home, 'web-de.json');
    writeFileSync(input, JSON.stringify(file, null, 2));
    await wlc('upload', 'hello/web/de', '--input', input);
    const units = (await env.request('GET', '/api/translations/hello/web/de/units/?q=context:menu.quit')).json.results;
    expect(units[0]).toMatchObject({ target: ['Beenden'], pending: true });
    const changes = (await env.request('GET', '/api/translations/hello/web/de/changes/?action=78')).json.results;
    expect(changes).toHaveLength(1);
  });

  it('upload --overwrite leaves a translated string (Weblate ignores the field); conflicts=replace-translated replaces it', async () => {
    const file = (await env.request('GET', '/api/translations/hello/web/de/file/')).json;
    file.menu.quit = 'Programm beenden';
    const input = path.join(home, 'web-de-overwrite.json');
    writeFileSync(input, JSON.stringify(file, null, 2));
    await wlc('upload', 'hello/web/de', '--input', input, '--overwrite');
    const quit = async () => (await env.request('GET', '/api/translations/hello/web/de/units/?q=context:menu.quit')).json.results[0].target;
    expect(await quit()).toEqual(['Beenden']);
    const form = new FormData();
    form.set('file', new Blob([readFileSync(input)]), 'de.json');
    form.set('conflicts', 'replace-translated');
    const r = await fetch(`${env.origin}/api/translations/hello/web/de/file/`, { method: 'POST', body: form, headers: { Authorization: `Token ${token}` } });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ accepted: 1, result: true });
    expect(await quit()).toEqual(['Programm beenden']);
  });
});
