// Component locks: `components.locked`, recorded as 14/15; a locked component takes no edits, added strings or uploads.

import type { Actor } from '../component/handle.js';
import { NotFoundError } from '../domain/errors.js';
import { type Store, now } from '../store/index.js';
import { isComponentLocked, setComponentLocked } from '../store/projects.repo.js';

/** Weblate's text for edits, added strings and uploads on a locked component. */
export const COMPONENT_LOCKED = 'The component is locked.';

/** Whether the component is locked. */
export function isLocked(store: Store, component: { id: number }): Promise<boolean> {
  return store.read((tx) => isComponentLocked(tx, component.id));
}

/**
 * Locks or unlocks a component (Weblate's `do_lock`): records 14 "Component locked" / 15 "Component unlocked"
 * with `details.auto = false`, nothing when it already was so. Pending edits are not committed here.
 * Throws NotFoundError for an unknown component.
 * @example await setLock(store, componentRow, true, { id: 3 }) // { locked: true, changed: true }
 */
export async function setLock(store: Store, component: { id: number }, locked: boolean, user?: Actor): Promise<{ locked: boolean; changed: boolean }> {
  const changed = await store.write((tx) => setComponentLocked(tx, component.id, locked, user?.id ?? null, now()));
  if (changed === undefined) throw new NotFoundError('component', String(component.id));
  return { locked, changed };
}
