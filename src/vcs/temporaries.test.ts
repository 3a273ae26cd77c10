import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeStaleTemporaries } from './temporaries.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('removeStaleTemporaries', () => {
  it("removes a gone writer's temporary files anywhere under .git, keeps a live writer's and everything else", async () => {
    const git = mkdtempSync(path.join(os.tmpdir(), 'tms-temporaries-'));
    dirs.push(git);
    mkdirSync(path.join(git, 'objects', 'ab'), { recursive: true });
    mkdirSync(path.join(git, 'refs', 'heads'), { recursive: true });
    // a process that has exited: its pid is free (a new process could take it, but not within this test)
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.once('exit', resolve));
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      const files = {
        goneObject: path.join(git, 'objects', 'ab', `cdef.tms-${gone.pid}-3.tmp`),
        goneIndex: path.join(git, `index.tms-${gone.pid}-1.tmp`),
        liveRef: path.join(git, 'refs', 'heads', `main.tms-${live.pid}-2.tmp`),
        mine: path.join(git, `index.tms-${process.pid}-9.tmp`),
        object: path.join(git, 'objects', 'ab', 'cdef'),
        lock: path.join(git, 'index.lock'),
      };
      for (const f of Object.values(files)) writeFileSync(f, 'x');
      const removed = removeStaleTemporaries(git);
      expect(removed.sort()).toEqual([files.goneIndex, files.goneObject].sort());
      for (const key of ['liveRef', 'mine', 'object', 'lock'] as const) expect(existsSync(files[key])).toBe(true);
      expect(existsSync(files.goneObject)).toBe(false);
      expect(removeStaleTemporaries(path.join(git, 'missing'))).toEqual([]);
    } finally {
      live.kill();
    }
  });
});

describe('temporaryFor', () => {
  it("puts a repository file's temporary in the repository folder, never under refs/ or objects/ (found by campaign:kill)", async () => {
    const { temporaryFor } = await import('./context.js');
    const cases: [string, string][] = [
      [path.join('repos', 'p', 'c', '.git', 'refs', 'heads', 'main'), path.join('repos', 'p', 'c', '.git')],
      [path.join('repos', 'p', 'c', '.git', 'objects', 'ab', 'cdef'), path.join('repos', 'p', 'c', '.git')],
      [path.join('repos', 'p', 'c', '.git', 'index'), path.join('repos', 'p', 'c', '.git')],
      [path.join('upstream', 'app.git', 'refs', 'heads', 'main'), path.join('upstream', 'app.git')],
    ];
    for (const [file, dir] of cases) {
      const temporary = temporaryFor(file);
      expect(path.dirname(temporary)).toBe(dir);
      expect(path.basename(temporary)).toMatch(new RegExp(`^\\.tms-${process.pid}-\\d+\\.tmp$`));
    }
  });

  it('a temporary of the new kind that a killed process left is removed too', async () => {
    const git = mkdtempSync(path.join(os.tmpdir(), 'tms-temporaries-'));
    dirs.push(git);
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.once('exit', resolve));
    const left = path.join(git, `.tms-${gone.pid}-7.tmp`);
    writeFileSync(left, '');
    expect(removeStaleTemporaries(git)).toEqual([left]);
  });
});
