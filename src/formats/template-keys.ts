// A template's keys for the monolingual formats: each key's place in the template, found cheaply for files in a common order.

/** The keys of a template's listed entries (each once) and their places. */
export class TemplateKeys {
  readonly keys: readonly string[];
  private readonly places: Map<string, number>;
  /**
   * The place that followed each place in the last file looked up (the last slot: the first place), learned as files
   * are read: the translations of a project mostly share one order, which need not be the template's.
   */
  private readonly successor: Int32Array;

  constructor(keys: readonly string[]) {
    this.keys = keys;
    this.places = new Map(keys.map((key, k) => [key, k]));
    this.successor = new Int32Array(keys.length + 1).fill(-1);
  }

  /**
   * The place of `key` in the template, or undefined when the template lacks it; `previous` is the place of the file's
   * key before it (-1 for its first). The places that followed `previous` in the last file and in the template are
   * compared first (a comparison of two strings read from two files costs less than hashing the file's fresh
   * string for the map).
   * @example let previous = -1; for (const e of entries) { const k = keys.placeOf(e.name, previous); if (k !== undefined) previous = k; }
   */
  placeOf(key: string, previous: number): number | undefined {
    const keys = this.keys;
    const slot = previous < 0 ? keys.length : previous;
    const learned = this.successor[slot]!;
    if (learned >= 0 && keys[learned] === key) return learned;
    let k: number | undefined;
    const stop = Math.min(keys.length, previous + 1 + LOOKAHEAD);
    for (let g = previous + 1; g < stop; g++) {
      if (keys[g] === key) {
        k = g;
        break;
      }
    }
    k ??= this.places.get(key);
    if (k !== undefined) this.successor[slot] = k;
    return k;
  }
}

/** How many keys after the previous one in the template's order are compared before the map is asked. */
const LOOKAHEAD = 2;
