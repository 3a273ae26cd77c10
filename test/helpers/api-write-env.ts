// A write-path API environment: the demo upstreams over smart HTTP on loopback, synced, served, with a translator, a manager and an admin.
import path from 'node:path';
import { hashPassword } from '../../src/auth/password.js';
import type { Config } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import type { Store } from '../../src/store/index.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { type HttpAnswer, type HttpRequest, httpRequest } from './http.js';
import { CREDENTIALS, DEMO, type SyncEnv, createSyncEnv } from './sync-env.js';
import { type WebSession, webSignIn } from './web-session.js';

export type { WebSession } from './web-session.js';

/** A browser's signed-in session for requests to the pages: its cookies and the CSRF token its forms carry. */

export interface WriteEnv {
  env: SyncEnv;
  root: string;
  /** The configuration (also written to `<root>/tms.config.json`, for the CLI). */
  config: Config;
  store: Store;
  server: RunningServer;
  origin: string;
  /** Bare upstream repository of `app` or `web` (read it with the git CLI). */
  upstream(name: 'app' | 'web'): string;
  /** Tokens: jane (Users team: translate), mike (Managers team), admin (superuser). */
  tokens: { jane: string; mike: string; admin: string };
  /** A request to the server; a `json` body is sent as JSON. */
  request(method: string, pathOrUrl: string, opts?: Omit<HttpRequest, 'method'>): Promise<HttpAnswer>;
  /** Gives `username` the web password `password` and signs in through the sign-in form, as a browser does. */
  signIn(username: string, password: string): Promise<WebSession>;
  /** Posts a web form as `session`'s browser does without script (its CSRF token first; repeated names as pairs). */
  postForm(session: WebSession, address: string, fields: Record<string, string> | [string, string][]): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/**
 * Project `hello` (public): `app` (Qt TS, bilingual: en, cs, de), `web` (nested JSON, monolingual with template
 * `locales/en.json`, strings managed, new languages from `new_base`). Both served by `git http-backend`.
 * `settings` are added to the configuration's top level (e.g. `lock_timeout_ms`), `components` to a component's
 * (e.g. `{ app: { push_on_commit: true } }`). `copies` adds components over the `app` upstream under other slugs
 * (the same strings in several components of the project); `project` is added to the project's (e.g.
 * `{ translation_review: true }`).
 */
export async function createWriteEnv(
  settings: Record<string, unknown> = {},
  components: { app?: Record<string, unknown>; web?: Record<string, unknown> } = {},
  copies: { slug: string; settings?: Record<string, unknown> }[] = [],
  project: Record<string, unknown> = {},
): Promise<WriteEnv> {
  const env = await createSyncEnv();
  await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
  await env.addUpstream('web', { fixture: path.join(DEMO, 'web') });
  const component = (slug: string, extra: Record<string, unknown>) =>
    env.component(slug, { name: slug[0]!.toUpperCase() + slug.slice(1), license: 'MIT', ...extra });
  const config = env.config(
    [
      {
        name: 'Hello',
        slug: 'hello',
        ...project,
        components: [
          // `app` commits without pushing (explicit push tested); `web` keeps Weblate's default push_on_commit
          component('app', { filemask: 'translations/app_*.ts', file_format: 'ts', merge_style: 'rebase', push_on_commit: false, ...components.app }),
          component('web', {
            filemask: 'locales/*.json',
            template: 'locales/en.json',
            new_base: 'locales/en.json',
            file_format: 'json-nested',
            manage_units: true,
            new_lang: 'add',
            ...components.web,
          }),
          ...copies.map((c) =>
            component(c.slug, {
              repo: env.server.url('app.git', CREDENTIALS),
              filemask: 'translations/app_*.ts',
              file_format: 'ts',
              push_on_commit: false,
              ...c.settings,
            }),
          ),
        ],
      },
    ],
    { committer: { name: 'tms test', email: 'tms@test.invalid' }, ...settings },
  );
  const store = await env.openStore();
  await store.write((tx) => applyConfig(tx, config));
  for (const slug of ['app', 'web', ...copies.map((c) => c.slug)]) {
    const [result] = await syncProject(store, config, 'hello', slug);
    if (!result?.ok) throw new Error(`sync of hello/${slug} failed: ${result?.error}`);
  }
  const jane = await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
  const mike = await store.write((tx) => createUser(tx, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' }));
  await store.write((tx) => joinTeams(tx, mike.user.id, ['Managers']));
  const admin = await store.write((tx) => createUser(tx, { username: 'admin', fullName: 'Site Admin', email: 'admin@example.org', admin: true }));
  const errors: string[] = [];
  const server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
  const request = (method: string, pathOrUrl: string, opts: Omit<HttpRequest, 'method'> = {}) => httpRequest(server.url, pathOrUrl, { ...opts, method });
  return {
    env,
    root: env.root,
    config,
    store,
    server,
    origin: server.url,
    upstream: (name) => env.upstream(name),
    tokens: { jane: jane.token, mike: mike.token, admin: admin.token },
    request,
    async signIn(username, password) {
      const hash = await hashPassword(password);
      await store.write((tx) => setPasswordHash(tx, username, hash));
      return webSignIn(server.url, username, password);
    },
    postForm(session, address, fields) {
      const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
      return request('POST', address, {
        headers: { Cookie: session.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams([['csrfmiddlewaretoken', session.csrf], ...pairs]).toString(),
      });
    },
    async close() {
      await server.close();
      await env.close();
      if (errors.length > 0) throw new Error(`the server logged errors:\n${errors.join('\n')}`);
    },
  };
}
