// What the short commands load, in whole bin/tms processes (a loader hook records every module): `tms --help` and
// `tms check` neither the store nor git, `tms user list` and `add` only the users part of the store (no checks, memory,
// formats, git or web code), a no-change `tms sync` over HTTP
// not isomorphic-git, the file scan or the formats. Loading those took most of these commands' time.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/corpus.js';
import { commitToUpstream, createUpstream, tempDir } from '../helpers/git-repo.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { onPostgres } from '../helpers/store.js';

const run = promisify(execFile);
const bin = path.join(repoRoot, 'bin', 'tms');
const recorder = path.join(repoRoot, 'test', 'helpers', 'record-modules.mjs');
const built = existsSync(path.join(repoRoot, 'dist', 'cli', 'index.js'));
const app = path.join(repoRoot, 'fixtures', 'demo', 'app', 'translations');

let root: string;
let server: GitServer;
let config: string;
let upstream: string;
let runs = 0;

/** Runs bin/tms (asynchronously: the git server answering it lives in this process); its output and the modules it loaded. */
async function tms(...args: string[]): Promise<{ stdout: string; modules: string[] }> {
  const record = path.join(root, `modules-${++runs}.txt`);
  const { stdout } = await run(process.execPath, ['--import', recorder, bin, '--config', config, ...args], {
    env: { ...process.env, TMS_RECORD_MODULES: record },
  });
  const modules = readFileSync(record, 'utf8').split('\n').filter(Boolean);
  rmSync(record);
  return { stdout, modules };
}

/** What the bundle's files hold (written by scripts/build-cli-bundle.ts), when bin/tms runs the bundle. */
const bundleInputs = path.join(repoRoot, 'dist', 'bundle', 'inputs.json');

/**
 * The loaded modules of ours (dist/…) and of packages (node_modules/<name>), by name; a file of the bundle stands
 * for the sources it holds.
 */
function names(modules: string[]): string[] {
  const inputs = existsSync(bundleInputs) ? (JSON.parse(readFileSync(bundleInputs, 'utf8')) as Record<string, string[]>) : {};
  const out = new Set<string>();
  const add = (url: string) => {
    const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
    if (pkg) out.add(pkg);
    const own = /\/dist\/(?!bundle\/)(.+)$/.exec(url)?.[1];
    if (own) out.add(own);
  };
  for (const url of modules) {
    const bundled = /\/dist\/bundle\/([^/]+)$/.exec(url)?.[1];
    if (bundled) for (const source of inputs[bundled] ?? []) add(`/${source}`);
    else add(url);
  }
  return [...out];
}

beforeAll(async () => {
  root = await tempDir('tms-startup-');
  server = await startGitServer({ root: path.join(root, 'served') });
  upstream = path.join(root, 'served', 'app.git');
  const files = Object.fromEntries(readdirSync(app).map((n) => [`translations/${n}`, readFileSync(path.join(app, n))]));
  await createUpstream({ dir: upstream, files });
  config = path.join(root, 'tms.config.json');
  const component = { name: 'App', slug: 'app', repo: server.url('app.git'), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' };
  writeFileSync(config, JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'Hello', slug: 'hello', components: [component] }] }));
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe.runIf(existsSync(bundleInputs))('the bundle bin/tms runs', () => {
  it('holds every worker thread tms starts, beside its chunks (startWorker looks there)', () => {
    const sources = readdirSync(path.join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const workers = new Set<string>();
    for (const file of sources) {
      for (const m of readFileSync(path.join(repoRoot, 'src', file), 'utf8').matchAll(/startWorker\(import\.meta\.url, '([^']+)'/g)) workers.add(m[1]!);
    }
    expect(workers.size).toBeGreaterThan(0);
    for (const name of workers) expect(existsSync(path.join(repoRoot, 'dist', 'bundle', `${name}.js`)), name).toBe(true);
  });
});

describe.runIf(built)('what the short commands load', () => {
  it('tms --help and tms check: no store, no git, no web code', async () => {
    for (const args of [['--help'], ['check']]) {
      const loaded = names((await tms(...args)).modules);
      expect(loaded).toContain('commander');
      for (const heavy of ['better-sqlite3', 'isomorphic-git', 'preact', 'store/index.js', 'sync/sync.js', 'web/html.js']) expect(loaded).not.toContain(heavy);
    }
  });

  it('tms user list and add: the users part of the store only (no checks, memory, formats, git or web code)', async () => {
    const added = await tms('user', 'add', 'jane', '--email', 'jane@example.test');
    const { stdout, modules } = await tms('user', 'list');
    expect(stdout).toMatch(/jane/);
    const loaded = names(modules);
    expect(loaded).toContain('better-sqlite3');
    expect(loaded).toContain('store/users.repo.js');
    // bin/tms runs the bundle when the build made one (scripts/build-cli-bundle.ts)
    expect(modules.some((url) => url.endsWith('/dist/bundle/tms.js'))).toBe(existsSync(bundleInputs));
    const heavy = [
      // git, the file scan, the web and the API
      'isomorphic-git',
      'vcs/index.js',
      'fast-glob',
      'sync/sync.js',
      'preact',
      'web/html.js',
      'api/app.js',
      // the quality checks and the ICU message parser they use (the store loads them at first use)
      'checks/index.js',
      'checks/run.js',
      'store/checks.repo.js',
      '@formatjs/icu-messageformat-parser',
      // the translation memory and its similarity, the units, the file formats
      'store/memory.repo.js',
      'fastest-levenshtein',
      'store/units.repo.js',
      'store/sync.repo.js',
      'formats/registry.js',
      'formats/ts/units.js',
      // Ajv (the configuration's validator is prebuilt), better-sqlite3's search for its addon (the PostgreSQL
      // engine's libpq binding finds its own through it)
      'ajv',
      ...(onPostgres ? [] : ['bindings']),
    ];
    for (const name of heavy) expect(loaded).not.toContain(name);
    const addLoaded = names(added.modules);
    expect(addLoaded).toContain('store/users.repo.js');
    for (const name of heavy) expect(addLoaded).not.toContain(name);
    // no password given: neither its reading nor its hashing
    for (const modules of [loaded, addLoaded]) for (const name of ['cli/password-input.js', 'auth/password.js']) expect(modules).not.toContain(name);
  });

  it('a no-change tms sync over HTTP asks upstream without isomorphic-git; a change upstream still loads and syncs it', async () => {
    const cold = await tms('sync', 'hello');
    expect(cold.stdout).toMatch(/hello\/app: \d+ files \(\d+ parsed\)/);
    expect(names(cold.modules)).toContain('isomorphic-git');

    const again = await tms('sync', 'hello');
    expect(again.stdout).toMatch(/hello\/app: \d+ files \(0 parsed\), units \+0 ~0 -0, 0 errors/);
    const loaded = names(again.modules);
    for (const heavy of ['isomorphic-git', 'fast-glob', 'cli-progress', 'sync/scan.js', 'vcs/index.js', 'formats/registry.js'])
      expect(loaded).not.toContain(heavy);

    const de = readFileSync(path.join(app, 'app_de.ts'), 'utf8').replace('</TS>', '<!-- upstream moved -->\n</TS>');
    await commitToUpstream(upstream, { 'translations/app_de.ts': de });
    const moved = await tms('sync', 'hello');
    expect(moved.stdout).toMatch(/hello\/app: \d+ files \(1 parsed\)/);
    expect(names(moved.modules)).toContain('isomorphic-git');
  });
});
