// One component's git work on one node at a time: PostgreSQL session advisory locks on a session of their own,
// waited for by polling (the event loop is never blocked), freed by the server when the node's session ends.
import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseUnavailableError } from '../../domain/errors.js';
import type { ComponentLocks } from '../store.js';
import type { PgSession } from './session.js';

/** How long to sleep between two tries for a lock another node holds. */
const POLL_MS = 50;

/** The lock's key: the component's key in this schema (tests keep several schemas in one database). */
const KEY = "hashtextextended(current_schema() || ' component ' || ?, 0)";

/**
 * Component locks on a session used for nothing else (a statement of the store never waits behind a lock, and the
 * locks live as long as this session), opened at the first lock and again after it was lost. A lost session has
 * given its locks back: a release then does nothing (the work that held it was not protected from the moment the
 * session was lost).
 * @example const locks = new PgComponentLocks(() => PgSession.open(conninfo, name, shared)); const release = await locks.acquire('hello/app', 60_000)
 */
export class PgComponentLocks implements ComponentLocks {
  /** The locks this process holds, with the session that took each. */
  private readonly holding = new Map<string, PgSession>();
  private session: Promise<PgSession> | undefined;
  private closed = false;

  constructor(private readonly open: () => Promise<PgSession>) {}

  /** The lock session: the open one, or a new one when it was lost (its locks went with it). */
  private current(): Promise<PgSession> {
    if (this.closed) return Promise.reject(new Error('the component locks are closed'));
    if (!this.session) {
      const opening = this.open();
      this.session = opening;
      opening.catch(() => {
        if (this.session === opening) this.session = undefined;
      });
      return opening;
    }
    return this.session.then((s) => {
      if (s.usable) return s;
      this.session = undefined;
      return this.current();
    });
  }

  private async tryLock(session: PgSession, key: string): Promise<boolean> {
    return (await session.prepare(`SELECT pg_try_advisory_lock(${KEY}) AS locked`).pluck().get(key)) === 1;
  }

  async acquire(key: string, timeoutMs: number): Promise<(() => void) | null> {
    const deadline = Date.now() + timeoutMs;
    let session: PgSession;
    let retried = false;
    for (;;) {
      session = await this.current();
      let locked: boolean;
      try {
        locked = await this.tryLock(session, key);
      } catch (e) {
        // the session was lost while idle (the server restarted; its locks went with it): once more on a new one
        if (retried || !(e instanceof DatabaseUnavailableError)) throw e;
        retried = true;
        continue;
      }
      if (locked) break;
      if (Date.now() >= deadline) return null;
      await sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
    }
    let released = false;
    this.holding.set(key, session);
    return () => {
      if (released) return;
      released = true;
      if (this.holding.get(key) === session) this.holding.delete(key);
      // a session lost since (the server restarted) holds no lock to give back
      if (!session.usable) return;
      session
        .prepare(`SELECT pg_advisory_unlock(${KEY})`)
        .get(key)
        .catch(() => {
          // the session is gone, and its locks with it
        });
    };
  }

  async held(key: string): Promise<boolean> {
    const session = this.holding.get(key);
    if (!session?.usable) return false;
    try {
      // taken again by its holder, an advisory lock counts twice: given back once at once
      if (!(await this.tryLock(session, key))) return false;
      await session.prepare(`SELECT pg_advisory_unlock(${KEY})`).get(key);
      // a statement that met a lost session: the lock went with it
      return session.usable;
    } catch {
      return false;
    }
  }

  close(): void {
    this.closed = true;
    this.holding.clear();
    void this.session?.then(
      (s) => s.close(),
      () => {},
    );
    this.session = undefined;
  }
}
