// editUnit: Weblate's validation, pending mark and author, change actions 5/2/36/37, statistics at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Action } from '../../src/domain/actions.js';
import { NotFoundError, RefusedError } from '../../src/domain/errors.js';
import { State } from '../../src/domain/unit.js';
import { editUnit } from '../../src/operations/index.js';
import { rejectedWith, thrownBy } from '../helpers/errors.js';
import { type RepoEnv, createRepoEnv, statsOf } from './repo-env.js';

describe('editUnit', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv();
  });
  afterAll(() => r.close());

  it('translates an empty unit: pending with its author, change 5 with old/new text and states, statistics updated', async () => {
    const quit = await r.unit('app', 'de', 'Quit');
    expect(quit).toMatchObject({ target: '', state: State.EMPTY, pending: 0 });
    const before = await statsOf(r, 'app', 'de');
    const result = await editUnit(r.store, { unitId: quit.id, target: ['Beenden'], state: State.TRANSLATED, user: r.alice });
    expect(result).toMatchObject({ changed: true, action: Action.NEW, target: ['Beenden'], state: State.TRANSLATED, pending: true });
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Beenden', state: State.TRANSLATED, pending: 1, pending_author_id: r.alice.id });
    const change = (await r.changes('app')).find((c) => c.id === result.changeId)!;
    expect(change).toMatchObject({
      action: Action.NEW,
      unit_id: quit.id,
      user_id: r.alice.id,
      author_id: r.alice.id,
      target: 'Beenden',
      old: '',
      details: { state: State.TRANSLATED, old_state: State.EMPTY, source: 'Quit' },
    });
    const after = await statsOf(r, 'app', 'de');
    expect(after.translated).toBe(before.translated + 1);
    expect(after.last_author_id).toBe(r.alice.id);
  });

  it('records 2 for a changed translation, 37 for needs-editing, and nothing for a save that changes nothing', async () => {
    const open = await r.unit('app', 'de', 'Open a file');
    const changed = await editUnit(r.store, { unitId: open.id, target: ['Datei öffnen'], state: State.TRANSLATED, user: r.bob });
    expect(changed.action).toBe(Action.CHANGE);
    expect((await r.unit('app', 'de', 'Open a file')).pending_author_id).toBe(r.bob.id);
    const fuzzy = await editUnit(r.store, { unitId: open.id, target: ['Datei öffnen'], state: State.FUZZY, user: r.bob });
    expect(fuzzy.action).toBe(Action.MARKED_EDIT);
    expect((await statsOf(r, 'app', 'de')).fuzzy).toBe(2);
    const count = (await r.changes('app')).length;
    const same = await editUnit(r.store, { unitId: open.id, target: ['Datei öffnen'], state: State.FUZZY, user: r.alice });
    expect(same).toMatchObject({ changed: false, action: null, changeId: null });
    expect(await r.changes('app')).toHaveLength(count);
    expect((await r.unit('app', 'de', 'Open a file')).pending_author_id).toBe(r.bob.id);
  });

  it('checks the plural count against the language (cs: 3 forms) and a singular unit takes one string', async () => {
    const files = await r.unit('app', 'cs', 'file selected');
    const short = await rejectedWith(RefusedError, editUnit(r.store, { unitId: files.id, target: ['a', 'b'], state: 20, user: r.alice }));
    expect([short.code, short.data.field]).toEqual(['ValidationError', 'target']);
    expect(short.message).toBe('Number of plurals does not match');
    const ok = await editUnit(r.store, { unitId: files.id, target: ['%n soubor', '%n soubory', '%n souborů'], state: 20, user: r.alice });
    expect(ok.action).toBe(Action.CHANGE);
    expect((await r.unit('app', 'cs', 'file selected')).target).toBe('%n soubor\x1e\x1e%n soubory\x1e\x1e%n souborů');
    const single = await r.unit('app', 'cs', 'Quit');
    expect((await rejectedWith(RefusedError, editUnit(r.store, { unitId: single.id, target: ['a', 'b'], state: 20, user: r.alice }))).data.field).toBe(
      'target',
    );
  });

  it('refuses states outside 0/10/20/30, empty/non-empty mismatches, and approval without review', async () => {
    const quit = await r.unit('app', 'cs', 'Quit');
    const cases: [number, string[], string][] = [
      [100, ['x'], 'Invalid state'],
      [15, ['x'], 'Invalid state'],
      [0, ['x'], 'Can not use empty state with non empty target'],
      [20, [''], 'Can not use non empty state with empty target'],
      [30, ['x'], 'Approved state is not available as reviews are not enabled.'],
    ];
    for (const [state, target, message] of cases) {
      const e = await rejectedWith(RefusedError, editUnit(r.store, { unitId: quit.id, target, state, user: r.alice }));
      expect([e.code, e.data.field, e.code, e.message]).toEqual(['ValidationError', 'state', 'ValidationError', message]);
    }
    expect(await r.unit('app', 'cs', 'Quit')).toMatchObject({ target: '', pending: 0 });
  });

  it('refuses the source strings of a bilingual component (read-only) and unknown units', async () => {
    const source = await r.unit('app', 'en', 'Quit');
    const e = await rejectedWith(RefusedError, editUnit(r.store, { unitId: source.id, target: ['Exit'], state: 20, user: r.alice }));
    expect([e.code, e.data.field]).toEqual(['ForbiddenError', null]);
    await expect(editUnit(r.store, { unitId: 999_999, target: ['x'], state: 20, user: r.alice })).rejects.toThrow(NotFoundError);
  });

  it('edits the template of a monolingual component (edit_template is on by default)', async () => {
    const title = (await r.units('web', 'en')).find((u) => u.context === 'app.title')!;
    expect(title.state).toBe(State.TRANSLATED);
    expect((await editUnit(r.store, { unitId: title.id, target: ['Hello, tms'], state: 20, user: r.alice })).action).toBe(Action.CHANGE);
  });
});

describe('editUnit with review enabled', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ project: { translation_review: true }, components: { web: { edit_template: false } } });
  });
  afterAll(() => r.close());

  it('approves (36) from translated and from empty, and counts approvals', async () => {
    const file = await r.unit('app', 'de', '&File');
    expect((await editUnit(r.store, { unitId: file.id, target: ['&Datei'], state: State.APPROVED, user: r.bob })).action).toBe(Action.APPROVE);
    const quit = await r.unit('app', 'de', 'Quit');
    expect((await editUnit(r.store, { unitId: quit.id, target: ['Beenden'], state: State.APPROVED, user: r.bob })).action).toBe(Action.APPROVE);
    expect((await statsOf(r, 'app', 'de')).approved).toBe(2);
    // from approved back to translated is a change (2)
    expect((await editUnit(r.store, { unitId: quit.id, target: ['Beenden'], state: State.TRANSLATED, user: r.bob })).action).toBe(Action.CHANGE);
  });

  it('refuses a read-only template (edit_template off) with the 403 kind', async () => {
    const template = (await r.units('web', 'en'))[0];
    expect(template!.state).toBe(State.READONLY);
    const e = await rejectedWith(RefusedError, editUnit(r.store, { unitId: template!.id, target: ['Hi'], state: 20, user: r.alice }));
    expect([e.code, e.message]).toEqual(['ForbiddenError', 'The string is read-only.']);
  });
});
