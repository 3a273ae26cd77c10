// What a fetch asks the remote for: with tms's commits not yet pushed, only what upstream has that we lack.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { clone, commit, fetch } from '../../src/vcs/index.js';
import { commitToUpstream, createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';

const TMS = { name: 'tms', email: 'tms@example.test', timestamp: 1_700_001_000, timezoneOffset: 0 };
/** Incompressible, so a pack carrying it is at least this big. */
const BIG = 512 * 1024;

let root: string;
let upstream: string;
let work: string;

beforeEach(async () => {
  root = await tempDir('tms-fetch-negotiation-');
  upstream = path.join(root, 'up.git');
  await createUpstream({ dir: upstream, files: { 'data/big.bin': randomBytes(BIG), 'po/de.po': 'eins\n' } });
  work = path.join(root, 'work');
  await clone({ dir: work, url: upstream, branch: 'main' });
  await explodePacks();
  // tms's commit, not pushed yet: the remote does not know the local branch's tip
  await writeFile(path.join(work, 'po/de.po'), 'zwei\n');
  await commit({ dir: work, files: ['po/de.po'], message: 'Translated', author: TMS });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * Turns the clone's pack into loose objects: a fetch answered with upstream's whole history would otherwise rewrite
 * the very same pack (same name, same size) and go unseen.
 */
async function explodePacks(): Promise<void> {
  const dir = path.join(work, '.git', 'objects', 'pack');
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.pack')) continue;
    const pack = await readFile(path.join(dir, name));
    await rm(path.join(dir, name));
    await rm(path.join(dir, name.replace(/\.pack$/, '.idx')));
    execFileSync('git', ['unpack-objects', '-q'], { cwd: work, input: pack });
  }
}

/** Bytes of the packs the working copy holds. */
async function packBytes(): Promise<number> {
  const dir = path.join(work, '.git', 'objects', 'pack');
  const names = await readdir(dir).catch(() => [] as string[]);
  let total = 0;
  for (const name of names) if (name.endsWith('.pack')) total += (await stat(path.join(dir, name))).size;
  return total;
}

it('fetches nothing from an upstream that has not moved, whatever tms committed since', async () => {
  const before = await packBytes();
  const head = await fetch({ dir: work, branch: 'main' });
  expect(head).toBe(await gitCli(upstream, ['rev-parse', 'main']));
  expect(await packBytes()).toBeLessThan(before + BIG / 8);
});

it('fetches only the commits upstream made since', async () => {
  const moved = await commitToUpstream(upstream, { 'po/fr.po': 'un\n' }, { message: 'French' });
  const before = await packBytes();
  expect(await fetch({ dir: work, branch: 'main' })).toBe(moved);
  expect(await packBytes()).toBeLessThan(before + BIG / 8);
  expect(await gitCli(work, ['rev-parse', 'refs/remotes/origin/main'])).toBe(moved);
});
