// What an edit that propagates costs: the units it fills are saved together, each read and write a statement for all
// of them, so an edit runs as many statements filling 5 components as filling 2 (each a round trip inside the store's
// write lock on PostgreSQL; an edit on a large site filled 10-25 components), and the traits of the components met and
// the string's group are read a fixed number of times; on PostgreSQL the statements that need no answer of each other
// go out together, so an edit's write runs in a bounded number of round trips (each one a turn of a serving loop busy
// with reads, inside the write lock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Action } from '../../src/domain/actions.js';
import { State } from '../../src/domain/unit.js';
import { editUnit } from '../../src/operations/index.js';
import type { Store } from '../../src/store/index.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { type Counts, counting, onPostgres, sqlOn, sqlitePlans, unitBySource } from '../helpers/store.js';

const COPIES = ['copy1', 'copy2', 'copy3', 'copy4', 'copy5'];

/** A project of `app` and `copies` copies of it, its German 'Quit' edited in `app` and filled in every copy, counted. */
async function editFillingCopies(copies: number): Promise<{ runs: Map<string, number>; statements: number }> {
  const slugs = Array.from({ length: copies }, (_, i) => `copy${i + 1}`);
  const env: WriteEnv = await createWriteEnv(
    {},
    {},
    slugs.map((slug) => ({ slug })),
  );
  try {
    const unit = (component: string) => unitBySource(env.store, component, 'Quit');
    const quit = await unit('app');
    const runs = new Map<string, number>();
    const store = counting(env.store, { transactions: 0, statements: 0, writeRuns: runs });
    const result = await editUnit(store, { unitId: quit.id, target: ['Beenden'], state: State.TRANSLATED, user: { id: 1 }, mayPropagateTo: () => true });
    expect(result.propagated).toHaveLength(copies);
    for (const c of slugs) expect(await unit(c), c).toMatchObject({ target: 'Beenden', state: State.TRANSLATED, pending: 1 });
    const changes = await sqlOn(env.store).value(`SELECT count(*) FROM changes WHERE action = ${Action.PROPAGATED_EDIT}`);
    expect(Number(changes)).toBe(copies);
    return { runs, statements: [...runs.values()].reduce((a, b) => a + b, 0) };
  } finally {
    await env.close();
  }
}

describe('an edit that propagates', () => {
  it('runs as many statements filling 5 components as filling 2, and reads the components and the string a fixed number of times', async () => {
    const two = await editFillingCopies(2);
    const five = await editFillingCopies(5);
    // each statement runs as often for 5 units filled as for 2 (196 statements in all filling 5 and 106 filling 2 before they were saved set-wide)
    expect(Object.fromEntries(five.runs)).toEqual(Object.fromEntries(two.runs));
    expect(five.statements).toBeLessThanOrEqual(62);

    const ran = (pattern: RegExp) => [...five.runs].filter(([sql]) => pattern.test(sql)).reduce((n, [, k]) => n + k, 0);
    // the components met: twice for the edit, twice for the units it filled
    expect(ran(/AS source_language FROM components c\b/)).toBe(4);
    // the string's copies across the project, for `inconsistent`: likewise
    expect(ran(/WHERE s\.source = \? AND s\.context = \? AND t\.is_source = 0/)).toBe(2);
  }, 240_000);
});

// At 10 million units a string is held by every language of every component that has it (3,215 units for one of the
// synthetic site's, 9 of them in the edited unit's language), and an edit reads its copies in one language three times (propagation, then `inconsistent`
// for the edit and for the units it filled): the other languages' copies are passed over in the string index, whose
// entries hold their translation, and only the one language's unit rows are read (each row a page of its own once the
// units outgrow the cache: 40–50 ms a read at 10 million units on a loaded machine, one unit row per copy of every
// language). Nor does any statement build a temporary index (SQLite scanning a whole table to probe a step's rows).
describe.skipIf(onPostgres)('an edit on SQLite', () => {
  it("reads a string's copies from the string index alone, never a unit row of another language", async () => {
    const env: WriteEnv = await createWriteEnv(
      {},
      {},
      ['copy1', 'copy2'].map((slug) => ({ slug })),
    );
    try {
      const quit = await unitBySource(env.store, 'app', 'Quit');
      const writeCalls: { sql: string; params: unknown[] }[] = [];
      const store = counting(env.store, { transactions: 0, statements: 0, writeCalls });
      const result = await editUnit(store, { unitId: quit.id, target: ['Beenden'], state: State.TRANSLATED, user: { id: 1 }, mayPropagateTo: () => true });
      expect(result.propagated).toHaveLength(2);
      // each statement of the edit's write as SQLite plans it, with the parameters it ran with
      const plans = await sqlitePlans(env.store, writeCalls);
      for (const [sql, details] of plans)
        expect(
          details.filter((d) => d.includes('AUTOMATIC')),
          sql,
        ).toEqual([]);
      const throughStringIndex = [...plans].filter(([, details]) => details.some((d) => d.includes('units_string')));
      // propagation's copies and the two reads of the string's group in German
      expect(throughStringIndex.length).toBeGreaterThanOrEqual(2);
      for (const [sql, details] of throughStringIndex) {
        const uses = details.filter((d) => d.includes('units_string'));
        expect(
          uses.every((d) => d.includes('USING COVERING INDEX units_string')),
          `${sql}\n${details.join('\n')}`,
        ).toBe(true);
      }
    } finally {
      await env.close();
    }
  }, 120_000);
});

// PostgreSQL's index of a string's copies by translation holds only the strings that fit a btree entry: a longer one
// is read through the hash index of sources, and edits of it fill and check its copies as any string's.
describe('an edit of a string too long for the index of its copies by translation', () => {
  it('fills its copies, and finds one left out inconsistent', async () => {
    const env: WriteEnv = await createWriteEnv(
      {},
      {},
      ['copy1', 'copy2'].map((slug) => ({ slug })),
    );
    try {
      const long = `Quit ${'and leave the application '.repeat(100)}`; // 2,705 bytes
      await sqlOn(env.store).run('UPDATE units SET source = ? WHERE source = ?', long, 'Quit');
      const unit = (component: string) => unitBySource(env.store, component, long);
      const kept = await unit('copy2');
      await editUnit(env.store, { unitId: kept.id, target: ['Schließen'], state: State.TRANSLATED, user: { id: 1 } });
      const copy2 = Number(await sqlOn(env.store).value("SELECT id FROM components WHERE slug = 'copy2'"));
      const quit = await unit('app');
      const result = await editUnit(env.store, {
        unitId: quit.id,
        target: ['Beenden'],
        state: State.TRANSLATED,
        user: { id: 1 },
        mayPropagateTo: (t) => t.componentId !== copy2,
      });
      expect(result.propagated).toHaveLength(1);
      expect(await unit('copy1')).toMatchObject({ target: 'Beenden', state: State.TRANSLATED });
      expect(await unit('copy2')).toMatchObject({ target: 'Schließen' });
      const flagged = await sqlOn(env.store).values<number>("SELECT unit_id FROM checks WHERE name = 'inconsistent' ORDER BY unit_id");
      expect(flagged.map(Number)).toEqual([quit.id, (await unit('copy1')).id, kept.id].sort((a, b) => a - b));
    } finally {
      await env.close();
    }
  }, 120_000);
});

/** A node of PostgreSQL's EXPLAIN (FORMAT JSON) plan, and those under it. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

// PostgreSQL's side of the same: its string index (units_string) is a hash index on the source alone, each entry only
// a unit's address, so a read of a string's copies in one language fetched every language's unit rows to learn their
// translation (3,215 at 10 million units). The copies are now found in units_string_copies (source, context,
// translation) by an index-only scan: only the edited language's rows are read. The count of a string's failing
// checks across its component's translations (`multiple_failures`) takes their ids from the same index.
describe.runIf(onPostgres)("an edit's reads of a string's copies on PostgreSQL", () => {
  it('find them in the index alone, never a unit row of another language', async () => {
    const env: WriteEnv = await createWriteEnv(
      {},
      {},
      ['copy1', 'copy2'].map((slug) => ({ slug })),
    );
    try {
      await env.store.settleLoad(['units', 'translations']);
      const quit = await unitBySource(env.store, 'app', 'Quit');
      const writeCalls: { sql: string; params: unknown[] }[] = [];
      const store = counting(env.store, { transactions: 0, statements: 0, writeCalls });
      const result = await editUnit(store, { unitId: quit.id, target: ['Beenden'], state: State.TRANSLATED, user: { id: 1 }, mayPropagateTo: () => true });
      expect(result.propagated).toHaveLength(2);
      // each reading statement of the edit's write as PostgreSQL runs it again with the parameters it ran with, scans
      // of whole tables ruled out (a few units: a scan would be cheapest here, and is not at any size that matters);
      // the steps it ran (a string too long for units_string_copies is read through units_string: not this one's)
      const plans = new Map<string, PlanNode[]>();
      for (const { sql, params } of writeCalls) {
        if (plans.has(sql) || !/^\s*(SELECT|WITH)\b/i.test(sql)) continue;
        const [plan] = await env.store.write(async (tx) => {
          await tx.prepare('SET LOCAL enable_seqscan = off').run();
          const json = (await tx
            .prepare(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`)
            .pluck()
            .get(...params)) as string | { Plan: PlanNode }[];
          return typeof json === 'string' ? (JSON.parse(json) as { Plan: PlanNode }[]) : json;
        });
        plans.set(
          sql,
          [...nodesOf(plan!.Plan)].filter((n) => n['Actual Loops'] > 0),
        );
      }
      const byString = [...plans].filter(([, nodes]) => nodes.some((n) => n['Index Name']?.startsWith('units_string')));
      // propagation's copies, the two reads of the string's group in German, and the count of the string's failing
      // checks in every translation of each component that has it (`multiple_failures`), whose units were read by
      // (translation, id_hash) each, a unit row of every language (a page each at 10 million units)
      expect(byString.length).toBeGreaterThanOrEqual(3);
      const counts = [...plans].filter(([sql]) => /count\(\*\) AS n\b/.test(sql));
      expect(counts.length).toBeGreaterThanOrEqual(1);
      for (const [sql, nodes] of counts)
        expect(
          byString.map(([s]) => s),
          sql,
        ).toContain(sql);
      for (const [sql, nodes] of byString) {
        const uses = nodes.filter((n) => n['Index Name']?.startsWith('units_string'));
        expect(
          uses.map((n) => `${n['Node Type']} ${n['Index Name']}`),
          sql,
        ).toEqual(uses.map(() => 'Index Only Scan units_string_copies'));
      }
    } finally {
      await env.close();
    }
  }, 120_000);
});

describe.runIf(onPostgres)('an edit on PostgreSQL', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv(
      {},
      {},
      ['copy1', 'copy2'].map((slug) => ({ slug })),
    );
  }, 120_000);
  afterAll(() => env?.close());

  /** The round trips of the write transactions `edit` runs (BEGIN and COMMIT aside). */
  async function tripsOf(edit: (store: Store) => Promise<unknown>): Promise<number> {
    const counts: Counts = { transactions: 0, statements: 0, writeRoundTrips: 0 };
    const store = counting(env.store, counts);
    await edit(store);
    return counts.writeRoundTrips!;
  }

  const unitOf = (component: string, source: string) => unitBySource(env.store, component, source);

  it('sends the statements of an edit, and of one filling 2 components, in a bounded number of round trips', async () => {
    const quit = await unitOf('app', 'Quit');
    let propagated: number[] = [];
    const filling = await tripsOf(async (store) => {
      ({ propagated } = await editUnit(store, { unitId: quit.id, target: ['Beenden'], state: State.TRANSLATED, user: { id: 1 }, mayPropagateTo: () => true }));
    });
    expect(propagated).toHaveLength(2);
    for (const c of ['copy1', 'copy2']) expect(await unitOf(c, 'Quit'), c).toMatchObject({ target: 'Beenden', state: State.TRANSLATED });
    // 61 round trips when each statement waited for the one before's answer; 33 before the last changes' read went out
    // with the statistics deltas
    expect(filling).toBeLessThanOrEqual(31);

    const open = await unitOf('app', 'Open a file');
    const plain = await tripsOf((store) => editUnit(store, { unitId: open.id, target: ['Öffnen'], state: State.TRANSLATED, user: { id: 1 } }));
    expect(await unitOf('app', 'Open a file')).toMatchObject({ target: 'Öffnen', state: State.TRANSLATED });
    // 30 before, then 16
    expect(plain).toBeLessThanOrEqual(15);
  }, 120_000);
});
