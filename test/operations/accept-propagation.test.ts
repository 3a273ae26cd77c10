// An accepted suggestion fills the same string in the project's other components, as a translated edit does
// (Weblate accepts a suggestion by translating the string, which propagates): each a change 77 of its own; without
// the rights to edit there (no mayPropagateTo) nothing else changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Action } from '../../src/domain/actions.js';
import { acceptSuggestion, suggest } from '../../src/operations/index.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { sqlOn, unitBySource } from '../helpers/store.js';

describe('accepting a suggestion propagates it', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv({}, {}, [{ slug: 'app2' }]);
  }, 90_000);
  afterAll(async () => {
    await env?.close();
  });

  const unit = (component: string, source: string) => unitBySource(env.store, component, source);

  it('fills the other component where the accepter may edit, as change 77', async () => {
    const jane = (await sqlOn(env.store).row<{ id: number }>("SELECT id FROM users WHERE username = 'jane'"))!;
    const mike = (await sqlOn(env.store).row<{ id: number }>("SELECT id FROM users WHERE username = 'mike'"))!;
    const quit = await unit('app', 'Quit');
    expect((await unit('app2', 'Quit')).state).toBe(0);

    // without the rights elsewhere: only the string itself
    const first = await suggest(env.store, { unitId: quit.id, target: ['Verlassen'], user: { id: jane.id } });
    expect((await acceptSuggestion(env.store, first!, { id: mike.id })).propagated).toEqual([]);
    expect((await unit('app2', 'Quit')).state).toBe(0);

    const second = await suggest(env.store, { unitId: quit.id, target: ['Beenden'], user: { id: jane.id } });
    const accepted = await acceptSuggestion(env.store, second!, { id: mike.id }, () => true);
    const other = await unit('app2', 'Quit');
    expect(accepted.propagated).toEqual([other.id]);
    expect(other).toMatchObject({ target: 'Beenden', state: 20 });
    const changes = (await env.request('GET', '/api/translations/hello/app2/de/changes/', { token: env.tokens.admin })).json.results as {
      action: number;
      target: string;
      author: string;
    }[];
    // the suggestion's author authored the propagated text too
    expect(changes.filter((c) => c.action === Action.PROPAGATED_EDIT)).toEqual([
      expect.objectContaining({ target: 'Beenden', author: expect.stringMatching(/\/jane\/$/) }),
    ]);
  });
});
