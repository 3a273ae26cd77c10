// Locates the shared real-world corpus (../shared/corpus beside the checkout) and skips visibly without it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
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

/** Where KeePassXC keeps its Qt TS files, in its repository and in the corpus. */
export const KEEPASSXC_TRANSLATIONS = 'share/translations';

/** KeePassXC's Qt TS files from the corpus (`only`: these languages), by repository path. */
export function keepassxcFiles(corpus: string, only?: readonly string[]): Record<string, string> {
  const dir = path.join(corpus, 'keepassxreboot-keepassxc', KEEPASSXC_TRANSLATIONS);
  const names = readdirSync(dir).filter((n) => /^keepassxc_(.*)\.ts$/.test(n) && (!only || only.some((l) => n === `keepassxc_${l}.ts`)));
  return Object.fromEntries(names.map((n) => [`${KEEPASSXC_TRANSLATIONS}/${n}`, readFileSync(path.join(dir, n), 'utf8')]));
}

/** The KeePassXC component's configuration over `repo`, as the corpus lays its files out. */
export function keepassxcComponent(repo: string) {
  return {
    name: 'KeePassXC',
    slug: 'keepassxc',
    repo,
    branch: 'main',
    filemask: `${KEEPASSXC_TRANSLATIONS}/keepassxc_*.ts`,
    file_format: 'ts',
    source_language: 'en',
  };
}
