// The overview's sums of statistics (per project, per project and language, per language) moved by each statistics row a refresh
// changed equal the sums made afresh, for the anonymous visitor, a translator who cannot see the private project and
// a superuser who can, after edits in several projects and languages, the newest last change going back and ties.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Access } from '../../src/api/access.js';
import type { AppServices } from '../../src/api/app.js';
import { type SiteStats, siteStats, sumSite } from '../../src/api/statistics.js';
import type { Principal } from '../../src/auth/check.js';
import { type Catalog, loadCatalog } from '../../src/store/catalog.repo.js';
import { findUserByUsername } from '../../src/store/users.repo.js';
import { type ApiFixture, createApiFixture, fixtureServices } from '../helpers/api-fixture.js';
import { sqlOn } from '../helpers/store.js';

describe('site statistics moved by the changed statistics rows', () => {
  let fixture: ApiFixture;
  let services: AppServices;
  let principals: [string, Principal][];

  beforeAll(async () => {
    fixture = await createApiFixture();
    ({ services, principals } = await fixtureServices(fixture, ['anonymous', 'jane', 'admin']));
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });

  /** Sums a change touched, `<project id>`, `<project id>/<language id>` and `language <id>`; all of them after a change of authors. */
  const touched = new Set<string>();
  let touchedAll = false;
  const ids = async (project: string, component: string, language: string): Promise<number> => {
    const catalog = await services.catalog();
    const c = catalog.componentsByPath.get(`${project}/${component}`)!;
    const t = catalog.translationsByKey.get(`${c.id}/${language}`)!;
    touched.add(String(c.projectId)).add(`${c.projectId}/${t.languageId}`).add(`language ${t.languageId}`);
    return t.id;
  };
  const authorId = async (name: string) => (await fixture.store.read((tx) => findUserByUsername(tx, name)))!.id;

  /** A statistics write as an edit makes one: counts moved, the last change and its author set. */
  const edit = (translationId: number, lastChange: string | null, author: number | null, translated = 1) =>
    sqlOn(fixture.store).run(
      'UPDATE translation_stats SET translated = translated + ?, translated_words = translated_words + ?, suggestions = suggestions + 1, last_change = ?, last_author_id = ? WHERE translation_id = ?',
      translated,
      2 * translated,
      lastChange,
      author,
      translationId,
    );

  /** Each principal's sums of the refreshed snapshot: moved from the last snapshot's, equal to the sums made afresh. */
  async function expectMoved(): Promise<Map<string, SiteStats>> {
    const before = await services.catalog();
    const previous = new Map(principals.map(([name, p]) => [name, siteStats(Access.of(p, before), before)]));
    await new Promise((resolve) => setImmediate(resolve));
    await services.refresh();
    const after = await services.catalog();
    expect(after).not.toBe(before);
    expect(after.projects).toBe(before.projects);
    const fresh: Catalog = await fixture.store.read(loadCatalog);
    const result = new Map<string, SiteStats>();
    for (const [name, p] of principals) {
      const moved = siteStats(Access.of(p, after), after);
      expect(moved, name).toEqual(sumSite(Access.of(p, fresh), fresh));
      // moved, not summed again: sums no change touched are the previous snapshot's own
      const last = previous.get(name)!;
      for (const [projectId, languages] of moved.projectLanguages) {
        if (touchedAll) continue;
        if (!touched.has(String(projectId))) expect(moved.projects.get(projectId), name).toBe(last.projects.get(projectId));
        for (const [languageId, counts] of languages) {
          if (!touched.has(`${projectId}/${languageId}`))
            expect(counts, `${name} ${projectId}/${languageId}`).toBe(last.projectLanguages.get(projectId)!.get(languageId));
        }
      }
      for (const [languageId, counts] of moved.languages) {
        if (!touchedAll && !touched.has(`language ${languageId}`)) expect(counts, `${name} language ${languageId}`).toBe(last.languages.get(languageId));
      }
      result.set(name, moved);
    }
    touched.clear();
    touchedAll = false;
    return result;
  }

  it('follows edits in several projects and languages, public and private', async () => {
    const jane = await authorId('jane');
    const admin = await authorId('admin');
    const cs = await ids('hello', 'app', 'cs');
    await edit(cs, '2025-03-02T10:00:00.000Z', jane);
    await edit(await ids('internal', 'tools', 'de'), '2025-03-02T11:00:00.000Z', admin);
    const sums = await expectMoved();
    const catalog = await services.catalog();
    const hello = catalog.projectsBySlug.get('hello')!.id;
    expect(sums.get('anonymous')!.projects.get(hello)!.last_change).toBe(catalog.stats.get(cs)!.last_change);
    expect(sums.get('anonymous')!.projects.get(hello)!.last_author).toBe('Jane Doe');
    expect(sums.get('anonymous')!.projects.size).toBe(1);
    expect(sums.get('jane')!.projects.size).toBe(1);
    expect(sums.get('admin')!.projects.size).toBe(2);
    // several rows of one project and language in one refresh, counts going down too
    await edit(await ids('hello', 'app', 'de'), '2025-03-02T12:00:00.000Z', admin, -1);
    await edit(await ids('hello', 'glossary', 'de'), '2025-03-02T12:30:00.000Z', jane, 3);
    await expectMoved();
  });

  it('follows the newest last change going back, to none, and a tie between two translations', async () => {
    const jane = await authorId('jane');
    const admin = await authorId('admin');
    // the row that held the newest last change goes back: another row's is the newest now
    await edit(await ids('hello', 'glossary', 'de'), '2025-03-01T09:00:00.000Z', admin);
    const sums = await expectMoved();
    const catalog = await services.catalog();
    const hello = catalog.projectsBySlug.get('hello')!.id;
    expect(sums.get('jane')!.projects.get(hello)!.last_change).toBe(catalog.stats.get(await ids('hello', 'app', 'de'))!.last_change);
    touched.clear();
    await edit(await ids('hello', 'app', 'de'), null, null);
    await expectMoved();
    // a tie: the same newest last change in two translations of the private project, written one refresh apart
    await edit(await ids('internal', 'tools', 'cs'), '2025-03-03T08:00:00.000Z', jane);
    await expectMoved();
    await edit(await ids('internal', 'tools', 'de'), '2025-03-03T08:00:00.000Z', admin);
    await expectMoved();
    // an author renamed: the rows whose last change they made are written again, the last change itself unmoved
    await sqlOn(fixture.store).run("UPDATE users SET full_name = 'Jane Q. Doe' WHERE username = 'jane'");
    touchedAll = true;
    const renamed = await expectMoved();
    const internal = (await services.catalog()).projectsBySlug.get('internal')!.id;
    expect(renamed.get('admin')!.projects.get(internal)!.last_author).toBe('Jane Q. Doe');
  });
});
