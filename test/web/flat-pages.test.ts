// The overview pages and the API's lists over a site larger than a page (issue 27, pages that do not grow with the
// site): a page shows one page of a list that grows, and a request over data already seen sums no statistics and
// checks no visibility over the whole site (both made once per catalog snapshot and caller).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../src/auth/password.js';
import { parseConfig } from '../../src/config/config.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { type Store, openStore } from '../../src/store/index.js';
import { setPasswordHash } from '../../src/store/sessions.repo.js';
import { refreshStats } from '../../src/store/stats.repo.js';
import { upsertTranslation } from '../../src/store/translations.repo.js';
import { createUser, setUserLanguages } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { httpRequest } from '../helpers/http.js';
import { webSignIn } from '../helpers/web-session.js';

/** Statistics rows summed and components' visibility checked, by every caller in this process. */
const counted = vi.hoisted(() => ({ summed: 0, componentChecks: 0 }));

vi.mock('../../src/api/statistics.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/api/statistics.js')>();
  return {
    ...original,
    sumStats: (rows: Parameters<typeof original.sumStats>[0]) => {
      const list = [...rows];
      counted.summed += list.length;
      return original.sumStats(list);
    },
  };
});

vi.mock('../../src/auth/check.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/auth/check.js')>();
  return {
    ...original,
    canAccessComponent: (...args: Parameters<typeof original.canAccessComponent>) => {
      counted.componentChecks++;
      return original.canAccessComponent(...args);
    },
  };
});

/** Project `big`: 150 components (c0…c149), each with an English source and a German translation; 119 more projects of one German component each. */
const BIG = 150;
const OTHERS = 119;

describe('pages that do not grow with the site', () => {
  let dir: string;
  let store: Store;
  let server: RunningServer;
  const get = async (p: string) => {
    const answer = await httpRequest(server.url, p, { method: 'GET' });
    expect(answer.status, p).toBe(200);
    return answer.text;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tms-flat-'));
    const component = (slug: string) => ({
      name: slug,
      slug,
      repo: 'https://example.invalid/site.git',
      branch: 'main',
      filemask: `${slug}/*.ts`,
      file_format: 'ts',
    });
    const projects = [
      { name: 'Big', slug: 'big', components: Array.from({ length: BIG }, (_, i) => component(`c${i}`)) },
      ...Array.from({ length: OTHERS }, (_, i) => ({ name: `P${i}`, slug: `p${i}`, components: [component('one')] })),
    ];
    const file = path.join(dir, 'tms.config.json');
    const config = parseConfig(
      JSON.stringify({ database: path.join(dir, 'tms.sqlite'), repos_dir: 'repos', rate_limit: { anonymous: '', user: '' }, projects }),
      file,
    );
    store = await openStore(config.database);
    await store.write(async (tx) => {
      await applyConfig(tx, config);
      const language = async (code: string) => (await tx.prepare('SELECT id FROM languages WHERE code = ?').pluck().get(code)) as number;
      const en = await language('en');
      const de = await language('de');
      const components = (await tx.prepare('SELECT c.id, p.slug FROM components c JOIN projects p ON p.id = c.project_id').all()) as {
        id: number;
        slug: string;
      }[];
      const ids: number[] = [];
      for (const c of components) {
        if (c.slug === 'big') {
          ids.push(await upsertTranslation(tx, { component_id: c.id, language_id: en, language_code: 'en', filename: 'en.ts', is_source: 1, is_template: 0 }));
        }
        ids.push(await upsertTranslation(tx, { component_id: c.id, language_id: de, language_code: 'de', filename: 'de.ts', is_source: 0, is_template: 0 }));
      }
      await refreshStats(tx, ids);
    });
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: () => {} });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const links = (page: string, pattern: RegExp) => page.match(pattern)?.length ?? 0;

  it('shows one page of the lists that grow: the dashboard’s projects, a project’s components, a language’s projects', async () => {
    const first = await get('/projects/big/');
    expect(links(first, /href="\/projects\/big\/c\d+\/"/g)).toBe(100);
    expect(first).toContain('Page 1 of 2');
    expect(first).toContain('href="/projects/big/?page=2"');
    expect(links(await get('/projects/big/?page=2'), /href="\/projects\/big\/c\d+\/"/g)).toBe(BIG - 100);
    const projectRow = /<th scope="row"><a href="\/projects\/(big|p\d+)\/">/g;
    expect(links(await get('/'), projectRow)).toBe(100);
    expect(links(await get('/?page=2'), projectRow)).toBe(OTHERS + 1 - 100);
    const languageRow = /<th scope="row"><a href="\/projects\/(big|p\d+)\/-\/de\/">/g;
    expect(links(await get('/languages/de/'), languageRow)).toBe(100);
    expect(links(await get('/languages/de/?page=2'), languageRow)).toBe(OTHERS + 1 - 100);
    const inGerman = await get('/projects/big/-/de/');
    expect(links(inGerman, /href="\/projects\/big\/c\d+\/de\/"/g)).toBe(100);
  });

  it('sums no statistics and checks no visibility over the site for a request over data already seen', async () => {
    const paths = ['/', '/projects/', '/languages/', '/languages/de/', '/projects/big/', '/projects/big/-/de/', '/changes/'];
    const api = [
      ...['/api/projects/', '/api/components/?page=2', '/api/translations/?page=3', '/api/languages/', '/api/units/?q=file', '/api/changes/'],
      ...['/api/projects/big/statistics/', '/api/projects/big/languages/', '/api/languages/de/statistics/'],
    ];
    for (const p of [...paths, ...api]) await get(p);
    for (const p of [...paths, ...api]) {
      counted.summed = 0;
      counted.componentChecks = 0;
      await get(p.includes('?') ? `${p}&n=2` : `${p}?n=2`);
      expect(counted.componentChecks, p).toBe(0);
      // the project's page sums each shown component's translations (2 each); nothing else sums per request
      expect(counted.summed, p).toBeLessThanOrEqual(p === '/projects/big/' ? 2 * 100 : 0);
    }
  });
});

/** Project `world`: one component translated into 130 languages (more than a page); jane translates Welsh and Zulu. */
const LANGUAGES = 130;

describe('the lists of languages, a page at a time', () => {
  let dir: string;
  let store: Store;
  let server: RunningServer;
  let cookie = '';
  const get = async (p: string, headers: Record<string, string> = {}) => {
    const answer = await httpRequest(server.url, p, { method: 'GET', headers });
    expect(answer.status, p).toBe(200);
    return answer.text;
  };
  /** The codes of a table's rows, in order (the project-language links of the project page, the translations of the component page, the languages of `/languages/`). */
  const rows = (page: string, pattern: RegExp) => [...page.matchAll(pattern)].map((m) => m[1]);
  const projectRows = /<th scope="row"><a href="\/projects\/world\/-\/([^/]+)\/">/g;
  const componentRows = /<th scope="row"><a href="\/projects\/world\/all\/([^/]+)\/">/g;
  const siteRows = /<th scope="row"><a href="\/languages\/([^/]+)\/">/g;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tms-langs-'));
    const component = { name: 'all', slug: 'all', repo: 'https://example.invalid/world.git', branch: 'main', filemask: '*.ts', file_format: 'ts' };
    const file = path.join(dir, 'tms.config.json');
    const config = parseConfig(
      JSON.stringify({
        database: path.join(dir, 'tms.sqlite'),
        repos_dir: 'repos',
        rate_limit: { anonymous: '', user: '' },
        projects: [{ name: 'World', slug: 'world', components: [component] }],
      }),
      file,
    );
    store = await openStore(config.database);
    await store.write(async (tx) => {
      await applyConfig(tx, config);
      const componentId = (await tx.prepare('SELECT id FROM components').pluck().get()) as number;
      // Welsh and Zulu among them, whatever else the first languages by code are
      const languages = (await tx
        .prepare(
          `SELECT id, code FROM languages WHERE code IN ('cy', 'zu') OR id IN (SELECT id FROM languages WHERE code NOT IN ('cy', 'zu') ORDER BY code LIMIT ${LANGUAGES - 2})`,
        )
        .all()) as { id: number; code: string }[];
      expect(languages).toHaveLength(LANGUAGES);
      const ids: number[] = [];
      for (const l of languages) {
        const source = l.code === 'en';
        ids.push(
          await upsertTranslation(tx, {
            component_id: componentId,
            language_id: l.id,
            language_code: l.code,
            filename: `${l.code}.ts`,
            is_source: source ? 1 : 0,
            is_template: 0,
          }),
        );
      }
      await refreshStats(tx, ids);
      const { user } = await createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' });
      const mine = (await tx.prepare("SELECT id FROM languages WHERE code IN ('cy', 'zu')").pluck().all()) as number[];
      await setUserLanguages(tx, user.id, mine);
    });
    const hash = await hashPassword('jane-password-1');
    await store.write((tx) => setPasswordHash(tx, 'jane', hash));
    server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: () => {} });
    cookie = (await webSignIn(server.url, 'jane', 'jane-password-1')).cookie;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows a project’s languages a page at a time, the visitor’s own first, with a pager that keeps the components’ page', async () => {
    const first = await get('/projects/world/', { Cookie: cookie });
    const shown = rows(first, projectRows);
    expect(shown).toHaveLength(100);
    expect(shown.slice(0, 2).sort()).toEqual(['cy', 'zu']);
    expect(first).toContain('<nav aria-label="Pages of languages" class="pager">');
    expect(first).toContain('href="/projects/world/?lang_page=2"');
    const second = rows(await get('/projects/world/?lang_page=2', { Cookie: cookie }), projectRows);
    expect(second).toHaveLength(LANGUAGES - 100);
    expect(second).not.toContain('cy');
    expect(new Set([...shown, ...second]).size).toBe(LANGUAGES);
    // the languages' pager keeps the components' page, and the other way round
    expect(await get('/projects/world/?page=3&lang_page=2')).toContain('href="/projects/world/?page=3&amp;lang_page=1"');
    const anonymous = rows(await get('/projects/world/'), projectRows);
    expect(anonymous).toHaveLength(100);
    expect(anonymous).not.toContain('zu');
  });

  it('shows a component’s translations and the site’s languages a page at a time', async () => {
    const first = await get('/projects/world/all/', { Cookie: cookie });
    const shown = rows(first, componentRows);
    expect(shown).toHaveLength(100);
    expect(shown.slice(0, 2).sort()).toEqual(['cy', 'zu']);
    expect(first).toContain('href="/projects/world/all/?page=2"');
    expect(rows(await get('/projects/world/all/?page=2', { Cookie: cookie }), componentRows)).toHaveLength(LANGUAGES - 100);
    const site = await get('/languages/');
    expect(rows(site, siteRows)).toHaveLength(100);
    expect(site).toContain('href="/languages/?page=2"');
    expect(rows(await get('/languages/?page=2'), siteRows)).toHaveLength(LANGUAGES - 100);
  });
});
