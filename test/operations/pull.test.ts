import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// Pull with pending edits (rebase per unit, merge), conflicts kept pending, failures 22/23/28, push retried, reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { Action } from '../../src/domain/actions.js';
import { State } from '../../src/domain/unit.js';
import { cleanupComponent, commitPending, editUnit, pullComponent, pushComponent, repositoryStatus, resetComponent } from '../../src/operations/index.js';
import * as vcs from '../../src/vcs/index.js';
import { commitToUpstream, gitCli } from '../helpers/git-repo.js';
import { CREDENTIALS, demoFile } from '../helpers/sync-env.js';
import { type RepoEnv, createRepoEnv, startPushRaceProxy } from './repo-env.js';

const DE = 'translations/app_de.ts';
const deText = () => demoFile('app/translations/app_de.ts');

describe('pull (rebase) with pending edits', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv();
  });
  afterAll(() => r.close());
  const app = () => r.component('app');

  it('does nothing and commits nothing when upstream has nothing new', async () => {
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Beenden'], state: 20, user: r.alice });
    const result = await pullComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(result).toMatchObject({ result: true, detail: 'Already up to date.' });
    expect((await r.unit('app', 'de', 'Quit')).pending).toBe(1);
    expect(await r.changes('app', [Action.COMMIT, Action.REBASE])).toEqual([]);
  });

  it('edit of another unit: both changes end up in the file, new upstream strings appear, nothing lost (21)', async () => {
    // Upstream changes "&File" and adds a string, while "Quit" is pending here.
    const upstream = deText()
      .replace('<translation>&amp;Datei</translation>', '<translation>&amp;Datei…</translation>')
      .replace(
        '</context>\n<context>\n    <name>AboutDialog</name>',
        '    <message>\n        <source>Save</source>\n        <translation>Speichern</translation>\n    </message>\n</context>\n<context>\n    <name>AboutDialog</name>',
      );
    await commitToUpstream(r.env.upstream('app'), { [DE]: upstream });
    const result = await pullComponent(await openComponent(r.store, r.config, r.project, app()), { user: r.bob });
    expect(result.result).toBe(true);
    expect(result.conflicts).toEqual([]);
    expect(result.commit?.units).toBe(1);
    expect(result.sync?.ok).toBe(true);

    const file = await r.workGit('app', ['show', `HEAD:${DE}`]);
    expect(file).toContain('<translation>&amp;Datei…</translation>');
    expect(file).toContain('<translation>Beenden</translation>');
    expect(file).toContain('<source>Save</source>');
    expect(await r.workGit('app', ['log', '--format=%an', '-2'])).toBe('Alice Translator\nUpstream Dev');
    expect((await r.unit('app', 'de', '&File')).target).toBe('&Datei…');
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Beenden', pending: 0 });
    expect((await r.unit('app', 'de', 'Save')).target).toBe('Speichern');
    const rebased = await r.changes('app', [Action.REBASE]);
    expect(rebased).toHaveLength(1);
    expect(rebased[0]).toMatchObject({ user_id: r.bob.id, details: { conflicts: 0 } });
    expect(rebased[0]!.details.new_head).toBe(await r.workGit('app', ['rev-parse', 'HEAD']));
  });

  it('edit of the same unit upstream changed: conflict reported, upstream text in the file, the edit kept pending', async () => {
    await pushComponent(await openComponent(r.store, r.config, r.project, app()));
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Open a file')).id, target: ['Öffne eine Datei'], state: 20, user: r.alice });
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'About')).id, target: ['Über %1'], state: 20, user: r.alice });
    const current = (await r.upstreamFile('app', DE))!;
    await commitToUpstream(r.env.upstream('app'), {
      [DE]: current.replace('<translation>Eine Datei öffnen</translation>', '<translation>Datei öffnen…</translation>'),
    });

    const result = await pullComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(result.result).toBe(true);
    expect(result.conflicts).toEqual([
      { path: DE, language: 'de', context: 'MainWindow\ntooltip', local: ['Öffne eine Datei'], upstream: ['Datei öffnen…'], kept: true },
    ]);
    expect(result.detail).toContain('pending again');
    const file = await r.workGit('app', ['show', `HEAD:${DE}`]);
    expect(file).toContain('<translation>Datei öffnen…</translation>');
    expect(file).toContain('<translation>Über %1</translation>');
    // The local text survived the re-sync as a pending edit by its author.
    expect(await r.unit('app', 'de', 'Open a file')).toMatchObject({ target: 'Öffne eine Datei', pending: 1, pending_author_id: r.alice.id });
    expect(await r.unit('app', 'de', 'About')).toMatchObject({ target: 'Über %1', pending: 0 });
    expect((await r.changes('app', [Action.REBASE])).at(-1)?.details.conflicts).toBe(1);
    expect((await repositoryStatus(await openComponent(r.store, r.config, r.project, app()))).needs_commit).toBe(true);

    // The next push writes the kept edit over upstream's text.
    const pushed = await pushComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(pushed.result).toBe(true);
    expect(await r.upstreamFile('app', DE)).toContain('<translation>Öffne eine Datei</translation>');
    expect((await r.unit('app', 'de', 'Open a file')).pending).toBe(0);
  });

  it('a rebase that cannot merge a file fails with 23, git unchanged, every edit pending again, component usable', async () => {
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Verlassen'], state: 20, user: r.bob });
    const head = await r.workGit('app', ['rev-parse', 'HEAD']);
    const committedBefore = (await r.changes('app', [Action.COMMIT])).length;
    await commitToUpstream(r.env.upstream('app'), { [DE]: '<?xml version="1.0"?>\n<TS version="2.1">\n<context>\n' });
    const result = await pullComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(result.result).toBe(false);
    // Upstream's file does not parse: the failure names it and the position (not a conflict of the replayed commit).
    expect(result.detail).toMatch(/Could not update the repository: translations\/app_de\.ts:\d+:\d+: .*upstream's version/);
    expect(await r.workGit('app', ['rev-parse', 'HEAD'])).toBe(head);
    expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Verlassen', pending: 1, pending_author_id: r.bob.id });
    const failed = await r.changes('app', [Action.FAILED_REBASE]);
    expect(failed).toHaveLength(1);
    // the detail's first line is the recorded error; the next says the commit made first was taken back
    const [first, ...rest] = (result.detail ?? '').split('\n');
    expect(failed[0]!.target).toBe(first?.replace(/^Could not update the repository: /, ''));
    expect(rest).toEqual(['Nothing was committed: the pending edits stay pending.']);
    // The taken-back commit left no "committed" record behind.
    expect(await r.changes('app', [Action.COMMIT])).toHaveLength(committedBefore);
    const status = await repositoryStatus(await openComponent(r.store, r.config, r.project, app()));
    expect(status.merge_failure).toBe(failed[0]!.target);
    expect(status).toMatchObject({ needs_commit: true, needs_merge: true });

    // Upstream repairs the file: the next pull succeeds and clears merge_failure.
    await commitToUpstream(r.env.upstream('app'), { [DE]: (await r.upstreamFile('app', DE, 'main~1'))! });
    const again = await pullComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(again.result).toBe(true);
    expect(await r.workGit('app', ['show', `HEAD:${DE}`])).toContain('<translation>Verlassen</translation>');
    expect((await repositoryStatus(await openComponent(r.store, r.config, r.project, app()))).merge_failure).toBeNull();
  });
});

describe('push rejected because upstream moved meanwhile', () => {
  let r: RepoEnv;
  let proxy: Awaited<ReturnType<typeof startPushRaceProxy>>;
  beforeAll(async () => {
    r = await createRepoEnv();
    // upstream moves before the first push of the first test, and before the first two of the third
    proxy = await startPushRaceProxy(r.env.server.url('app.git'), async (attempt) => {
      if (attempt === 1) {
        const text = (await r.upstreamFile('app', DE))!;
        await commitToUpstream(r.env.upstream('app'), { [DE]: text.replace('<translation>&amp;Datei</translation>', '<translation>D&amp;atei</translation>') });
      } else if (attempt === 3 || attempt === 4) {
        await commitToUpstream(r.env.upstream('app'), { 'README.md': `moved before push attempt ${attempt}\n` });
      }
    });
  });
  afterAll(async () => {
    await proxy.close();
    await r.close();
  });

  it('pulls (rebase) and pushes again once; 21 and 18 recorded, no 28', async () => {
    const component = { ...r.component('app'), push: proxy.url('app.git') };
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Beenden'], state: 20, user: r.alice });
    const result = await pushComponent(await openComponent(r.store, r.config, r.project, component));
    expect(result.result).toBe(true);
    const file = (await r.upstreamFile('app', DE))!;
    expect(file).toContain('<translation>D&amp;atei</translation>');
    expect(file).toContain('<translation>Beenden</translation>');
    expect(await r.upstreamGit('app', ['log', '--format=%an', '-2'])).toBe('Alice Translator\nUpstream Dev');
    expect((await r.changes('app', [Action.REBASE, Action.PUSH, Action.FAILED_PUSH])).map((c) => c.action)).toEqual([Action.REBASE, Action.PUSH]);
    expect(result.sync?.ok).toBe(true);
    expect((await r.unit('app', 'de', '&File')).target).toBe('D&atei');
  });

  it('records 28 with a credential-free error when the push fails', async () => {
    const component = { ...r.component('app'), push: r.env.server.url('missing.git', CREDENTIALS) };
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Schließen'], state: 20, user: r.alice });
    const result = await pushComponent(await openComponent(r.store, r.config, r.project, component));
    expect(result.result).toBe(false);
    const failed = await r.changes('app', [Action.FAILED_PUSH]);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.target).toMatch(/^push: /);
    expect(failed[0]!.target).not.toContain(CREDENTIALS.password);
    expect(result.detail).not.toContain(CREDENTIALS.password);
    expect((await repositoryStatus(await openComponent(r.store, r.config, r.project, component))).merge_failure).toBe(failed[0]!.target);
    // The edit is committed locally, not lost: a push to the real upstream delivers it.
    expect((await r.unit('app', 'de', 'Quit')).pending).toBe(0);
    expect((await pushComponent(await openComponent(r.store, r.config, r.project, r.component('app')))).result).toBe(true);
    expect(await r.upstreamFile('app', DE)).toContain('<translation>Schließen</translation>');
  });

  it('keeps bringing upstream in while it moves between fetch and push (three attempts)', async () => {
    const component = { ...r.component('app'), push: proxy.url('app.git') };
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Verlassen'], state: 20, user: r.alice });
    const before = (await r.changes('app')).length;
    const result = await pushComponent(await openComponent(r.store, r.config, r.project, component));
    expect(result.result).toBe(true);
    expect(await r.upstreamFile('app', DE)).toContain('<translation>Verlassen</translation>');
    expect(await r.upstreamGit('app', ['log', '--format=%an|%s', '-3'])).toBe(
      'Alice Translator|Translated using tms (German)\nUpstream Dev|Upstream change\nUpstream Dev|Upstream change',
    );
    expect(await r.upstreamFile('app', 'README.md')).toBe('moved before push attempt 4\n');
    const repository: number[] = [Action.REBASE, Action.PUSH, Action.FAILED_PUSH];
    const recorded = (await r.changes('app')).slice(before).filter((c) => repository.includes(c.action));
    expect(recorded.map((c) => c.action)).toEqual([Action.REBASE, Action.REBASE, Action.PUSH]);
  });
});

describe('pull with merge_style merge', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { app: { merge_style: 'merge' } } });
  });
  afterAll(() => r.close());
  const app = () => r.component('app');

  it('merges upstream into the commit of pending edits (20) with the merge message', async () => {
    await editUnit(r.store, { unitId: (await r.unit('app', 'cs', 'Quit')).id, target: ['Ukončit'], state: 20, user: r.alice });
    await commitToUpstream(r.env.upstream('app'), {
      [DE]: deText().replace('<translation>&amp;Datei</translation>', '<translation>&amp;Datei…</translation>'),
    });
    const result = await pullComponent(await openComponent(r.store, r.config, r.project, app()), { user: r.bob });
    expect(result.result).toBe(true);
    expect(await r.workGit('app', ['log', '-1', '--format=%p|%s'])).toMatch(/^[0-9a-f]+ [0-9a-f]+\|Merge branch 'origin\/main' into tms$/);
    expect((await r.unit('app', 'de', '&File')).target).toBe('&Datei…');
    expect(await r.unit('app', 'cs', 'Quit')).toMatchObject({ target: 'Ukončit', pending: 0 });
    expect(await r.changes('app', [Action.MERGE])).toHaveLength(1);
    expect((await pushComponent(await openComponent(r.store, r.config, r.project, app()))).result).toBe(true);
  });

  it('a merge conflict records 22, takes its commit back and keeps the edit pending', async () => {
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Open a file')).id, target: ['Öffne eine Datei'], state: 20, user: r.alice });
    const head = await r.workGit('app', ['rev-parse', 'HEAD']);
    const current = (await r.upstreamFile('app', DE))!;
    await commitToUpstream(r.env.upstream('app'), {
      [DE]: current.replace('<translation>Eine Datei öffnen</translation>', '<translation>Datei öffnen…</translation>'),
    });
    const result = await pullComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(result.result).toBe(false);
    expect(await r.changes('app', [Action.FAILED_MERGE])).toHaveLength(1);
    expect(await r.workGit('app', ['rev-parse', 'HEAD'])).toBe(head);
    expect(await r.unit('app', 'de', 'Open a file')).toMatchObject({ target: 'Öffne eine Datei', pending: 1, pending_author_id: r.alice.id });
    // Usable afterwards: a reset brings upstream in and the edit is still pending.
    const reset = await resetComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(reset.result).toBe(true);
    expect(await r.unit('app', 'de', 'Open a file')).toMatchObject({ target: 'Öffne eine Datei', pending: 1 });
    expect((await pushComponent(await openComponent(r.store, r.config, r.project, app()))).result).toBe(true);
    expect(await r.upstreamFile('app', DE)).toContain('<translation>Öffne eine Datei</translation>');
  });
});

describe('reset and cleanup', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv();
  });
  afterAll(() => r.close());
  const app = () => r.component('app');

  it('reset drops unpushed commits (19 with both heads) and keeps pending edits pending', async () => {
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Beenden'], state: 20, user: r.alice });
    await commitPending(await openComponent(r.store, r.config, r.project, app()));
    const local = await r.workGit('app', ['rev-parse', 'HEAD']);
    await editUnit(r.store, { unitId: (await r.unit('app', 'cs', 'Quit')).id, target: ['Konec'], state: 20, user: r.bob });
    const upstreamHead = await commitToUpstream(r.env.upstream('app'), { 'README.md': 'upstream\n' });

    const result = await resetComponent(await openComponent(r.store, r.config, r.project, app()), { user: r.bob });
    expect(result.result).toBe(true);
    expect(await r.workGit('app', ['rev-parse', 'HEAD'])).toBe(upstreamHead);
    const resets = await r.changes('app', [Action.RESET]);
    expect(resets).toHaveLength(1);
    expect(resets[0]).toMatchObject({ user_id: r.bob.id, details: { new_head: upstreamHead, previous_head: local } });
    expect(await r.unit('app', 'cs', 'Quit')).toMatchObject({ target: 'Konec', pending: 1, pending_author_id: r.bob.id });
    // The committed-but-unpushed edit went with its commit, as a reset does.
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: '', state: State.EMPTY, pending: 0 });
    const next = await commitPending(await openComponent(r.store, r.config, r.project, app()));
    expect(next.commits.map((c) => c.files)).toEqual([['translations/app_cs.ts']]);
  });

  it('cleanup removes untracked files and folders, and nothing tracked', async () => {
    const work = r.workDir('app');
    mkdirSync(path.join(work, 'tmp', 'deep'), { recursive: true });
    writeFileSync(path.join(work, 'tmp', 'deep', 'junk.txt'), 'x');
    writeFileSync(path.join(work, 'translations', 'app_fr.ts.orig'), 'x');
    const result = await cleanupComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(result).toEqual({ result: true, detail: 'Removed 2 untracked file(s).' });
    expect(existsSync(path.join(work, 'tmp'))).toBe(false);
    expect(existsSync(path.join(work, 'translations', 'app_de.ts'))).toBe(true);
    expect(await r.workGit('app', ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    const s = await vcs.status({ dir: work });
    expect(s.needsPush).toBe(true);
  });
});

describe('a working tree left behind by a process killed during a checkout', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv();
  });
  afterAll(() => r.close());

  it('is put back to HEAD and the pull goes through, nothing lost (found by campaign:kill)', async () => {
    // the edit is in Czech; upstream changes the German file, which a killed checkout left half written
    await editUnit(r.store, { unitId: (await r.unit('app', 'cs', 'Quit')).id, target: ['Konec!'], state: 20, user: r.alice });
    const text = (await r.upstreamFile('app', DE))!;
    await commitToUpstream(r.env.upstream('app'), { [DE]: text.replace('<translation>&amp;Datei</translation>', '<translation>D&amp;atei</translation>') });
    writeFileSync(path.join(r.workDir('app'), DE), text.slice(0, Math.floor(text.length / 2)));
    const result = await pullComponent(await openComponent(r.store, r.config, r.project, r.component('app')), { user: r.bob });
    expect(result.detail ?? '').not.toMatch(/local changes would be overwritten/);
    expect(result.result).toBe(true);
    const file = await r.workGit('app', ['show', `HEAD:${DE}`]);
    expect(file).toContain('<translation>D&amp;atei</translation>');
    expect(await r.workGit('app', ['show', 'HEAD:translations/app_cs.ts'])).toContain('<translation>Konec!</translation>');
    expect(await r.workGit('app', ['status', '--porcelain', '--untracked-files=no'])).toBe('');
  });
});

describe('upstream rewrote its history (force-push) without commits tms had fetched', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv();
  });
  afterAll(() => r.close());

  it('replays only tms’s own commits: upstream’s dropped commit stays dropped, the edits go on top (found by campaign:upstream)', async () => {
    const h = () => openComponent(r.store, r.config, r.project, r.component('app'));
    const upstream = r.env.upstream('app');
    const root = await gitCli(upstream, ['rev-list', '--max-parents=0', 'main']);
    await commitToUpstream(upstream, { 'README.md': 'one\n' }, { message: 'upstream one' });
    expect((await pullComponent(await h())).result).toBe(true);
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Beenden!'], state: 20, user: r.alice });
    expect((await commitPending(await h())).result).toBe(true);
    // upstream drops "upstream one" and writes the same file differently
    await gitCli(upstream, ['update-ref', 'refs/heads/main', root]);
    await commitToUpstream(upstream, { 'README.md': 'two\n' }, { message: 'upstream two' });
    const pulled = await pullComponent(await h());
    expect(pulled.detail ?? '').not.toMatch(/conflict/);
    expect(pulled.result).toBe(true);
    expect(await r.workGit('app', ['show', 'HEAD:README.md'])).toBe('two');
    expect(await r.workGit('app', ['show', `HEAD:${DE}`])).toContain('<translation>Beenden!</translation>');
    expect(await r.workGit('app', ['log', '--format=%s'])).not.toContain('upstream one');
    expect((await pushComponent(await h())).result).toBe(true);
  });
});
