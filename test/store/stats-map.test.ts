// The catalog's statistics map refreshed without a copy (LayeredMap.over) reads as a map made whole from the same rows:
// through several refreshes in a row, rows replaced twice, rows of translations the map beneath lacks, and flattening.
import { describe, expect, it } from 'vitest';
import type { CatalogStats, StatsMap } from '../../src/store/catalog.repo.js';
import { LayeredMap } from '../../src/store/layered-map.js';

const stats = (translated: number, lastChange: string | null = null): CatalogStats =>
  ({ translated, last_change: lastChange, last_author: lastChange && 'Jane Doe' }) as unknown as CatalogStats;

/** A flat map of `rows`, as `loadCatalog` makes one. */
const whole = (rows: Map<number, CatalogStats>): StatsMap => LayeredMap.of(rows);

/** Every way a map is read, in a form that compares plainly (sorted entries: a Map's order is not part of its value). */
function reads(map: Map<number, CatalogStats>, ids: number[]) {
  const byId = (a: [number, unknown], b: [number, unknown]) => a[0] - b[0];
  const each: [number, CatalogStats][] = [];
  map.forEach((value, key) => each.push([key, value]));
  return {
    size: map.size,
    entries: [...map.entries()].sort(byId),
    iterated: [...map].sort(byId),
    keys: [...map.keys()].sort((a, b) => a - b),
    values: [...map.values()].map((v) => v.translated).sort((a, b) => a - b),
    each: each.sort(byId),
    got: ids.map((id) => [map.has(id), map.get(id)]),
  };
}

/** The rows a map holds itself (a flat map: all of them). */
const ownSize = (map: Map<number, CatalogStats>): number => Object.getOwnPropertyDescriptor(Map.prototype, 'size')!.get!.call(map);

describe('StatsMap refreshed by the changed rows', () => {
  it('reads as a map made whole, over many refreshes, flattened or not', () => {
    const truth = new Map<number, CatalogStats>();
    for (let id = 1; id <= 200; id++) truth.set(id, stats(id));
    let map = whole(truth);
    const ids = [0, 1, 2, 50, 199, 200, 201, 202, 500];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let flattened = 0;
    let overlaid = 0;
    for (let refresh = 1; refresh <= 60; refresh++) {
      // some rows replaced (some twice in a row of refreshes), now and then a translation the map beneath lacks
      const rows: [number, CatalogStats][] = [];
      for (let k = random(6); k >= 0; k--) rows.push([1 + random(210), stats(1000 * refresh + k, `2026-01-01T00:00:${refresh}`)]);
      const before = map;
      const beforeReads = reads(before, ids);
      map = LayeredMap.over(before, rows);
      for (const [id, s] of rows) truth.set(id, s);
      expect(reads(map, ids), `refresh ${refresh}`).toEqual(reads(truth, ids));
      expect(map, `refresh ${refresh}`).toEqual(whole(truth));
      // the map it was made from reads as it did
      expect(reads(before, ids)).toEqual(beforeReads);
      if (ownSize(map) === map.size) flattened++;
      else overlaid++;
    }
    // both ways were taken: rows kept over the map beneath, and copied into a flat map once they grew
    expect(flattened).toBeGreaterThan(2);
    expect(overlaid).toBeGreaterThan(20);
  });

  it('is never changed once made, flat or made from another', () => {
    const base = whole(new Map([[1, stats(1)]]));
    const next = LayeredMap.over(base, [[1, stats(2)]]);
    for (const map of [base, next]) {
      expect(() => map.set(2, stats(3))).toThrow(TypeError);
      expect(() => map.delete(1)).toThrow(TypeError);
      expect(() => map.clear()).toThrow(TypeError);
    }
    expect(base.get(1)!.translated).toBe(1);
    expect(next.get(1)!.translated).toBe(2);
  });
});
