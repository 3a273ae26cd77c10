// An edit's `multiple_failures` on its source string: the count of the string's failing checks in the component's
// translations follows each edit as checking the component again from scratch gives it, for a string the index of
// copies by translation holds and for one too long for it (PostgreSQL's btree entry; read by id_hash instead).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recheckComponent } from '../../src/checks/refresh.js';
import { State } from '../../src/domain/unit.js';
import { editUnit } from '../../src/operations/index.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { sqlOn, unitBySource } from '../helpers/store.js';

describe("an edit's multiple_failures", () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv({}, {}, [{ slug: 'copy1' }]);
  }, 120_000);
  afterAll(() => env?.close());

  /** Every check row of the store, as `unit name dismissed`. */
  const checks = async () =>
    (
      await sqlOn(env.store).rows<{ unit_id: number; name: string; dismissed: number }>('SELECT unit_id, name, dismissed FROM checks ORDER BY unit_id, name')
    ).map((r) => `${r.unit_id} ${r.name} ${r.dismissed}`);
  /** The checks of `source`'s unit in app's source translation. */
  const sourceChecks = async (source: string) => {
    const { id } = await unitBySource(env.store, 'app', source, 'en');
    return sqlOn(env.store).values<string>('SELECT name FROM checks WHERE unit_id = ? AND dismissed = 0 ORDER BY name', id);
  };
  const edit = async (source: string, language: string, target: string) => {
    const { id } = await unitBySource(env.store, 'app', source, language);
    await editUnit(env.store, { unitId: id, target: [target], state: State.TRANSLATED, user: { id: 1 }, mayPropagateTo: () => true });
  };
  /** The checks equal those of checking every component again. */
  const expectAsRechecked = async () => {
    const kept = await checks();
    const components = await sqlOn(env.store).values<number>('SELECT id FROM components ORDER BY id');
    await env.store.write(async (tx) => {
      for (const c of components) await recheckComponent(tx, Number(c));
    });
    expect(kept).toEqual(await checks());
  };

  for (const [name, long] of [
    ['a string of a few words', false],
    ['a string too long for the index of copies by translation', true],
  ] as const) {
    it(`counts the failing checks of ${name} in every translation of its component`, async () => {
      let source = 'Quit';
      if (long) {
        source = `Quit ${'and leave the application '.repeat(100)}now`; // 2,708 bytes
        await sqlOn(env.store).run('UPDATE units SET source = ? WHERE source = ?', source, 'Quit');
      }
      // no failure, then double_space in German, then in Czech too: two failures of the string in app (each edit filling copy1)
      await edit(source, 'de', 'Beenden');
      await edit(source, 'cs', 'Konec');
      expect(await sourceChecks(source)).not.toContain('multiple_failures');
      await edit(source, 'de', 'Be  enden');
      expect(await sourceChecks(source)).not.toContain('multiple_failures');
      await edit(source, 'cs', 'Ko  nec');
      expect(await sourceChecks(source)).toContain('multiple_failures');
      await expectAsRechecked();
      // one failure again
      await edit(source, 'cs', 'Konec');
      expect(await sourceChecks(source)).not.toContain('multiple_failures');
      await expectAsRechecked();
    }, 120_000);
  }
});
