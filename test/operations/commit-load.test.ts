// A commit's git work runs off the thread that serves requests: under load it costs its own work, not the traffic's.
import { createHook } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Action } from '../../src/domain/actions.js';
import { State } from '../../src/domain/unit.js';
import { commitPending, editUnit } from '../../src/operations/index.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { type RepoEnv, createRepoEnv } from './repo-env.js';

/**
 * How many asynchronous file-system requests this thread makes while `work` runs. Each one waits for a turn of the
 * event loop, and a loop busy serving requests takes tens of milliseconds a turn: a commit that made thousands of
 * them (isomorphic-git's object reads and writes) took 30 s under 20 editing clients instead of 5 s.
 */
async function fsRequestsDuring<T>(work: () => Promise<T>): Promise<{ value: T; requests: number }> {
  let requests = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'FSREQCALLBACK' || type === 'FSREQPROMISE' || type === 'FILEHANDLE') requests++;
    },
  });
  hook.enable();
  try {
    return { value: await work(), requests };
  } finally {
    hook.disable();
  }
}

describe('commit under load', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { app: { push_on_commit: true } } });
  });
  afterAll(() => r.close());

  it('commits, rebases onto upstream, pushes and re-scans with almost no file-system wait on the serving thread', async () => {
    for (const [language, source, target, user] of [
      ['de', 'Quit', 'Beenden', r.alice],
      ['cs', 'Quit', 'Ukončit', r.bob],
      ['de', 'About %1', 'Über %1', r.bob],
    ] as const) {
      await editUnit(r.store, { unitId: (await r.unit('app', language, source)).id, target: [target], state: State.TRANSLATED, user });
    }
    // upstream moved: the commit has to fetch, rebase its two commits, push, and load what upstream brought
    const readme = 'README.md';
    await commitToUpstream(r.env.upstream('app'), { [readme]: 'moved upstream\n' });

    const { value: result, requests } = await fsRequestsDuring(async () => commitPending(await r.handle('app'), { user: r.bob }));
    expect(result.result).toBe(true);
    expect(result.commits.map((c) => c.author.name).sort()).toEqual(['Alice Translator', 'Bob Reviewer']);
    // the working copy's files, the git objects and the re-scan's file walk are read in the git worker or at once
    expect(requests).toBeLessThan(10);

    expect(await r.upstreamFile('app', readme)).toBe('moved upstream\n');
    expect(await r.upstreamFile('app', 'translations/app_de.ts')).toContain('<translation>Über %1</translation>');
    expect(await r.upstreamFile('app', 'translations/app_cs.ts')).toContain('<translation>Ukončit</translation>');
    expect(await r.upstreamGit('app', ['log', '-3', '--format=%an|%s'])).toBe(
      ['Bob Reviewer|Translated using tms (Czech, German)', 'Alice Translator|Translated using tms (German)', 'Upstream Dev|Upstream change'].join('\n'),
    );
    expect((await r.units('app', 'de')).filter((u) => u.pending)).toEqual([]);
    expect(await r.changes('app', [Action.PUSH])).toHaveLength(1);
    expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
  });
});
