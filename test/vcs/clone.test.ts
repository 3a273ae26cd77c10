// The first clone is made by git in its own process: a large file in the repository is never inflated in tms's
// memory, and the working copy it leaves is one isomorphic-git works on (commit, status, push).
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clone, commit, push, status } from '../../src/vcs/index.js';
import { commitToUpstream, createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';

const BIG = 96 * 2 ** 20;
let root: string;
let upstream: string;

beforeAll(async () => {
  root = await tempDir('tms-clone-');
  upstream = path.join(root, 'up.git');
  await createUpstream({ dir: upstream, files: { 'po/de.po': 'msgid "a"\nmsgstr "b"\n', 'big/blob.bin': Buffer.alloc(BIG, 0x61) } });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the first clone', () => {
  it('checks out a large file without inflating it in this process', async () => {
    const dir = path.join(root, 'work');
    const before = process.resourceUsage().maxRSS * 1024;
    const rssBefore = process.memoryUsage().rss;
    await clone({ dir, url: upstream, branch: 'main' });
    const grown = process.resourceUsage().maxRSS * 1024 - Math.max(before, rssBefore);
    expect((await stat(path.join(dir, 'big/blob.bin'))).size).toBe(BIG);
    // isomorphic-git held the inflated blob several times over (hashing, indexing, checking out)
    expect(grown).toBeLessThan(BIG / 2);
    expect(await gitCli(dir, ['status', '--porcelain'])).toBe('');
  });

  it('leaves a working copy isomorphic-git commits in and pushes from, the large file untouched', async () => {
    const dir = path.join(root, 'work');
    await writeFile(path.join(dir, 'po/de.po'), 'msgid "a"\nmsgstr "c"\n');
    const oid = await commit({ dir, files: ['po/de.po'], message: 'Translated', author: { name: 'T', email: 't@example.test' } });
    expect(await status({ dir })).toMatchObject({ ahead: 1, behind: 0 });
    await push({ dir });
    expect(await gitCli(upstream, ['rev-parse', 'main'])).toBe(oid);
    expect(await gitCli(upstream, ['ls-tree', '-r', '--name-only', 'main'])).toContain('big/blob.bin');
    expect(await gitCli(dir, ['status', '--porcelain'])).toBe('');
    expect(await readFile(path.join(dir, 'po/de.po'), 'utf8')).toContain('"c"');
  });
});

describe('the first clone with attributes that would convert files', () => {
  it('checks out the bytes git stores, as every later write does (no line-ending, encoding or filter conversion)', async () => {
    const up = path.join(root, 'attributes.git');
    const lf = 'msgid "a"\nmsgstr "b"\n';
    await createUpstream({ dir: up, files: { 'po/de.po': lf, 'locales/de.json': '{"a": "b"}\n', 'notes.txt': '$Id$\n' } });
    await commitToUpstream(up, { '.gitattributes': '* text eol=crlf\n*.txt ident\n' });
    const dir = path.join(root, 'attributes-work');
    await clone({ dir, url: up, branch: 'main' });
    expect(await readFile(path.join(dir, 'po/de.po'), 'utf8')).toBe(lf);
    expect(await readFile(path.join(dir, 'locales/de.json'), 'utf8')).toBe('{"a": "b"}\n');
    expect(await readFile(path.join(dir, 'notes.txt'), 'utf8')).toBe('$Id$\n');
    expect(await gitCli(dir, ['status', '--porcelain'])).toBe('');
  });
});
