// Returning a finished component's parse results to the system before the next component is parsed.
import { setFlagsFromString } from 'node:v8';
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
