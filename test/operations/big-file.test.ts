// A translation file over max_file_bytes is refused by the sync without being read, but it stays in the working copy:
// later commits and pushes leave it exactly as upstream has it (never committed as deleted or changed).
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { commitPending, editUnit, pushComponent } from '../../src/operations/index.js';
import { syncProject } from '../../src/sync/index.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { type RepoEnv, createRepoEnv } from './repo-env.js';

const BIG = 'translations/app_bg.ts';

describe('a file over max_file_bytes in the repository', () => {
  let r: RepoEnv;
  let blob: string;
  beforeAll(async () => {
    r = await createRepoEnv();
    const head = '<?xml version="1.0"?>\n<TS version="2.1" language="bg"><context><name>A</name><message><source>x</source><translation>';
    await commitToUpstream(r.env.upstream('app'), { [BIG]: `${head}${'a'.repeat(64 * 1024)}</translation></message></context></TS>\n` });
    blob = await r.upstreamGit('app', ['rev-parse', `main:${BIG}`]);
    r.config.max_file_bytes = 32 * 1024;
    // a fresh clone (the first sync of a component)
    await rm(r.workDir('app'), { recursive: true, force: true });
  });
  afterAll(() => r.close());

  it('is refused by the sync, checked out untouched, and kept as it is by later commits and pushes', async () => {
    const [result] = await syncProject(r.store, r.config, 'hello', 'app');
    expect(result!.update).toBe('cloned');
    expect(result!.files.find((f) => f.path === BIG)).toMatchObject({ status: 'failed', error: expect.stringMatching(/more than max_file_bytes/) });
    expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Beenden'], state: 20, user: r.alice });
    const h = await openComponent(r.store, r.config, r.project, r.component('app'));
    expect((await commitPending(h)).result).toBe(true);
    expect((await pushComponent(h)).result).toBe(true);
    expect(await r.upstreamFile('app', 'translations/app_de.ts')).toContain('<translation>Beenden</translation>');
    expect(await r.upstreamGit('app', ['rev-parse', `main:${BIG}`])).toBe(blob);
    expect(await r.upstreamGit('app', ['diff', '--name-status', 'main~1', 'main'])).toBe('M\ttranslations/app_de.ts');
    expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
  });
});
