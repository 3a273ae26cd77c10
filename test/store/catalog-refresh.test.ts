// The catalog refreshed by what changed (refreshCatalog, behind the services' refresh) equals one read whole
// (loadCatalog) after every kind of write: through the API, from another connection, from another tms process.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Access } from '../../src/api/access.js';
import { type AppServices, createServices } from '../../src/api/app.js';
import { siteStats, sumSite } from '../../src/api/statistics.js';
import type { Principal } from '../../src/auth/check.js';
import { loadLanguages } from '../../src/languages/languages.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import { type Catalog, loadCatalog, statsChangeSince } from '../../src/store/catalog.repo.js';
import { type Store, now } from '../../src/store/index.js';
import { ensureLanguage } from '../../src/store/languages.repo.js';
import { setComponentLocked } from '../../src/store/projects.repo.js';
import { upsertTranslation } from '../../src/store/translations.repo.js';
import { createUser, findUserByUsername } from '../../src/store/users.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { sqlOn } from '../helpers/store.js';
import { DEMO } from '../helpers/sync-env.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repoRoot, 'bin', 'tms');
const built = existsSync(path.join(repoRoot, 'dist', 'cli', 'index.js'));
const run = promisify(execFile);

describe('the catalog refreshed by what changed', () => {
  let env: WriteEnv;
  /** Another connection to the server's database: the services under test read through it. */
  let reader: Store;
  /** A third connection, writing as another process on the same database would. */
  let other: Store;
  let services: AppServices;
  /** Jane's principal as the services first built it: what the sums and lists over each snapshot are checked for. */
  let janeSees: Principal;

  beforeAll(async () => {
    env = await createWriteEnv({}, {}, [{ slug: 'copy' }]);
    reader = await env.env.openStore();
    other = await env.env.openStore();
    services = createServices(reader, () => env.config, 'test');
    await services.refresh();
    await services.catalog();
    janeSees = await services.principal((await reader.read((tx) => findUserByUsername(tx, 'jane')))!);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  /**
   * The services' next snapshot after a write elsewhere, checked against a catalog read whole: the snapshot itself, and
   * what a principal's visibility derives from it (its translations, the site's sums moved from the last snapshot's).
   */
  async function refreshed(): Promise<Catalog> {
    const last = await services.catalog();
    siteStats(Access.of(janeSees, last), last);
    // another connection's commit shows by the next turn of the event loop (as a request of the next turn sees it)
    await new Promise((resolve) => setImmediate(resolve));
    await services.refresh();
    const catalog = await services.catalog();
    const whole = await reader.read(loadCatalog);
    expect(plain(catalog)).toEqual(plain(whole));
    expect(Access.of(janeSees, catalog).translationList()).toEqual(Access.of(janeSees, whole).translationList());
    expect(Access.of(janeSees, catalog).translationIds()).toEqual(Access.of(janeSees, whole).translationIds());
    expect(siteStats(Access.of(janeSees, catalog), catalog)).toEqual(sumSite(Access.of(janeSees, whole), whole));
    return catalog;
  }

  /** `catalog` with its translations' maps as plain Maps (a refreshed one's are LayeredMaps: the same entries, another class). */
  function plain(catalog: Catalog): Catalog {
    return { ...catalog, translationsById: new Map(catalog.translationsById), translationsByKey: new Map(catalog.translationsByKey) };
  }

  /** That `after` was refreshed from `before` without reading the catalog whole: what only a whole read makes anew is shared. */
  function expectSharedStructure(after: Catalog, before: Catalog): void {
    expect(after.languages).toBe(before.languages);
    expect(after.projects).toBe(before.projects);
    expect(after.components).toBe(before.components);
    expect(after.addons).toBe(before.addons);
  }

  const tmsProcess = (...args: string[]) => run(bin, ['--config', path.join(env.root, 'tms.config.json'), ...args], { env: process.env });

  it("follows a commit through the API: the translations' revisions move, nothing else is read again (first: before a change of settings forgets the revisions)", async () => {
    // `web`: its strings are not shared with another component, its commits are pushed (what a later sync of `app` reads stays upstream's)
    const units = await env.request('GET', '/api/translations/hello/web/de/units/');
    const unit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Save');
    expect((await env.request('PATCH', `/api/units/${unit.id}/`, { token: env.tokens.jane, json: { target: ['Sichern'], state: 20 } })).status).toBe(200);
    const before = await refreshed();
    const visible = Access.of(janeSees, before).componentList();
    const de = before.translationsByKey.get(`${before.componentsByPath.get('hello/web')!.id}/de`)!;
    const r = await env.request('POST', '/api/components/hello/web/repository/', { token: env.tokens.mike, json: { operation: 'commit' } });
    expect(r.status, r.text).toBe(200);
    const after = await refreshed();
    expect(after.translationsById.get(de.id)!.revision).not.toBe(de.revision);
    expect(after.translationsById).not.toBe(before.translationsById);
    expectSharedStructure(after, before);
    // the principal's visibility of components carried over (not checked again for every component)
    expect(Access.of(janeSees, after).componentList()).toBe(visible);
  });

  it('follows configuration written from another connection: project, component settings, add-ons, a component removed', async () => {
    const config = structuredClone(env.config);
    const project = config.projects[0]!;
    project.name = 'Hello again';
    const web = project.components.find((c) => c.slug === 'web')!;
    web.name = 'Web site';
    web.addons = [{ name: 'weblate.gettext.mo', configuration: {} }];
    await other.write((tx) => applyConfig(tx, config));
    let after = await refreshed();
    expect(after.projectsBySlug.get('hello')!.name).toBe('Hello again');
    expect(after.addons.map((a) => a.name)).toEqual(['weblate.gettext.mo']);
    web.addons = [];
    project.components = project.components.filter((c) => c.slug !== 'copy');
    await other.write((tx) => applyConfig(tx, config, { prune: true }));
    after = await refreshed();
    expect(after.componentsByPath.has('hello/copy')).toBe(false);
    expect(after.addons).toEqual([]);
  });

  it('moves only the statistics after a unit edit through the API: the rest of the snapshot is shared', async () => {
    const before = await services.catalog();
    const units = await env.request('GET', '/api/translations/hello/app/de/units/');
    const unit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Quit');
    const r = await env.request('PATCH', `/api/units/${unit.id}/`, { token: env.tokens.jane, json: { target: ['Schluss'], state: 20 } });
    expect(r.status, r.text).toBe(200);
    const after = await refreshed();
    expect(after).not.toBe(before);
    expect(after.projects).toBe(before.projects);
    expect(after.translationsById).toBe(before.translationsById);
    const de = after.translationsByKey.get(`${after.componentsByPath.get('hello/app')!.id}/de`)!;
    expect(after.stats.get(de.id)!.last_author).toBe('Jane Doe');
    expect(after.stats.get(de.id)).not.toEqual(before.stats.get(de.id));
  });

  it('keeps the snapshot itself when a write changed nothing it holds', async () => {
    const before = await services.catalog();
    await other.write((tx) => createUser(tx, { username: 'bystander' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await services.refresh()).toBe(true);
    expect(await services.catalog()).toBe(before);
  });

  it('moves sums made a few refreshes back: the changes of the refreshes between joined', async () => {
    const first = await services.catalog();
    const sums = siteStats(Access.of(janeSees, first), first);
    const edit = async (code: string, target: string) => {
      const units = await env.request('GET', `/api/translations/hello/app/${code}/units/`);
      const unit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Quit');
      expect((await env.request('PATCH', `/api/units/${unit.id}/`, { token: env.tokens.jane, json: { target: [target], state: 20 } })).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      await services.refresh();
      return await services.catalog();
    };
    await edit('de', 'Aufhören');
    const after = await edit('cs', 'Skončit');
    const app = after.componentsByPath.get('hello/app')!.id;
    const change = statsChangeSince(after, first.stats, first.translations)!;
    expect(new Set(change.changed)).toEqual(new Set([after.translationsByKey.get(`${app}/de`)!.id, after.translationsByKey.get(`${app}/cs`)!.id]));
    const whole = await reader.read(loadCatalog);
    const moved = siteStats(Access.of(janeSees, after), after);
    expect(moved).not.toBe(sums);
    expect(moved).toEqual(sumSite(Access.of(janeSees, whole), whole));
  });

  it("keeps the translations' lists when a write stored a translation again unchanged", async () => {
    const before = await services.catalog();
    const t = before.translations.find((x) => !x.isSource)!;
    await other.write((tx) =>
      upsertTranslation(tx, {
        component_id: t.componentId,
        language_id: t.languageId,
        language_code: t.languageCode,
        filename: t.filename,
        is_source: t.isSource ? 1 : 0,
        is_template: t.isTemplate ? 1 : 0,
      }),
    );
    const after = await refreshed();
    expect(after.translations).toBe(before.translations);
    expect(after.translationsByKey).toBe(before.translationsByKey);
  });

  it("carries a principal's visibility over to a snapshot that changed only in statistics, not past a structural change", async () => {
    const jane = (await reader.read((tx) => findUserByUsername(tx, 'jane')))!;
    const before = await services.catalog();
    const principal = await services.principal(jane);
    const visible = Access.of(principal, before).componentList();
    const units = await env.request('GET', '/api/translations/hello/app/cs/units/');
    const unit = units.json.results.find((u: { source: string[] }) => u.source[0] === 'Quit');
    expect((await env.request('PATCH', `/api/units/${unit.id}/`, { token: env.tokens.jane, json: { target: ['Konec'], state: 20 } })).status).toBe(200);
    const after = await refreshed();
    expect(await services.principal(jane)).toBe(principal);
    expect(Access.of(principal, after)).not.toBe(Access.of(principal, before));
    expect(Access.of(principal, after).componentList()).toBe(visible);
    // a structural change: visibility derived again (equal here)
    await other.write((tx) => setComponentLocked(tx, after.componentsByPath.get('hello/web')!.id, true, null, now()));
    const locked = await refreshed();
    expect(Access.of(principal, locked).componentList()).not.toBe(visible);
    expect(
      Access.of(principal, locked)
        .componentList()
        .map((c) => c.id),
    ).toEqual(visible.map((c) => c.id));
    await other.write((tx) => setComponentLocked(tx, after.componentsByPath.get('hello/web')!.id, false, null, now()));
    await refreshed();
    // a change of the user's teams: a principal of its own
    await other.write((tx) => joinTeams(tx, jane.id, ['Managers']));
    await new Promise((resolve) => setImmediate(resolve));
    await services.refresh();
    expect(await services.principal(jane)).not.toBe(principal);
  });

  it('follows a component locked and unlocked, through the API and from another connection', async () => {
    const before = await services.catalog();
    const lock = await env.request('POST', '/api/components/hello/app/lock/', { token: env.tokens.admin, json: { lock: true } });
    expect(lock.status, lock.text).toBe(200);
    const after = await refreshed();
    expect(after.componentsByPath.get('hello/app')!.locked).toBe(true);
    expect(after.projects).not.toBe(before.projects);
    await env.request('POST', '/api/components/hello/app/lock/', { token: env.tokens.admin, json: { lock: false } });
    expect((await refreshed()).componentsByPath.get('hello/app')!.locked).toBe(false);
    // the API commits pending edits before locking (a translation's revision moves too): the lock alone, from another connection
    const web = after.componentsByPath.get('hello/web')!;
    await other.write((tx) => setComponentLocked(tx, web.id, true, null, now()));
    expect((await refreshed()).componentsByPath.get('hello/web')!.locked).toBe(true);
    await other.write((tx) => setComponentLocked(tx, web.id, false, null, now()));
    expect((await refreshed()).componentsByPath.get('hello/web')!.locked).toBe(false);
  });

  it('follows a new language through the API (a translation and its statistics) without reading the catalog whole', async () => {
    const before = await services.catalog();
    const r = await env.request('POST', '/api/components/hello/web/translations/', { token: env.tokens.admin, json: { language_code: 'fr' } });
    expect(r.status, r.text).toBe(201);
    const after = await refreshed();
    const web = after.componentsByPath.get('hello/web')!.id;
    expect(after.translationsByKey.has(`${web}/fr`)).toBe(true);
    expect(after.translationsByComponent.get(web)!.map((t) => t.languageCode)).toContain('fr');
    expectSharedStructure(after, before);
  });

  it('follows a language added and an author renamed from another connection', async () => {
    const french = loadLanguages().get('fr')!;
    await other.write((tx) => ensureLanguage(tx, { ...french, code: 'fr_XT', name: 'French (test)' }, true));
    expect((await refreshed()).languagesByCode.has('fr_XT')).toBe(true);
    const before = await services.catalog();
    await sqlOn(other).run("UPDATE users SET full_name = 'Jane Q. Doe' WHERE username = 'jane'");
    const after = await refreshed();
    expect([...after.stats.values()].some((s) => s.last_author === 'Jane Q. Doe')).toBe(true);
    expect(after.projects).toBe(before.projects);
  });

  it.runIf(built)(
    'follows another tms process: a sync that finds a new file, a user deleted',
    async () => {
      const de = readFileSync(path.join(DEMO, 'app', 'translations', 'app_de.ts'), 'utf8');
      await commitToUpstream(env.upstream('app'), { 'translations/app_it.ts': de.replace('language="de"', 'language="it"') });
      await tmsProcess('sync', 'hello', 'app');
      let after = await refreshed();
      expect(after.translationsByKey.has(`${after.componentsByPath.get('hello/app')!.id}/it`)).toBe(true);
      let before = after;
      // a file changed upstream: its translation's revision moves, and nothing else is read again
      await commitToUpstream(env.upstream('app'), (current) =>
        current('translations/app_it.ts').then((it) => ({ 'translations/app_it.ts': `${it}<!-- changed upstream -->\n` })),
      );
      await tmsProcess('sync', 'hello', 'app');
      after = await refreshed();
      const app = after.componentsByPath.get('hello/app')!.id;
      expect(after.translationsByKey.get(`${app}/it`)!.revision).not.toBe(before.translationsByKey.get(`${app}/it`)!.revision);
      expectSharedStructure(after, before);
      // a file removed upstream: its translation removed (the catalog read whole)
      await commitToUpstream(env.upstream('app'), { 'translations/app_it.ts': null });
      await tmsProcess('sync', 'hello', 'app');
      after = await refreshed();
      expect(after.translationsByKey.has(`${app}/it`)).toBe(false);
      expect(after.translationsByComponent.get(app)!.map((t) => t.languageCode)).not.toContain('it');
      before = after;
      await tmsProcess('user', 'delete', 'jane');
      after = await refreshed();
      expect([...after.stats.values()].some((s) => s.last_author === 'Jane Q. Doe')).toBe(false);
      expect(after.projects).toBe(before.projects);
    },
    60_000,
  );
});
