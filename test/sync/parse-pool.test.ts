// A sync of many components on parse workers: the same store as on one thread, errors as on one thread, a worker
// that dies neither loses its component nor hangs the sync.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { type Store, openStore } from '../../src/store/index.js';
import { type ComponentSyncResult, syncProject } from '../../src/sync/index.js';
import { PARSE_POOL_THRESHOLD, type ParsePool, createParsePool } from '../../src/sync/parse-pool.js';
import { coreToSpare } from '../../src/sync/share.js';
import { repoRoot } from '../helpers/corpus.js';
import { sqlOn } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';

const bin = path.join(repoRoot, 'bin', 'tms');

const TS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
const JSON_COMPONENTS = ['iota', 'kappa'];

/** Qt TS components whose strings differ (a message of their own each), one with a broken file; JSON ones with a template. */
function files(): Record<string, string> {
  const out: Record<string, string> = {};
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

/**
 * A Qt TS file with `n` strings of its own (every other one translated) and strings that fail checks: the units' own
 * (end_stop, end_colon, max-length where the component sets it) and across components (inconsistent: the same string
 * translated otherwise in each).
 */
function own(text: string, slug: string, n: number): string {
  const messages = Array.from({ length: n }, (_, i) => [`${slug} ${i}`, i % 2 ? '' : `${slug} übersetzt ${i}`]);
  messages.push(['Open the file.', `Die Datei öffnen (${slug})`], ['Name:', 'Name'], ['A rather long string to translate', 'Eine recht lange Übersetzung']);
  const context = (name: string, list: string[][]) =>
    `<context>\n    <name>${name}</name>\n${list.map(([source, target]) => `    <message>\n        <source>${source}</source>\n        <translation>${target}</translation>\n    </message>\n`).join('')}</context>\n`;
  return text.replace('</TS>', `${context(slug, messages.slice(0, n))}${context('shared', messages.slice(n))}</TS>`);
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
      // the component's own check settings reach the checks a worker runs
      ...(i % 3 === 1 ? { check_flags: 'max-length:24' } : {}),
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
    // the units' own checks (a worker runs them) and those across components (the writing thread's)
    const names = new Set(expected.store.checks!.map((r) => (r as { name: string }).name));
    for (const name of ['end_stop', 'end_colon', 'max-length', 'inconsistent']) expect(names).toContain(name);
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

  it('leaves the same inconsistent checks as syncing the components one by one, a component that does not propagate among them', async () => {
    const url = env.server.url('shared.git', CREDENTIALS);
    // gamma keeps its strings to itself: its units never fail inconsistent, the others' never compare with its
    const base = env.config([
      {
        name: 'Hello',
        slug: 'hello',
        components: components(url).map((c) => (c.slug === 'gamma' ? { ...c, allow_translation_propagation: false } : c)),
      },
    ]);
    const flagged = async (name: string, slugs: (string | undefined)[]) => {
      const store = await openStore(path.join(env.root, `${name}.sqlite`));
      try {
        for (const slug of slugs) await syncProject(store, { ...base, repos_dir: path.join(env.root, `repos-${name}`) }, 'hello', slug, { threads: 1 });
        const all = await contents(store);
        const inconsistent = await sqlOn(store).rows(
          `SELECT c.slug, t.language_id, u.context, u.source, u.target FROM checks k JOIN units u ON u.id = k.unit_id
           JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
           WHERE k.name = 'inconsistent' ORDER BY c.slug, t.language_id, u.context, u.source`,
        );
        return { all, inconsistent };
      } finally {
        await store.close();
      }
    };
    const together = await flagged('inconsistent-together', [undefined]);
    const oneByOne = await flagged('inconsistent-one-by-one', [...TS, ...JSON_COMPONENTS]);
    const slugs = new Set(together.inconsistent.map((r) => (r as { slug: string }).slug));
    expect(slugs.size).toBeGreaterThan(3);
    expect(slugs.has('gamma')).toBe(false);
    expect(together.inconsistent).toEqual(oneByOne.inconsistent);
    // and so the source checks and statistics that follow them
    expect(together.all.checks).toEqual(oneByOne.all.checks);
    expect(together.all.translation_stats).toEqual(oneByOne.all.translation_stats);
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

/** Languages of the large component's files. */
const LANGUAGES = ['de', 'cs', 'fr', 'es', 'it', 'nl', 'pl'];

describe("one component of many files: shared between the sync's thread and a parse worker", () => {
  let env: SyncEnv;
  let config: Config;

  beforeAll(async () => {
    env = await createSyncEnv();
    const out: Record<string, string> = {};
    LANGUAGES.forEach((code, i) => {
      out[`big/app_${code}.ts`] = own(demoFile('app/translations/app_de.ts').replace('language="de"', `language="${code}"`), `big${i}`, 40 + i);
      out[`bigjson/${code}.json`] = JSON.stringify({ hello: `Hallo ${code}`, name: 'Name', stop: 'Kein Punkt', [`only${i}`]: `Nur ${i}` }, null, 2);
    });
    out['bigjson/en.json'] = JSON.stringify(
      { hello: 'Hello', name: 'Name:', stop: 'A stop.', ...Object.fromEntries(LANGUAGES.map((_, i) => [`only${i}`, `Only ${i}`])) },
      null,
      2,
    );
    // a file that does not parse: reported as on one thread, whichever side read it
    out['big/app_sv.ts'] = '<?xml version="1.0" encoding="utf-8"?>\n<TS version="2.1" language="sv">\n<context>\n<name>x</name>\n</TS>\n';
    await env.addUpstream('big', out);
    const url = env.server.url('big.git', CREDENTIALS);
    config = env.config([
      {
        name: 'Hello',
        slug: 'hello',
        components: [
          { name: 'big', slug: 'big', repo: url, branch: 'main', filemask: 'big/app_*.ts', file_format: 'ts', check_flags: 'max-length:24' },
          { name: 'bigjson', slug: 'bigjson', repo: url, branch: 'main', filemask: 'bigjson/*.json', template: 'bigjson/en.json', file_format: 'json' },
        ],
      },
    ]);
  });
  afterAll(() => env.close());
  afterEach(() => {
    delete process.env.TMS_TEST_PARSE_WORKER_CRASH;
  });

  /** One component synced alone into a fresh store and working copy under `name`. */
  async function syncAlone(name: string, slug: string, opts: Parameters<typeof syncProject>[4]) {
    const store = await openStore(path.join(env.root, `${name}.sqlite`));
    try {
      const results = await syncProject(store, { ...config, repos_dir: path.join(env.root, `repos-${name}`) }, 'hello', slug, opts);
      return { results: shown(results), store: await contents(store) };
    } finally {
      await store.close();
    }
  }

  /**
   * A pool that shares any component with two changed files or more, whatever the machine's load, its worker loaded
   * before the sync.
   */
  async function sharing(): Promise<ParsePool> {
    const pool = createParsePool(1, PARSE_POOL_THRESHOLD, { bytes: 0, spare: () => true });
    expect(await pool.ready()).toBe(true);
    return pool;
  }

  it('loads the same store as one thread, bilingual and monolingual, with the worker taking shares of the files', async () => {
    for (const slug of ['big', 'bigjson']) {
      const alone = await syncAlone(`${slug}-one`, slug, { threads: 1 });
      expect(alone.store.units!.length).toBeGreaterThan(LANGUAGES.length * 3);
      const pool = await sharing();
      const got = await syncAlone(`${slug}-shared`, slug, { share: pool }).finally(() => pool.close());
      // the worker took some of the files (one share or more), this thread the others
      expect(pool.parsed.workers).toBeGreaterThan(0);
      expect(pool.parsed.here).toBe(0);
      expect(got.results).toEqual(alone.results);
      expect(got.store).toEqual(alone.store);
    }
  });

  it("a component below the pool's weight, or with no core to spare, is parsed on the sync's thread alone: no worker starts", async () => {
    const light = createParsePool(1, PARSE_POOL_THRESHOLD, { bytes: 4 * 1024 * 1024, spare: () => true });
    const busy = createParsePool(1, PARSE_POOL_THRESHOLD, { bytes: 0, spare: () => false });
    for (const [name, pool] of [
      ['light', light],
      ['busy', busy],
    ] as const) {
      const got = await syncAlone(`big-${name}`, 'big', { share: pool }).finally(() => pool.close());
      expect(pool.parsed).toEqual({ workers: 0, here: 0 });
      expect(got.results[0]!.ok).toBe(false);
      expect(got.results[0]!.parsed).toBe(LANGUAGES.length + 1);
    }
  });

  it('leaves a core to spare by the load average, as make -l does', () => {
    expect(coreToSpare(2, 0.8)).toBe(true);
    expect(coreToSpare(2, 1.5)).toBe(false);
    expect(coreToSpare(8, 6.9)).toBe(true);
    expect(coreToSpare(4, 3.2)).toBe(false);
  });

  it('workers that die on their shares lose nothing: those shares are parsed here, the store the same', async () => {
    const alone = await syncAlone('crash-one', 'big', { threads: 1 });
    // every worker dies on the first share it takes (the pool gives up on them after a few)
    process.env.TMS_TEST_PARSE_WORKER_CRASH = 'big/app_';
    const pool = await sharing();
    const got = await syncAlone('crash-shared', 'big', { share: pool }).finally(() => pool.close());
    expect(pool.parsed.here).toBeGreaterThan(0);
    expect(got.results).toEqual(alone.results);
    expect(got.store).toEqual(alone.store);
  });
});
