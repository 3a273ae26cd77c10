// One component's git work on one node at a time: PostgreSQL session advisory locks on a connection of their own,
// waited for by polling (the event loop is never blocked), freed by the server when the node's session ends.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ComponentLocks } from '../store.js';
import type { PgDb } from './pg-db.js';

/** How long to sleep between two tries for a lock another node holds. */
const POLL_MS = 50;

/** The lock's key: the component's key in this schema (tests keep several schemas in one database). */
const KEY = "hashtextextended(current_schema() || ' component ' || ?, 0)";

/**
 * Component locks on `db`, a session used for nothing else (a statement of the store never waits behind a lock, and
 * the locks live as long as this session). A lost session has given its locks back: a release then does nothing
 * (the work that held it was not protected from the moment the session was lost).
 * @example const locks = new PgComponentLocks(db.sibling()); const release = await locks.acquire('hello/app', 60_000)
 */
export class PgComponentLocks implements ComponentLocks {
  /** The locks this process holds, with the session that took each. */
  private readonly holding = new Map<string, number>();

  constructor(private readonly db: PgDb) {}

  async acquire(key: string, timeoutMs: number): Promise<(() => void) | null> {
    const deadline = Date.now() + timeoutMs;
    const tryLock = this.db.prepare(`SELECT pg_try_advisory_lock(${KEY}) AS locked`).pluck();
    for (;;) {
      if (tryLock.get(key) === 1) break;
      if (Date.now() >= deadline) return null;
      await sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
    }
    let released = false;
    const session = this.db.sessions;
    this.holding.set(key, session);
    return () => {
      if (released) return;
      released = true;
      if (this.holding.get(key) === session) this.holding.delete(key);
      // a session replaced since (the server restarted) holds no lock to give back
      if (this.db.sessions !== session) return;
      try {
        this.db.prepare(`SELECT pg_advisory_unlock(${KEY})`).get(key);
      } catch {
        // the session is gone, and its locks with it
      }
    };
  }

  async held(key: string): Promise<boolean> {
    const session = this.holding.get(key);
    if (session === undefined || session !== this.db.sessions) return false;
    try {
      // taken again by its holder, an advisory lock counts twice: given back once at once
      if (this.db.prepare(`SELECT pg_try_advisory_lock(${KEY}) AS locked`).pluck().get(key) !== 1) return false;
      this.db.prepare(`SELECT pg_advisory_unlock(${KEY})`).get(key);
      // a statement that met a lost session reconnected: the lock went with the old one
      return this.db.sessions === session;
    } catch {
      return false;
    }
  }

  close(): void {
    this.db.close();
  }
}
