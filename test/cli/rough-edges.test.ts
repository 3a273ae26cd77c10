// What a new user tripped over: a bare `tms`, JSON errors without a line, typos in keys, bad e-mail addresses,
// and no way to disable or delete a user.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { type SqlStore, openSqlStore } from '../../src/store/sql-store.js';
import { runCli } from '../helpers/cli.js';
import { httpRequest } from '../helpers/http.js';

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
});

describe('tms user', () => {
  let dir: string;
  let config: string;
  let store: SqlStore;
  let server: RunningServer;
  beforeAll(async () => {
    config = tempConfig(JSON.stringify({ database: 'tms.sqlite', projects: [] }));
    dir = path.dirname(config);
    store = openSqlStore(loadConfig(config).database);
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
    const bob = store.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get('bob') as number;
    store.db.prepare("INSERT INTO changes (timestamp, action, user_id, author_id, target) VALUES ('2026-01-01T00:00:00.000Z', 5, ?, ?, 'x')").run(bob, bob);
    const deleted = await runCli(['--config', config, 'user', 'delete', 'bob']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toEqual(['deleted user bob']);
    expect((await me(token)).status).toBe(401);
    expect(store.db.prepare("SELECT user_id, author_id FROM changes WHERE target = 'x'").get()).toEqual({ user_id: null, author_id: null });
  });

  it('says so when the user does not exist (exit 1)', async () => {
    for (const command of ['disable', 'enable', 'delete']) {
      const r = await runCli(['--config', config, 'user', command, 'nobody']);
      expect(r.code).toBe(1);
      expect(r.stderr).toEqual(['tms: user "nobody" not found']);
    }
  });
});
