// The file system isomorphic-git is given: its probe for promises answered without building an error each time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterEach, describe, expect, it } from 'vitest';
import { fsOf } from './context.js';

type ProbedFs = { promises: { readFile(file?: string, options?: BufferEncoding): Promise<unknown> } };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the synchronous file system behind isomorphic-git', () => {
  it("answers readFile without a path (isomorphic-git's probe, twice a git call) with one error built once", async () => {
    const fs = fsOf({ dir: '.' }) as unknown as ProbedFs;
    const first = await fs.promises.readFile().catch((e: unknown) => e);
    const second = await fs.promises.readFile().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(Error);
    expect((first as { code?: string }).code).toBe('ERR_INVALID_ARG_TYPE');
    expect(second).toBe(first);
  });

  it('still reads files, and isomorphic-git works through it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tms-context-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'hello');
    const fs = fsOf({ dir });
    expect(await (fs as unknown as ProbedFs).promises.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('hello');
    await git.init({ fs, dir, defaultBranch: 'main' });
    await git.add({ fs, dir, filepath: 'a.txt' });
    const oid = await git.commit({ fs, dir, message: 'one', author: { name: 'T', email: 't@example.test' } });
    expect(await git.resolveRef({ fs, dir, ref: 'HEAD' })).toBe(oid);
  });
});
