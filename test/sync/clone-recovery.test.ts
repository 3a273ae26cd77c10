// A first clone cut short (kill -9, a full disk) never breaks the component: the next sync clones again.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { syncProject } from '../../src/sync/index.js';
import { createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';
import { DEMO, helloConfig } from '../helpers/sync-env.js';

describe('a clone cut short', () => {
  let root: string;
  let upstream: string;
  let store: Store;
  const config = (repo: string) => helloConfig(root, { repo });
  const work = () => path.join(root, 'repos', 'hello', 'app');

  beforeAll(async () => {
    root = await tempDir('tms-clone-');
    upstream = path.join(root, 'upstream', 'app.git');
    await createUpstream({ dir: upstream, fixture: path.join(DEMO, 'app') });
    store = await openStore(path.join(root, 'tms.sqlite'));
  });
  afterAll(async () => {
    await store.close();
    await rm(root, { recursive: true, force: true });
  });

  it('recognises a working copy whose clone stopped before any ref (HEAD on an empty branch) and clones again', async () => {
    // what a clone killed in place leaves: .git with HEAD on an unborn branch, no commits, no remote-tracking ref
    mkdirSync(work(), { recursive: true });
    await gitCli(work(), ['init', '-q', '-b', 'master']);
    writeFileSync(path.join(work(), 'half-written.ts'), '');
    const [r] = await syncProject(store, config(upstream), 'hello');
    expect(r?.error).toBeUndefined();
    expect(r).toMatchObject({ ok: true, update: 'cloned' });
    expect(r?.files.map((f) => [f.path, f.status])).toEqual([
      ['translations/app_cs.ts', 'parsed'],
      ['translations/app_de.ts', 'parsed'],
    ]);
    expect(existsSync(path.join(work(), 'half-written.ts'))).toBe(false);
    expect(await gitCli(work(), ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('main');
  });

  it('clones into a temporary folder: a failed clone leaves no working copy behind, and the next sync clones', async () => {
    await rm(work(), { recursive: true, force: true });
    // leftovers of a clone killed earlier
    mkdirSync(`${work()}.cloning-999-1`, { recursive: true });
    const [failed] = await syncProject(store, config(path.join(root, 'upstream', 'missing.git')), 'hello');
    expect(failed?.ok).toBe(false);
    expect(existsSync(work())).toBe(false);
    expect(readdirSync(path.dirname(work())).filter((n) => n.startsWith('app.cloning-'))).toEqual([]);
    const [r] = await syncProject(store, config(upstream), 'hello');
    expect(r).toMatchObject({ ok: true, update: 'cloned' });
  });
});
