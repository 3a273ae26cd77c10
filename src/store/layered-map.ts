// A read-only Map made from another without copying it: some entries set over a flat map beneath (the catalog's refresh).

/**
 * A Map of `base`'s entries with some replaced or added (none removed), made in time of the entries set, not of
 * `base`'s size: the entries set are its own, every other read falls through to the flat map beneath, and they are
 * copied into a flat map of their own only once they grow past a share of it. Never changed once made (catalog
 * snapshots share it): the catalog's maps of translations and its statistics (StatsMap).
 * @example const byId = LayeredMap.over(previous.translationsById, [[t.id, t]]); byId.get(t.id) === t
 */
export class LayeredMap<K, V> extends Map<K, V> {
  /** The flat map beneath (a plain Map or a LayeredMap without one), or undefined: this map is flat. */
  #base: ReadonlyMap<K, V> | undefined;
  /** How many of this map's own entries are not in `base`. */
  #added = 0;

  /** A flat map of `entries`. */
  static of<K, V>(entries: Iterable<readonly [K, V]>): LayeredMap<K, V> {
    const map = new LayeredMap<K, V>();
    for (const [key, value] of entries) mapSet.call(map, key, value);
    return map;
  }

  /** `base` with `entries` set over it; `base`'s own layer (when it has one) carried along, not stacked. */
  static over<K, V>(base: ReadonlyMap<K, V>, entries: readonly (readonly [K, V])[]): LayeredMap<K, V> {
    const layered = base instanceof LayeredMap && base.#base !== undefined;
    const flat: ReadonlyMap<K, V> = layered ? (base as LayeredMap<K, V>).#base! : base;
    const own: readonly (readonly [K, V])[] = layered ? [...ownEntries(base), ...entries] : entries;
    const map = new LayeredMap<K, V>();
    if (own.length * FLATTEN_SHARE > flat.size) {
      for (const [key, value] of ownEntries(flat)) mapSet.call(map, key, value);
      for (const [key, value] of own) mapSet.call(map, key, value);
      return map;
    }
    for (const [key, value] of own) mapSet.call(map, key, value);
    map.#base = flat;
    for (const key of mapKeys.call(map)) if (!mapHas.call(flat, key)) map.#added++;
    return map;
  }

  override get(key: K): V | undefined {
    const own = mapGet.call(this, key) as V | undefined;
    return own !== undefined || this.#base === undefined ? own : (mapGet.call(this.#base, key) as V | undefined);
  }

  override has(key: K): boolean {
    return mapHas.call(this, key) || (this.#base !== undefined && mapHas.call(this.#base, key));
  }

  override get size(): number {
    return this.#base ? this.#base.size + this.#added : super.size;
  }

  override *entries(): MapIterator<[K, V]> {
    if (!this.#base) {
      yield* super.entries();
      return;
    }
    for (const [key, value] of ownEntries(this.#base)) yield [key, (mapGet.call(this, key) as V | undefined) ?? value];
    for (const [key, value] of super.entries()) if (!mapHas.call(this.#base, key)) yield [key, value];
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  override *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  override set(_key: K, _value: V): this {
    throw new TypeError(UNCHANGED);
  }

  override delete(_key: K): boolean {
    throw new TypeError(UNCHANGED);
  }

  override clear(): void {
    throw new TypeError(UNCHANGED);
  }
}

// Map's own methods, called on each map directly (a flat map's entries are in its own Map storage)
const mapGet = Map.prototype.get as (this: ReadonlyMap<unknown, unknown>, key: unknown) => unknown;
const mapHas = Map.prototype.has as (this: ReadonlyMap<unknown, unknown>, key: unknown) => boolean;
const mapSet = Map.prototype.set as (this: Map<unknown, unknown>, key: unknown, value: unknown) => Map<unknown, unknown>;
const mapKeys = Map.prototype.keys as (this: Map<unknown, unknown>) => MapIterator<unknown>;
const mapEntries = Map.prototype.entries as (this: ReadonlyMap<unknown, unknown>) => MapIterator<[unknown, unknown]>;

/** A map's own entries (its own Map storage: a layered map's own layer, a flat map's every entry). */
function ownEntries<K, V>(map: ReadonlyMap<K, V>): MapIterator<[K, V]> {
  return mapEntries.call(map) as MapIterator<[K, V]>;
}

const UNCHANGED = 'a LayeredMap is shared by catalog snapshots: never changed once made';

/** A layered map's own entries are copied into a flat map once they pass 1/FLATTEN_SHARE of the map beneath. */
const FLATTEN_SHARE = 8;
