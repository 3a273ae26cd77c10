// A sync test environment: upstream repositories served on loopback, a config pointing at them, a fresh store.
import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type Config, parseConfig } from '../../src/config/config.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { repoRoot } from './corpus.js';
import { type FileMap, createUpstream, tempDir } from './git-repo.js';
import { type GitServer, startGitServer } from './git-server.js';

export const DEMO = path.join(repoRoot, 'fixtures', 'demo');

/** A demo fixture file's text. */
export function demoFile(rel: string): string {
  return readFileSync(path.join(DEMO, rel), 'utf8');
}

export interface SyncEnv {
  root: string;
  server: GitServer;
  /** Absolute path of the bare upstream `name`. */
  upstream(name: string): string;
  addUpstream(name: string, files: FileMap | { fixture: string; into?: string }): Promise<string>;
  /**
   * A component of upstream `slug` (served with CREDENTIALS) on branch main, source language English; `extra` adds
   * or overrides settings (filemask, file_format, name, repo …).
   * @example env.component('po', { filemask: 'po/*.po', file_format: 'po' })
   */
  component(slug: string, extra?: Record<string, unknown>): { slug: string } & Record<string, unknown>;
  /** Writes a config (projects as given) to `<root>/tms.config.json` and parses it. */
  config(projects: unknown[], extra?: Record<string, unknown>): Config;
  /** Opens the store of `<root>/tms.sqlite` (closed by `close()`); `.db` is its connection for SQL assertions. */
  openStore(): Promise<Store>;
  close(): Promise<void>;
}

export const CREDENTIALS = { username: 'translator', password: 's3cr3t-pa55' };

export async function createSyncEnv(): Promise<SyncEnv> {
  const root = await tempDir('tms-sync-');
  const server = await startGitServer({ root: path.join(root, 'upstream'), auth: CREDENTIALS });
  const stores: Store[] = [];
  const env: SyncEnv = {
    root,
    server,
    upstream: (name) => path.join(root, 'upstream', `${name}.git`),
    addUpstream: (name, files) =>
      createUpstream({
        dir: env.upstream(name),
        ...('fixture' in files ? { fixture: files.fixture as string, into: files.into as string | undefined } : { files: files as FileMap }),
      }),
    component: (slug, extra = {}) => ({
      name: slug,
      slug,
      vcs: 'git',
      branch: 'main',
      source_language: 'en',
      repo: server.url(`${slug}.git`, CREDENTIALS),
      ...extra,
    }),
    config(projects, extra = {}) {
      const text = JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects, ...extra });
      const file = path.join(root, 'tms.config.json');
      // On disk too, for the CLI (`tms --config … user add`) and the watchers.
      writeFileSync(file, text);
      return parseConfig(text, file);
    },
    async openStore() {
      const store = await openStore(path.join(root, 'tms.sqlite'));
      stores.push(store);
      return store;
    },
    async close() {
      for (const store of stores) await store.close();
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  return env;
}

/**
 * The configuration of project `hello` with one component (the demo's Qt TS `app` unless `component` says
 * otherwise), its store and working copies under `root`; `top` adds top-level settings.
 * @example const config = helloConfig(root, { repo: upstream, push_on_commit: false });
 */
export function helloConfig(root: string, component: Record<string, unknown> & { repo: string }, top: Record<string, unknown> = {}): Config {
  const app = { name: 'App', slug: 'app', branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts', ...component };
  const text = JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', ...top, projects: [{ name: 'Hello', slug: 'hello', components: [app] }] });
  return parseConfig(text, path.join(root, 'tms.config.json'));
}

/**
 * The files of linkedSite's components that live in upstream number `repo` of `repos`: components `repo`,
 * `repo + repos` … below `n`, each the demo's German and Czech Qt TS files at `c<i>/app_<lang>.ts`.
 * @example await env.addUpstream('shared', linkedSiteFiles(10, 0, 1))
 */
export function linkedSiteFiles(n: number, repo: number, repos: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = repo; i < n; i += repos) {
    out[`c${i}/app_de.ts`] = demoFile('app/translations/app_de.ts');
    out[`c${i}/app_cs.ts`] = demoFile('app/translations/app_cs.ts');
  }
  return out;
}

/**
 * The configuration of project `site` with `n` small Qt TS components (`c<i>`, files `c<i>/app_*.ts`): component i
 * in upstream `repos[i % repos.length]`, the first of each upstream owning its URL and the others linked to it
 * (`weblate://site/c<k>`); `extra` adds settings to every component.
 * @example syncAll(store, linkedSite(env, 10, ['shared']))
 */
export function linkedSite(env: SyncEnv, n: number, repos: readonly string[], extra: Record<string, unknown> = {}): Config {
  return env.config([
    {
      name: 'Site',
      slug: 'site',
      components: Array.from({ length: n }, (_, i) => ({
        name: `c${i}`,
        slug: `c${i}`,
        ...(i < repos.length ? { repo: env.server.url(`${repos[i]}.git`, CREDENTIALS), branch: 'main' } : { repo: `weblate://site/c${i % repos.length}` }),
        filemask: `c${i}/app_*.ts`,
        file_format: 'ts',
        ...extra,
      })),
    },
  ]);
}
