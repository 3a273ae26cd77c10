// One git operation on a component at a time: its mutex held (with several nodes, the database's lock too) and the
// working copy brought to the store's commit before the operation's own work.
import type { ComponentHandle } from '../component/handle.js';
import { withComponentMutex } from '../component/mutex.js';
import { alignWorkingCopy } from '../sync/align.js';

/**
 * Runs `work` holding the component's mutex, the working copy aligned first (a no-op on a single node).
 * @example await withMutex(h, () => pushLocked(h))
 */
export function withMutex<T>(h: ComponentHandle, work: () => Promise<T>): Promise<T> {
  return withComponentMutex(
    h.key,
    async () => {
      await alignWorkingCopy(h);
      return work();
    },
    h.config.lock_timeout_ms,
    h.nodes,
  );
}
