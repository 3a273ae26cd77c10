// The site-wide search of a caller who does not see every translation: the count and the pages list what the scan of
// the visible translations selects, and on PostgreSQL they come from the search's own table (unit_search, which holds
// each unit's translation) without reading a unit to learn its translation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUnitRecords, unitRecords } from '../../src/store/unit-records.repo.js';
import { type UnitFilter, compileUnitFilter, indexedUnitIds } from '../../src/store/unit-search.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { onPostgres, sqlOn } from '../helpers/store.js';

const FREE_TEXT = ['source', 'target', 'context'] as const;
const NEEDLES = ['datei', 'open', 'file', 'Öffnen', 'quit', 'the', 'xyz-none', '%', 'ab'];

describe('the search of a caller who sees some translations', () => {
  let env: WriteEnv;
  let visible: number[];

  beforeAll(async () => {
    env = await createWriteEnv({}, {}, [{ slug: 'app2' }, { slug: 'app3' }]);
    const all = (await sqlOn(env.store).values('SELECT id FROM translations ORDER BY id')).map(Number);
    // every other translation: some of each component's, some of each language's
    visible = all.filter((_, i) => i % 2 === 0);
    expect(visible.length).toBeGreaterThan(2);
  }, 120_000);
  afterAll(() => env?.close());

  it('counts and lists the visible units the scan selects', async () => {
    const found = await env.store.read(async (tx) => {
      const out: { needle: string; expected: number[]; count: number; page: number[]; pageByTranslation: number[]; deep: number[] }[] = [];
      for (const needle of NEEDLES) {
        const filter: UnitFilter = { kind: 'text', fields: [...FREE_TEXT], match: 'contains', value: needle };
        // the scan: the match on every visible unit (no index)
        const scan = compileUnitFilter(filter);
        const expected = (
          (await tx
            .prepare(`SELECT u.id FROM units u WHERE u.translation_id IN (${tx.dialect.idsOfJson}) AND ${scan.sql} ORDER BY u.id`)
            .pluck()
            .all(JSON.stringify(visible), ...scan.params)) as number[]
        ).map(Number);
        out.push({
          needle,
          expected,
          count: await countUnitRecords(tx, visible, filter),
          page: (await unitRecords(tx, visible, filter, { limit: 3, offset: 0 }, { byId: true })).map((r) => r.id),
          pageByTranslation: (await unitRecords(tx, visible, filter, { limit: 3, offset: 0 })).map((r) => r.id),
          deep: (await unitRecords(tx, visible, filter, { limit: 2, offset: 2 })).map((r) => r.id),
        });
      }
      return out;
    });
    for (const f of found) {
      expect({ needle: f.needle, count: f.count, page: f.page, pageByTranslation: f.pageByTranslation, deep: f.deep }).toEqual({
        needle: f.needle,
        count: f.expected.length,
        page: f.expected.slice(0, 3),
        pageByTranslation: f.expected.slice(0, 3),
        deep: f.expected.slice(2, 4),
      });
    }
    // not a comparison of empty answers
    expect(found.filter((f) => f.count > 0).length).toBeGreaterThan(4);
  });

  it.skipIf(!onPostgres)('reads the visible matches from the search table alone (PostgreSQL)', async () => {
    await env.store.read(async (tx) => {
      const filter: UnitFilter = { kind: 'text', fields: [...FREE_TEXT], match: 'contains', value: 'datei' };
      const within = { sql: `u.translation_id IN (${tx.dialect.idsOfJson})`, params: [JSON.stringify(visible)], byId: false };
      // nothing left to the search's fill (the caller asked): the table alone
      const ids = indexedUnitIds(filter, tx.dialect, within, true);
      expect(ids).not.toBeNull();
      const plan = (
        (await tx
          .prepare(`EXPLAIN SELECT count(*) FROM (${ids!.sql}) s`)
          .pluck()
          .all(...ids!.params)) as string[]
      ).join('\n');
      expect(plan).toContain('unit_search');
      expect(plan).not.toMatch(/ on units\b/);
      // not asked: the units of a pending range too, read through the units' primary key, none here (not one row)
      const either = indexedUnitIds(filter, tx.dialect, within)!;
      const analysed = (await tx
        .prepare(`EXPLAIN (ANALYZE, BUFFERS) SELECT count(*) FROM (${either.sql}) s`)
        .pluck()
        .all(...either.params)) as string[];
      const onUnits = analysed.filter((line) => / on units\b/.test(line));
      expect(onUnits.length).toBeGreaterThan(0);
      for (const line of onUnits) expect(line).toMatch(/Index Scan using units_pkey on units .*(\(actual time=\S+ rows=0 loops=1\)|\(never executed\))/);
    });
  });

  it.skipIf(!onPostgres)('holds no unit that is gone, and each unit once with its texts (PostgreSQL)', async () => {
    const sql = sqlOn(env.store);
    // a unit deleted, a translation's units deleted by the cascade, a text changed
    const [unit] = (await sql.values("SELECT id FROM units WHERE target <> '' ORDER BY id LIMIT 1")).map(Number);
    await sql.run('DELETE FROM units WHERE id = ?', unit);
    await sql.run('DELETE FROM translations WHERE id = ?', visible.at(-1));
    await sql.run("UPDATE units SET target = 'ÄNDERUNG Ω' WHERE id = (SELECT max(id) FROM units)");
    const differ = await sql.values(
      `SELECT coalesce(u.id, s.id) FROM units u FULL JOIN unit_search s ON s.id = u.id
       WHERE s.id IS NULL OR u.id IS NULL OR s.translation_id <> u.translation_id
         OR s.source <> lower(u.source COLLATE "und-x-icu") OR s.target <> lower(u.target COLLATE "und-x-icu")
         OR s.context <> lower(u.context COLLATE "und-x-icu")`,
    );
    expect(differ).toEqual([]);
    expect(await sql.values('SELECT target FROM unit_search WHERE id = (SELECT max(id) FROM units)')).toEqual(['änderung ω']);
  });
});
