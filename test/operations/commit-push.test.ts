// Edit → commit → push against a real upstream over smart HTTP, checked with the git CLI on the upstream side.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { Action } from '../../src/domain/actions.js';
import { State } from '../../src/domain/unit.js';
import { commitPending, editUnit, fileScan, fileSync, pushComponent, repositoryStatus } from '../../src/operations/index.js';
import { syncProject } from '../../src/sync/index.js';
import { COMMITTER, type RepoEnv, createRepoEnv, lastCommitDiff } from './repo-env.js';

describe('commit and push', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv();
  });
  afterAll(() => r.close());

  const app = () => r.component('app');

  it('never commits when nothing is pending', async () => {
    const head = await r.workGit('app', ['rev-parse', 'HEAD']);
    const result = await commitPending(await openComponent(r.store, r.config, r.project, app()));
    expect(result).toMatchObject({ result: true, commits: [], units: 0, failed: [] });
    expect(await r.workGit('app', ['rev-parse', 'HEAD'])).toBe(head);
    expect(await r.changes('app', [Action.COMMIT])).toEqual([]);
  });

  it('commits one edit: only its lines change, author is the editor, committer the configured one, message filled', async () => {
    const quit = await r.unit('app', 'de', 'Quit');
    await editUnit(r.store, { unitId: quit.id, target: ['Beenden'], state: State.TRANSLATED, user: r.alice });
    const status = await repositoryStatus(await openComponent(r.store, r.config, r.project, app()));
    expect(status).toMatchObject({ needs_commit: true, needs_push: false, needs_merge: false, merge_failure: null });

    const result = await commitPending(await openComponent(r.store, r.config, r.project, app()), { user: r.bob });
    expect(result.result).toBe(true);
    expect(result.commits).toHaveLength(1);
    expect(result.commits[0]).toMatchObject({ author: { name: 'Alice Translator', email: 'alice@example.test' }, files: ['translations/app_de.ts'], units: 1 });
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Beenden', pending: 0, pending_author_id: null });

    const git = (args: string[]) => r.workGit('app', args);
    expect(await lastCommitDiff(git, 'translations/app_de.ts', 'HEAD')).toEqual([
      '-        <translation type="unfinished"></translation>',
      '+        <translation>Beenden</translation>',
    ]);
    expect(await git(['log', '-1', '--format=%an <%ae>|%cn <%ce>'])).toBe(`Alice Translator <alice@example.test>|${COMMITTER.name} <${COMMITTER.email}>`);
    expect(await git(['log', '-1', '--format=%B'])).toBe(
      'Translated using tms (German)\n\nCurrently translated at 80% (4 of 5 strings)\n\n' +
        'Translation: Hello/App\nTranslate-URL: https://tms.example.test/projects/hello/app/de/',
    );
    expect(await git(['status', '--porcelain'])).toBe('');

    const commits = await r.changes('app', [Action.COMMIT]);
    expect(commits).toHaveLength(1);
    expect(commits[0]).toMatchObject({ user_id: r.bob.id, author_id: r.alice.id, details: { commit: result.commits[0]!.oid } });
    expect(commits[0]!.translation_id).not.toBeNull();

    const after = await repositoryStatus(await openComponent(r.store, r.config, r.project, app()));
    expect(after).toMatchObject({ needs_commit: false, needs_push: true, needs_merge: false });
    expect(after.weblate_commit).toMatchObject({
      revision: result.commits[0]!.oid,
      author_name: 'Alice Translator',
      commit_email: COMMITTER.email,
      summary: 'Translated using tms (German)',
    });
    expect(after.weblate_commit?.authordate).toMatch(/^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d \+0000$/);
    expect(after.status).toContain("Your branch is ahead of 'origin/main' by 1 commit.");
  });

  it('does not re-parse its own write on the next sync', async () => {
    const [sync] = await syncProject(r.store, r.config, 'hello', 'app');
    expect(sync!.ok).toBe(true);
    expect(sync!.parsed).toBe(0);
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Beenden', state: State.TRANSLATED, pending: 0 });
  });

  it('pushes to upstream (18); upstream has exactly the edited lines changed', async () => {
    const result = await pushComponent(await openComponent(r.store, r.config, r.project, app()), { user: r.bob });
    expect(result).toMatchObject({ result: true });
    const upstream = (args: string[]) => r.upstreamGit('app', args);
    expect(await lastCommitDiff(upstream, 'translations/app_de.ts')).toEqual([
      '-        <translation type="unfinished"></translation>',
      '+        <translation>Beenden</translation>',
    ]);
    expect(await upstream(['log', '-1', '--format=%an|%s'])).toBe('Alice Translator|Translated using tms (German)');
    const pushes = await r.changes('app', [Action.PUSH]);
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ user_id: r.bob.id, translation_id: null });
    expect(await repositoryStatus(await openComponent(r.store, r.config, r.project, app()))).toMatchObject({ needs_commit: false, needs_push: false });
  });

  it('commits once per author, the edits of several files in each', async () => {
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'About')).id, target: ['Über %1'], state: State.TRANSLATED, user: r.bob });
    await editUnit(r.store, { unitId: (await r.unit('app', 'cs', 'Quit')).id, target: ['Ukončit'], state: State.TRANSLATED, user: r.alice });
    await editUnit(r.store, { unitId: (await r.unit('app', 'cs', '&File')).id, target: ['&Soubor'], state: State.FUZZY, user: r.bob });
    const result = await commitPending(await openComponent(r.store, r.config, r.project, app()));
    expect(result.commits.map((c) => [c.author.name, c.files, c.units])).toEqual([
      ['Alice Translator', ['translations/app_cs.ts'], 1],
      ['Bob Reviewer', ['translations/app_cs.ts', 'translations/app_de.ts'], 2],
    ]);
    expect(await r.workGit('app', ['log', '-2', '--format=%an|%s'])).toBe(
      'Bob Reviewer|Translated using tms (Czech, German)\nAlice Translator|Translated using tms (Czech)',
    );
    const cs = await r.workGit('app', ['show', 'HEAD:translations/app_cs.ts']);
    expect(cs).toContain('<translation>Ukončit</translation>');
    expect(cs).toContain('<translation type="unfinished">&amp;Soubor</translation>');
    // one 17 per translation per commit
    expect((await r.changes('app', [Action.COMMIT])).slice(-3).map((c) => c.author_id)).toEqual([r.alice.id, r.bob.id, r.bob.id]);
  });

  it('commits one translation only when asked (translation-level commit)', async () => {
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Open a file')).id, target: ['Öffnet eine Datei'], state: State.TRANSLATED, user: r.alice });
    await editUnit(r.store, { unitId: (await r.unit('app', 'cs', 'Open a file')).id, target: ['Otevře soubor'], state: State.TRANSLATED, user: r.alice });
    const de = (await r.sql.value("SELECT id FROM translations WHERE filename = 'translations/app_de.ts'")) as number;
    const result = await commitPending(await openComponent(r.store, r.config, r.project, app()), { translations: [de] });
    expect(result.commits.map((c) => c.files)).toEqual([['translations/app_de.ts']]);
    expect((await r.unit('app', 'de', 'Open a file')).pending).toBe(0);
    expect((await r.unit('app', 'cs', 'Open a file')).pending).toBe(1);
    await commitPending(await openComponent(r.store, r.config, r.project, app()));
    expect((await r.unit('app', 'cs', 'Open a file')).pending).toBe(0);
  });

  it('keeps the units of a file the writer refuses pending, commits the others, records 70', async () => {
    // Someone committed a broken file straight into the working copy.
    const work = r.workDir('app');
    writeFileSync(path.join(work, 'translations', 'app_cs.ts'), '<?xml version="1.0"?>\n<TS version="2.1"><context>\n');
    await r.workGit('app', ['commit', '-q', '-am', 'break cs']);
    await editUnit(r.store, { unitId: (await r.unit('app', 'cs', 'Quit')).id, target: ['Konec'], state: State.TRANSLATED, user: r.alice });
    await editUnit(r.store, { unitId: (await r.unit('app', 'de', 'Quit')).id, target: ['Schließen'], state: State.TRANSLATED, user: r.alice });
    const result = await commitPending(await openComponent(r.store, r.config, r.project, app()));
    expect(result.result).toBe(false);
    const cs = (await r.sql.value("SELECT id FROM translations WHERE filename = 'translations/app_cs.ts'")) as number;
    expect(result.failed).toEqual([
      { path: 'translations/app_cs.ts', language: 'cs', translationId: cs, error: expect.stringMatching(/^translations\/app_cs\.ts:\d+:\d+: /) },
    ]);
    expect(result.detail).toContain('Could not write translations/app_cs.ts');
    expect(result.commits.map((c) => c.files)).toEqual([['translations/app_de.ts']]);
    expect(await r.unit('app', 'cs', 'Quit')).toMatchObject({ target: 'Konec', pending: 1, pending_author_id: r.alice.id });
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Schließen', pending: 0 });
    expect((await r.changes('app', [Action.SAVE_FAILED])).at(-1)).toMatchObject({ target: result.failed[0]!.error });
    await r.workGit('app', ['reset', '-q', '--hard', 'HEAD~2']);
  });
});

describe('commit and push of the other formats', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv();
  });
  afterAll(() => r.close());

  it('nested JSON (monolingual): a changed value and a key missing from the file, then pushed', async () => {
    await editUnit(r.store, { unitId: (await r.units('web', 'de')).find((u) => u.context === 'menu.save')!.id, target: ['Sichern'], state: 20, user: r.alice });
    await editUnit(r.store, { unitId: (await r.units('web', 'cs')).find((u) => u.context === 'menu.quit')!.id, target: ['Konec'], state: 20, user: r.alice });
    const result = await pushComponent(await openComponent(r.store, r.config, r.project, r.component('web')));
    expect(result.result).toBe(true);
    const de = (await r.upstreamFile('web', 'locales/de.json'))!;
    expect(JSON.parse(de).menu.save).toBe('Sichern');
    const diff = await lastCommitDiff((a) => r.upstreamGit('web', a), 'locales/de.json');
    expect(diff).toEqual(['-    "save": "Speichern"', '+    "save": "Sichern"']);
    expect(JSON.parse((await r.upstreamFile('web', 'locales/cs.json'))!).menu.quit).toBe('Konec');
    const [sync] = await syncProject(r.store, r.config, 'hello', 'web');
    expect(sync!.parsed).toBe(0);
    expect((await r.units('web', 'cs')).find((u) => u.context === 'menu.quit')).toMatchObject({ target: 'Konec', pending: 0 });
  });

  it('nested JSON: an edit of the template itself (edit_template) is written to the template file', async () => {
    const title = (await r.units('web', 'en')).find((u) => u.context === 'app.title')!;
    await editUnit(r.store, { unitId: title.id, target: ['Hello, tms'], state: 20, user: r.bob });
    const result = await commitPending(await openComponent(r.store, r.config, r.project, r.component('web')));
    expect(result.commits.map((c) => c.files)).toEqual([['locales/en.json']]);
    expect(await lastCommitDiff((a) => r.workGit('web', a), 'locales/en.json', 'HEAD')).toEqual(['-    "title": "Hello tms",', '+    "title": "Hello, tms",']);
    const [sync] = await syncProject(r.store, r.config, 'hello', 'web');
    expect(sync!.ok).toBe(true);
    expect((await r.units('web', 'en')).find((u) => u.context === 'app.title')).toMatchObject({ target: 'Hello, tms', pending: 0 });
  });

  it('TBX: a term written back with one changed line', async () => {
    await editUnit(r.store, { unitId: (await r.unit('glossary', 'de', 'repository')).id, target: ['Depot'], state: 20, user: r.bob });
    const result = await pushComponent(await openComponent(r.store, r.config, r.project, r.component('glossary')));
    expect(result.result).toBe(true);
    const diff = await lastCommitDiff((a) => r.upstreamGit('glossary', a), 'glossary/de.tbx');
    expect(diff.filter((l) => l.startsWith('+'))).toHaveLength(1);
    expect(diff.find((l) => l.startsWith('+'))).toContain('Depot');
  });

  it('file-sync rewrites the files from the store; file-scan commits, then re-parses every file', async () => {
    // The store says something the file does not (as after a lost write): file-sync writes it.
    const open = await r.unit('app', 'de', 'Open a file');
    await r.sql.run('UPDATE units SET target = ? WHERE id = ?', 'Öffnet eine Datei', open.id);
    const synced = await fileSync(await openComponent(r.store, r.config, r.project, r.component('app')), { user: r.alice });
    expect(synced.result).toBe(true);
    expect(synced.commit?.commits).toHaveLength(1);
    expect(await lastCommitDiff((a) => r.workGit('app', a), 'translations/app_de.ts', 'HEAD')).toEqual([
      '-        <translation>Eine Datei öffnen</translation>',
      '+        <translation>Öffnet eine Datei</translation>',
    ]);
    expect((await r.units('app', 'de')).every((u) => u.pending === 0)).toBe(true);
    expect((await r.units('app', 'en')).every((u) => u.pending === 0)).toBe(true);

    await editUnit(r.store, { unitId: (await r.unit('app', 'cs', 'Quit')).id, target: ['Ukončit'], state: 20, user: r.bob });
    const scanned = await fileScan(await openComponent(r.store, r.config, r.project, r.component('app')));
    expect(scanned.result).toBe(true);
    expect(scanned.commit?.units).toBe(1);
    expect(scanned.sync?.parsed).toBe(2);
    expect(await r.unit('app', 'cs', 'Quit')).toMatchObject({ target: 'Ukončit', pending: 0 });
  });
});
