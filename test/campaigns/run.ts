// Runs one campaign script as `npm run campaign:<name>` does, in a child process, and fails with its output unless it passes.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { repoRoot } from '../helpers/corpus.js';

/** Runs `scripts/campaign-<name>.ts` with `env` (the demo files: no corpus) and expects its `campaign:<name> ok` line. */
export async function runCampaign(name: string, env: Record<string, string>): Promise<void> {
  const script = path.join(repoRoot, 'scripts', `campaign-${name}.ts`);
  let stdout = '';
  try {
    ({ stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      cwd: repoRoot,
      env: { ...process.env, TMS_CORPUS: path.join(repoRoot, 'no-corpus-in-the-short-form'), ...env },
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (e) {
    const failed = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`campaign:${name} failed: ${failed.stdout ?? ''}\n${(failed.stderr ?? failed.message).slice(-4000)}`);
  }
  expect(stdout).toMatch(new RegExp(`^campaign:${name} ok `, 'm'));
}
