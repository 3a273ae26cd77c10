// Locates the shared real-world corpus (../shared/corpus beside the checkout) and skips visibly without it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The corpus folder, or null when it is absent (a clone outside the team's workspace). */
export function corpusDir(): string | null {
  const candidates = [process.env.TMS_CORPUS, path.resolve(root, '..', 'shared', 'corpus')];
  for (const dir of candidates) if (dir && existsSync(path.join(dir, 'README.md'))) return dir;
  return null;
}

/** `describe` over the corpus, or a skipped block that says why. */
export function describeCorpus(name: string, body: (dir: string) => void): void {
  const dir = corpusDir();
  if (dir) {
    describe(name, () => body(dir));
  } else {
    console.warn(`[skip] ${name}: ../shared/corpus is absent (set TMS_CORPUS to run these tests)`);
    describe.skip(`${name} (skipped: ../shared/corpus is absent)`, () => {});
  }
}

export const repoRoot = root;
