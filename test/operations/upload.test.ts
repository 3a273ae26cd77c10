// Uploads: Weblate's methods, skip rules and counters, the 9/31/54/78 changes, errors on their fields; the commit writes accepted strings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { Action } from '../../src/domain/actions.js';
import { RefusedError } from '../../src/domain/errors.js';
import { State } from '../../src/domain/unit.js';
import { type UploadInput, commitPending, uploadTranslation } from '../../src/operations/index.js';
import { refreshStats } from '../../src/store/stats.repo.js';
import { rejectedWith } from '../helpers/errors.js';
import { statisticsRows } from '../helpers/store.js';
import { demoFile } from '../helpers/sync-env.js';
import { type RepoEnv, createRepoEnv } from './repo-env.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** The demo's German TS file with some messages changed, and one message the component does not have. */
function germanUpload(): string {
  return demoFile('app/translations/app_de.ts')
    .replace('<translation>&amp;Datei</translation>', '<translation>&amp;Datei!</translation>')
    .replace('<translation type="unfinished"></translation>', '<translation>Beenden</translation>')
    .replace('<translation type="unfinished">Über %1</translation>', '<translation type="unfinished">Über %1!</translation>')
    .replace(
      '</context>\n<context>',
      '    <message>\n        <source>Unknown</source>\n        <translation>Unbekannt</translation>\n    </message>\n</context>\n<context>',
    );
}

describe('uploads on a bilingual component (Qt TS)', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { app: { manage_units: true } } });
  });
  afterAll(() => r.close());
  const upload = async (language: string, input: Omit<UploadInput, 'user'>) =>
    uploadTranslation(await openComponent(r.store, r.config, r.project, r.component('app')), language, { user: r.alice, ...input });

  it('translate: fills untranslated strings, skips translated ones, counts unknown ones; 9 per string and 78', async () => {
    const result = await upload('de', { bytes: encode(germanUpload()) });
    // &File, Open a file and the plural are translated already; About is needs-editing (not taken without `fuzzy`)
    expect(result).toEqual({ not_found: 1, skipped: 3, accepted: 1, total: 6, result: true, count: 6 });
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Beenden', state: State.TRANSLATED, pending: 1, pending_author_id: r.alice.id });
    expect((await r.unit('app', 'de', '&File')).target).toBe('&Datei');
    const uploaded = await r.changes('app', [Action.UPLOAD]);
    expect(uploaded).toMatchObject([
      { unit_id: (await r.unit('app', 'de', 'Quit')).id, user_id: r.alice.id, target: 'Beenden', old: '', details: { state: 20, old_state: 0 } },
    ]);
    expect((await r.changes('app', [Action.FILE_UPLOAD])).at(-1)?.details).toEqual({ method: 'translate', not_found: 1, skipped: 3, accepted: 1, total: 6 });
  });

  it('replace-translated overwrites translated strings; fuzzy=process takes needs-editing ones as needs-editing; identical ones are skipped', async () => {
    const result = await upload('de', { bytes: encode(germanUpload()), conflicts: 'replace-translated', fuzzy: 'process', author: r.bob });
    expect(result).toMatchObject({ not_found: 1, skipped: 3, accepted: 2, total: 6 });
    expect(await r.unit('app', 'de', '&File')).toMatchObject({ target: '&Datei!', state: State.TRANSLATED, pending_author_id: r.bob.id });
    expect(await r.unit('app', 'de', 'About')).toMatchObject({ target: 'Über %1!', state: State.FUZZY });
    expect((await r.changes('app', [Action.UPLOAD])).at(-1)).toMatchObject({ user_id: r.alice.id, author_id: r.bob.id });
  });

  it('fuzzy=approve takes needs-editing strings as translated; method fuzzy marks what it takes as needing editing', async () => {
    expect(await upload('de', { bytes: encode(germanUpload()), conflicts: 'replace-translated', fuzzy: 'approve' })).toMatchObject({ accepted: 1, skipped: 4 });
    expect(await r.unit('app', 'de', 'About')).toMatchObject({ target: 'Über %1!', state: State.TRANSLATED });
    const changed = germanUpload().replace('<translation>Beenden</translation>', '<translation>Verlassen</translation>');
    // About is needs-editing in the file: without `fuzzy` it is left out
    expect(await upload('de', { bytes: encode(changed), method: 'fuzzy', conflicts: 'replace-translated' })).toMatchObject({
      accepted: 4,
      skipped: 0,
      not_found: 1,
    });
    expect((await r.unit('app', 'de', '&File')).state).toBe(State.FUZZY);
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Verlassen', state: State.FUZZY });
  });

  it('the commit writes the uploaded strings into the file', async () => {
    expect((await commitPending(await openComponent(r.store, r.config, r.project, r.component('app')))).result).toBe(true);
    const text = await r.workGit('app', ['show', 'HEAD:translations/app_de.ts']);
    expect(text).toMatch(/<source>Quit<\/source>\s*<translation type="unfinished">Verlassen<\/translation>/);
    expect(text).toContain('<translation type="unfinished">&amp;Datei!</translation>');
  });

  it('add: strings the translation lacks are added (31), present ones skipped', async () => {
    const text = demoFile('app/translations/app_de.ts').replace(
      '</context>\n<context>',
      '    <message>\n        <source>Print</source>\n        <translation>Drucken</translation>\n    </message>\n</context>\n<context>',
    );
    const result = await upload('de', { bytes: encode(text), method: 'add', fuzzy: 'process' });
    expect(result).toMatchObject({ not_found: 0, skipped: 5, accepted: 1, total: 6 });
    expect(await r.unit('app', 'de', 'Print')).toMatchObject({ context: 'MainWindow', target: 'Drucken', state: State.TRANSLATED, pending: 1 });
    expect(await r.unit('app', 'en', 'Print')).toMatchObject({ state: State.READONLY, pending: 0 });
    expect(await r.changes('app', [Action.NEW_UNIT])).toHaveLength(2);
  });

  it('refuses bad requests on their fields, with Weblate texts', async () => {
    const bad = await rejectedWith(RefusedError, upload('de', { bytes: encode('<TS><context>') }));
    expect([bad.code, bad.data.field]).toEqual(['ValidationError', 'file']);
    expect(bad.message).toMatch(/^translations\/app_de\.ts:\d+:\d+: /);
    const cases: [Omit<UploadInput, 'user'>, string, string][] = [
      [{ bytes: null }, 'method', 'No translation file, try using method=source.'],
      [{ bytes: encode('x'), method: 'merge' }, 'method', '"merge" is not a valid choice.'],
      [{ bytes: encode('x'), conflicts: 'all' }, 'conflicts', '"all" is not a valid choice.'],
      [{ bytes: encode('x'), fuzzy: 'yes' }, 'fuzzy', '"yes" is not a valid choice.'],
      [{ bytes: encode('x'), method: 'approve' }, 'method', 'This method is not available here. Check your permissions or use different translation object.'],
      [{ bytes: encode('x'), method: 'source' }, 'method', 'Source upload is supported only on source language.'],
      [{ bytes: encode('x'), conflicts: 'replace-approved' }, 'conflicts', 'You can not overwrite approved translations: reviews are not enabled.'],
    ];
    for (const [input, field, message] of cases) {
      const e = await rejectedWith(RefusedError, upload('de', input));
      expect([e.code, e.data.field, e.message]).toEqual(['ValidationError', field, message]);
    }
    const replaceSource = await rejectedWith(RefusedError, upload('en', { bytes: encode('x'), method: 'replace' }));
    expect(replaceSource.data.field).toBe('method');
    expect(await r.changes('app', [Action.FILE_UPLOAD])).toHaveLength(5);
  });
});

describe('uploads on a monolingual component (nested JSON)', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { web: { manage_units: true } } });
  });
  afterAll(() => r.close());
  const upload = async (language: string, input: Omit<UploadInput, 'user'>) =>
    uploadTranslation(await openComponent(r.store, r.config, r.project, r.component('web')), language, { user: r.alice, ...input });

  it('translate matches keys through the template; untranslated keys of the file are not counted', async () => {
    const result = await upload('de', { bytes: encode('{"menu": {"quit": "Beenden", "open": "Offen"}, "extra": "x"}') });
    expect(result).toEqual({ not_found: 0, skipped: 1, accepted: 1, total: 6, result: true, count: 6 });
    expect((await r.units('web', 'de')).find((u) => u.context === 'menu.quit')).toMatchObject({ target: 'Beenden', state: State.TRANSLATED, pending: 1 });
    const bad = await rejectedWith(RefusedError, upload('de', { bytes: encode('{"menu": ') }));
    expect([bad.data.field, bad.message.startsWith('locales/de.json:')]).toEqual(['file', true]);
  });

  it('add on the template adds its new keys (31 each: template and every translation); not on a translation', async () => {
    const text = '{"app": {"title": "Hello tms"}, "menu": {"help": "Help"}}';
    expect(await upload('en', { bytes: encode(text), method: 'add' })).toMatchObject({ not_found: 0, skipped: 1, accepted: 1, total: 2 });
    expect((await r.units('web', 'en')).find((u) => u.context === 'menu.help')).toMatchObject({ target: 'Help', pending: 1 });
    expect((await r.units('web', 'cs')).find((u) => u.context === 'menu.help')).toMatchObject({ target: '', pending: 0 });
    expect(await r.changes('web', [Action.NEW_UNIT])).toHaveLength(3);
    const hint = await rejectedWith(RefusedError, upload('de', { bytes: encode(text), method: 'add' }));
    expect([hint.data.field, hint.message]).toEqual(['method', 'This method is not available here. Try adding to the source instead of the translation.']);
  });

  it("translate on the template changes the strings' source in every translation: translated ones need editing (30 each)", async () => {
    const result = await upload('en', { bytes: encode('{"menu": {"save": "Save all"}}'), conflicts: 'replace-translated' });
    expect(result).toMatchObject({ accepted: 1 });
    expect((await r.units('web', 'en')).find((u) => u.context === 'menu.save')).toMatchObject({ source: 'Save all', target: 'Save all', pending: 1 });
    expect((await r.units('web', 'de')).find((u) => u.context === 'menu.save')).toMatchObject({
      source: 'Save all',
      target: 'Speichern',
      state: State.FUZZY,
      pending: 0,
    });
    expect((await r.units('web', 'cs')).find((u) => u.context === 'menu.save')).toMatchObject({ source: 'Save all', state: State.EMPTY });
    // the statistics kept are every translation counted again
    const kept = await statisticsRows(r.store);
    await r.store.write(async (tx) => refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]));
    expect(await statisticsRows(r.store)).toEqual(kept);
    const marked = await r.changes('web', [Action.SOURCE_CHANGE]);
    expect(marked.map((c) => [c.old, c.target, c.user_id])).toEqual([
      ['Save', 'Save all', r.alice.id],
      ['Save', 'Save all', r.alice.id],
    ]);
  });

  it('replace commits the uploaded file as it is (54, 78) and re-syncs the translation from it', async () => {
    const bytes = encode('{\n  "app": {\n    "title": "Servus tms"\n  }\n}\n');
    const head = await r.workGit('web', ['rev-parse', 'HEAD']);
    const result = await upload('de', { bytes, method: 'replace' });
    const units = await r.units('web', 'de');
    expect(result).toMatchObject({ not_found: 0, skipped: 0, accepted: units.length, total: units.length });
    expect(await r.workGit('web', ['rev-parse', 'HEAD~1'])).not.toBe(head);
    expect(await r.workGit('web', ['show', 'HEAD:locales/de.json'])).toBe(new TextDecoder().decode(bytes).trimEnd());
    expect(await r.workGit('web', ['log', '-1', '--format=%an'])).toBe('Alice Translator');
    expect(units.find((u) => u.context === 'app.title')).toMatchObject({ target: 'Servus tms', pending: 0 });
    expect(units.find((u) => u.context === 'menu.quit')).toMatchObject({ target: '', state: State.EMPTY, pending: 0 });
    expect(await r.changes('web', [Action.REPLACE_UPLOAD])).toHaveLength(1);
    expect((await r.changes('web', [Action.FILE_UPLOAD])).at(-1)?.details).toMatchObject({ method: 'replace' });
  });
});

describe('uploads with review enabled', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ project: { translation_review: true } });
  });
  afterAll(() => r.close());
  const upload = async (input: Omit<UploadInput, 'user'>) =>
    uploadTranslation(await openComponent(r.store, r.config, r.project, r.component('app')), 'de', { user: r.bob, ...input });

  it('approve sets approved; approved strings are replaced only with replace-approved', async () => {
    expect(await upload({ bytes: encode(germanUpload()), method: 'approve' })).toMatchObject({ accepted: 1 });
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Beenden', state: State.APPROVED });
    const changed = encode(germanUpload().replace('<translation>Beenden</translation>', '<translation>Verlassen</translation>'));
    // &File (translated) is replaced; Quit (approved) is skipped with the two identical strings
    expect(await upload({ bytes: changed, conflicts: 'replace-translated' })).toMatchObject({ accepted: 1, skipped: 3 });
    expect((await r.unit('app', 'de', '&File')).target).toBe('&Datei!');
    expect((await r.unit('app', 'de', 'Quit')).target).toBe('Beenden');
    expect(await upload({ bytes: changed, conflicts: 'replace-approved' })).toMatchObject({ accepted: 1 });
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Verlassen', state: State.TRANSLATED });
  });
});
