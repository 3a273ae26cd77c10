// What a commit records in the store (recordCommit): the written units no longer pending unless edited meanwhile, the
// translations' revisions, the commit's changes in order; on PostgreSQL in a round trip or two however many units
// were written (one per unit held the write lock, which every writer waits for, for seconds under load).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Action } from '../../src/domain/actions.js';
import { recordCommit } from '../../src/store/edits.repo.js';
import type { PgSession } from '../../src/store/pg/session.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { onPostgres, sqlOn } from '../helpers/store.js';

describe('recordCommit', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
  }, 120_000);
  afterAll(() => env?.close());

  it('clears the written units, stores the revisions and records the changes in order, in a fixed number of round trips', async () => {
    const sql = sqlOn(env.store);
    // every string of every translation pending, as edits waiting for their commit
    await sql.run(
      `UPDATE units SET pending = 1, target = 'edited ' || id, pending_author_id = NULL
       WHERE translation_id IN (SELECT id FROM translations WHERE is_source = 0)`,
    );
    const units = await sql.rows<{ id: number; target: string; state: number; pending_author_id: number | null; translation_id: number }>(
      `SELECT u.id, u.target, u.state, u.pending_author_id, u.translation_id FROM units u WHERE u.pending = 1 ORDER BY u.id`,
    );
    expect(units.length).toBeGreaterThan(15);
    // one of them edited again after the files were written: it stays pending
    const [again, ...rest] = units;
    await sql.run(`UPDATE units SET target = 'edited again' WHERE id = ${again!.id}`);
    const translations = [...new Set(units.map((u) => u.translation_id))]
      .sort((a, b) => a - b)
      .map((translationId, i) => ({
        translationId,
        revision: `r${i}`,
        changes: [1, 2].map((n) => ({ action: Action.COMMIT, timestamp: new Date(0).toISOString(), translationId, target: `commit ${i}.${n}` })),
      }));
    const componentId = (await sql.value<number>(`SELECT id FROM components WHERE slug = 'app'`))!;

    const { result, trips } = await env.store.write(async (tx) => {
      const before = onPostgres ? (tx as PgSession).roundTrips : 0;
      const result = await recordCommit(tx, componentId, units, translations, { parent: null, head: null });
      return { result, trips: onPostgres ? (tx as PgSession).roundTrips - before : 0 };
    });

    expect(result.cleared).toBe(rest.length);
    expect(await sql.values<number>('SELECT id FROM units WHERE pending = 1')).toEqual([again!.id]);
    expect(
      await sql.values<string>(`SELECT revision FROM translations WHERE id IN (${translations.map((t) => t.translationId).join(',')}) ORDER BY id`),
    ).toEqual(translations.map((t) => t.revision));
    const recorded = await sql.rows<{ id: number; target: string }>(`SELECT id, target FROM changes WHERE action = ${Action.COMMIT} ORDER BY id`);
    expect(recorded.map((c) => Number(c.id))).toEqual(result.changeIds);
    expect(recorded.map((c) => c.target)).toEqual(translations.flatMap((t) => t.changes.map((c) => c.target)));
    // the units cleared, the revisions and the changes sent together, then the component's commit read
    if (onPostgres) expect(trips).toBeLessThanOrEqual(3);
  }, 60_000);
});
