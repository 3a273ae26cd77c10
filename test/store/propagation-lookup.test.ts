// Finding where an edit propagates reads the edited string's copies, not the site: on PostgreSQL the units the lookup
// reads stay a handful however many other strings the translations hold (each PATCH runs it holding the write lock;
// SQLite plans it from the edited unit by itself).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propagationTargets } from '../../src/store/edits.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { onPostgres, sqlOn } from '../helpers/store.js';

const COPIES = ['copy1', 'copy2', 'copy3'];
/**
 * Other strings added to every translation of the site (as a real site's files hold thousands), over a few source
 * texts each shared by many units: PostgreSQL then expects a source text to be shared widely, as on a site of many
 * languages and components, which is what made it walk the translations instead.
 */
const PADDING = 300;

describe.skipIf(!onPostgres)('the units an edit propagates to, on PostgreSQL', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv(
      {},
      {},
      COPIES.map((slug) => ({ slug })),
    );
    const sql = sqlOn(env.store);
    const columns = (
      await sql.values<string>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'units' AND table_schema = current_schema() AND column_name <> 'id'",
      )
    ).filter((c) => c !== 'id_hash' && c !== 'source' && c !== 'context');
    await sql.run(
      `INSERT INTO units (id_hash, source, context, ${columns.join(', ')})
       SELECT u.id_hash # (g::bigint << 40), 'pad ' || (g % 10), u.context || ' ' || g, ${columns.map((c) => `u.${c}`).join(', ')}
       FROM units u CROSS JOIN generate_series(1, ${PADDING}) g`,
    );
    // the statistics autovacuum keeps: the large tables analyzed, the components (a few rows, never enough changed
    // for autovacuum to analyze them) not
    await sql.run('ANALYZE units, translations, languages');
  }, 120_000);
  afterAll(() => env?.close());

  it('reads the edited string and its copies, not the units of every translation', async () => {
    const quit = (await sqlOn(env.store).value<number>(
      `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
       WHERE c.slug = 'app' AND t.language_code = 'de' AND u.source = 'Quit'`,
    ))!;
    const total = Number(await sqlOn(env.store).value('SELECT count(*) FROM units'));
    expect(total).toBeGreaterThan(PADDING * 20);
    // the units the statement reads, counted by PostgreSQL for this transaction; several runs, so that the
    // statement's generic plan (chosen after five) is met as well as its first ones
    const { targets, read } = await env.store.write(async (tx) => {
      const unitsRead = async () =>
        Number(
          await tx
            .prepare(
              "SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables WHERE relname = 'units' AND schemaname = current_schema()",
            )
            .pluck()
            .get(),
        );
      const read: number[] = [];
      let targets: Awaited<ReturnType<typeof propagationTargets>> = [];
      for (let i = 0; i < 8; i++) {
        const before = await unitsRead();
        targets = await propagationTargets(tx, quit);
        read.push((await unitsRead()) - before);
      }
      return { targets, read };
    });
    expect(targets.map((t) => t.component_id)).toHaveLength(COPIES.length);
    // the edited unit and its copies in each translation of the components (a few dozen), never the thousands
    for (const n of read) expect(n).toBeLessThan(200);
  });
});
