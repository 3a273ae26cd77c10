// A sync of many components on parse workers: the same store as on one thread, errors as on one thread, a worker
// that dies neither loses its component nor hangs the sync.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { type Store, openStore } from '../../src/store/index.js';
import { type ComponentSyncResult, syncProject } from '../../src/sync/index.js';
import { PARSE_POOL_THRESHOLD, createParsePool } from '../../src/sync/parse-pool.js';
import { repoRoot } from '../helpers/corpus.js';
import { sqlOn } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';

const bin = path.join(repoRoot, 'bin', 'tms');

const TS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
const JSON_COMPONENTS = ['iota', 'kappa'];

/** Qt TS components whose strings differ (a message of their own each), one with a broken file; JSON ones with a template. */
function files(): Record<string, string> {
  const out: Record<string, string> = {};
  const own = (text: string, slug: string, n: number) =>
    text.replace(
      '</TS>',
      `<context>\n    <name>${slug}</name>\n${Array.from({ length: n }, (_, i) => `    <message>\n        <source>${slug} ${i}</source>\n        <translation>${i % 2 ? '' : `${slug} übersetzt ${i}`}</translation>\n    </message>\n`).join('')}</context>\n</TS>`,
    );
  TS.forEach((slug, i) => {
    out[`${slug}/app_de.ts`] = own(demoFile('app/translations/app_de.ts'), slug, i + 1);
    out[`${slug}/app_cs.ts`] = own(demoFile('app/translations/app_cs.ts'), slug, 2 * i + 1);
  });
  // a file that does not parse: its error names the file and line, from a worker as from the sync's own thread
  out['delta/app_fr.ts'] =
    '<?xml version="1.0" encoding="utf-8"?>\n<TS version="2.1" language="fr">\n<context>\n<name>x</name>\n<message><source>a</source>\n</TS>\n';
  JSON_COMPONENTS.forEach((slug, i) => {
    out[`${slug}/en.json`] = JSON.stringify({ hello: 'Hello', bye: 'Bye', [slug]: `Only ${slug}` }, null, 2);
    out[`${slug}/de.json`] = JSON.stringify({ hello: 'Hallo', [slug]: `Nur ${slug} ${i}` }, null, 2);
  });
  return out;
}

/** The first component owns the repository and the others link to it; or (`linked` false) each has its own working copy. */
function components(url: string, linked = true) {
  const repo = (i: number) => (i === 0 || !linked ? { repo: url, branch: 'main' } : { repo: 'weblate://hello/alpha' });
  return [
    ...TS.map((slug, i) => ({
      name: slug,
      slug,
      ...repo(i),
      filemask: `${slug}/app_*.ts`,
      file_format: 'ts',
    })),
    ...JSON_COMPONENTS.map((slug) => ({
      name: slug,
      slug,
      ...repo(1),
      filemask: `${slug}/*.json`,
      template: `${slug}/en.json`,
      file_format: 'json',
    })),
  ];
}

/** What a sync left in the store, timestamps aside: units, changes, checks, translations, statistics, alerts. */
async function contents(store: Store): Promise<Record<string, unknown[]>> {
  const sql = sqlOn(store);
  const out: Record<string, unknown[]> = {};
  for (const table of ['units', 'changes', 'checks', 'translations', 'translation_stats', 'alerts', 'languages', 'memory_sources']) {
    const rows = await sql.rows(`SELECT * FROM ${table} ORDER BY 1`);
    out[table] = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !/timestamp|created|updated|date|time/.test(k))));
  }
  return out;
}

/** A result as the user sees it, the time it took aside. */
const shown = (results: ComponentSyncResult[]) => results.map(({ seconds: _, ...r }) => r);

describe('a sync of many components on parse workers', () => {
  let env: SyncEnv;
  let config: Config;
  /** One thread, as before the pool: the store and results the worker paths must equal. */
  let expected: { results: ReturnType<typeof shown>; store: Record<string, unknown[]> };

  /** A fresh store and working copy under `name`, synced with `opts` (`separate`: each component its own working copy). */
  async function syncInto(name: string, opts: Parameters<typeof syncProject>[4], separate = false) {
    const store = await openStore(path.join(env.root, `${name}.sqlite`));
    const projects = separate ? [{ name: 'Hello', slug: 'hello', components: components(env.server.url('shared.git', CREDENTIALS), false) }] : undefined;
    const base = projects ? env.config(projects) : config;
    try {
      const results = await syncProject(store, { ...base, repos_dir: path.join(env.root, `repos-${name}`) }, 'hello', undefined, opts);
      return { results: shown(results), store: await contents(store) };
    } finally {
      await store.close();
    }
  }

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('shared', files());
    config = env.config([{ name: 'Hello', slug: 'hello', components: components(env.server.url('shared.git', CREDENTIALS)) }]);
    expected = await syncInto('one-thread', { threads: 1 });
  });
  afterAll(() => env.close());
  afterEach(() => {
    delete process.env.TMS_TEST_PARSE_WORKER_CRASH;
  });

  it('loads the same units, changes, checks and statistics as one thread, and reports the broken file as one thread does', async () => {
    expect(expected.results.map((r) => [r.component, r.ok, r.added > 0])).toEqual([...TS, ...JSON_COMPONENTS].map((s) => [s, s !== 'delta', true]));
    expect(expected.store.units!.length).toBeGreaterThan(100);
    expect(expected.store.changes!.length).toBeGreaterThan(100);
    expect(expected.store.checks!.length).toBeGreaterThan(0);
    const broken = expected.results.find((r) => r.component === 'delta')!.files.find((f) => f.status === 'failed')!;
    expect(broken.error).toMatch(/^delta\/app_fr\.ts:\d+/);
    // every component with files to parse on a worker (no threshold), one worker and two
    for (const size of [1, 2]) {
      const pool = createParsePool(size, 0);
      const got = await syncInto(`workers-${size}`, { pool }).finally(() => pool.close());
      // every component but the first, which owns the working copy (parsed on the sync's thread: nothing to overlap)
      expect(pool.parsed).toEqual({ workers: TS.length + JSON_COMPONENTS.length - 1, here: 0 });
      expect(got.results).toEqual(expected.results);
      expect(got.store).toEqual(expected.store);
    }
  });

  it('parses the first components on its own thread, the rest on workers (threads: 2)', async () => {
    // a file's progress event comes from the thread that parses it: the sync's own
    const parsedHere = new Set<string>();
    const got = await syncInto('threads-2', { threads: 2, onEvent: (e) => e.type === 'file' && parsedHere.add(e.component) });
    // the first component, then the first components to ask the pool (the next ones are scanned side by side: which
    // asks first may vary), then workers
    expect(parsedHere.has('alpha')).toBe(true);
    expect(parsedHere.size).toBe(1 + PARSE_POOL_THRESHOLD);
    expect(got.results).toEqual(expected.results);
    expect(got.store).toEqual(expected.store);
  });

  it('components each with its own working copy: the next ones fetched and parsed while one is written, the same store', async () => {
    const alone = await syncInto('separate-one-thread', { threads: 1 }, true);
    const pool = createParsePool(1, 0);
    const got = await syncInto('separate-workers', { pool }, true).finally(() => pool.close());
    // the first component has nothing to overlap with: parsed on the sync's thread
    expect(pool.parsed).toEqual({ workers: TS.length + JSON_COMPONENTS.length - 1, here: 0 });
    expect(got.results).toEqual(alone.results);
    expect(got.store).toEqual(alone.store);
    expect(alone.store.units).toEqual(expected.store.units);
  });

  it('tms sync --threads 2 (the built command) prints what --threads 1 prints; --threads 0 is a usage error', async () => {
    const run = async (name: string, threads: string) => {
      const file = path.join(env.root, `${name}.config.json`);
      writeFileSync(
        file,
        JSON.stringify({
          database: `${name}.sqlite`,
          repos_dir: `repos-${name}`,
          projects: [{ name: 'Hello', slug: 'hello', components: components(env.server.url('shared.git', CREDENTIALS)) }],
        }),
      );
      // asynchronously: the git server answers from this process
      return new Promise<{ code: number | null; out: string }>((resolve) => {
        execFile(process.execPath, [bin, '--config', file, 'sync', 'hello', '--threads', threads], (e, stdout) =>
          resolve({ code: e ? (e.code as number) : 0, out: stdout }),
        );
      });
    };
    const [one, two] = [await run('cli-1', '1'), await run('cli-2', '2')];
    const lines = (out: string) => out.split('\n').map((l) => l.replace(/, [\d.]+ s(?=,|$)/, ''));
    // delta's broken file: exit 1 either way
    expect([one.code, two.code]).toEqual([1, 1]);
    expect(lines(two.out)).toEqual(lines(one.out));
    expect(lines(one.out).filter((l) => / units \+\d+/.test(l))).toHaveLength(TS.length + JSON_COMPONENTS.length);
    expect((await run('cli-0', '0')).code).toBe(2);
  });

  it('parses the component of a worker that died on its own thread: nothing lost, the sync ends', async () => {
    process.env.TMS_TEST_PARSE_WORKER_CRASH = 'gamma/';
    const pool = createParsePool(1, 0);
    const got = await syncInto('crash', { pool }).finally(() => pool.close());
    // gamma's worker exited; gamma was parsed here, and a new worker took the components after it
    expect(pool.parsed).toEqual({ workers: TS.length + JSON_COMPONENTS.length - 2, here: 1 });
    expect(got.results).toEqual(expected.results);
    expect(got.store).toEqual(expected.store);
  });
});
