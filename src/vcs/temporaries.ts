// Temporary files a killed process left in a repository: the half of an atomic write (temporary file, then rename)
// that never got renamed. Harmless to git, but they pile up: removed once their writer is gone.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { processAlive } from '../domain/process.js';

/** `.tms-<pid>-<n>.tmp` in the repository folder, as `writeFileAtomically` names them (older versions: `<file>.tms-<pid>-<n>.tmp` beside the file). */
const TEMPORARY = /\.tms-(\d+)-\d+\.tmp$/;

/**
 * Removes the temporary files under `gitDir` (a working copy's `.git/` or a bare repository) whose writing process
 * no longer runs; a live writer's are left alone. Returns the paths removed.
 * @example removeStaleTemporaries('repos/hello/app/.git')
 */
export function removeStaleTemporaries(gitDir: string): string[] {
  const removed: string[] = [];
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) {
        walk(file);
        continue;
      }
      const m = TEMPORARY.exec(e.name);
      if (!m || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
      rmSync(file, { force: true });
      removed.push(file);
    }
  };
  walk(gitDir);
  return removed;
}
