// A template's keys for the monolingual formats: each key's place in the template, found cheaply for files in a common order.

/** The keys of a template's listed entries (each once: keys are unique) and their places. */
export class TemplateKeys {
  readonly keys: readonly string[];
  /**
   * Places by a cheap key of length and four characters, chained through `sameBucket` (a map keyed by the strings
   * themselves would hash each file's fresh string in full: about twice the time on Android's names).
   */
  private readonly buckets = new Map<number, number>();
  private readonly sameBucket: Int32Array;
  /**
   * The place that followed each place in the last file looked up (the last slot: the first place), learned as files
   * are read: the translations of a project mostly share one order, which need not be the template's.
   */
  private readonly successor: Int32Array;

  constructor(keys: readonly string[]) {
    this.keys = keys;
    this.sameBucket = new Int32Array(keys.length).fill(-1);
    // the first of each bucket is found first: walked from the last place back, each key goes before the ones after it
    for (let k = keys.length - 1; k >= 0; k--) {
      const bucket = bucketOf(keys[k]!);
      const first = this.buckets.get(bucket);
      if (first !== undefined) this.sameBucket[k] = first;
      this.buckets.set(bucket, k);
    }
    this.successor = new Int32Array(keys.length + 1).fill(-1);
  }

  /**
   * The place of `key` in the template, or undefined when the template lacks it; `previous` is the place of the file's
   * key before it (-1 for its first). The places that followed `previous` in the last file and in the template are
   * compared first (a comparison of two strings read from two files costs less than hashing the file's fresh
   * string in full).
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
    k ??= this.lookup(key);
    if (k !== undefined) this.successor[slot] = k;
    return k;
  }

  private lookup(key: string): number | undefined {
    for (let k = this.buckets.get(bucketOf(key)) ?? -1; k >= 0; k = this.sameBucket[k]!) if (this.keys[k] === key) return k;
    return undefined;
  }
}

/** A bucket number from a key's length and its characters at four places (absent ones count as 0). */
function bucketOf(key: string): number {
  const n = key.length;
  let h = Math.imul(n, 65599) + (key.charCodeAt(0) | 0);
  h = Math.imul(h, 31) + (key.charCodeAt(n >> 2) | 0);
  h = Math.imul(h, 31) + (key.charCodeAt(n >> 1) | 0);
  return (Math.imul(h, 31) + (key.charCodeAt(n - 1) | 0)) | 0;
}

/** How many keys after the previous one in the template's order are compared before the buckets are looked in. */
const LOOKAHEAD = 2;
