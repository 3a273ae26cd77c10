// A sync that reads changed files again (upstream moved: a pull, or a commit that found upstream ahead on several
// nodes) writes them in one transaction holding the store's write lock: its statements that need no answer of each
// other go out together, so on PostgreSQL its round trips do not grow a handful per translation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { State } from '../../src/domain/unit.js';
import type { Store } from '../../src/store/index.js';
import { syncAll } from '../../src/sync/index.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { type Counts, counting, onPostgres, sqlOn } from '../helpers/store.js';
import { type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';

const LANGUAGES = ['de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'sv', 'da', 'fi'];

/** The demo's German file as the file of `code`, its "Quit" translated as `quit` (empty: untranslated). */
function fileOf(code: string, quit: string): string {
  const text = demoFile('app/translations/app_de.ts').replace('language="de"', `language="${code}"`);
  return quit === '' ? text : text.replace('<translation type="unfinished"></translation>', `<translation>${quit}</translation>`);
}

const files = (quit: (code: string) => string) => Object.fromEntries(LANGUAGES.map((code) => [`translations/app_${code}.ts`, fileOf(code, quit(code))]));

describe('a sync reading changed files again', () => {
  let env: SyncEnv;
  let store: Store;
  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream(
      'app',
      files(() => ''),
    );
    store = await env.openStore();
  }, 120_000);
  afterAll(() => env?.close());

  const config = () =>
    env.config([{ name: 'Hello', slug: 'hello', components: [env.component('app', { filemask: 'translations/app_*.ts', file_format: 'ts' })] }]);

  /** Syncs, counting the round trips of its write transactions on PostgreSQL (BEGIN and COMMIT aside; 0 on SQLite). */
  async function syncCounted(): Promise<number> {
    const counts: Counts = { transactions: 0, statements: 0, writeRoundTrips: 0 };
    const counted = counting(store, counts);
    const results = await syncAll(counted, config());
    expect(results.map((r) => [r.ok, r.error])).toEqual([[true, undefined]]);
    return counts.writeRoundTrips!;
  }

  it('stores every changed translation, its checks and statistics, in a bounded number of round trips', async () => {
    await syncCounted();
    const sql = sqlOn(store);
    const quitOf = () =>
      sql.rows<{ code: string; target: string; state: number }>(
        `SELECT t.language_code AS code, u.target, u.state FROM units u JOIN translations t ON t.id = u.translation_id
         WHERE u.source = 'Quit' AND t.is_source = 0 ORDER BY t.language_code`,
      );
    expect((await quitOf()).every((u) => u.state === State.EMPTY)).toBe(true);

    // every file changes upstream: "Quit" translated, ending in a space in half of them (a failing check)
    const quit = (code: string) => `Quit-${code}${LANGUAGES.indexOf(code) % 2 === 0 ? ' ' : ''}`;
    await commitToUpstream(env.upstream('app'), files(quit));
    const trips = await syncCounted();

    expect(await quitOf()).toEqual([...LANGUAGES].sort().map((code) => ({ code, target: quit(code), state: State.TRANSLATED })));
    // the checks of the units written again: the trailing space fails end_space where it was added
    const spaced = await sql.values<string>(
      `SELECT t.language_code FROM checks k JOIN units u ON u.id = k.unit_id JOIN translations t ON t.id = u.translation_id
       WHERE u.source = 'Quit' AND k.name = 'end_space' ORDER BY t.language_code`,
    );
    expect(spaced).toEqual(LANGUAGES.filter((c) => LANGUAGES.indexOf(c) % 2 === 0).sort());
    // the statistics counted again from the units: one string more translated in each translation, its last change kept
    const stats = await sql.rows<{ code: string; translated: number; total: number; counted: number }>(
      `SELECT t.language_code AS code, s.translated, s.total,
         (SELECT count(*) FROM units u WHERE u.translation_id = t.id AND u.state >= ${State.TRANSLATED}) AS counted
       FROM translation_stats s JOIN translations t ON t.id = s.translation_id WHERE t.is_source = 0 ORDER BY t.language_code`,
    );
    expect(stats).toHaveLength(LANGUAGES.length);
    for (const s of stats) expect(Number(s.translated), s.code).toBe(Number(s.counted));

    if (onPostgres) {
      console.log(`a sync reading ${LANGUAGES.length} changed files again: ${trips} round trips in its writes`);
      // 141 when each statement waited for the one before's answer (a dozen or more a translation)
      expect(trips).toBeLessThanOrEqual(22);
    }
  }, 120_000);
});
