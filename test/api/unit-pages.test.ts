// A page of units is, byte for byte, its units' own records (`GET /api/units/<id>/`) in DRF's page envelope: real
// corpus components (KeePassXC's Qt TS with numerus forms and Chinese, Japanese and Russian text, Midnight Commander's PO
// plurals), read-only source strings, and units with failing checks, suggestions, comments and labels; both lists
// (a translation's units, all units) and both URL origins.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { State } from '../../src/domain/unit.js';
import { addComment, suggest } from '../../src/operations/index.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import type { Store } from '../../src/store/index.js';
import { createLabel, editUnitLabels } from '../../src/store/labels.repo.js';
import { numberParameters } from '../../src/store/pg/dialect.js';
import { UNIT_FLAGS, translationPage } from '../../src/store/unit-records.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { describeCorpus } from '../helpers/corpus.js';
import { type HttpAnswer, type Json, httpRequest } from '../helpers/http.js';
import { onPostgres } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

describeCorpus('pages of units, byte for byte their units’ records', (corpus) => {
  let env: SyncEnv;
  let store: Store;
  let server: RunningServer;
  let admin: string;
  const errors: string[] = [];
  /** A GET as the admin; `host` in place of the server's address (the links then use it). */
  const get = (url: string, host?: string): Promise<HttpAnswer> =>
    httpRequest(host ? server.url.replace('127.0.0.1', host) : server.url, url, { token: admin });

  beforeAll(async () => {
    env = await createSyncEnv();
    const keepassxc = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
    const mc = path.join(corpus, 'MidnightCommander-mc', 'po');
    await env.addUpstream(
      'keepassxc',
      Object.fromEntries(['en', 'ja', 'zh_CN'].map((l) => [`share/translations/keepassxc_${l}.ts`, readFileSync(path.join(keepassxc, `keepassxc_${l}.ts`))])),
    );
    await env.addUpstream('mc', { 'po/mc.pot': readFileSync(path.join(mc, 'mc.pot')), 'po/ru.po': readFileSync(path.join(mc, 'ru.po')) });
    const component = env.component;
    const components = [
      component('keepassxc', { filemask: 'share/translations/keepassxc_*.ts', file_format: 'ts' }),
      component('mc', { filemask: 'po/*.po', new_base: 'po/mc.pot', file_format: 'po' }),
    ];
    const config = env.config([{ name: 'Pages', slug: 'pages', components }]);
    store = await env.openStore();
    await store.write((tx) => applyConfig(tx, config));
    for (const c of components) {
      const [result] = await syncProject(store, config, 'pages', c.slug);
      if (!result?.ok) throw new Error(`sync of pages/${c.slug} failed: ${result?.error}`);
    }
    const created = await store.write((tx) => createUser(tx, { username: 'admin', admin: true }));
    admin = created.token;
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => errors.push(m) });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await env?.close();
    expect(errors).toEqual([]);
  });

  /** The pages of a list from `first` on (at most `pages`), each checked against its units' own records. */
  async function checkPages(first: string, host?: string, pages = Number.POSITIVE_INFINITY): Promise<Json[]> {
    const all: Json[] = [];
    for (let url: string | null = first; url !== null && pages-- > 0; ) {
      const page = await get(url, host);
      expect(page.status, page.text).toBe(200);
      const { count, next, previous, results } = page.json as { count: number; next: string | null; previous: string | null; results: Json[] };
      const records = await Promise.all(results.map((u) => get(new URL(u.url).pathname, host)));
      const expected = Buffer.concat([
        Buffer.from(`{"count":${count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":[`),
        ...records.flatMap((r, i) => (i === 0 ? [r.bytes] : [Buffer.from(','), r.bytes])),
        Buffer.from(']}'),
      ]);
      expect(page.bytes.equals(expected), `${url}: the page differs from its units' records`).toBe(true);
      expect(page.headers.get('content-length')).toBe(String(page.bytes.length));
      all.push(...results);
      url = next && new URL(next).pathname + new URL(next).search;
    }
    return all;
  }

  it('writes each translation’s pages as its units’ own records, whatever the text and the unit', async () => {
    const quit = 'You have %zu opened screen. Quit anyway?';
    const mcRu = (await get(`/api/translations/pages/mc/ru/units/?q=${encodeURIComponent(`source:"${quit}"`)}`)).json.results as Json[];
    const plural = mcRu.find((u) => u.source[0] === quit)!;
    const kpSource = (await get('/api/translations/pages/keepassxc/en/units/?page_size=5')).json.results as Json[];
    const kpJa = (await get('/api/translations/pages/keepassxc/ja/units/?page_size=5')).json.results as Json[];
    // the Japanese strings of source strings 2 and 3
    const jaOf = async (source: Json) =>
      ((await get(`/api/translations/pages/keepassxc/ja/units/?q=${encodeURIComponent(`context:"${source.context}"`)}`)).json.results as Json[]).find(
        (u) => u.source_unit === source.url,
      )!;
    const [jaCommented, jaLabelled] = [await jaOf(kpSource[2]), await jaOf(kpSource[3])];
    const jane = { id: (await store.write((tx) => createUser(tx, { username: 'jane' }))).user.id };
    // a suggestion, a comment on a translation's string and one on a source string (every translation shows it), labels
    await suggest(store, { unitId: kpJa[0].id, target: ['提案 "引用" \\ と改行\nと\u2028'], user: jane });
    await addComment(store, { unitId: kpJa[1].id, comment: 'Check the accelerator', user: jane });
    await addComment(store, { unitId: kpSource[2].id, comment: 'Is "a" needed here?', user: jane });
    const project = (await get('/api/projects/pages/')).json.id as number;
    const labels = [
      await store.write((tx) => createLabel(tx, { projectId: project, name: 'UI', description: 'Menus, "buttons"', color: 'blue' })),
      await store.write((tx) => createLabel(tx, { projectId: project, name: 'Légal ✓', description: '', color: 'navy' })),
    ];
    await store.write((tx) => editUnitLabels(tx, [kpSource[3].id], [labels[0]!.id, labels[1]!.id], []));

    const units: Json[] = [];
    for (const translation of ['keepassxc/en', 'keepassxc/ja', 'keepassxc/zh_Hans', 'mc/ru'])
      units.push(...(await checkPages(`/api/translations/pages/${translation}/units/?page_size=100`)));
    // what the pages held: the kinds of unit the records differ by
    const byId = new Map(units.map((u) => [u.id, u]));
    expect(byId.get(plural.id).target).toHaveLength(4);
    expect(units.filter((u) => u.source.length > 1 && u.translation.includes('/keepassxc/')).length).toBeGreaterThan(0);
    expect(units.some((u) => u.state === State.READONLY)).toBe(true);
    expect(units.some((u) => u.has_failing_check)).toBe(true);
    expect(byId.get(kpJa[0].id).has_suggestion).toBe(true);
    expect(byId.get(kpJa[1].id).has_comment).toBe(true);
    expect(byId.get(kpSource[2].id).has_comment).toBe(true);
    expect(byId.get(jaCommented.id).has_comment).toBe(true);
    expect(byId.get(kpSource[3].id).labels).toHaveLength(2);
    expect(byId.get(jaLabelled.id).labels).toHaveLength(2);
    expect(units.some((u) => /[^\u0000-\u00ff]/.test(u.target.join('')))).toBe(true);
  }, 180_000);

  it('writes the pages of all units the same way, and their links from the request’s origin', async () => {
    // the first pages and the last (units of every translation of both components)
    const first = await checkPages('/api/units/', 'localhost', 8);
    expect(first[0].url).toMatch(/^http:\/\/localhost:\d+\/api\/units\/\d+\/$/);
    expect(first).toHaveLength(800);
    const count = (await get('/api/units/')).json.count as number;
    const last = await checkPages(`/api/units/?page=${Math.ceil(count / 100)}`, 'localhost');
    expect(last).toHaveLength(count % 100 || 100);
  }, 180_000);

  // PostgreSQL answered each page's failing-check flag by reading and hashing every check of the site (a plan that
  // grows with the site, not with the page); the flags are probes of each unit's own rows, whatever the plan kept.
  it.runIf(onPostgres)('reads a page’s flags by probing each unit’s rows, never by reading a whole table', async () => {
    // in a transaction of its own (a write's), so that the setting below holds for the EXPLAIN and ends with it
    const plan = await store.write(async (tx) => {
      // this store's tables are analysed (a first load's VACUUM (ANALYZE)) and small: PostgreSQL would rightly read a
      // few pages of checks whole for each unit here; with sequential scans priced out the plan is the one a large
      // site gets, where the old flags hashed every check of the site for each page
      await tx.prepare('SET LOCAL enable_seqscan = off').run();
      const statement = tx.prepare(`EXPLAIN SELECT u.id, ${UNIT_FLAGS} FROM (SELECT id FROM units ORDER BY id LIMIT ?) page JOIN units u ON u.id = page.id`);
      return ((await statement.pluck().all(50)) as string[]).join('\n');
    });
    expect(plan).not.toMatch(/hashed SubPlan|Seq Scan on checks/);
    expect(plan).toMatch(/using checks_pkey on checks .*\n\s+Index Cond: \(unit_id = u\.id\)/);
  });

  // SQLite read the page's ids in order from its index (its entries end with the rowid) and sorted the page's rows
  // again, every column of them, in a temporary B-tree
  it.runIf(!onPostgres)('reads a translation’s page in order from the index alone, and sorts nothing (SQLite)', async () => {
    const idOf = async (translation: string) => (await get(`/api/translations/pages/keepassxc/${translation}/`)).json.id as number;
    const [ja, en] = [await idOf('ja'), await idOf('en')];
    const plan = await store.read(async (tx) => {
      const page = translationPage(tx, ja, en, null, { limit: 100, offset: 200 });
      return ((await tx.prepare(`EXPLAIN QUERY PLAN ${page.sql}`).all(...page.params)) as { detail: string }[]).map((r) => r.detail).join('\n');
    });
    expect(plan).toMatch(/SEARCH u USING COVERING INDEX units_position \(translation_id=\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  // A translation's page read its ids through `(translation_id, position)`: every row up to the page's end fetched
  // from the table and sorted again by id (an Incremental Sort of offset + page), then the page sorted once more; and
  // PostgreSQL planned each page anew (its `LIMIT ?` priced the one plan it could keep at a tenth of the translation).
  it.runIf(onPostgres)('reads a translation’s page in order from the index alone, under one plan kept for every page', async () => {
    const idOf = async (translation: string) => (await get(`/api/translations/pages/keepassxc/${translation}/`)).json.id as number;
    const [ja, en] = [await idOf('ja'), await idOf('en')];
    const { plans, generic } = await store.write(async (tx) => {
      // as above: the plans of a large site, whose tables are not read whole for a page
      await tx.prepare('SET LOCAL enable_seqscan = off').run();
      const pages = [0, 100, 200, 300, 400, 500, 600, 700].map((offset) => translationPage(tx, ja, en, null, { limit: 100, offset }));
      expect(new Set(pages.map((p) => p.sql)).size).toBe(1);
      // the statement as each session keeps it prepared, its pages explained as they run: PostgreSQL plans the first
      // five for their values, then keeps its generic plan where that costs no more
      await tx.prepare(`PREPARE tms_translation_page AS ${numberParameters(pages[0]!.sql).text}`).run();
      const plans: string[] = [];
      for (const p of pages) {
        plans.push(
          (
            (await tx
              .prepare(`EXPLAIN EXECUTE tms_translation_page(${p.params.join(', ')})`)
              .pluck()
              .all()) as string[]
          ).join('\n'),
        );
      }
      const generic = await tx.prepare("SELECT generic_plans FROM pg_prepared_statements WHERE name = 'tms_translation_page'").pluck().get();
      await tx.prepare('DEALLOCATE tms_translation_page').run();
      return { plans, generic: Number(generic) };
    });
    for (const plan of plans) {
      expect(plan).toMatch(/Index Only Scan using units_position on units/);
      expect(plan).not.toMatch(/Sort/);
    }
    expect(generic).toBeGreaterThan(0);
    const last = plans.at(-1)!;
    expect(last).toMatch(/Index Cond: \(translation_id = \$1\)/);
    expect(last).not.toMatch(/hashed SubPlan|Seq Scan on checks/);
    expect(last).toMatch(/using checks_pkey on checks .*\n\s+Index Cond: \(unit_id = u\.id\)/);
  });
});
