// The catalog read whole (loadCatalog) a page of translations and statistics rows at a time: the same catalog whatever
// the page's size, each translation's statistics its stored row as the API reports it (its author's full name).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, loadCatalog } from '../../src/store/catalog.repo.js';
import { findUserByUsername } from '../../src/store/users.repo.js';
import { type ApiFixture, createApiFixture } from '../helpers/api-fixture.js';
import { sqlOn } from '../helpers/store.js';

describe('the catalog read a page at a time', () => {
  let fixture: ApiFixture;

  beforeAll(async () => {
    fixture = await createApiFixture();
    const sql = sqlOn(fixture.store);
    const jane = (await fixture.store.read((tx) => findUserByUsername(tx, 'jane')))!.id;
    const ids = await sql.values<number>('SELECT id FROM translations ORDER BY id');
    // statistics of every kind: an author on some rows, a last change on others, counts that differ row by row
    for (const [i, id] of ids.entries()) {
      await sql.run(
        'UPDATE translation_stats SET translated = ?, fuzzy_chars = ?, recent_changes = ?, last_change = ?, last_author_id = ? WHERE translation_id = ?',
        i,
        i * 3,
        i % 2,
        i % 3 === 0 ? null : `2026-01-0${1 + (i % 9)}T00:00:00.000Z`,
        i % 3 === 1 ? jane : null,
        id,
      );
    }
    // a file's own plural on one translation
    await sql.run("UPDATE translations SET plural_number = 3, plural_formula = 'n%10==1 ? 0 : 1' WHERE id = ?", ids[1]);
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });

  it('reads the same catalog a row, two rows or a default page at a time', async () => {
    const whole = await fixture.store.read((tx) => loadCatalog(tx));
    expect(whole.translations.length).toBeGreaterThan(4);
    expect(whole.stats.size).toBe(whole.translations.length);
    for (const page of [1, 2, 3, whole.translations.length, whole.translations.length + 1]) {
      const paged: Catalog = await fixture.store.read((tx) => loadCatalog(tx, page));
      expect(paged.translations.map((t) => t.id)).toEqual(whole.translations.map((t) => t.id));
      expect(paged).toEqual(whole);
    }
  });

  it("gives each translation its stored statistics row, the author's full name, in the row's column order", async () => {
    const catalog = await fixture.store.read((tx) => loadCatalog(tx, 2));
    const rows = await sqlOn(fixture.store).rows<Record<string, unknown>>(
      'SELECT s.*, u.full_name AS last_author FROM translation_stats s LEFT JOIN users u ON u.id = s.last_author_id ORDER BY s.translation_id',
    );
    expect(rows.some((r) => r.last_author === 'Jane Doe')).toBe(true);
    for (const { translation_id, last_author_id: _author, seq: _seq, ...expected } of rows) {
      const stats = catalog.stats.get(translation_id as number)!;
      expect(stats).toEqual(expected);
      expect(Object.keys(stats)).toEqual(Object.keys(expected));
    }
    const plural = catalog.translations.filter((t) => t.plural !== null);
    expect(plural.map((t) => t.plural)).toEqual([{ number: 3, formula: 'n%10==1 ? 0 : 1' }]);
  });
});
