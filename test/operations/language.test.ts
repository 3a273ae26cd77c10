// Adding a language: the file named by mask and code style, made from new_base or the skeleton, committed, pushed, synced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { Action } from '../../src/domain/actions.js';
import { RefusedError } from '../../src/domain/errors.js';
import { addLanguage, pushComponent } from '../../src/operations/index.js';
import { rejectedWith } from '../helpers/errors.js';
import { type RepoEnv, createRepoEnv, statsOf } from './repo-env.js';

describe('addLanguage', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { app: { new_base: 'translations/app_de.ts' }, web: { language_code_style: 'bcp' } } });
  });
  afterAll(() => r.close());

  it('TS from new_base: translations/app_fr.ts committed with add_message as the user, pushed, an empty translation (48)', async () => {
    const result = await addLanguage(await openComponent(r.store, r.config, r.project, r.component('app')), 'fr', r.alice);
    expect(result.filename).toBe('translations/app_fr.ts');
    expect(result.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(result.sync.ok).toBe(true);
    expect(await r.workGit('app', ['log', '-1', '--format=%an|%s'])).toBe('Alice Translator|Added translation using tms (French)');
    expect((await pushComponent(await openComponent(r.store, r.config, r.project, r.component('app')))).result).toBe(true);
    const fr = (await r.upstreamFile('app', 'translations/app_fr.ts'))!;
    expect(fr).toContain('<TS version="2.1" language="fr">');
    expect(fr).not.toContain('Datei');
    expect(fr).toContain('<source>Open a file</source>');
    const units = await r.units('app', 'fr');
    expect(units.map((u) => u.source)).toEqual((await r.units('app', 'de')).map((u) => u.source));
    expect(units.every((u) => u.pending === 0)).toBe(true);
    expect(await statsOf(r, 'app', 'fr')).toMatchObject({ total: units.length, translated: 0 });
    expect(await r.changes('app', [Action.ADDED_LANGUAGE])).toMatchObject([{ translation_id: result.translationId, user_id: r.alice.id }]);
  });

  it('monolingual JSON from the skeleton, named in the component code style (pt_BR → locales/pt-BR.json)', async () => {
    const result = await addLanguage(await openComponent(r.store, r.config, r.project, r.component('web')), 'pt_BR', r.bob);
    expect(result.filename).toBe('locales/pt-BR.json');
    expect(await r.workGit('web', ['show', 'HEAD:locales/pt-BR.json'])).toBe('{}');
    const units = await r.units('web', 'pt_BR');
    expect(units.map((u) => u.context)).toEqual((await r.units('web', 'en')).map((u) => u.context));
    expect(units.every((u) => u.target === '' && u.state === 0)).toBe(true);
    expect(await r.sql.value('SELECT language_code FROM translations WHERE id = ?', result.translationId)).toBe('pt-BR');
  });

  it('refuses with Weblate errors: missing code (languge_code), unknown code, a present language, new_lang, no base for TS', async () => {
    const app = r.component('app');
    const missing = await rejectedWith(RefusedError, addLanguage(await openComponent(r.store, r.config, r.project, app), '', r.alice));
    expect([missing.data.field, missing.message]).toEqual(['languge_code', "Missing 'language_code' parameter"]);
    const unknown = await rejectedWith(RefusedError, addLanguage(await openComponent(r.store, r.config, r.project, app), 'xx_nope', r.alice));
    expect([unknown.data.field, unknown.message]).toEqual(['language_code', "No language code 'xx_nope' found!"]);
    // exact codes only: 'FR' is not 'fr'
    expect((await rejectedWith(RefusedError, addLanguage(await openComponent(r.store, r.config, r.project, app), 'FR', r.alice))).data.field).toBe(
      'language_code',
    );
    for (const present of ['de', 'en']) {
      const e = await rejectedWith(RefusedError, addLanguage(await openComponent(r.store, r.config, r.project, app), present, r.alice));
      expect([e.data.field, e.message]).toEqual(['language_code', 'Translation file already exists!']);
    }
    const off = await rejectedWith(RefusedError, addLanguage(await openComponent(r.store, r.config, r.project, { ...app, new_lang: 'none' }), 'it', r.alice));
    expect([off.code, off.message]).toEqual(['ForbiddenError', 'Adding new translations is turned off in the component configuration.']);
    expect(
      (await rejectedWith(RefusedError, addLanguage(await openComponent(r.store, r.config, r.project, { ...app, new_lang: 'contact' }), 'it', r.alice))).code,
    ).toBe('ForbiddenError');
    const noBase = await rejectedWith(RefusedError, addLanguage(await openComponent(r.store, r.config, r.project, { ...app, new_base: '' }), 'it', r.alice));
    expect(noBase.code).toBe('ForbiddenError');
    const filtered = await rejectedWith(
      RefusedError,
      addLanguage(await openComponent(r.store, r.config, r.project, { ...app, language_regex: '^(de|cs)$' }), 'it', r.alice),
    );
    expect([filtered.data.field, filtered.message]).toEqual(['language_code', 'The given language is filtered by the language filter.']);
    expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
    expect(await r.units('app', 'it')).toEqual([]);
  });
});
