// The write path on shallow working copies (a component's `depth`): pending edits meet an upstream that moved on, or
// that rewrote its history below the shallow boundary; pull (rebase and merge) and push succeed and nothing is lost.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { commitPending, editUnit, pullComponent, pushComponent } from '../../src/operations/index.js';
import { commitToUpstream, gitCli } from '../helpers/git-repo.js';
import { demoFile } from '../helpers/sync-env.js';
import { type RepoEnv, createRepoEnv } from './repo-env.js';

const DE = 'translations/app_de.ts';
const CS = 'translations/app_cs.ts';
const deText = () => demoFile('app/translations/app_de.ts');

for (const mergeStyle of ['rebase', 'merge'] as const) {
  describe(`a shallow working copy (depth 1), pull with ${mergeStyle}`, () => {
    let r: RepoEnv;
    beforeAll(async () => {
      r = await createRepoEnv({ depth: 1, components: { app: { merge_style: mergeStyle } } });
    });
    afterAll(() => r.close());
    const h = () => openComponent(r.store, r.config, r.project, r.component('app'));

    it('is cloned with one commit of upstream’s history', async () => {
      expect(existsSync(path.join(r.workDir('app'), '.git', 'shallow'))).toBe(true);
      expect(await r.workGit('app', ['rev-list', '--count', 'HEAD'])).toBe('1');
      expect(Number(await r.upstreamGit('app', ['rev-list', '--count', 'main']))).toBeGreaterThan(1);
    });

    it('upstream moved on while edits are pending: pull and push succeed, every edit upstream', async () => {
      await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Beenden'], state: 20, user: r.alice });
      await editUnit(r.store, { unitId: (await r.unit('app', 'cs', 'Quit')).id, target: ['Ukončit'], state: 20, user: r.bob });
      await commitToUpstream(r.env.upstream('app'), {
        [DE]: deText().replace('<translation>&amp;Datei</translation>', '<translation>&amp;Datei…</translation>'),
      });
      const pulled = await pullComponent(await h(), { user: r.bob });
      expect(pulled.detail ?? '').toBe(pulled.result ? (pulled.detail ?? '') : 'no failure expected');
      expect(pulled.result).toBe(true);
      expect((await pushComponent(await h())).result).toBe(true);
      const de = (await r.upstreamFile('app', DE))!;
      expect(de).toContain('<translation>&amp;Datei…</translation>');
      expect(de).toContain('<translation>Beenden</translation>');
      expect(await r.upstreamFile('app', CS)).toContain('<translation>Ukončit</translation>');
      expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Beenden', pending: 0 });
      expect((await r.unit('app', 'de', '&File')).target).toBe('&Datei…');
      expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
    });

    it('upstream rewrote its history below the shallow boundary: the history is deepened to the merge base, pull and push succeed', async () => {
      // a commit of tms's own, not pushed yet, on top of the shallow history
      await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'About')).id, target: ['Über das Programm'], state: 20, user: r.alice });
      expect((await commitPending(await h())).result).toBe(true);
      const upstream = r.env.upstream('app');
      // upstream goes back to a commit older than anything the working copy has, and goes on from there
      const old = await gitCli(upstream, ['rev-list', '--max-parents=0', 'main']);
      expect(
        await r.workGit('app', ['cat-file', '-e', old]).then(
          () => true,
          () => false,
        ),
      ).toBe(false);
      await gitCli(upstream, ['update-ref', 'refs/heads/main', old]);
      await commitToUpstream(
        upstream,
        { [CS]: demoFile('app/translations/app_cs.ts').replace('</TS>', '<!-- rewritten -->\n</TS>') },
        { message: 'rewritten' },
      );
      const pulled = await pullComponent(await h(), { user: r.bob });
      expect(pulled.detail ?? '').not.toMatch(/conflict|cannot merge|not found/);
      expect(pulled.result).toBe(true);
      // the merge base came with the fetch: the working copy's history now reaches it
      expect(
        await r.workGit('app', ['cat-file', '-e', old]).then(
          () => true,
          () => false,
        ),
      ).toBe(true);
      expect((await pushComponent(await h())).result).toBe(true);
      expect(await r.upstreamFile('app', DE)).toContain('<translation>Über das Programm</translation>');
      expect(await r.upstreamFile('app', CS)).toContain('<!-- rewritten -->');
      expect(await r.upstreamGit('app', ['log', '--format=%s', 'main'])).toContain('rewritten');
      expect(await r.unit('app', 'de', 'About')).toMatchObject({ target: 'Über das Programm', pending: 0 });
      expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
    });
  });
}
