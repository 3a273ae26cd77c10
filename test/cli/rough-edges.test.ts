// What a new user tripped over: a bare `tms`, JSON errors without a line, typos in keys, bad e-mail addresses,
// no way to disable or delete a user, a missing configuration, help that left things out, users without a web
// password, a disabled user told their password was wrong, a missing branch not named.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password.js';
import { loadConfig } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/corpus.js';
import { createUpstream } from '../helpers/git-repo.js';
import { httpRequest } from '../helpers/http.js';
import { sqlOn } from '../helpers/store.js';
import { DEMO } from '../helpers/sync-env.js';

const bin = path.join(repoRoot, 'bin', 'tms');

function tempConfig(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-cli-')), 'tms.config.json');
  writeFileSync(file, text);
  return file;
}

describe('usage and configuration errors', () => {
  it('a bare `tms` is a usage error: help on stderr, exit 2', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toEqual([]);
    expect(r.stderr.join('\n')).toContain('Usage: tms');
  });

  it('reports invalid JSON with line and column', async () => {
    const file = tempConfig('{\n  "projects": [\n    {"name": "x",}\n  ]\n}\n');
    const r = await runCli(['check', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([`tms: ${file}:3:17: not valid JSON: trailing comma before '}'`]);
    const cut = tempConfig('{"projects": [');
    expect((await runCli(['check', '--config', cut])).stderr[0]).toMatch(
      new RegExp(`^tms: ${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:15: not valid JSON: `),
    );
  });

  it('suggests the known key an unknown one is a typo of, and nothing for a key unlike any', async () => {
    const file = tempConfig(
      JSON.stringify({
        databse: 'x.sqlite',
        unrelated_setting: true,
        projects: [{ name: 'X', slug: 'x', components: [{ name: 'A', slug: 'a', repo: 'https://h/r.git', filemaks: 'po/*.ts', file_format: 'ts' }] }],
      }),
    );
    const r = await runCli(['check', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('  databse: is not a known key (did you mean "database"?)');
    expect(r.stderr).toContain('  projects[0].components[0].filemaks: is not a known key (did you mean "filemask"?)');
    expect(r.stderr).toContain('  unrelated_setting: is not a known key');
  });

  it('says where it looked for a missing configuration and how to give one', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'tms-cli-'));
    const { TMS_CONFIG: _, ...env } = process.env;
    const bare = spawnSync(bin, ['check'], { cwd: empty, env, encoding: 'utf8' });
    expect(bare.status).toBe(1);
    expect(bare.stderr).toBe(
      `tms: ${path.join(empty, 'tms.config.json')}: file not found (the default: give the configuration file with --config FILE or TMS_CONFIG=FILE)\n`,
    );
    const named = spawnSync(bin, ['check'], { cwd: empty, env: { ...env, TMS_CONFIG: 'elsewhere.json' }, encoding: 'utf8' });
    expect(named.stderr).toBe(`tms: ${path.join(empty, 'elsewhere.json')}: file not found (the file TMS_CONFIG names)\n`);
    await rm(empty, { recursive: true, force: true });
  });

  it('says in its help that serve serves the web interface and that disable stops sign-in', async () => {
    // commander wraps the help at 80 columns
    const help = async (args: string[]) => (await runCli(args)).stdout.join(' ').replace(/\s+/g, ' ');
    expect(await help(['--help'])).toContain('serve [options] serve the web interface, the Weblate-compatible API and webhooks');
    expect(await help(['user', '--help'])).toContain("disable <username> stop a user's API token and web sign-in");
  });
});

describe('tms user', () => {
  let dir: string;
  let config: string;
  let store: Store;
  let server: RunningServer;
  beforeAll(async () => {
    config = tempConfig(JSON.stringify({ database: 'tms.sqlite', projects: [] }));
    dir = path.dirname(config);
    store = await openStore(loadConfig(config).database);
    server = await startServer({ store, config: loadConfig(config), host: '127.0.0.1', port: 0, log: () => {} });
  });
  afterAll(async () => {
    await server.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const me = (token: string) => httpRequest(server.url, '/api/users/', { token });

  it('refuses an e-mail address that is not one (exit 2, nothing created)', async () => {
    for (const email of ['notanemail', 'a@b', 'a b@example.org', '@example.org']) {
      const r = await runCli(['--config', config, 'user', 'add', 'jane', '--email', email]);
      expect(r.code).toBe(2);
      expect(r.stderr).toEqual([`tms: invalid e-mail address "${email}"`]);
    }
    expect((await runCli(['--config', config, 'user', 'list'])).stdout.filter((l) => l.startsWith('jane'))).toEqual([]);
  });

  it('disables a user (its token stops authenticating) and enables it again', async () => {
    const added = await runCli(['--config', config, 'user', 'add', 'jane', '--email', 'jane@example.org']);
    expect(added.code).toBe(0);
    const token = added.stdout.at(-1)!;
    expect((await me(token)).status).toBe(200);
    const disabled = await runCli(['--config', config, 'user', 'disable', 'jane']);
    expect(disabled.code).toBe(0);
    const refused = await me(token);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ errors: [{ code: 'authentication_failed', detail: 'User inactive or deleted.' }] });
    expect((await runCli(['--config', config, 'user', 'list'])).stdout.find((l) => l.startsWith('jane'))).toMatch(/\tinactive$/);
    expect((await runCli(['--config', config, 'user', 'enable', 'jane'])).code).toBe(0);
    expect((await me(token)).status).toBe(200);
  });

  it('deletes a user: the token is gone, the history keeps the change without a user', async () => {
    const added = await runCli(['--config', config, 'user', 'add', 'bob', '--email', 'bob@example.org']);
    const token = added.stdout.at(-1)!;
    const bob = (await sqlOn(store).value('SELECT id FROM users WHERE username = ?', 'bob')) as number;
    await sqlOn(store).run("INSERT INTO changes (timestamp, action, user_id, author_id, target) VALUES ('2026-01-01T00:00:00.000Z', 5, ?, ?, 'x')", bob, bob);
    const deleted = await runCli(['--config', config, 'user', 'delete', 'bob']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toEqual(['deleted user bob']);
    expect((await me(token)).status).toBe(401);
    expect(await sqlOn(store).row("SELECT user_id, author_id FROM changes WHERE target = 'x'")).toEqual({ user_id: null, author_id: null });
  });

  it('says, when a user is added without a web password, how to set one (the token stays the last line)', async () => {
    const added = await runCli(['--config', config, 'user', 'add', 'ann', '--email', 'ann@example.org']);
    expect(added.code).toBe(0);
    expect(added.stderr).toEqual(['tms: note: ann has no web sign-in password yet: set one with "tms user password ann"']);
    expect((await me(added.stdout.at(-1)!)).status).toBe(200);
    const entry = path.join(repoRoot, 'test', 'watch', 'cli-entry.ts');
    const withPassword = spawnSync(process.execPath, ['--import', 'tsx', entry, '--config', config, 'user', 'add', 'amy', '--password-stdin'], {
      cwd: repoRoot,
      input: 'amy-password-1\n',
      encoding: 'utf8',
    });
    expect(withPassword.status).toBe(0);
    expect(withPassword.stderr).not.toContain('password');
  });

  it('tells a disabled user who gives the right password that the account is disabled (a wrong one learns nothing)', async () => {
    await runCli(['--config', config, 'user', 'add', 'dora', '--email', 'dora@example.org']);
    const hash = await hashPassword('dora-password-1');
    await store.write((tx) => setPasswordHash(tx, 'dora', hash));
    const signIn = async (password: string) => {
      const form = await httpRequest(server.url, '/accounts/login/');
      const csrf = /tms_csrf=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1]!;
      return httpRequest(server.url, '/accounts/login/', {
        method: 'POST',
        headers: { Cookie: `tms_csrf=${csrf}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrfmiddlewaretoken: csrf, username: 'dora', password, next: '/' }).toString(),
      });
    };
    expect((await signIn('dora-password-1')).status).toBe(303);
    expect((await runCli(['--config', config, 'user', 'disable', 'dora'])).stdout).toEqual([
      'disabled user dora: its API token no longer authenticates and it cannot sign in (enable it again with "tms user enable")',
    ]);
    const disabled = await signIn('dora-password-1');
    expect(disabled.status).toBe(403);
    expect(disabled.text).toContain('This account is disabled');
    const wrong = await signIn('not-dora-password');
    expect(wrong.status).toBe(400);
    expect(wrong.text).not.toContain('disabled');
    expect((await runCli(['--config', config, 'user', 'enable', 'dora'])).code).toBe(0);
    expect((await signIn('dora-password-1')).status).toBe(303);
  });

  it('says so when the user does not exist (exit 1)', async () => {
    for (const command of ['disable', 'enable', 'delete']) {
      const r = await runCli(['--config', config, 'user', command, 'nobody']);
      expect(r.code).toBe(1);
      expect(r.stderr).toEqual(['tms: user "nobody" not found']);
    }
  });
});

describe('sync', () => {
  it('names the branch the remote does not have', async () => {
    const config = tempConfig('{}');
    const upstream = path.join(path.dirname(config), 'app.git');
    await createUpstream({ dir: upstream, fixture: path.join(DEMO, 'app') });
    const component = { name: 'App', slug: 'app', repo: upstream, branch: 'no-such-branch', filemask: 'translations/app_*.ts', file_format: 'ts' };
    writeFileSync(config, JSON.stringify({ database: 'tms.sqlite', projects: [{ name: 'Hello', slug: 'hello', components: [component] }] }));
    const r = await runCli(['--config', config, 'sync', 'hello']);
    expect(r.code).toBe(1);
    expect(r.stderr.join('\n')).toContain(`clone: branch "no-such-branch" not found on the remote (${upstream})`);
    await rm(path.dirname(config), { recursive: true, force: true });
  });
});
