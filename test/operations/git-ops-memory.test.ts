// What the git work keeps between operations: nothing of the packs it read. A long-running server fetches a new pack
// into a working copy each time upstream moves; a cache per working copy kept every pack read since start.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gitOps } from '../../src/operations/git-ops.js';
import { clone } from '../../src/vcs/index.js';
import { commitToUpstream, createUpstream, tempDir } from '../helpers/git-repo.js';

/** Incompressible, so each fetched pack is at least this big. */
const BIG = 2 * 1024 * 1024;
const ROUNDS = 8;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Bytes held by array buffers (Node's Buffers: read files, packs) once the collector has run. */
function heldBuffers(): number {
  gc();
  gc();
  return process.memoryUsage().arrayBuffers;
}

let root: string;
let upstream: string;
let work: string;
beforeAll(async () => {
  root = await tempDir('tms-git-ops-memory-');
  upstream = path.join(root, 'up.git');
  await createUpstream({ dir: upstream, files: { 'po/de.po': 'eins\n' } });
  work = path.join(root, 'work');
  await clone({ dir: work, url: upstream, branch: 'main' });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it('keeps none of the packs it read once the operations are done', async () => {
  const remote = { dir: work, url: upstream, branch: 'main', timeoutMs: 60_000 };
  const before = heldBuffers();
  for (let i = 0; i < ROUNDS; i++) {
    // upstream moves: the fetch brings a new pack of at least BIG bytes, and reading the new file loads it
    await commitToUpstream(upstream, { [`data/${i}.bin`]: randomBytes(BIG) }, { message: `data ${i}` });
    const head = await gitOps.fetch(remote);
    const [blob] = await gitOps.readBlobs({ dir: work, ref: head!, paths: [`data/${i}.bin`] });
    expect(blob?.byteLength).toBe(BIG);
  }
  // at most what one operation holds while it runs, not one pack per fetch (ROUNDS × BIG before)
  expect(heldBuffers() - before).toBeLessThan(2 * BIG);
});
