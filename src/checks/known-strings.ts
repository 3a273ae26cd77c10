// The strings each component of a project has in a language, kept by one run of syncs across its transactions (the other components' strings `inconsistent` compares), and dropped whenever anything else wrote.
import { languageStrings, writeMark } from '../store/checks.repo.js';
import type { Tx } from '../store/db.js';
import type { Store } from '../store/index.js';

/** A string held by more than one component (as the store's languageStrings says it too). */
const MANY = -1;

/**
 * A string's key as what is known holds it: a 30-bit FNV-1a hash of its context and source (a small integer, not the
 * texts: what a run of 865,000 units would keep). Two strings of one hash only make a refresh look at a unit for
 * nothing; it decides from the store.
 * @example stringHash({ context: 'Main', source: 'Open' }) !== stringHash({ context: 'Main', source: 'Close' })
 */
export function stringHash(u: { source: string; context: string }): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < u.context.length; i++) h = Math.imul(h ^ u.context.charCodeAt(i), 0x01000193);
  // the separator: ('ab', 'c') and ('a', 'bc') differ
  h = Math.imul(h ^ 0xffff, 0x01000193);
  for (let i = 0; i < u.source.length; i++) h = Math.imul(h ^ u.source.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/**
 * What a run of syncs (`tms sync <project>`, `--all`: many components, one transaction each, one after the other)
 * knows of the strings in the project's components, by (project, language): each string's component, or MANY. It
 * replaces a read of every other component's strings per translation synced (which grew with the site) by one read
 * per language met, then the strings of each translation synced (recorded by the refresh that reads them).
 *
 * Outside a run, a refresh makes one for itself: one read per language. It only ever holds more than the store (a string a component no longer has is kept: the refresh then looks at a
 * unit for nothing, and decides from the store), never less: its transactions go through `write`, and at the start
 * of each it is dropped unless the store's write mark is the one its last transaction left (no other transaction of
 * any connection or node, nor one of this process outside the run, wrote in between); a transaction that fails leaves
 * no mark. Whoever made it drops it at the end of the run.
 */
export class KnownStrings {
  readonly #languages = new Map<string, Map<number, number>>();
  /** The write mark the next transaction must find for what is known to hold; undefined: drop it. */
  #next: string | undefined;
  #dropped = 0;
  #reads = 0;

  /** How many times what was known was dropped at a transaction's start (for the tests). */
  get dropped(): number {
    return this.#dropped;
  }

  /** How many languages' strings were read from the store (for the tests). */
  get reads(): number {
    return this.#reads;
  }

  /** Runs `fn` in one writing transaction of `store`, what is known dropped first unless nothing else wrote since the last. */
  async write<T>(store: Store, fn: (tx: Tx) => Promise<T>): Promise<T> {
    let next: string | undefined;
    const result = await store.write(async (tx) => {
      const { now } = await writeMark(tx);
      if (now !== this.#next && this.#languages.size > 0) {
        this.#languages.clear();
        this.#dropped++;
      }
      // a transaction rolled back or retried leaves nothing to trust
      this.#next = undefined;
      const out = await fn(tx);
      next = (await writeMark(tx)).next;
      return out;
    });
    this.#next = next;
    return result;
  }

  /** The strings of the project's components in a language, by stringHash (their component, or MANY); read once. */
  async ofLanguage(tx: Tx, projectId: number, languageId: number): Promise<Map<number, number>> {
    const key = `${projectId}:${languageId}`;
    let strings = this.#languages.get(key);
    if (!strings) {
      strings = new Map();
      this.#reads++;
      for (const r of await languageStrings(tx, languageId, projectId)) record(strings, stringHash(r), Number(r.component_id));
      this.#languages.set(key, strings);
    }
    return strings;
  }
}

/** Records that `componentId` has the string of hash `key`. */
export function record(strings: Map<number, number>, key: number, componentId: number): void {
  const known = strings.get(key);
  if (known === undefined) strings.set(key, componentId);
  else if (known !== componentId && known !== MANY) strings.set(key, MANY);
}

/** Whether a component other than `componentId` may have the string of hash `key`. */
export function heldElsewhere(strings: ReadonlyMap<number, number>, key: number, componentId: number): boolean {
  const known = strings.get(key);
  return known !== undefined && known !== componentId;
}
