import nodeFs from 'node:fs';
// commit of chosen files, resetHard, and working copies of empty upstreams.
import { chmod, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type VcsError, clone, commit, fetch, headCommit, listFilesWithBlobIds, push, resetHard, status } from '../../src/vcs/index.js';
import { commitToUpstream, createEmptyUpstream, gitCli, lsTree, useFreshClone } from '../helpers/git-repo.js';

const FILES = { 'po/de.po': 'de\n', 'po/fr.po': 'fr\n', 'docs/deep/nested/guide.md': 'guide\n', 'README.md': 'readme\n' };
const TMS = { name: 'tms', email: 'tms@example.test', timestamp: 1_700_000_500, timezoneOffset: 0 };

let root: string;
let upstream: string;
let work: string;
let n = 0;
useFreshClone(FILES, (c) => {
  ({ root, upstream, work, n } = c);
});

describe('commit', () => {
  it('commits additions in new folders, modifications and deletions, and nothing else', async () => {
    await mkdir(path.join(work, 'po/new/deeper'), { recursive: true });
    await writeFile(path.join(work, 'po/new/deeper/pt_BR.po'), 'pt\n');
    await writeFile(path.join(work, 'po/de.po'), 'de changed\n');
    await rm(path.join(work, 'po/fr.po'));
    await writeFile(path.join(work, 'README.md'), 'edited but not committed\n');
    await writeFile(path.join(work, 'stray.txt'), 'untracked\n');
    const oid = await commit({
      dir: work,
      files: ['po/new/deeper/pt_BR.po', 'po/de.po', 'po/fr.po'],
      message: 'Several changes',
      author: TMS,
    });
    expect(await gitCli(work, ['show', '--name-status', '--format=', oid!])).toBe('M\tpo/de.po\nD\tpo/fr.po\nA\tpo/new/deeper/pt_BR.po');
    expect(await gitCli(work, ['status', '--porcelain'])).toBe(' M README.md\n?? stray.txt');
    expect(await listFilesWithBlobIds({ dir: work })).toEqual(await lsTree(work, 'HEAD'));
    expect(await gitCli(work, ['fsck', '--no-progress', '--no-dangling'])).toBe('');
  });

  it('returns null and makes no commit when the files match HEAD', async () => {
    const head = await gitCli(work, ['rev-parse', 'HEAD']);
    expect(await commit({ dir: work, files: ['po/de.po', 'po/missing.po'], message: 'nothing', author: TMS })).toBeNull();
    expect(await gitCli(work, ['rev-parse', 'HEAD'])).toBe(head);
  });

  it('records the executable bit as git does', async () => {
    await writeFile(path.join(work, 'tool.sh'), '#!/bin/sh\n');
    await chmod(path.join(work, 'tool.sh'), 0o755);
    await commit({ dir: work, files: ['tool.sh'], message: 'Add a script', author: TMS });
    expect(await gitCli(work, ['ls-tree', 'HEAD', 'tool.sh'])).toMatch(/^100755 blob /);
    expect(await gitCli(work, ['status', '--porcelain'])).toBe('');
  });

  it('makes the first commit in a clone of an empty repository, and pushes it', async () => {
    const empty = path.join(root, `empty-${n}.git`);
    await createEmptyUpstream(empty);
    const fresh = path.join(root, `fresh-${n}`);
    await clone({ dir: fresh, url: empty, branch: 'main' });
    expect(await headCommit({ dir: fresh })).toBeNull();
    expect(await status({ dir: fresh })).toMatchObject({ ahead: 0, behind: 0, localCommit: null, remoteCommit: null });
    await writeFile(path.join(fresh, 'de.po'), 'first\n');
    const oid = await commit({ dir: fresh, files: ['de.po'], message: 'First', author: TMS });
    expect(await gitCli(fresh, ['rev-list', '--count', 'HEAD'])).toBe('1');
    expect(await status({ dir: fresh })).toMatchObject({ ahead: 1, behind: 0, needsPush: true });
    await push({ dir: fresh });
    expect(await gitCli(empty, ['rev-parse', 'main'])).toBe(oid);
  });
});

describe('resetHard', () => {
  it('restores tracked files, removes files the target lacks, keeps untracked files', async () => {
    const theirs = await commitToUpstream(upstream, { 'docs/deep/nested/guide.md': null, 'po/it.po': 'it\n' });
    await fetch({ dir: work });
    await writeFile(path.join(work, 'po/de.po'), 'local edit\n');
    await writeFile(path.join(work, 'notes.txt'), 'untracked\n');
    await writeFile(path.join(work, 'po/fr.po'), 'committed locally\n');
    await commit({ dir: work, files: ['po/fr.po'], message: 'Local', author: TMS });

    expect(await resetHard({ dir: work, ref: 'origin/main' })).toBe(theirs);
    expect(await gitCli(work, ['rev-parse', 'HEAD'])).toBe(theirs);
    expect(await gitCli(work, ['status', '--porcelain'])).toBe('?? notes.txt');
    expect(await readFile(path.join(work, 'po/de.po'), 'utf8')).toBe('de\n');
    expect(await readFile(path.join(work, 'po/fr.po'), 'utf8')).toBe('fr\n');
    expect(await readFile(path.join(work, 'po/it.po'), 'utf8')).toBe('it\n');
    await expect(stat(path.join(work, 'docs'))).rejects.toThrow();
    expect((await readdir(work)).sort()).toEqual(['.git', 'README.md', 'notes.txt', 'po']);
    expect(await status({ dir: work })).toMatchObject({ ahead: 0, behind: 0 });
  });

  it('throws not-found for an unknown ref and changes nothing', async () => {
    const head = await gitCli(work, ['rev-parse', 'HEAD']);
    const err = await resetHard({ dir: work, ref: 'no-such-ref' }).catch((e: unknown) => e);
    expect((err as VcsError).data.kind).toBe('not-found');
    expect(await gitCli(work, ['rev-parse', 'HEAD'])).toBe(head);
  });
});

describe('fetch of a branch deleted upstream', () => {
  it('fails with not-found instead of answering from the stale tracking ref (found by campaign:upstream)', async () => {
    await gitCli(upstream, ['update-ref', '-d', 'refs/heads/main']);
    const error = (await fetch({ dir: work, branch: 'main' }).catch((e: unknown) => e)) as VcsError;
    expect(error.data).toMatchObject({ kind: 'not-found', operation: 'fetch' });
    expect(error.message).toMatch(/^fetch: branch "main" not found on the remote/);
  });
});

describe('a full disk during a commit', () => {
  it('leaves no half-written object, index or ref behind: the next commit succeeds and fsck is clean (found by campaign:disk-full)', async () => {
    await writeFile(path.join(work, 'po/de.po'), 'changed while the disk fills up\n');
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    // a full disk: files open, writes fail (as Node's writeFileSync meets it)
    const spy = vi.spyOn(nodeFs, 'writeSync').mockImplementation(() => {
      throw enospc;
    });
    try {
      await expect(commit({ dir: work, files: ['po/de.po'], message: 'Full', author: TMS })).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      spy.mockRestore();
    }
    const empty: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) await walk(p);
        else if ((await stat(p)).size === 0) empty.push(p);
      }
    };
    await walk(path.join(work, '.git'));
    expect(empty).toEqual([]);
    expect(await commit({ dir: work, files: ['po/de.po'], message: 'Space is back', author: TMS })).toMatch(/^[0-9a-f]{40}$/);
    await gitCli(work, ['fsck', '--no-dangling']);
    expect(await gitCli(work, ['show', 'HEAD:po/de.po'])).toBe('changed while the disk fills up');
  });
});
