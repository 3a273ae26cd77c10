// What `npm install` does to a clone: package.json and the lock agree (npm rewrote the lock on every install when they
// did not), and every dependency with an install script is named in package.json's allowScripts.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/corpus.js';

type Manifest = Record<'dependencies' | 'devDependencies' | 'optionalDependencies', Record<string, string> | undefined>;

const read = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));

/** npm's install-script review (`npm install-scripts`), or null with an npm that has none. */
function pendingInstallScripts(): unknown[] | null {
  try {
    const out = execFileSync('npm', ['install-scripts', 'ls', '--json'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return (JSON.parse(out) as { allowScripts: unknown[] }).allowScripts;
  } catch {
    return null;
  }
}

describe('npm install', () => {
  it('finds in the lock the dependencies package.json declares, each kind as declared', () => {
    const manifest = read('package.json') as Manifest;
    const root = read('package-lock.json').packages[''] as Manifest;
    // an optional dependency belongs in optionalDependencies alone: a copy in dependencies is what npm removed each time
    expect(root.dependencies).toEqual(manifest.dependencies);
    expect(root.devDependencies).toEqual(manifest.devDependencies);
    expect(root.optionalDependencies).toEqual(manifest.optionalDependencies);
  });

  const pending = pendingInstallScripts();
  if (pending === null) console.warn('[skip] allowScripts: this npm has no `npm install-scripts` (npm 11.19 or later has)');
  it.skipIf(pending === null)('leaves no install script outside allowScripts (npm runs them without a notice)', () => {
    expect(pending).toEqual([]);
  });
});
