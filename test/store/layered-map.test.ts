// The catalog's maps refreshed without a copy (LayeredMap.over) read as a map made whole from the same entries: over
// a plain map (loadCatalog's translation maps) or a flat LayeredMap (its statistics, LayeredMap.of), through several
// refreshes in a row, entries replaced twice, entries added (string keys too), and flattening.
import { describe, expect, it } from 'vitest';
import { LayeredMap } from '../../src/store/layered-map.js';

/** Every way a map is read, in a form that compares plainly (sorted entries: a Map's order is not part of its value). */
function reads<K extends number | string>(map: Map<K, string>, keys: K[]) {
  const byKey = (a: [K, unknown], b: [K, unknown]) => String(a[0]).localeCompare(String(b[0]));
  const each: [K, string][] = [];
  map.forEach((value, key) => each.push([key, value]));
  return {
    size: map.size,
    entries: [...map.entries()].sort(byKey),
    iterated: [...map].sort(byKey),
    keys: [...map.keys()].map(String).sort(),
    values: [...map.values()].sort(),
    each: each.sort(byKey),
    got: keys.map((key) => [map.has(key), map.get(key)]),
  };
}

/** The entries a map holds itself (a flat map: all of them). */
const ownSize = (map: Map<unknown, unknown>): number => Object.getOwnPropertyDescriptor(Map.prototype, 'size')!.get!.call(map);

describe('LayeredMap refreshed by the changed entries', () => {
  it('reads as a map made whole, over many refreshes from a plain map or a flat one, flattened or not', () => {
    const keyings: ((n: number) => number | string)[] = [(n) => n, (n) => `${n % 7}/lang-${n}`];
    const bases: ((truth: Map<number | string, string>) => Map<number | string, string>)[] = [(truth) => new Map(truth), (truth) => LayeredMap.of(truth)];
    for (const keyOf of keyings)
      for (const baseOf of bases) {
        const truth = new Map<number | string, string>();
        for (let n = 1; n <= 200; n++) truth.set(keyOf(n), `v${n}`);
        let map: Map<number | string, string> = baseOf(truth);
        const keys = [0, 1, 2, 50, 199, 200, 201, 202, 500].map(keyOf);
        let seed = 11;
        const random = (n: number) => {
          seed = (seed * 1103515245 + 12345) % 2147483648;
          return seed % n;
        };
        let flattened = 0;
        let layered = 0;
        for (let refresh = 1; refresh <= 60; refresh++) {
          // some entries replaced (some twice in a row of refreshes), now and then one the map beneath lacks
          const entries: [number | string, string][] = [];
          for (let k = random(6); k >= 0; k--) entries.push([keyOf(1 + random(210)), `r${refresh}.${k}`]);
          const before = map;
          const beforeReads = reads(before, keys);
          map = LayeredMap.over(before, entries);
          for (const [key, value] of entries) truth.set(key, value);
          expect(reads(map, keys), `refresh ${refresh}`).toEqual(reads(truth, keys));
          expect(map, `refresh ${refresh}`).toEqual(LayeredMap.of(truth));
          // the map it was made from reads as it did
          expect(reads(before, keys)).toEqual(beforeReads);
          if (ownSize(map) === map.size) flattened++;
          else layered++;
        }
        // both ways were taken: entries kept over the map beneath, and copied into a flat map once they grew
        expect(flattened).toBeGreaterThan(2);
        expect(layered).toBeGreaterThan(20);
      }
  });

  it('is never changed once made, and leaves the map it was made from as it was', () => {
    const base = new Map([[1, 'one']]);
    const flat = LayeredMap.of([[1, 'one']]);
    const next = LayeredMap.over(base, [[1, 'uno']]);
    for (const map of [flat, next, LayeredMap.over(flat, [[1, 'uno']])]) {
      expect(() => map.set(2, 'two')).toThrow(TypeError);
      expect(() => map.delete(1)).toThrow(TypeError);
      expect(() => map.clear()).toThrow(TypeError);
    }
    expect(base.get(1)).toBe('one');
    expect(flat.get(1)).toBe('one');
    expect(next.get(1)).toBe('uno');
  });
});
