// A byte-bounded cache of whole JSON answers, emptied whenever the database changes (any commit, any connection).

interface Entry {
  body: Buffer;
}

/**
 * Remembers encoded answers by key until `clear()` (called when the store's change token moves).
 * Oldest entries go first once `maxBytes` is exceeded; 0 disables caching.
 * @example const cache = new ResponseCache(64 << 20); cache.set(key, body); cache.get(key)
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    return this.entries.get(key)?.body;
  }

  set(key: string, body: Buffer): void {
    if (this.maxBytes <= 0 || body.byteLength > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.byteLength + key.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { body });
    this.bytes += body.byteLength + key.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.byteLength + k.length;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
