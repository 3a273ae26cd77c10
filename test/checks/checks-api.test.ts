// Quality checks end to end: flags from the configuration, enforced checks on a PATCH, statistics at every level,
// the search terms, and a dismissal that outlives re-syncs and re-checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dismissFailingCheck } from '../../src/checks/refresh.js';
import { Action } from '../../src/domain/actions.js';
import { State } from '../../src/domain/unit.js';
import { unitChecks } from '../../src/store/checks.repo.js';
import { unitRecord } from '../../src/store/unit-records.repo.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { sqlOn } from '../helpers/store.js';

describe('quality checks through the API', () => {
  let w: WriteEnv;
  let about: number;
  const auth = () => ({ headers: { Authorization: `Token ${w.tokens.jane}` } });
  const get = async (path: string) => {
    const answer = await w.request('GET', path, auth());
    expect(answer.status, answer.text).toBe(200);
    return answer.json as Record<string, unknown>;
  };
  const count = async (q: string, scope = 'translations/hello/app/de/units/') => (await get(`/api/${scope}?q=${encodeURIComponent(q)}`)).count as number;
  const failingUnits = async () =>
    (await sqlOn(w.store).rows(`SELECT u.translation_id, t.component_id, l.code, u.num_words FROM units u JOIN translations t ON t.id = u.translation_id
         JOIN languages l ON l.id = t.language_id WHERE EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.dismissed = 0)`)) as {
      translation_id: number;
      component_id: number;
      code: string;
      num_words: number;
    }[];

  beforeAll(async () => {
    w = await createWriteEnv();
    about = (
      (await sqlOn(w.store).row(
        `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.language_code = 'de' AND u.source = 'About %1'`,
      )) as { id: number }
    ).id;
  });
  afterAll(() => w?.close());

  it('turns format checks on with check_flags and re-checks at once; enforced checks make a PATCH "needs editing" (76)', async () => {
    expect(await count('check:qt_format')).toBe(0);
    const app = w.config.projects[0]!.components.find((c) => c.slug === 'app')!;
    app.check_flags = 'qt-format';
    app.enforced_checks = ['qt_format'];
    await w.store.write((tx) => applyConfig(tx, w.config));
    const patch = await w.request('PATCH', `/api/units/${about}/`, { ...auth(), json: { target: ['Über'], state: State.TRANSLATED } });
    expect(patch.status, patch.text).toBe(200);
    const unit = await get(`/api/units/${about}/`);
    expect(unit).toMatchObject({ has_failing_check: true, state: State.FUZZY, target: ['Über'] });
    const changes = (await get(`/api/translations/hello/app/de/changes/`)).results as { action: number }[];
    expect(changes.some((c) => c.action === Action.ENFORCED_CHECK)).toBe(true);
    // fixing it clears the check and the state stays as sent
    const fixed = await w.request('PATCH', `/api/units/${about}/`, { ...auth(), json: { target: ['Über %1'], state: State.TRANSLATED } });
    expect(fixed.status).toBe(200);
    expect(await get(`/api/units/${about}/`)).toMatchObject({ has_failing_check: false, state: State.TRANSLATED });
    await w.request('PATCH', `/api/units/${about}/`, { ...auth(), json: { target: ['Über'], state: State.TRANSLATED } });
  });

  it('counts failing checks exactly at every statistics level', async () => {
    const failing = await failingUnits();
    expect(failing.length).toBeGreaterThan(0);
    const de = failing.filter((f) => f.code === 'de');
    const tr = await get('/api/translations/hello/app/de/');
    expect(tr.failing_checks).toBe(de.filter((f) => f.component_id === failing.find((x) => x.code === 'de')!.component_id).length);
    const trStats = await get('/api/translations/hello/app/de/statistics/');
    expect(trStats.failing).toBe(tr.failing_checks);
    expect(tr.failing_checks_words).toBe(de.reduce((n, f) => n + f.num_words, 0));
    const total = tr.total as number;
    expect(tr.failing_checks_percent).toBe(Math.floor((1000 * (tr.failing_checks as number)) / total) / 10 || 0.1);
    expect((await get('/api/projects/hello/statistics/')).failing).toBe(failing.length);
    expect((await get('/api/languages/de/statistics/')).failing).toBe(de.length);
    const perLanguage = (await get('/api/projects/hello/languages/')) as unknown as { code: string; failing: number }[];
    expect(perLanguage.find((l) => l.code === 'de')!.failing).toBe(de.length);
    const components = (await get('/api/components/hello/app/statistics/')).results as { code: string; failing: number }[];
    expect(components.reduce((n, c) => n + c.failing, 0)).toBe(
      failing.filter((f) => f.component_id === failing.find((x) => x.code === 'de')!.component_id).length,
    );
  });

  it('searches has:check, check:, dismissed_check: and refuses an unknown check with 400', async () => {
    expect(await count('check:qt_format')).toBe(1);
    expect(await count('has:check AND source:"About"')).toBe(1);
    expect(await count('dismissed_check:qt_format')).toBe(0);
    expect(await count('NOT has:check')).toBe(
      ((await get('/api/translations/hello/app/de/')).total as number) - (await failingUnits()).filter((f) => f.code === 'de' && f.component_id === 1).length,
    );
    const bad = await w.request('GET', `/api/units/?q=${encodeURIComponent('check:no_such_check')}`, auth());
    expect(bad.status).toBe(400);
  });

  it('keeps a dismissal across re-syncs and re-checks, counted apart from failing checks', async () => {
    const before = (await get('/api/translations/hello/app/de/')).failing_checks as number;
    expect(
      await w.store.write(async (tx) => dismissFailingCheck(tx, { id: about, translationId: (await unitRecord(tx, about))!.translationId }, 'qt_format', true)),
    ).toBe(true);
    expect(
      await w.store.write(async (tx) =>
        dismissFailingCheck(tx, { id: about, translationId: (await unitRecord(tx, about))!.translationId }, 'no_such_check', true),
      ),
    ).toBe(false);
    expect(await get(`/api/units/${about}/`)).toMatchObject({ has_failing_check: false });
    expect((await get('/api/translations/hello/app/de/')).failing_checks).toBe(before - 1);
    expect(await count('has:dismissed-check')).toBe(1);
    expect(await count('dismissed_check:qt_format')).toBe(1);
    const [result] = await syncProject(w.store, w.config, 'hello', 'app');
    expect(result?.ok).toBe(true);
    const app = w.config.projects[0]!.components.find((c) => c.slug === 'app')!;
    app.check_flags = 'qt-format, ignore-end-stop';
    await w.store.write((tx) => applyConfig(tx, w.config));
    expect(await w.store.read((tx) => unitChecks(tx, about))).toEqual([{ name: 'qt_format', dismissed: true }]);
    expect(await count('check:qt_format')).toBe(0);
  });
});
