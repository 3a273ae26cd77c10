// Bringing upstream commits in: fast-forward, merge (clean and conflicting), merge_noff, rebase (clean, conflict, mergeFile).
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MergeFile, VcsError, commit, fastForward, fetch, merge, rebase, status, updateBranch } from '../../src/vcs/index.js';
import { commitToUpstream, gitCli, useFreshClone } from '../helpers/git-repo.js';

const FILES = {
  'po/de.po': 'line 1\nline 2\nline 3\nline 4\nline 5\n',
  'po/fr.po': 'un\ndeux\n',
  'README.md': '# demo\n',
};
const ALICE = { name: 'Alice Translator', email: 'alice@example.test', timestamp: 1_700_000_100, timezoneOffset: -120 };
const BOB = { name: 'Bob Reviewer', email: 'bob@example.test', timestamp: 1_700_000_200, timezoneOffset: 60 };
const TMS = { name: 'tms', email: 'tms@example.test', timestamp: 1_700_000_900, timezoneOffset: 0 };
const UPSTREAM_LATER = { name: 'Upstream Dev', email: 'dev@upstream.test', timestamp: 1_700_000_300 };

let upstream: string;
let work: string;
useFreshClone(FILES, (c) => {
  ({ upstream, work } = c);
});

async function localCommit(files: Record<string, string>, message: string, author = ALICE): Promise<string> {
  for (const [file, content] of Object.entries(files)) await writeFile(path.join(work, file), content);
  const oid = await commit({ dir: work, files: Object.keys(files), message, author, committer: BOB });
  return oid!;
}

/** Everything a failed update must leave untouched: refs, HEAD, index bytes, and every working-tree file. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {
    refs: await gitCli(work, ['for-each-ref', '--format=%(refname) %(objectname)']),
    head: await gitCli(work, ['symbolic-ref', 'HEAD']),
    index: (await readFile(path.join(work, '.git', 'index'))).toString('base64'),
    status: await gitCli(work, ['status', '--porcelain', '--untracked-files=all']),
  };
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(path.join(work, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (rel === '.git') continue;
      if (entry.isDirectory()) await walk(rel);
      else out[`file:${rel}`] = await readFile(path.join(work, rel), 'utf8');
    }
  };
  await walk('.');
  return out;
}

const text = (file: string) => readFile(path.join(work, file), 'utf8');

describe('fastForward', () => {
  it('refuses diverged histories with kind conflict and changes nothing', async () => {
    await commitToUpstream(upstream, { 'README.md': '# upstream\n' });
    await localCommit({ 'po/fr.po': 'un\ndeux\ntrois\n' }, 'Local');
    await fetch({ dir: work });
    const before = await snapshot();
    const err = await fastForward({ dir: work }).catch((e: unknown) => e);
    expect((err as VcsError).data.kind).toBe('conflict');
    expect(await snapshot()).toEqual(before);
  });

  it('is up-to-date when the remote has nothing new', async () => {
    await fetch({ dir: work });
    const head = await gitCli(work, ['rev-parse', 'HEAD']);
    expect(await fastForward({ dir: work })).toEqual({ result: 'up-to-date', head });
  });
});

describe('merge', () => {
  it('merges changes to different lines and files with a merge commit', async () => {
    const theirs = await commitToUpstream(upstream, { 'po/de.po': 'line 1 upstream\nline 2\nline 3\nline 4\nline 5\n', 'README.md': '# up\n' });
    const ours = await localCommit({ 'po/de.po': 'line 1\nline 2\nline 3\nline 4\nline 5 local\n' }, 'Local translation');
    await fetch({ dir: work });
    const result = await merge({ dir: work, author: TMS });
    expect(result.result).toBe('merged');
    expect(await gitCli(work, ['rev-parse', 'HEAD^1', 'HEAD^2'])).toBe(`${ours}\n${theirs}`);
    expect(await text('po/de.po')).toBe('line 1 upstream\nline 2\nline 3\nline 4\nline 5 local\n');
    expect(await text('README.md')).toBe('# up\n');
    expect(await gitCli(work, ['status', '--porcelain'])).toBe('');
    expect(await status({ dir: work })).toMatchObject({ ahead: 2, behind: 0, needsPush: true });
  });

  it('on a conflict leaves branch, index and working tree as they were', async () => {
    await commitToUpstream(upstream, { 'po/de.po': 'line 1\nline 2\nline 3 upstream\nline 4\nline 5\n' });
    await localCommit({ 'po/de.po': 'line 1\nline 2\nline 3 local\nline 4\nline 5\n' }, 'Local translation');
    await fetch({ dir: work });
    const before = await snapshot();
    const err = await merge({ dir: work, author: TMS }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VcsError);
    expect((err as VcsError).data.kind).toBe('conflict');
    expect((err as VcsError).data.paths).toEqual(['po/de.po']);
    expect(await snapshot()).toEqual(before);
  });

  it('fast-forwards when there is nothing local, or makes a merge commit with merge_noff', async () => {
    const theirs = await commitToUpstream(upstream, { 'README.md': '# up\n' });
    await fetch({ dir: work });
    const ff = await updateBranch({ dir: work, mergeStyle: 'merge', author: TMS });
    expect(ff).toEqual({ result: 'fast-forward', head: theirs });

    const next = await commitToUpstream(upstream, { 'README.md': '# up again\n' });
    await fetch({ dir: work });
    const noff = await updateBranch({ dir: work, mergeStyle: 'merge_noff', author: TMS });
    expect(noff.result).toBe('merged');
    expect(await gitCli(work, ['rev-parse', 'HEAD^1', 'HEAD^2'])).toBe(`${theirs}\n${next}`);
    expect(await text('README.md')).toBe('# up again\n');
  });

  it('refuses when a local modification is in the way, putting the branch back', async () => {
    await commitToUpstream(upstream, { 'README.md': '# up\n' });
    await localCommit({ 'po/fr.po': 'un\n' }, 'Local');
    await fetch({ dir: work });
    await writeFile(path.join(work, 'README.md'), 'uncommitted edit\n');
    const before = await snapshot();
    const err = await merge({ dir: work, author: TMS }).catch((e: unknown) => e);
    expect((err as VcsError).data.kind).toBe('conflict');
    expect(await snapshot()).toEqual(before);
  });
});

describe('rebase', () => {
  it('replays local commits on top of upstream, keeping both sides, authors, committers and messages', async () => {
    const theirs = await commitToUpstream(upstream, { 'README.md': '# upstream\n', 'po/it.po': 'uno\n' }, { who: UPSTREAM_LATER });
    await localCommit({ 'po/de.po': 'line 1\nline 2 local\nline 3\nline 4\nline 5\n' }, 'Translated using tms (German)\n\nTranslation: demo/app');
    await writeFile(path.join(work, 'po/new.po'), 'new file\n');
    await localCommit({ 'po/fr.po': 'un\ndeux\ntrois\n', 'po/new.po': 'new file\n' }, 'Translated using tms (French)', BOB);
    await fetch({ dir: work });

    const format = ['log', '--format=%an|%ae|%at|%ai|%cn|%ce|%ct|%ci|%B', '-2'];
    const original = await gitCli(work, format);
    expect(original).toContain('Alice Translator|alice@example.test|1700000100|2023-11-15 00:15:00 +0200|Bob Reviewer');

    const result = await rebase({ dir: work });
    expect(result.result).toBe('rebased');
    expect(await gitCli(work, ['rev-parse', 'HEAD~2'])).toBe(theirs);
    expect(await gitCli(work, format)).toBe(original);
    expect(await text('README.md')).toBe('# upstream\n');
    expect(await text('po/it.po')).toBe('uno\n');
    expect(await text('po/de.po')).toBe('line 1\nline 2 local\nline 3\nline 4\nline 5\n');
    expect(await text('po/fr.po')).toBe('un\ndeux\ntrois\n');
    expect(await text('po/new.po')).toBe('new file\n');
    expect(await gitCli(work, ['status', '--porcelain'])).toBe('');
    expect(await gitCli(work, ['fsck', '--no-progress', '--no-dangling'])).toBe('');
    expect(await status({ dir: work })).toMatchObject({ ahead: 2, behind: 0, needsMerge: false, needsPush: true });
  });

  it('on a conflict restores branch, index and working tree exactly', async () => {
    await commitToUpstream(upstream, { 'po/de.po': 'line 1 upstream\nline 2\nline 3\nline 4\nline 5\n' });
    await localCommit({ 'po/fr.po': 'un\ndeux\ntrois\n' }, 'Clean one');
    await localCommit({ 'po/de.po': 'line 1 local\nline 2\nline 3\nline 4\nline 5\n' }, 'Conflicting one');
    await fetch({ dir: work });
    await writeFile(path.join(work, 'untracked.txt'), 'keep me\n');
    const before = await snapshot();
    const err = await rebase({ dir: work }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VcsError);
    expect((err as VcsError).data).toMatchObject({ kind: 'conflict', operation: 'rebase', paths: ['po/de.po'] });
    expect(await snapshot()).toEqual(before);
  });

  it('asks mergeFile when both sides changed a file, with base, ours (upstream) and theirs (the local commit)', async () => {
    await commitToUpstream(upstream, { 'po/de.po': 'line 1 upstream\nline 2\nline 3\nline 4\nline 5\n', 'README.md': '# up\n' });
    await localCommit({ 'po/de.po': 'line 1\nline 2\nline 3\nline 4\nline 5 local\n' }, 'Local');
    await fetch({ dir: work });
    const calls: { path: string; base: string | null; ours: string | null; theirs: string | null }[] = [];
    const mergeFile: MergeFile = ({ path: file, base, ours, theirs }) => {
      const str = (b: Uint8Array | null) => (b ? Buffer.from(b).toString() : null);
      calls.push({ path: file, base: str(base), ours: str(ours), theirs: str(theirs) });
      return Buffer.from('merged by caller\n');
    };
    await rebase({ dir: work, mergeFile });
    expect(calls).toEqual([
      {
        path: 'po/de.po',
        base: FILES['po/de.po'],
        ours: 'line 1 upstream\nline 2\nline 3\nline 4\nline 5\n',
        theirs: 'line 1\nline 2\nline 3\nline 4\nline 5 local\n',
      },
    ]);
    expect(await text('po/de.po')).toBe('merged by caller\n');
    expect(await text('README.md')).toBe('# up\n');
  });

  it('handles deletions on either side and drops a commit whose change is already upstream', async () => {
    await commitToUpstream(upstream, { 'po/fr.po': null, 'README.md': '# same change\n' });
    await localCommit({ 'README.md': '# same change\n' }, 'Already upstream');
    await rm(path.join(work, 'po/de.po'));
    const kept = await commit({ dir: work, files: ['po/de.po'], message: 'Remove German', author: ALICE });
    await fetch({ dir: work });
    const result = await rebase({ dir: work });
    expect(result.result).toBe('rebased');
    expect(await gitCli(work, ['log', '--format=%s', 'origin/main..HEAD'])).toBe('Remove German');
    expect(await gitCli(work, ['ls-files'])).toBe('README.md');
    expect(kept).not.toBe(result.head);
    expect(await readdir(work)).toEqual(['.git', 'README.md']);
  });

  it('fast-forwards when there are no local commits', async () => {
    const theirs = await commitToUpstream(upstream, { 'po/sub/dir/new.po': 'x\n' });
    await fetch({ dir: work });
    expect(await rebase({ dir: work })).toEqual({ result: 'fast-forward', head: theirs });
    expect(await text('po/sub/dir/new.po')).toBe('x\n');
  });
});
