// Returning a finished component's parse results to the system before the next component is parsed.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/**
 * Runs a full garbage collection. A component's parsed files (tens of MB for a large one) become garbage
 * at once when its transaction ends; V8 would otherwise let the heap grow by several components before
 * collecting, which is what bounds peak memory in a multi-component sync.
 */
export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}

/** What the heap held after the last collection here. */
let afterLast = 0;

/**
 * `collectGarbage` when the heap grew by `bytes` since the last collection made here: a large component's parse is
 * returned before the next one, while a run of small components (a site of many, sharing one working copy) does not
 * pay a full collection each (about 70 ms apiece with a shared repository's pack cached).
 */
export function collectGarbageIfGrown(bytes = 32 * 1024 * 1024): void {
  if (getHeapStatistics().used_heap_size - afterLast < bytes) return;
  collectGarbage();
  afterLast = getHeapStatistics().used_heap_size;
}
