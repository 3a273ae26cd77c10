import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/store/users.repo.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/corpus.js';
import { openDatabaseOf } from '../helpers/store.js';

const DEMO_CONFIG = path.join(repoRoot, 'fixtures', 'demo', 'tms.config.json');

function tempConfig(value: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tms-cli-'));
  const file = path.join(dir, 'tms.config.json');
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describe('tms check', () => {
  it('prints the projects and components of the demo configuration', async () => {
    const r = await runCli(['check', '--config', DEMO_CONFIG]);
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('projects: 1');
    expect(r.stdout).toContain('- hello "Hello": 3 component(s)');
    expect(r.stdout.some((l) => l.startsWith('  - hello/app "App": ts translations/app_*.ts from '))).toBe(true);
    expect(r.stdout.some((l) => l.startsWith('  - hello/web "Web": json-nested locales/*.json, template locales/en.json'))).toBe(true);
    expect(r.stdout.at(-1)).toBe('configuration is valid');
  });

  it('takes the file from TMS_CONFIG', async () => {
    const file = tempConfig({ projects: [] });
    const before = process.env.TMS_CONFIG;
    process.env.TMS_CONFIG = file;
    try {
      const r = await runCli(['check']);
      expect(r.code).toBe(0);
      expect(r.stdout[0]).toBe(`configuration: ${file}`);
    } finally {
      if (before === undefined) delete process.env.TMS_CONFIG;
      else process.env.TMS_CONFIG = before;
    }
  });

  it('lists every problem of a bad configuration with its path and exits 1', async () => {
    const file = tempConfig({
      projects: [{ name: 'H', slug: 'h', components: [{ name: 'A', slug: 'a', repo: 'x', filemask: 'po/de.ts', file_format: 'no-such-format' }] }],
    });
    const r = await runCli(['check', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toEqual([]);
    expect(r.stderr[0]).toBe(`tms: ${file}: invalid configuration:`);
    expect(r.stderr).toContain('  projects[0].components[0].filemask: must contain "*"');
    expect(r.stderr.some((l) => l.startsWith('  projects[0].components[0].file_format: must be one of'))).toBe(true);
    expect(r.stderr).toHaveLength(3);
  });

  it('says a missing configuration file is missing', async () => {
    const r = await runCli(['check', '--config', '/nonexistent/tms.config.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual(['tms: /nonexistent/tms.config.json: file not found (the file --config names)']);
  });
});

describe('usage', () => {
  it('exits 2 on an unknown command or option', async () => {
    expect((await runCli(['frobnicate'])).code).toBe(2);
    expect((await runCli(['check', '--bogus'])).code).toBe(2);
    expect((await runCli(['user', 'add'])).code).toBe(2);
  });

  it('exits 2 when sync has neither a project nor --all', async () => {
    const r = await runCli(['sync', '--config', DEMO_CONFIG]);
    expect(r.code).toBe(2);
    expect(r.stderr).toEqual(['tms: sync needs a project slug or --all']);
  });

  it('shows help for the program and each command', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    for (const command of ['check', 'sync', 'serve', 'user']) expect(top.stdout.join('\n')).toContain(command);
    const add = await runCli(['user', 'add', '--help']);
    expect(add.code).toBe(0);
    expect(add.stdout.join('\n')).toContain('--full-name');
  });
});

describe('tms user', () => {
  it('creates a user, prints its token last, and rotates it', async () => {
    const file = tempConfig({ database: 'db/tms.sqlite', projects: [] });
    const add = await runCli(['user', 'add', 'jane', '--full-name', 'Jane Doe', '--email', 'jane@example.org', '--admin', '--config', file]);
    expect(add.stderr).toEqual(['tms: note: jane has no web sign-in password yet: set one with "tms user password jane"']);
    expect(add.code).toBe(0);
    const token = add.stdout.at(-1)!;
    expect(token).toMatch(/^wlu_[A-Za-z0-9]{40}$/);

    const dbFile = path.join(path.dirname(file), 'db', 'tms.sqlite');
    const db = openDatabaseOf(dbFile);
    const row = db.prepare('SELECT username, full_name, email, is_superuser, token_hash FROM users WHERE username = ?').get('jane');
    expect(row).toEqual({ username: 'jane', full_name: 'Jane Doe', email: 'jane@example.org', is_superuser: 1, token_hash: hashToken(token) });
    const groups = db
      .prepare('SELECT g.name FROM user_groups ug JOIN groups g ON g.id = ug.group_id JOIN users u ON u.id = ug.user_id WHERE u.username = ? ORDER BY g.name')
      .pluck()
      .all('jane');
    expect(groups).toEqual(['Users', 'Viewers']);
    db.close();

    const again = await runCli(['user', 'add', 'jane', '--config', file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toEqual(['tms: user "jane" already exists']);

    const rotated = await runCli(['user', 'token', 'jane', '--config', file]);
    expect(rotated.code).toBe(0);
    const newToken = rotated.stdout.at(-1)!;
    expect(newToken).toMatch(/^wlu_[A-Za-z0-9]{40}$/);
    expect(newToken).not.toBe(token);
    const db2 = openDatabaseOf(dbFile);
    expect(db2.prepare('SELECT token_hash FROM users WHERE username = ?').pluck().get('jane')).toBe(hashToken(newToken));
    db2.close();

    const missing = await runCli(['user', 'token', 'nobody', '--config', file]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toEqual(['tms: user "nobody" not found']);
  });

  it('warns that a user without an e-mail address cannot contribute', async () => {
    const file = tempConfig({ projects: [] });
    const r = await runCli(['user', 'add', 'reader', '--config', file]);
    expect(r.code).toBe(0);
    expect(r.stderr[0]).toBe('tms: note: a user without --email cannot edit strings or upload (as in Weblate); reading works');
    expect(r.stdout.at(-1)).toMatch(/^wlu_/);
  });

  it('refuses an invalid username', async () => {
    const file = tempConfig({ projects: [] });
    const r = await runCli(['user', 'add', 'bad name', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toMatch(/^tms: invalid username "bad name"/);
  });
});

describe('bin/tms', () => {
  const bin = path.join(repoRoot, 'bin', 'tms');
  const built = existsSync(path.join(repoRoot, 'dist', 'cli', 'index.js'));

  it.runIf(built)('runs the built CLI: --help lists the commands, usage errors exit 2', () => {
    const help = execFileSync(bin, ['--help'], { encoding: 'utf8' });
    expect(help).toMatch(/check/);
    expect(help).toMatch(/sync/);
    expect(help).toMatch(/serve/);
    const bad = spawnSync(bin, ['nope'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown command/);
    const check = spawnSync(bin, ['check', '--config', DEMO_CONFIG], { encoding: 'utf8' });
    expect(check.status).toBe(0);
    expect(check.stdout).toMatch(/configuration is valid/);
  });
});
