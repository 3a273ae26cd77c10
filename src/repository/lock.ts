// Component locks: `components.locked`, recorded as 14/15; a locked component takes no edits, added strings or uploads.
import { NotFoundError } from '../domain/errors.js';
import { now } from '../store/db.js';
import type { Db } from '../store/db.js';
import { isComponentLocked, setComponentLocked } from '../store/pending.repo.js';
import type { Actor } from './component.js';

/** Whether the component is locked. */
export function isLocked(db: Db, component: { id: number }): boolean {
  return isComponentLocked(db, component.id);
}

/**
 * Locks or unlocks a component (Weblate's `do_lock`): records 14 "Component locked" / 15 "Component unlocked"
 * with `details.auto = false`, nothing when it already was so. Pending edits are not committed here.
 * Throws NotFoundError for an unknown component.
 * @example setLock(db, componentRow, true, { id: 3 }) // { locked: true, changed: true }
 */
export function setLock(db: Db, component: { id: number }, locked: boolean, user?: Actor): { locked: boolean; changed: boolean } {
  const changed = setComponentLocked(db, component.id, locked, user?.id ?? null, now());
  if (changed === undefined) throw new NotFoundError('component', String(component.id));
  return { locked, changed };
}
