// The dashboard's review queues (suggestions to accept, strings waiting for review) after an edit: moved by the
// translations whose statistics changed, not found again from every visible translation, and the same as found afresh.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Access } from '../../src/api/access.js';
import { suggest } from '../../src/operations/index.js';
import { findUserByUsername } from '../../src/store/users.repo.js';
import type { Json } from '../helpers/api-client.js';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';

/** The suggestion queue's rows: translation name → suggestions. */
function suggestionRows(text: string): Map<string, number> {
  const start = text.indexOf('class="queue suggestion-queue"');
  if (start < 0) return new Map();
  const part = text.slice(start, text.indexOf('</section>', start));
  return new Map([...part.matchAll(/>([^<]+)<\/a><\/th>\s*<td class="num" data-suggestions="(\d+)"/g)].map((m) => [m[1]!, Number(m[2])]));
}

describe('the dashboard’s review queues after an edit', () => {
  let env: WriteEnv;
  let mike: WebSession;

  beforeAll(async () => {
    env = await createWriteEnv();
    mike = await env.signIn('mike', 'mike-password-1');
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  const dashboard = async () => {
    const answer = await env.request('GET', '/', { headers: { Cookie: mike.cookie } });
    expect(answer.status).toBe(200);
    return answer.text;
  };
  /** A suggestion on the translation's `index`th string. */
  const suggestOn = async (language: string, target: string, index = 0) => {
    const unit = (await env.request('GET', `/api/translations/hello/app/${language}/units/`)).json.results[index] as Json;
    const user = (await env.store.read((tx) => findUserByUsername(tx, 'jane')))!.id;
    await suggest(env.store, { unitId: unit.id as number, target: [target], user: { id: user } });
  };
  const suggestions = async (language: string) =>
    ((await env.request('GET', `/api/translations/hello/app/${language}/statistics/`)).json as { suggestions: number }).suggestions;

  it('adds, counts and keeps rows by the changed translations alone', async () => {
    await suggestOn('de', 'Beenden');
    expect(suggestionRows(await dashboard())).toEqual(new Map([['Hello / App — German', await suggestions('de')]]));
    // a suggestion in another language: its row joins, in the visible translations' order, the German row stays
    await suggestOn('cs', 'Ukončit');
    const summing = vi.spyOn(Access.prototype, 'translationList');
    const after = await dashboard();
    expect(summing).not.toHaveBeenCalled();
    summing.mockRestore();
    const rows = suggestionRows(after);
    expect(rows).toEqual(
      new Map([
        ['Hello / App — Czech', await suggestions('cs')],
        ['Hello / App — German', await suggestions('de')],
      ]),
    );
    // a suggestion on another string of the same translation: its count moves
    await suggestOn('cs', 'Konec', 1);
    expect(suggestionRows(await dashboard()).get('Hello / App — Czech')).toBe(await suggestions('cs'));
    expect(await suggestions('cs')).toBe(2);
  });
});
