// The git worker is passed in: a handle opened with `{ git }` runs its commit and push there, one opened without runs
// them on this thread, and a stopped worker starts again on the next call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitRunner, openComponent } from '../../src/component/handle.js';
import { State } from '../../src/domain/unit.js';
import { GitWorker, commitPending, editUnit, pushComponent } from '../../src/operations/index.js';
import { type RepoEnv, createRepoEnv } from './repo-env.js';

describe('the git worker, given to the component handle', () => {
  let r: RepoEnv;
  const worker = new GitWorker();
  const ran: string[] = [];
  const counting: GitRunner = {
    run(op, args) {
      ran.push(op);
      return worker.run(op, args);
    },
  };
  beforeAll(async () => {
    r = await createRepoEnv();
  });
  afterAll(async () => {
    await worker.stop();
    await r.close();
  });

  it('runs the commit and the push of a handle opened with it in the worker thread', async () => {
    const quit = await r.unit('app', 'de', 'Quit');
    await editUnit(r.store, { unitId: quit.id, target: ['Beenden'], state: State.TRANSLATED, user: r.alice });
    const committed = await commitPending(await openComponent(r.store, r.config, r.project, r.component('app'), { git: counting }));
    expect(committed).toMatchObject({ result: true, units: 1 });
    expect(ran).toContain('commitSeries');
    const pushed = await pushComponent(await openComponent(r.store, r.config, r.project, r.component('app'), { git: counting }));
    expect(pushed).toMatchObject({ result: true });
    expect(ran).toContain('push');
    expect(await r.upstreamFile('app', 'translations/app_de.ts')).toContain('<translation>Beenden</translation>');
  });

  it('runs the git work of a handle opened without it on this thread', async () => {
    ran.length = 0;
    const quit = await r.unit('app', 'de', 'Quit');
    await editUnit(r.store, { unitId: quit.id, target: ['Programm beenden'], state: State.TRANSLATED, user: r.alice });
    const committed = await commitPending(await openComponent(r.store, r.config, r.project, r.component('app')));
    expect(committed).toMatchObject({ result: true, units: 1 });
    expect(ran).toEqual([]);
    expect(await r.workGit('app', ['show', 'HEAD:translations/app_de.ts'])).toContain('<translation>Programm beenden</translation>');
  });

  it('starts another thread for the next call once stopped', async () => {
    await worker.stop();
    await expect(worker.run('ready', {})).resolves.toBe(true);
  });
});
