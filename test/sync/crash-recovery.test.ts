// Every sync converges on upstream, whatever state an earlier one was killed in (the states kill -9 left behind).
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { syncProject } from '../../src/sync/index.js';
import { commitToUpstream, createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';
import { sqlOn } from '../helpers/store.js';
import { DEMO, demoFile, helloConfig } from '../helpers/sync-env.js';

const DE = 'translations/app_de.ts';
const NEW_STRING = '<message>\n        <source>Brand new</source>\n        <translation>Ganz neu</translation>\n    </message>\n';

describe('syncs after one that was killed', () => {
  let root: string;
  let upstream: string;
  let store: Store;
  const config = () => helloConfig(root, { repo: upstream });
  const work = () => path.join(root, 'repos', 'hello', 'app');
  const targets = async () =>
    (await sqlOn(store).values(
      'SELECT u.target FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.filename = ? ORDER BY u.position',
      DE,
    )) as string[];

  beforeEach(async () => {
    root = await tempDir('tms-crash-');
    upstream = path.join(root, 'upstream', 'app.git');
    await createUpstream({ dir: upstream, fixture: path.join(DEMO, 'app') });
    store = await openStore(path.join(root, 'tms.sqlite'));
    const [first] = await syncProject(store, config(), 'hello');
    expect(first?.ok).toBe(true);
  });
  afterEach(async () => {
    await store.close();
    await rm(root, { recursive: true, force: true });
  });

  /** Upstream gains a German string; returns its commit. */
  const upstreamMoves = () => commitToUpstream(upstream, { [DE]: demoFile(`app/${DE}`).replace('</context>', `    ${NEW_STRING}</context>`) });

  it('killed while fetching: the tracking ref names upstream’s commit but its objects never arrived', async () => {
    const moved = await upstreamMoves();
    // what the cut-short fetch left: the ref moved, the objects missing
    writeFileSync(path.join(work(), '.git', 'refs', 'remotes', 'origin', 'main'), `${moved}\n`);
    const [r] = await syncProject(store, config(), 'hello');
    expect(r?.error).toBeUndefined();
    expect(r?.commit).toBe(moved);
    expect(await targets()).toContain('Ganz neu');
    await gitCli(work(), ['fsck', '--no-dangling']);
  });

  it('killed while checking out: files left empty are restored from the object store and read as upstream has them', async () => {
    await upstreamMoves();
    // what the cut-short checkout left: the branch moved, files empty
    await gitCli(work(), ['fetch', '-q', 'origin']);
    await gitCli(work(), ['merge', '-q', '--ff-only', 'origin/main']);
    truncateSync(path.join(work(), DE), 0);
    truncateSync(path.join(work(), 'translations', 'app_cs.ts'), 0);
    const [r] = await syncProject(store, config(), 'hello');
    expect(r?.error).toBeUndefined();
    expect(r?.ok).toBe(true);
    expect(await targets()).toContain('Ganz neu');
    // the working copy is whole again: git sees no difference from HEAD
    expect(readFileSync(path.join(work(), DE), 'utf8')).toContain('Ganz neu');
    expect(await gitCli(work(), ['status', '--porcelain'])).toBe('');
    // and the next sync has nothing to do
    const [again] = await syncProject(store, config(), 'hello');
    expect(again).toMatchObject({ ok: true, parsed: 0 });
  });

  it('killed during a checkout, then upstream moves the same file again: the half-written file is put back and the fast-forward goes through (found by campaign:kill)', async () => {
    const text = readFileSync(path.join(work(), DE), 'utf8');
    writeFileSync(path.join(work(), DE), text.slice(0, Math.floor(text.length / 2)));
    await upstreamMoves();
    const [r] = await syncProject(store, config(), 'hello');
    expect(r?.error).toBeUndefined();
    expect(r?.ok).toBe(true);
    expect(await targets()).toContain('Ganz neu');
    expect(await gitCli(work(), ['status', '--porcelain'])).toBe('');
  });
});
