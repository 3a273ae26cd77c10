// Adding and deleting strings end to end: store first (31/63, statistics), then commit and push write the upstream files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { Action } from '../../src/domain/actions.js';
import { NotFoundError, RefusedError } from '../../src/domain/errors.js';
import { State } from '../../src/domain/unit.js';
import {
  addUnit,
  commitPending,
  deleteUnit,
  editUnit,
  isLocked,
  pullComponent,
  pushComponent,
  repositoryStatus,
  setLock,
  uploadTranslation,
} from '../../src/operations/index.js';
import { syncProject } from '../../src/sync/index.js';
import { rejectedWith, thrownBy } from '../helpers/errors.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { type RepoEnv, createRepoEnv, statsOf } from './repo-env.js';

const MANAGED = { manage_units: true };

describe('addUnit and deleteUnit on a monolingual component (nested JSON)', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { web: MANAGED } });
  });
  afterAll(() => r.close());
  const web = () => r.component('web');

  it('adds a key to the template: pending source unit, empty units in every translation, 31 each, statistics', async () => {
    const before = { en: (await statsOf(r, 'web', 'en')).total, de: (await statsOf(r, 'web', 'de')).total, cs: (await statsOf(r, 'web', 'cs')).total };
    const result = await addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { key: 'menu.help', value: ['Help'], user: r.alice });
    expect(result.unitIds).toHaveLength(3);
    const en = (await r.units('web', 'en')).find((u) => u.context === 'menu.help')!;
    expect(en).toMatchObject({ id: result.unitId, source: 'Help', target: 'Help', state: State.TRANSLATED, pending: 1, pending_author_id: r.alice.id });
    for (const language of ['de', 'cs']) {
      expect((await r.units('web', language)).find((u) => u.context === 'menu.help')).toMatchObject({
        source: 'Help',
        target: '',
        state: State.EMPTY,
        pending: 0,
      });
    }
    expect((await r.units('web', 'en')).at(-1)?.context).toBe('menu.help');
    const added = await r.changes('web', [Action.NEW_UNIT]);
    expect(added).toHaveLength(3);
    expect(added.map((c) => c.user_id)).toEqual([r.alice.id, r.alice.id, r.alice.id]);
    expect(added.find((c) => c.unit_id === result.unitId)).toMatchObject({ target: 'Help', details: { source: 'Help', context: 'menu.help' } });
    expect((await statsOf(r, 'web', 'en')).total).toBe(before.en + 1);
    expect((await statsOf(r, 'web', 'de')).total).toBe(before.de + 1);
    expect((await statsOf(r, 'web', 'cs')).total).toBe(before.cs + 1);
    // the new source is in the memory's lookup index at once (not at the next sync)
    expect(await r.sql.value('SELECT count(*) FROM memory_sources WHERE text = ?', 'Help')).toBe(1);
  });

  it('refuses duplicates, a translation other than the source, bad bodies and a component without manage_units', async () => {
    const dup = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { key: 'menu.open', value: ['Open'], user: r.alice }),
    );
    expect([dup.code, dup.data.field, dup.message]).toEqual(['ValidationError', 'non_field_errors', 'This string seems to already exist.']);
    const other = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, web()), 'de', { key: 'x.y', value: ['Y'], user: r.alice }),
    );
    expect(other.code).toBe('ForbiddenError');
    const bare = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { key: 'x.y', value: 'Y' as never, user: r.alice }),
    );
    expect([bare.data.field, bare.message]).toEqual(['value', 'Expected a list of items but got type "str".']);
    expect(
      (await rejectedWith(RefusedError, addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { value: ['Y'], user: r.alice }))).data.field,
    ).toBe('key');
    const state = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { key: 'x.y', value: ['Y'], state: 100, user: r.alice }),
    );
    expect([state.data.field, state.message]).toEqual(['state', '"100" is not a valid choice.']);
    const empty = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { key: 'x.y', value: ['Y'], state: 0, user: r.alice }),
    );
    expect(empty.message).toBe('Empty state is supported for blank strings only.');
    const approved = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { key: 'x.y', value: ['Y'], state: 30, user: r.alice }),
    );
    expect(approved.message).toBe('Approved state is not available as reviews are not enabled.');
    const plural = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { key: 'x.y', value: ['a', 'b'], user: r.alice }),
    );
    expect(plural.message).toBe('Plurals are not supported by the file format!');
    const control = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { key: 'x.y', value: ['a\x07'], user: r.alice }),
    );
    expect(control.message).toBe("String contains control character: '\\x07'");
    const off = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, { ...web(), manage_units: false }), 'en', { key: 'x.y', value: ['Y'], user: r.alice }),
    );
    expect([off.code, off.message]).toEqual(['ForbiddenError', 'Adding strings is disabled in the component configuration.']);
    await expect(addUnit(await openComponent(r.store, r.config, r.project, web()), 'xx', { key: 'x.y', value: ['Y'], user: r.alice })).rejects.toThrow(
      NotFoundError,
    );
    expect((await r.units('web', 'en')).some((u) => u.context === 'x.y')).toBe(false);
  });

  it('a re-parse of the template before the commit keeps the string added in tms', async () => {
    const [sync] = await syncProject(r.store, r.config, 'hello', 'web', { force: true });
    expect(sync!.ok).toBe(true);
    expect((await r.units('web', 'en')).find((u) => u.context === 'menu.help')).toMatchObject({ target: 'Help', pending: 1 });
  });

  it('commit writes the key into the template file only; push brings it upstream; the next sync keeps the units', async () => {
    const commit = await commitPending(await openComponent(r.store, r.config, r.project, web()));
    expect(commit).toMatchObject({ result: true, failed: [] });
    expect(commit.commits.flatMap((c) => c.files)).toEqual(['locales/en.json']);
    expect((await pushComponent(await openComponent(r.store, r.config, r.project, web()))).result).toBe(true);
    const en = JSON.parse((await r.upstreamFile('web', 'locales/en.json'))!);
    expect(en.menu).toEqual({ open: 'Open', save: 'Save', quit: 'Quit', help: 'Help' });
    expect(JSON.parse((await r.upstreamFile('web', 'locales/de.json'))!).menu.help).toBeUndefined();
    const [sync] = await syncProject(r.store, r.config, 'hello', 'web');
    expect(sync!.ok).toBe(true);
    expect((await r.units('web', 'de')).find((u) => u.context === 'menu.help')).toMatchObject({ target: '', state: State.EMPTY });
    expect((await r.units('web', 'en')).find((u) => u.context === 'menu.help')).toMatchObject({ target: 'Help', pending: 0 });
  });

  it('deletes a key from the template and every translation: 63 per unit, pending removal, then gone upstream', async () => {
    const save = (await r.units('web', 'de')).find((u) => u.context === 'menu.save')!;
    const before = (await statsOf(r, 'web', 'de')).total;
    const result = await deleteUnit(await openComponent(r.store, r.config, r.project, web()), save.id, r.bob);
    expect(result.removed).toBe(3);
    for (const language of ['en', 'de', 'cs']) expect((await r.units('web', language)).some((u) => u.context === 'menu.save')).toBe(false);
    expect((await statsOf(r, 'web', 'de')).total).toBe(before - 1);
    const removed = await r.changes('web', [Action.STRING_REMOVE]);
    expect(removed).toHaveLength(3);
    expect(removed.map((c) => c.details.source)).toEqual(['Save', 'Save', 'Save']);
    expect(removed.find((c) => c.details.target === 'Speichern')).toMatchObject({ user_id: r.bob.id });
    expect((await repositoryStatus(await openComponent(r.store, r.config, r.project, web()))).needs_commit).toBe(true);

    const commit = await commitPending(await openComponent(r.store, r.config, r.project, web()));
    expect(commit).toMatchObject({ result: true, failed: [] });
    expect(commit.commits[0]!.author.name).toBe('Bob Reviewer');
    expect((await repositoryStatus(await openComponent(r.store, r.config, r.project, web()))).needs_commit).toBe(false);
    expect((await pushComponent(await openComponent(r.store, r.config, r.project, web()))).result).toBe(true);
    const en = JSON.parse((await r.upstreamFile('web', 'locales/en.json'))!);
    const de = JSON.parse((await r.upstreamFile('web', 'locales/de.json'))!);
    expect(en.menu).toEqual({ open: 'Open', quit: 'Quit', help: 'Help' });
    expect(de.menu).toEqual({ open: 'Öffnen' });
    const [sync] = await syncProject(r.store, r.config, 'hello', 'web');
    expect(sync!.ok).toBe(true);
    expect((await r.units('web', 'en')).some((u) => u.context === 'menu.save')).toBe(false);
  });

  it('a string added and deleted before any commit leaves the files alone', async () => {
    const head = await r.workGit('web', ['rev-parse', 'HEAD']);
    const { unitId } = await addUnit(await openComponent(r.store, r.config, r.project, web()), 'en', { key: 'tmp.key', value: ['Temporary'], user: r.alice });
    await deleteUnit(await openComponent(r.store, r.config, r.project, web()), unitId, r.alice);
    const commit = await commitPending(await openComponent(r.store, r.config, r.project, web()));
    expect(commit).toMatchObject({ result: true, failed: [] });
    expect(commit.commits.every((c) => c.oid === null)).toBe(true);
    expect(await r.workGit('web', ['rev-parse', 'HEAD'])).toBe(head);
    expect((await repositoryStatus(await openComponent(r.store, r.config, r.project, web()))).needs_commit).toBe(false);
  });
});

describe('addUnit and deleteUnit on bilingual components (Qt TS, TBX)', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { app: MANAGED, glossary: MANAGED } });
  });
  afterAll(() => r.close());
  const app = () => r.component('app');

  it('adds a translated string to one translation: a read-only source unit and a pending unit; the commit adds the message', async () => {
    const result = await addUnit(await openComponent(r.store, r.config, r.project, app()), 'de', {
      context: 'MainWindow',
      source: ['Save as'],
      target: ['Speichern unter'],
      user: r.alice,
    });
    expect(result.unitIds).toHaveLength(2);
    expect((await r.units('app', 'de')).find((u) => u.source === 'Save as')).toMatchObject({
      id: result.unitId,
      target: 'Speichern unter',
      state: State.TRANSLATED,
      pending: 1,
    });
    expect((await r.units('app', 'en')).find((u) => u.source === 'Save as')).toMatchObject({ target: 'Save as', state: State.READONLY, pending: 0 });
    expect((await r.units('app', 'cs')).some((u) => u.source === 'Save as')).toBe(false);
    const missingTarget = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, app()), 'de', { source: ['Other'], user: r.alice }),
    );
    expect(missingTarget.data.field).toBe('target');
    const dup = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, app()), 'cs', { context: 'MainWindow', source: ['Save as'], target: ['x'], user: r.alice }),
    );
    expect(dup.message).toBe('This string seems to already exist.');

    const commit = await commitPending(await openComponent(r.store, r.config, r.project, app()));
    expect(commit.commits.flatMap((c) => c.files)).toEqual(['translations/app_de.ts']);
    expect((await pushComponent(await openComponent(r.store, r.config, r.project, app()))).result).toBe(true);
    const de = (await r.upstreamFile('app', 'translations/app_de.ts'))!;
    expect(de).toMatch(/<source>Save as<\/source>\s*<translation>Speichern unter<\/translation>/);
    const [sync] = await syncProject(r.store, r.config, 'hello', 'app');
    expect(sync!.ok).toBe(true);
    expect((await r.units('app', 'de')).find((u) => u.source === 'Save as')).toMatchObject({ context: 'MainWindow', target: 'Speichern unter', pending: 0 });
  });

  it('a string added to the source language goes to every translation file, untranslated', async () => {
    const result = await addUnit(await openComponent(r.store, r.config, r.project, app()), 'en', { context: 'MainWindow', source: ['Print'], user: r.bob });
    expect(result.unitIds).toHaveLength(3);
    for (const language of ['de', 'cs']) {
      expect((await r.units('app', language)).find((u) => u.source === 'Print')).toMatchObject({ target: '', state: State.EMPTY, pending: 1 });
    }
    expect((await commitPending(await openComponent(r.store, r.config, r.project, app()))).result).toBe(true);
    for (const file of ['translations/app_de.ts', 'translations/app_cs.ts']) {
      const text = await r.workGit('app', ['show', `HEAD:${file}`]);
      expect(text).toMatch(/<source>Print<\/source>\s*<translation type="unfinished"><\/translation>/);
    }
  });

  it('deletes a string everywhere; the commit removes the message from both files', async () => {
    const quit = await r.unit('app', 'cs', 'Quit');
    expect((await deleteUnit(await openComponent(r.store, r.config, r.project, app()), quit.id, r.alice)).removed).toBe(3);
    expect((await r.units('app', 'en')).some((u) => u.source === 'Quit')).toBe(false);
    expect((await commitPending(await openComponent(r.store, r.config, r.project, app()))).result).toBe(true);
    for (const file of ['translations/app_de.ts', 'translations/app_cs.ts']) {
      expect(await r.workGit('app', ['show', `HEAD:${file}`])).not.toContain('<source>Quit</source>');
    }
    expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
    await expect(deleteUnit(await openComponent(r.store, r.config, r.project, app()), quit.id, r.alice)).rejects.toThrow(NotFoundError);
    // a unit of another component is not this component's
    const term = (await r.units('glossary', 'de'))[0];
    await expect(deleteUnit(await openComponent(r.store, r.config, r.project, app()), term!.id, r.alice)).rejects.toThrow(NotFoundError);
  });

  it('adds a glossary term on the source language: every TBX file gets the entry', async () => {
    await addUnit(await openComponent(r.store, r.config, r.project, r.component('glossary')), 'en', { source: ['branch'], user: r.alice });
    const result = await pushComponent(await openComponent(r.store, r.config, r.project, r.component('glossary')));
    expect(result.result).toBe(true);
    for (const file of ['glossary/de.tbx', 'glossary/cs.tbx']) expect(await r.upstreamFile('glossary', file)).toContain('<term>branch</term>');
    const [sync] = await syncProject(r.store, r.config, 'hello', 'glossary');
    expect(sync!.ok).toBe(true);
    expect((await r.units('glossary', 'de')).find((u) => u.source === 'branch')).toMatchObject({ target: '', state: State.EMPTY, pending: 0 });
  });
});

describe('pending removals meet upstream changes', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { app: MANAGED } });
  });
  afterAll(() => r.close());
  const app = () => r.component('app');
  const DE = 'translations/app_de.ts';
  const CS = 'translations/app_cs.ts';

  it('a sync that brings the string back before the commit: the commit still removes it, from file and store', async () => {
    await deleteUnit(await openComponent(r.store, r.config, r.project, app()), (await r.unit('app', 'de', 'Quit')).id, r.alice);
    const de = (await r.upstreamFile('app', DE))!;
    await commitToUpstream(r.env.upstream('app'), { [DE]: de.replace('<translation>&amp;Datei</translation>', '<translation>D&amp;atei</translation>') });
    const [sync] = await syncProject(r.store, r.config, 'hello', 'app');
    expect(sync!.ok).toBe(true);
    expect((await r.unit('app', 'de', 'Quit')).pending).toBe(0); // parsed from the changed file again
    expect((await commitPending(await openComponent(r.store, r.config, r.project, app()))).result).toBe(true);
    for (const file of [DE, CS]) expect(await r.workGit('app', ['show', `HEAD:${file}`])).not.toContain('<source>Quit</source>');
    for (const language of ['de', 'cs', 'en']) expect((await r.units('app', language)).some((u) => u.source === 'Quit')).toBe(false);
    expect(await r.workGit('app', ['show', `HEAD:${DE}`])).toContain('D&amp;atei');
  });

  it('a failed pull takes the removal commit back: the removal is pending again and the next pull writes it', async () => {
    expect((await pushComponent(await openComponent(r.store, r.config, r.project, app()))).result).toBe(true);
    await deleteUnit(await openComponent(r.store, r.config, r.project, app()), (await r.unit('app', 'cs', 'About')).id, r.bob);
    const head = await r.workGit('app', ['rev-parse', 'HEAD']);
    const good = (await r.upstreamFile('app', DE))!;
    await commitToUpstream(r.env.upstream('app'), { [DE]: '<?xml version="1.0"?>\n<TS version="2.1">\n<context>\n' });
    const failed = await pullComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(failed.result).toBe(false);
    expect(await r.workGit('app', ['rev-parse', 'HEAD'])).toBe(head);
    expect((await repositoryStatus(await openComponent(r.store, r.config, r.project, app()))).needs_commit).toBe(true);

    await commitToUpstream(r.env.upstream('app'), { [DE]: good });
    const again = await pullComponent(await openComponent(r.store, r.config, r.project, app()));
    expect(again.result).toBe(true);
    for (const file of [DE, CS]) expect(await r.workGit('app', ['show', `HEAD:${file}`])).not.toContain('About %1');
    expect((await repositoryStatus(await openComponent(r.store, r.config, r.project, app()))).needs_commit).toBe(false);
    expect((await r.units('app', 'cs')).some((u) => u.source.startsWith('About'))).toBe(false);
  });
});

describe('component lock', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { web: MANAGED } });
  });
  afterAll(() => r.close());

  it('locks (14) and unlocks (15) once each; a locked component refuses edits, added and deleted strings and uploads', async () => {
    const web = r.component('web');
    const row = { id: (await r.sql.value("SELECT id FROM components WHERE slug = 'web'")) as number };
    expect(await isLocked(r.store, row)).toBe(false);
    expect(await setLock(r.store, row, true, r.bob)).toEqual({ locked: true, changed: true });
    expect(await setLock(r.store, row, true, r.bob)).toEqual({ locked: true, changed: false });
    expect(await isLocked(r.store, row)).toBe(true);
    expect(await r.changes('web', [Action.LOCK, Action.UNLOCK])).toMatchObject([{ action: Action.LOCK, user_id: r.bob.id, details: { auto: false } }]);

    const title = (await r.units('web', 'de')).find((u) => u.context === 'app.title')!;
    const edit = await rejectedWith(RefusedError, editUnit(r.store, { unitId: title.id, target: ['Hallo'], state: 20, user: r.alice }));
    expect([edit.code, edit.message]).toEqual(['ForbiddenError', 'The component is locked.']);
    const add = await rejectedWith(
      RefusedError,
      addUnit(await openComponent(r.store, r.config, r.project, web), 'en', { key: 'a.b', value: ['B'], user: r.alice }),
    );
    expect([add.code, add.message]).toEqual(['ForbiddenError', 'The component is locked.']);
    expect((await rejectedWith(RefusedError, deleteUnit(await openComponent(r.store, r.config, r.project, web), title.id, r.alice))).code).toBe(
      'ForbiddenError',
    );
    const upload = await rejectedWith(
      RefusedError,
      uploadTranslation(await openComponent(r.store, r.config, r.project, web), 'de', { bytes: new TextEncoder().encode('{}'), user: r.alice }),
    );
    expect([upload.code, upload.message]).toEqual(['ForbiddenError', 'The component is locked.']);
    expect((await r.units('web', 'de')).find((u) => u.context === 'app.title')).toMatchObject({ target: 'Hallo tms', pending: 0 });

    expect(await setLock(r.store, row, false, r.bob)).toEqual({ locked: false, changed: true });
    expect((await r.changes('web', [Action.LOCK, Action.UNLOCK])).map((c) => c.action)).toEqual([Action.LOCK, Action.UNLOCK]);
    expect((await editUnit(r.store, { unitId: title.id, target: ['Hallo'], state: 20, user: r.alice })).changed).toBe(true);
    await expect(setLock(r.store, { id: 999_999 }, true)).rejects.toThrow(NotFoundError);
  });
});
