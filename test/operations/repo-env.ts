import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type ComponentHandle, openComponent } from '../../src/component/handle.js';
import type { ComponentConfig, Config, ProjectConfig } from '../../src/config/config.js';
import type { TranslationStatsRow, UserRow } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { commitToUpstream, gitCli, readUpstreamFile } from '../helpers/git-repo.js';
// A write-path test environment: the demo upstreams on loopback smart HTTP, synced into a fresh store, with two editors.
import { type DirectSql, sqlOn } from '../helpers/store.js';
import { CREDENTIALS, DEMO, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

export interface RepoEnv {
  env: SyncEnv;
  store: Store;
  /** SQL on the store, for assertions. */
  sql: DirectSql;
  config: Config;
  project: ProjectConfig;
  component(slug: string): ComponentConfig;
  /** The component resolved as the API and the CLI resolve it, for repository operations. */
  handle(slug: string): Promise<ComponentHandle>;
  alice: UserRow;
  bob: UserRow;
  /** The id of a unit by component, language code and (part of) its source. */
  unit(component: string, language: string, source: string): Promise<UnitRow>;
  units(component: string, language: string): Promise<UnitRow[]>;
  /** A file of the upstream repository at `ref` (default: main), read with the git CLI. */
  upstreamFile(component: string, file: string, ref?: string): Promise<string | null>;
  /** `git` in the upstream (bare) repository. */
  upstreamGit(component: string, args: string[]): Promise<string>;
  /** `git` in the component's working copy. */
  workGit(component: string, args: string[]): Promise<string>;
  workDir(component: string): string;
  /** Changes of the component, oldest first. */
  changes(component: string, actions?: number[]): Promise<ChangeRow[]>;
  close(): Promise<void>;
}

export interface UnitRow {
  id: number;
  context: string;
  source: string;
  target: string;
  state: number;
  pending: number;
  pending_author_id: number | null;
}

export interface ChangeRow {
  id: number;
  action: number;
  translation_id: number | null;
  unit_id: number | null;
  language_id: number | null;
  user_id: number | null;
  author_id: number | null;
  target: string;
  old: string;
  details: Record<string, unknown>;
}

export const COMMITTER = { name: 'tms bot', email: 'bot@tms.test' };

/** Builds the demo upstreams (app: Qt TS, glossary: TBX, web: nested JSON), a config for them, and syncs once. */
export async function createRepoEnv(
  options: {
    project?: Record<string, unknown>;
    components?: Record<string, Record<string, unknown>>;
    /** Shallow working copies of this depth, of upstreams with history beyond it (default: `TMS_TEST_DEPTH`, else 0). */
    depth?: number;
  } = {},
): Promise<RepoEnv> {
  const env = await createSyncEnv();
  await env.addUpstream('app', { fixture: path.join(DEMO, 'app') });
  await env.addUpstream('glossary', { fixture: path.join(DEMO, 'glossary'), into: 'glossary' });
  await env.addUpstream('web', { fixture: path.join(DEMO, 'web') });
  // TMS_TEST_DEPTH=N runs every write-path test on shallow working copies (`depth: N`) of upstreams with history
  // beyond that depth, so the shallow boundary is really there.
  const depth = options.depth ?? Number(process.env.TMS_TEST_DEPTH ?? 0);
  if (depth > 0) {
    for (const name of ['app', 'glossary', 'web']) {
      for (let i = 1; i <= depth + 1; i++) await commitToUpstream(env.upstream(name), { 'HISTORY.md': `${i}\n` }, { message: `History ${i}` });
    }
  }
  const url = (name: string) => env.server.url(`${name}.git`, CREDENTIALS);
  // Commits stay local until pushed (push_on_commit off): these tests drive commit, push, pull and reset one by one.
  const components: Record<string, Record<string, unknown>> = {
    app: { name: 'App', slug: 'app', repo: url('app'), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts', push_on_commit: false },
    glossary: {
      name: 'Glossary',
      slug: 'glossary',
      repo: url('glossary'),
      branch: 'main',
      filemask: 'glossary/*.tbx',
      file_format: 'tbx',
      push_on_commit: false,
    },
    web: {
      name: 'Web',
      slug: 'web',
      repo: url('web'),
      branch: 'main',
      filemask: 'locales/*.json',
      template: 'locales/en.json',
      file_format: 'json-nested',
      push_on_commit: false,
    },
  };
  if (depth > 0) for (const c of Object.values(components)) c.depth = depth;
  for (const [slug, extra] of Object.entries(options.components ?? {})) Object.assign(components[slug]!, extra);
  const config = env.config([{ name: 'Hello', slug: 'hello', ...options.project, components: Object.values(components) }], {
    committer: COMMITTER,
    site_url: 'https://tms.example.test',
  });
  const store = await env.openStore();
  const sql = sqlOn(store);
  const results = await syncProject(store, config, 'hello');
  for (const r of results) if (!r.ok) throw new Error(`sync of ${r.component} failed: ${r.error}`);
  const alice = (await store.write((tx) => createUser(tx, { username: 'alice', fullName: 'Alice Translator', email: 'alice@example.test' }))).user;
  const bob = (await store.write((tx) => createUser(tx, { username: 'bob', fullName: 'Bob Reviewer', email: 'bob@example.test' }))).user;
  const project = config.projects[0]!;
  const component = (slug: string) => project!.components.find((c) => c.slug === slug)!;
  const units = async (component: string, language: string) =>
    (await sql.rows(
      `SELECT u.id, u.context, u.source, u.target, u.state, u.pending, u.pending_author_id FROM units u
       JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
       JOIN languages l ON l.id = t.language_id WHERE c.slug = ? AND l.code = ? ORDER BY u.position`,
      component,
      language,
    )) as UnitRow[];
  return {
    env,
    store,
    sql,
    config,
    project,
    component,
    handle: (slug) => openComponent(store, config, project, component(slug)),
    alice,
    bob,
    units,
    async unit(component, language, source) {
      const found = (await units(component, language)).filter((u) => u.source.includes(source));
      if (found.length !== 1) throw new Error(`${found.length} units of ${component}/${language} match "${source}"`);
      return found[0]!;
    },
    upstreamFile: async (component, file, ref = 'main') => (await readUpstreamFile(env.upstream(component), ref, file))?.toString('utf8') ?? null,
    upstreamGit: (component, args) => gitCli(env.upstream(component), args),
    workGit: (component, args) => gitCli(path.join(env.root, 'repos', 'hello', component), args),
    workDir: (component) => path.join(env.root, 'repos', 'hello', component),
    async changes(component, actions) {
      const rows = (await sql.rows(
        `SELECT ch.id, ch.action, ch.translation_id, ch.unit_id, ch.language_id, ch.user_id, ch.author_id, ch.target, ch.old, ch.details
         FROM changes ch JOIN components c ON c.id = ch.component_id WHERE c.slug = ? ORDER BY ch.id`,
        component,
      )) as (Omit<ChangeRow, 'details'> & { details: string })[];
      return rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> })).filter((r) => !actions || actions.includes(r.action));
    },
    close: () => env.close(),
  };
}

/** The changed lines of the newest commit of a repository (`-` and `+` lines of a zero-context diff). */
export async function lastCommitDiff(git: (args: string[]) => Promise<string>, file: string, ref = 'main'): Promise<string[]> {
  const diff = await git(['diff', '-U0', `${ref}~1`, ref, '--', file]);
  return diff.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));
}

/**
 * A loopback proxy in front of the git server that runs `beforePush(attempt)` whenever a client asks to push (the
 * receive-pack discovery; attempt 1, 2, …), so upstream can move between the client's fetch and its push.
 */
export async function startPushRaceProxy(
  target: string,
  beforePush: (attempt: number) => Promise<void>,
): Promise<{ url(name: string): string; close(): Promise<void> }> {
  const base = new URL(target);
  let attempts = 0;
  const server = http.createServer(async (req, res) => {
    // the client asks without credentials first (401), then with them: one attempt
    if (req.url?.includes('service=git-receive-pack') && req.headers.authorization) await beforePush(++attempts);
    const upstream = http.request({ host: base.hostname, port: base.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://${encodeURIComponent(CREDENTIALS.username)}:${encodeURIComponent(CREDENTIALS.password)}@127.0.0.1:${port}/${name}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The statistics row of a component's translation in a language. */
export async function statsOf(r: RepoEnv, component: string, language: string): Promise<TranslationStatsRow> {
  return (await r.sql.row(
    `SELECT s.* FROM translation_stats s JOIN translations t ON t.id = s.translation_id
     JOIN components c ON c.id = t.component_id JOIN languages l ON l.id = t.language_id WHERE c.slug = ? AND l.code = ?`,
    component,
    language,
  )) as TranslationStatsRow;
}
