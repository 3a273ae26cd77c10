// Shallow working copies (a component's `depth`): upstream moving on, rewriting history below the shallow boundary,
// merge, rebase and push all work, deepening the history only when an operation needs commits it does not have.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clone, commit, fetch, merge, push, rebase, status } from '../../src/vcs/index.js';
import { commitToUpstream, createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';

const TMS = { name: 'tms', email: 'tms@example.test', timestamp: 1_700_001_000, timezoneOffset: 0 };
const LATER = { name: 'Upstream Dev', email: 'dev@upstream.test', timestamp: 1_700_002_000 };

let root: string;
let upstream: string;
let work: string;
/** Upstream's commits, oldest first: A, B, C (C is the tip the shallow clone starts from). */
let history: string[];

beforeEach(async () => {
  root = await tempDir('tms-shallow-');
  upstream = path.join(root, 'up.git');
  history = [await createUpstream({ dir: upstream, files: { 'po/de.po': 'one\ntwo\nthree\n', 'po/fr.po': 'un\n', 'README.md': 'A\n' } })];
  history.push(await commitToUpstream(upstream, { 'README.md': 'B\n' }, { message: 'B' }));
  history.push(await commitToUpstream(upstream, { 'README.md': 'C\n' }, { message: 'C' }));
  work = path.join(root, 'work');
  await clone({ dir: work, url: upstream, branch: 'main', depth: 1 });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function local(files: Record<string, string>, message: string): Promise<string> {
  for (const [file, content] of Object.entries(files)) await writeFile(path.join(work, file), content);
  return (await commit({ dir: work, files: Object.keys(files), message, author: TMS }))!;
}

/** Upstream's branch moved back to `base`, then a new commit on it: history below the shallow boundary rewritten. */
async function forcePushOnto(base: string, files: Record<string, string>): Promise<string> {
  const scratch = path.join(root, 'rewrite');
  await gitCli(root, ['clone', '-q', upstream, scratch]);
  await gitCli(scratch, ['reset', '-q', '--hard', base]);
  for (const [file, content] of Object.entries(files)) await writeFile(path.join(scratch, file), content);
  await gitCli(scratch, ['commit', '-q', '-am', 'rewritten'], LATER);
  await gitCli(scratch, ['push', '-q', '--force', 'origin', 'main']);
  const oid = await gitCli(scratch, ['rev-parse', 'HEAD']);
  await rm(scratch, { recursive: true, force: true });
  return oid;
}

describe('a shallow working copy', () => {
  it('starts with one commit', async () => {
    expect(await gitCli(work, ['rev-list', '--count', 'HEAD'])).toBe('1');
    expect(await status({ dir: work })).toMatchObject({ ahead: 0, behind: 0 });
  });

  it('rebases and pushes when upstream moved on', async () => {
    const mine = await local({ 'po/de.po': 'one\nzwei\nthree\n' }, 'tms');
    await commitToUpstream(upstream, { 'po/fr.po': 'un\ndeux\n' }, { who: LATER });
    await fetch({ dir: work });
    expect(await status({ dir: work })).toMatchObject({ ahead: 1, behind: 1 });
    expect((await rebase({ dir: work })).result).toBe('rebased');
    await push({ dir: work });
    expect(await gitCli(upstream, ['show', 'main:po/de.po'])).toBe('one\nzwei\nthree');
    expect(await gitCli(upstream, ['show', 'main:po/fr.po'])).toBe('un\ndeux');
    expect(mine).toMatch(/^[0-9a-f]{40}$/);
  });

  it('merges and pushes when upstream moved on', async () => {
    await local({ 'po/de.po': 'one\nzwei\nthree\n' }, 'tms');
    await commitToUpstream(upstream, { 'po/fr.po': 'un\ndeux\n' }, { who: LATER });
    await fetch({ dir: work });
    expect((await merge({ dir: work, author: TMS })).result).toBe('merged');
    await push({ dir: work });
    expect(await gitCli(upstream, ['show', 'main:po/de.po'])).toBe('one\nzwei\nthree');
    expect(await gitCli(upstream, ['show', 'main:po/fr.po'])).toBe('un\ndeux');
  });

  it('rebases when upstream rewrote history below the shallow boundary (merge base B beyond it)', async () => {
    await local({ 'po/de.po': 'one\nzwei\nthree\n' }, 'tms');
    const rewritten = await forcePushOnto(history[1]!, { 'po/fr.po': 'un\ndeux\n' });
    await fetch({ dir: work });
    // the fetch brought upstream's history below the boundary, merge base B included: the boundary is gone
    expect(await gitCli(work, ['rev-parse', '--is-shallow-repository'])).toBe('false');
    expect(await gitCli(work, ['merge-base', 'HEAD', 'origin/main'])).toBe(history[1]);
    const replay = (c: { committer: { email: string } }) => c.committer.email === TMS.email;
    expect((await rebase({ dir: work, replay })).result).toBe('rebased');
    expect(await gitCli(work, ['rev-parse', 'HEAD~1'])).toBe(rewritten);
    await push({ dir: work });
    expect(await gitCli(upstream, ['show', 'main:po/de.po'])).toBe('one\nzwei\nthree');
    expect(await gitCli(upstream, ['show', 'main:README.md'])).toBe('B');
    expect(await readFile(path.join(work, 'po/fr.po'), 'utf8')).toBe('un\ndeux\n');
  });

  for (const style of ['rebase', 'merge'] as const) {
    it(`${style}s when upstream dropped the commits between the shallow boundary and the merge base`, async () => {
      await local({ 'po/de.po': 'one\nzwei\nthree\n' }, 'tms');
      // back to A: B, and C (the boundary), are no longer upstream's, so no fetch can bring them
      const rewritten = await forcePushOnto(history[0]!, { 'po/fr.po': 'un\ndeux\n' });
      await fetch({ dir: work });
      const replay = (c: { committer: { email: string } }) => c.committer.email === TMS.email;
      const done = style === 'rebase' ? await rebase({ dir: work, replay }) : await merge({ dir: work, author: TMS });
      expect(done.result).toBe(style === 'rebase' ? 'rebased' : 'merged');
      expect(await gitCli(work, ['rev-parse', style === 'rebase' ? 'HEAD~1' : 'HEAD^2'])).toBe(rewritten);
      await push({ dir: work });
      expect(await gitCli(upstream, ['show', 'main:po/de.po'])).toBe('one\nzwei\nthree');
      expect(await gitCli(upstream, ['show', 'main:po/fr.po'])).toBe('un\ndeux');
      expect(await gitCli(work, ['status', '--porcelain'])).toBe('');
    });
  }

  it('merges when upstream rewrote history below the shallow boundary', async () => {
    await local({ 'po/de.po': 'one\nzwei\nthree\n' }, 'tms');
    await forcePushOnto(history[1]!, { 'po/fr.po': 'un\ndeux\n' });
    await fetch({ dir: work });
    expect((await merge({ dir: work, author: TMS })).result).toBe('merged');
    await push({ dir: work });
    expect(await gitCli(upstream, ['show', 'main:po/de.po'])).toBe('one\nzwei\nthree');
    expect(await gitCli(upstream, ['show', 'main:po/fr.po'])).toBe('un\ndeux');
  });
});
