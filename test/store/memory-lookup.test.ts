// What a memory lookup reads of a string's copies: the editor's memory pane and the `weblate` engine ask, for each
// matching source text, its translations in one language; at 10 million units a text is held by every language of
// every component that has it (thousands of units), and only the one language's unit rows may be read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupMemory, sameSourceMatches } from '../../src/store/memory.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { counting, onPostgres, sqlOn, sqlitePlans } from '../helpers/store.js';

describe('a memory lookup', () => {
  let env: WriteEnv;
  let en: number;
  let de: number;
  beforeAll(async () => {
    // the same strings in `app` and two copies, each in Czech and German
    env = await createWriteEnv(
      {},
      {},
      ['copy1', 'copy2'].map((slug) => ({ slug })),
    );
    en = (await sqlOn(env.store).value("SELECT id FROM languages WHERE code = 'en'")) as number;
    de = (await sqlOn(env.store).value("SELECT id FROM languages WHERE code = 'de'")) as number;
  }, 120_000);
  afterAll(() => env?.close());

  it("finds a text's translations in the language asked, from every component", async () => {
    const all = { projects: null, userId: null };
    const exact = await env.store.read((tx) => lookupMemory(tx, 'Open a file', en, de, all));
    expect(exact[0]).toMatchObject({ source: 'Open a file', target: 'Eine Datei öffnen', similarity: 100, origin: 'hello/app' });
    const app = (await sqlOn(env.store).value("SELECT c.id FROM components c WHERE c.slug = 'app'")) as number;
    const others = await env.store.read((tx) => sameSourceMatches(tx, 'Open a file', en, de, all, app));
    expect(others.map((m) => [m.origin, m.target])).toEqual([['hello/copy1', 'Eine Datei öffnen']]);
    // not the Czech copies
    const czech = (await sqlOn(env.store).values(
      "SELECT u.target FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id WHERE l.code = 'cs' AND u.source = 'Open a file' AND u.target <> ''",
    )) as string[];
    for (const m of [...exact, ...others]) expect(czech).not.toContain(m.target);
  });

  it.skipIf(onPostgres)("on SQLite, tells a text's copies of other languages from the string index alone", async () => {
    const readCalls: { sql: string; params: unknown[] }[] = [];
    const store = counting(env.store, { transactions: 0, statements: 0, readCalls });
    const all = { projects: null, userId: null };
    expect(await store.read((tx) => lookupMemory(tx, 'Open a file', en, de, all))).not.toEqual([]);
    expect(await store.read((tx) => sameSourceMatches(tx, 'Open a file', en, de, all, null))).not.toEqual([]);
    // each statement the lookups ran as SQLite plans it, with the parameters it ran with
    const plans = await sqlitePlans(env.store, readCalls);
    const throughStringIndex = [...plans].filter(([, details]) => details.some((d) => d.includes('units_string')));
    expect(throughStringIndex.length).toBeGreaterThanOrEqual(1);
    for (const [sql, details] of plans) {
      expect(
        details.filter((d) => d.includes('AUTOMATIC')),
        sql,
      ).toEqual([]);
      // no unit row read through the string index: its entries hold their translation, and so their language
      const uses = details.filter((d) => d.includes('units_string'));
      expect(
        uses.every((d) => d.includes('USING COVERING INDEX units_string')),
        `${sql}\n${details.join('\n')}`,
      ).toBe(true);
    }
  });
});
