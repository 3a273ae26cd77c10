// Statistics kept by each unit's share (statistics/follow.ts) through suggestions, comments on a translated and on a
// source string, accepting and deleting, a dismissed check, a source string approved and marked needs editing in
// the source language (source_review), and a monolingual template's source edited: after each, equal to every
// translation counted again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dismissFailingCheck } from '../../src/checks/refresh.js';
import { State } from '../../src/domain/unit.js';
import { acceptSuggestion, addComment, deleteComment, deleteSuggestion, reportSourceIssue, resolveComment, suggest } from '../../src/operations/discussion.js';
import { editUnit } from '../../src/operations/index.js';
import { refreshStats } from '../../src/store/stats.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { sqlOn, statisticsRows } from '../helpers/store.js';

describe('statistics following each unit through the discussion and check dismissals', () => {
  let w: WriteEnv;
  const unitOf = async (language: string, source: string) =>
    (await sqlOn(w.store).row(
      `SELECT u.id, u.translation_id AS "translationId" FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE t.language_code = ? AND u.source = ? AND t.component_id = (SELECT id FROM components WHERE slug = 'app')`,
      language,
      source,
    )) as { id: number; translationId: number };
  const stats = () => statisticsRows(w.store);
  /** The statistics as kept equal the statistics counted again from every unit. */
  const expectCounted = async () => {
    const kept = await stats();
    await w.store.write(async (tx) => refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]));
    expect(await stats()).toEqual(kept);
  };
  const suggestions = async (translationId: number) =>
    ((await sqlOn(w.store).row('SELECT suggestions FROM translation_stats WHERE translation_id = ?', translationId)) as { suggestions: number }).suggestions;
  const comments = async (translationId: number) =>
    ((await sqlOn(w.store).row('SELECT comments FROM translation_stats WHERE translation_id = ?', translationId)) as { comments: number }).comments;

  beforeAll(async () => {
    w = await createWriteEnv();
  });
  afterAll(() => w.close());

  it('moves the counts of suggestions suggested, deleted and accepted', async () => {
    const quit = await unitOf('de', 'Quit');
    const before = await suggestions(quit.translationId);
    const first = (await suggest(w.store, { unitId: quit.id, target: ['Beenden'], user: null }))!;
    const second = (await suggest(w.store, { unitId: quit.id, target: ['Schließen'], user: null }))!;
    expect(await suggestions(quit.translationId)).toBe(before + 1);
    await expectCounted();
    await deleteSuggestion(w.store, second, null);
    await expectCounted();
    await acceptSuggestion(w.store, first, { id: 1 });
    expect(await suggestions(quit.translationId)).toBe(before);
    await expectCounted();
  });

  it('moves the counts of comments on a source string in every translation', async () => {
    const source = await unitOf('en', 'Quit');
    const cs = await unitOf('cs', 'Quit');
    const before = await comments(cs.translationId);
    const id = await addComment(w.store, { unitId: source.id, comment: 'Is this the menu entry?', user: null });
    expect(await comments(cs.translationId)).toBe(before + 1);
    await expectCounted();
    await resolveComment(w.store, id, null);
    expect(await comments(cs.translationId)).toBe(before);
    await expectCounted();
    const again = await addComment(w.store, { unitId: cs.id, comment: 'Zkontrolovat', user: null });
    await expectCounted();
    await deleteComment(w.store, again, null);
    await expectCounted();
  });

  it('moves the failing count of a dismissed check, and back', async () => {
    // a trailing full stop the source does not have fails Weblate's end_stop check
    const about = await unitOf('de', 'Open a file');
    await editUnit(w.store, { unitId: about.id, target: ['Eine Datei öffnen.'], state: State.TRANSLATED, user: { id: 1 } });
    const failing = (await sqlOn(w.store).row('SELECT name FROM checks WHERE unit_id = ? AND dismissed = 0', about.id)) as { name: string } | undefined;
    expect(failing?.name).toBe('end_stop');
    const name = failing!.name;
    expect(await w.store.write((tx) => dismissFailingCheck(tx, about, name, true))).toBe(true);
    await expectCounted();
    expect(await w.store.write((tx) => dismissFailingCheck(tx, about, name, false))).toBe(true);
    await expectCounted();
    expect(await w.store.write((tx) => dismissFailingCheck(tx, about, 'no_such_check', true))).toBe(false);
  });
});

describe('statistics following a source string reviewed in the source language (source_review)', () => {
  let w: WriteEnv;
  const stats = () => statisticsRows(w.store);

  beforeAll(async () => {
    w = await createWriteEnv({}, {}, [], { source_review: true });
  });
  afterAll(() => w.close());

  it('moves the approved and needs-editing counts of the source translation, equal to every translation counted again', async () => {
    const unit = (await sqlOn(w.store).row(
      `SELECT u.id, u.translation_id AS "translationId" FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE t.is_source = 1 AND u.source = 'Save' AND t.component_id = (SELECT id FROM components WHERE slug = 'web')`,
    )) as { id: number; translationId: number };
    const approved = async () =>
      ((await sqlOn(w.store).row('SELECT approved FROM translation_stats WHERE translation_id = ?', unit.translationId)) as { approved: number }).approved;
    const before = await approved();
    for (const state of [State.APPROVED, State.FUZZY, State.APPROVED, State.TRANSLATED]) {
      await editUnit(w.store, { unitId: unit.id, target: ['Save'], state, user: { id: 1 } });
      expect(await approved()).toBe(before + (state === State.APPROVED ? 1 : 0));
      const kept = await stats();
      await w.store.write(async (tx) => refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]));
      expect(await stats()).toEqual(kept);
    }
  });

  it('moves the counts of a reported source string (comment, needs editing) equal to every translation counted again', async () => {
    const open = (await sqlOn(w.store).row(
      `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE t.is_source = 1 AND u.source = 'Open' AND t.component_id = (SELECT id FROM components WHERE slug = 'web')`,
    )) as { id: number };
    await reportSourceIssue(w.store, { sourceUnitId: open.id, comment: 'Open what?', user: { id: 1 } });
    expect(((await sqlOn(w.store).row('SELECT state FROM units WHERE id = ?', open.id)) as { state: number }).state).toBe(State.FUZZY);
    const kept = await stats();
    await w.store.write(async (tx) => refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]));
    expect(await stats()).toEqual(kept);
  });

  it("moves every translation's counts and words when a template's source string is edited (its strings need editing, then are translated again), equal to every translation counted again", async () => {
    const title = (await sqlOn(w.store).row(
      `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE t.is_source = 1 AND u.context = 'app.title' AND t.component_id = (SELECT id FROM components WHERE slug = 'web')`,
    )) as { id: number };
    for (const text of ['Hello from tms, the translation server', 'Hello tms']) {
      const before = await stats();
      await editUnit(w.store, { unitId: title.id, target: [text], state: State.TRANSLATED, user: { id: 1 } });
      const kept = await stats();
      expect(kept).not.toEqual(before);
      await w.store.write(async (tx) => refreshStats(tx, (await tx.prepare('SELECT id FROM translations').pluck().all()) as number[]));
      expect(await stats()).toEqual(kept);
    }
  });
});
