// A write-path API environment: upstreams served over smart HTTP on loopback, synced, with a translator, a manager and an admin.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type RunningServer, startServer } from '../../src/api/server.js';
import { type Config, parseConfig } from '../../src/config/config.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import type { Db } from '../../src/store/db.js';
import { applyConfig } from '../../src/store/projects.repo.js';
import { openStore } from '../../src/store/store.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import type { Json } from './api-client.js';
import { repoRoot } from './corpus.js';
import { createUpstream, tempDir } from './git-repo.js';
import { type GitServer, startGitServer } from './git-server.js';

const DEMO = path.join(repoRoot, 'fixtures', 'demo');

export interface WriteEnv {
  root: string;
  /** The configuration (also written to `<root>/tms.config.json`). */
  config: Config;
  db: Db;
  git: GitServer;
  server: RunningServer;
  origin: string;
  /** Bare upstream repository of `app` or `web` (read it with the git CLI). */
  upstream(name: 'app' | 'web'): string;
  /** Tokens: jane (Users team: translate), mike (Managers team), admin (superuser). */
  tokens: { jane: string; mike: string; admin: string };
  /** A JSON (or other) request with a token; bodies that are objects are sent as JSON. */
  request(
    method: string,
    pathOrUrl: string,
    opts?: { token?: string; json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; text: string; bytes: Buffer; json: Json }>;
  close(): Promise<void>;
}

/**
 * Project `hello` (public): `app` (Qt TS, bilingual: en, cs, de), `web` (nested JSON, monolingual with template
 * `locales/en.json`, strings managed, new languages from `new_base`). Both served by `git http-backend`.
 */
export async function createWriteEnv(): Promise<WriteEnv> {
  const root = await tempDir('tms-api-write-');
  const git = await startGitServer({ root: path.join(root, 'upstream') });
  const upstream = (name: string) => path.join(root, 'upstream', `${name}.git`);
  await createUpstream({ dir: upstream('app'), fixture: path.join(DEMO, 'app') });
  await createUpstream({ dir: upstream('web'), fixture: path.join(DEMO, 'web') });
  const component = (slug: string, extra: Record<string, unknown>) => ({
    name: slug[0].toUpperCase() + slug.slice(1), slug, vcs: 'git', branch: 'main', source_language: 'en', license: 'MIT', ...extra,
  });
  const text = JSON.stringify({
    database: 'tms.sqlite',
    repos_dir: 'repos',
    committer: { name: 'tms test', email: 'tms@test.invalid' },
    projects: [{
      name: 'Hello',
      slug: 'hello',
      components: [
        // `app` commits without pushing (explicit push tested); `web` keeps Weblate's default push_on_commit
        component('app', { repo: git.url('app.git'), filemask: 'translations/app_*.ts', file_format: 'ts', merge_style: 'rebase', push_on_commit: false }),
        component('web', {
          repo: git.url('web.git'), filemask: 'locales/*.json', template: 'locales/en.json', new_base: 'locales/en.json',
          file_format: 'json-nested', manage_units: true, new_lang: 'add',
        }),
      ],
    }],
  });
  const configFile = path.join(root, 'tms.config.json');
  // On disk too, for the CLI (`tms --config … user add`).
  await writeFile(configFile, text);
  const config = parseConfig(text, configFile);
  const db = openStore(config.database);
  applyConfig(db, config);
  for (const slug of ['app', 'web']) {
    const [result] = await syncProject(db, config, 'hello', slug);
    if (!result.ok) throw new Error(`sync of hello/${slug} failed: ${result.error}`);
  }
  const jane = createUser(db, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' });
  const mike = createUser(db, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' });
  joinTeams(db, mike.user.id, ['Managers']);
  const admin = createUser(db, { username: 'admin', fullName: 'Site Admin', email: 'admin@example.org', admin: true });
  const errors: string[] = [];
  const server = await startServer({ db, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
  return {
    root,
    config,
    db,
    git,
    server,
    origin: server.url,
    upstream,
    tokens: { jane: jane.token, mike: mike.token, admin: admin.token },
    async request(method, pathOrUrl, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.Authorization = `Token ${opts.token}`;
      let body = opts.body;
      if (opts.json !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(opts.json);
      }
      const url = pathOrUrl.startsWith('http') ? pathOrUrl : server.url + pathOrUrl;
      const response = await fetch(url, { method, headers, body, redirect: 'manual' });
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = bytes.toString('utf8');
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, bytes, json };
    },
    async close() {
      await server.close();
      await git.close();
      if (db.open) db.close();
      await rm(root, { recursive: true, force: true });
      if (errors.length > 0) throw new Error(`the server logged errors:\n${errors.join('\n')}`);
    },
  };
}
