// An edit that writes several statistics rows with one last change (a string's edit propagated to the same string in
// other components) moves the overview's sums by those rows, as any other edit does: the rows tying as the newest of
// all are ordered as summing orders them (the smallest translation id's author), and no sum is made again from its
// rows; nor after a write that moves counts only (a suggestion) of the row holding the newest last change.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Access } from '../../src/api/access.js';
import type { AppServices } from '../../src/api/app.js';
import { siteStats, sumSite } from '../../src/api/statistics.js';
import type { Principal } from '../../src/auth/check.js';
import { loadCatalog } from '../../src/store/catalog.repo.js';
import { findUserByUsername } from '../../src/store/users.repo.js';
import { type ApiFixture, createApiFixture, fixtureServices } from '../helpers/api-fixture.js';
import { sqlOn } from '../helpers/store.js';

describe('site statistics after an edit whose rows tie as the newest', () => {
  let fixture: ApiFixture;
  let services: AppServices;
  let principals: [string, Principal][];

  beforeAll(async () => {
    fixture = await createApiFixture();
    ({ services, principals } = await fixtureServices(fixture, ['anonymous', 'admin']));
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });

  const authorId = async (name: string) => (await fixture.store.read((tx) => findUserByUsername(tx, name)))!.id;
  const edit = (translationId: number, lastChange: string, author: number) =>
    sqlOn(fixture.store).run(
      'UPDATE translation_stats SET translated = translated + 1, last_change = ?, last_author_id = ? WHERE translation_id = ?',
      lastChange,
      author,
      translationId,
    );

  it('moves the sums by rows written with one last change in one refresh, the smallest translation id taking the tie', async () => {
    const before = await services.catalog();
    for (const [, p] of principals) siteStats(Access.of(p, before), before);
    const hello = before.projectsBySlug.get('hello')!;
    const german = (component: string) => before.translationsByKey.get(`${before.componentsByPath.get(`hello/${component}`)!.id}/de`)!.id;
    const [first, second] = [german('app'), german('glossary')].sort((a, b) => a - b);
    // the larger id written first, by another author: summing in write order would take its author
    await edit(second!, '2026-05-01T10:00:00.000Z', await authorId('admin'));
    await edit(first!, '2026-05-01T10:00:00.000Z', await authorId('jane'));
    await new Promise((resolve) => setImmediate(resolve));
    await services.refresh();
    const after = await services.catalog();
    expect(after.projects).toBe(before.projects);
    const fresh = await fixture.store.read(loadCatalog);
    const summing = vi.spyOn(Access.prototype, 'translationList');
    const moved = principals.map(([name, p]) => [name, p, siteStats(Access.of(p, after), after)] as const);
    // moved: no sum went back to every visible translation's rows
    expect(summing).not.toHaveBeenCalled();
    summing.mockRestore();
    const de = fresh.languagesByCode.get('de')!.id;
    for (const [name, p, sums] of moved) {
      expect(sums, name).toEqual(sumSite(Access.of(p, fresh), fresh));
      for (const counts of [sums.projects.get(hello.id)!, sums.projectLanguages.get(hello.id)!.get(de)!, sums.languages.get(de)!]) {
        expect(counts.last_change, name).toBe('2026-05-01T10:00:00.000Z');
        expect(counts.last_author, name).toBe('Jane Doe');
      }
    }
  });

  it('moves the sums by a row whose counts changed but not its last change, though it holds the newest', async () => {
    const before = await services.catalog();
    for (const [, p] of principals) siteStats(Access.of(p, before), before);
    const app = before.translationsByKey.get(`${before.componentsByPath.get('hello/app')!.id}/de`)!.id;
    // the row of the newest last change (the last test's tie) gains a suggestion: its last change and author stay
    await sqlOn(fixture.store).run('UPDATE translation_stats SET suggestions = suggestions + 1 WHERE translation_id = ?', app);
    await new Promise((resolve) => setImmediate(resolve));
    await services.refresh();
    const after = await services.catalog();
    expect(after.stats.get(app)!.last_change).toBe('2026-05-01T10:00:00.000Z');
    const fresh = await fixture.store.read(loadCatalog);
    const summing = vi.spyOn(Access.prototype, 'translationList');
    const moved = principals.map(([name, p]) => [name, p, siteStats(Access.of(p, after), after)] as const);
    expect(summing).not.toHaveBeenCalled();
    summing.mockRestore();
    for (const [name, p, sums] of moved) expect(sums, name).toEqual(sumSite(Access.of(p, fresh), fresh));
  });
});
