// The free-text search's index (SQLite's units_fts, PostgreSQL's pg_trgm under tms_icontains) changes no answer: over
// real files and tricky strings, every search lists the same units in the same order with the same count as the scan
// it replaces (the search's match on every row), on either engine.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseUnitQuery } from '../../src/api/search.js';
import type { Tx } from '../../src/store/db.js';
import { type Store, openStore } from '../../src/store/index.js';
import { countTranslationUnitRecords, countUnitRecords, translationUnitTexts, unitRecords } from '../../src/store/unit-records.repo.js';
import { type UnitFilter, compileUnitFilter } from '../../src/store/unit-search.js';
import { syncProject } from '../../src/sync/index.js';
import { describeCorpus, keepassxcComponent, keepassxcFiles } from '../helpers/corpus.js';
import { onPostgres, sqlOn } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

// Greek (final sigma), Turkish (dotted capital I), Russian, Japanese, German (ß) and the source
const LANGUAGES = ['en', 'de', 'el', 'tr', 'ru', 'ja'];
const FREE_TEXT = ['source', 'target', 'context'] as const;

/** Texts whose lowercase is not letter for letter, put into strings' translations. */
const TRICKY = [
  'İstanbul İZMİR',
  'ΟΔΟΣ ΣΟΦΟΣ Σ',
  'Straße STRASSE ẞ',
  'ǅemal ǄEMAL ǆ',
  'Kelvin \u212a and Ångström \u212b',
  '100%_done in C:\\path\\file',
  'ﬁle ﬂow ﬃ',
  '😀😃😄 smile',
  'a\u0301bc e\u0301te\u0301',
  'quote "inside" it',
  'ΑΣ. ΣΑΣ',
];

/** Needles that test the folding, the LIKE specials and the trigram limits. */
const TRICKY_NEEDLES = [
  'i̇st',
  'İST',
  'ist',
  'istanbul',
  'zmi̇r',
  'δος',
  'οδοσ',
  'ΟΔΟΣ',
  'σοφος',
  'ας.',
  'strasse',
  'straße',
  'ßig',
  'ǆem',
  'ǅEM',
  'kelvin k',
  '\u212a',
  'ångström',
  '0%_d',
  '%_',
  ':\\p',
  'ﬁle',
  'file',
  '😃😄',
  '😀',
  'a\u0301b',
  'e\u0301t',
  '"inside"',
  'ab',
  'k',
  '',
  '   ',
];

/** The ids the scan selects, in id order: the search's match on every row, as before the index. */
async function scanned(tx: Tx, filter: UnitFilter, translationId?: number): Promise<number[]> {
  let { sql, params } = compileUnitFilter(filter);
  // PostgreSQL's tms_icontains is now the index's LIKE: the scan is its former body, which no index answers
  if (onPostgres) sql = sql.replaceAll('tms_icontains(', 'tms_icontains_scan(');
  const scope = translationId === undefined ? '' : 'u.translation_id = ? AND ';
  return (
    (await tx
      .prepare(`SELECT u.id FROM units u WHERE ${scope}${sql} ORDER BY u.id`)
      .pluck()
      .all(...(translationId === undefined ? [] : [translationId]), ...params)) as number[]
  ).map(Number);
}

describeCorpus('the search index (KeePassXC in six languages, and tricky strings)', (corpus) => {
  let env: SyncEnv;
  let store: Store;
  const queries: { label: string; filter: UnitFilter }[] = [];

  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('keepassxc', keepassxcFiles(corpus, LANGUAGES));
    const component = keepassxcComponent(env.server.url('keepassxc.git', CREDENTIALS));
    store = await openStore(path.join(env.root, 'search.sqlite'));
    const [synced] = await syncProject(store, env.config([{ name: 'KeePassXC', slug: 'keepassxc', components: [component] }]), 'keepassxc');
    expect(synced).toMatchObject({ ok: true });
    const sql = sqlOn(store);
    if (onPostgres) {
      await sql.run(
        `CREATE OR REPLACE FUNCTION tms_icontains_scan(haystack text, needle text) RETURNS boolean LANGUAGE sql IMMUTABLE
         AS $$ SELECT strpos(lower(haystack COLLATE "und-x-icu"), needle) > 0 $$`,
      );
    }
    // the tricky texts as translations of the first strings (a write the index follows)
    const ids = (await sql.values('SELECT id FROM units ORDER BY id LIMIT ?', TRICKY.length)).map(Number);
    for (const [i, id] of ids.entries()) await sql.run('UPDATE units SET target = ? WHERE id = ?', TRICKY[i], id);

    const units = await sql.rows<{ source: string; target: string; context: string }>('SELECT source, target, context FROM units ORDER BY id');
    expect(units.length).toBeGreaterThan(8000);
    // pieces of real texts (of 3 to 8 characters, some in capitals, one across a plural's separator)
    for (let i = 0; i < 80; i++) {
      const u = units[(i * 7919) % units.length]!;
      const text = [u.source, u.target, u.context].find((t, k) => t !== '' && k >= i % 3) ?? u.source;
      const chars = [...text];
      const start = (i * 31) % Math.max(1, chars.length - 3);
      let piece = chars.slice(start, start + 3 + (i % 6)).join('');
      if (i % 3 === 0) piece = piece.toUpperCase();
      queries.push({ label: `piece ${JSON.stringify(piece)}`, filter: { kind: 'text', fields: [...FREE_TEXT], match: 'contains', value: piece } });
    }
    const plural = units.find((u) => u.source.includes('\x1e\x1e'))!.source;
    const across = plural.slice(plural.indexOf('\x1e\x1e') - 3, plural.indexOf('\x1e\x1e') + 5);
    queries.push({ label: 'across a plural separator', filter: { kind: 'text', fields: [...FREE_TEXT], match: 'contains', value: across } });
    for (const needle of TRICKY_NEEDLES) {
      queries.push({ label: `tricky ${JSON.stringify(needle)}`, filter: { kind: 'text', fields: [...FREE_TEXT], match: 'contains', value: needle } });
    }
    // the search language: fields, combinations, negation, regex, exact
    for (const q of [
      'password',
      'Datenbank',
      'source:database AND target:Datenbank',
      'context:DatabaseWidget',
      'NOT password',
      'open OR Öffnen OR открыть',
      '(entry AND NOT group) OR state:>=translated AND пароль',
      'has:plural AND selected',
      'note:keepass',
      'source:r"^Pass"',
      'target:="Passwort"',
      'ΣΟΦ',
      'İstanbul',
    ]) {
      queries.push({ label: q, filter: parseUnitQuery(q)! });
    }
  }, 240_000);
  afterAll(async () => {
    await store?.close();
    await env?.close();
  });

  it('the search reads its candidates from the index', async () => {
    await store.write(async (tx) => {
      const filter: UnitFilter = { kind: 'text', fields: [...FREE_TEXT], match: 'contains', value: 'password' };
      const { sql, params } = compileUnitFilter(filter, tx.dialect);
      if (!onPostgres) {
        expect(sql).toContain('units_fts');
        // shorter than a trigram, or a field the index does not hold: the scan as before
        expect(compileUnitFilter({ ...filter, value: 'pa' }, tx.dialect).sql).not.toContain('units_fts');
        expect(compileUnitFilter({ ...filter, fields: ['note'] }, tx.dialect).sql).not.toContain('units_fts');
      } else {
        // on the store as the sync's first load left it: analysed once committed (Store.settleLoad), as every first
        // load into PostgreSQL is; the trigram indexes keep PostgreSQL's default pending list
        await tx.prepare('SET LOCAL enable_seqscan = off').run();
        const plan = (
          (await tx
            .prepare(`EXPLAIN SELECT count(*) FROM units u WHERE ${sql}`)
            .pluck()
            .all(...params)) as string[]
        ).join('\n');
        expect(plan).toMatch(/units_(source|target|context)_trigrams/);
      }
    });
  });

  it('every search selects, orders and counts as the scan', async () => {
    const german = Number(
      await sqlOn(store).value("SELECT t.id FROM translations t WHERE t.filename LIKE '%_de.ts' OR t.filename LIKE '%_el.ts' ORDER BY t.filename LIMIT 1"),
    );
    const found = await store.read(async (tx) => {
      const out: { label: string; expected: number[]; count: number; page: number[]; deep: number[]; inTranslation: number[]; translationCount: number }[] = [];
      for (const { label, filter } of queries) {
        const expected = await scanned(tx, filter);
        const page = (await unitRecords(tx, null, filter, { limit: 100, offset: 0 }, { byId: true })).map((r) => r.id);
        const deep = (await unitRecords(tx, null, filter, { limit: 50, offset: 120 })).map((r) => r.id);
        const inTranslation = (await translationUnitTexts(tx, german, filter)).map((r) => r.id).sort((a, b) => a - b);
        out.push({
          label,
          expected,
          count: await countUnitRecords(tx, null, filter),
          page,
          deep,
          inTranslation,
          translationCount: await countTranslationUnitRecords(tx, german, filter),
        });
      }
      const germanExpected = await Promise.all(queries.map(({ filter }) => scanned(tx, filter, german)));
      return out.map((o, i) => ({ ...o, germanExpected: germanExpected[i]! }));
    });
    let matching = 0;
    for (const f of found) {
      expect({ query: f.label, count: f.count }).toEqual({ query: f.label, count: f.expected.length });
      expect({ query: f.label, page: f.page }).toEqual({ query: f.label, page: f.expected.slice(0, 100) });
      expect({ query: f.label, deep: f.deep }).toEqual({ query: f.label, deep: f.expected.slice(120, 170) });
      expect({ query: f.label, ids: f.inTranslation, count: f.translationCount }).toEqual({
        query: f.label,
        ids: f.germanExpected,
        count: f.germanExpected.length,
      });
      if (f.count > 0) matching++;
    }
    // the queries find things (not a comparison of empty answers), the tricky strings among them
    expect(matching).toBeGreaterThan(queries.length * 0.7);
    for (const needle of ['i̇st', 'δος', 'strasse', '0%_d', '😃😄', '"inside"']) {
      expect(found.find((f) => f.label === `tricky ${JSON.stringify(needle)}`)!.count, needle).toBeGreaterThan(0);
    }
  }, 240_000);
});
