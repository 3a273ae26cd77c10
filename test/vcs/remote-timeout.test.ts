// A remote that stays silent (a busy forge computing a pack): fetch, push, the ref check and the first clone wait
// through any silence shorter than the limit, however long the whole exchange, and give up at the limit with one
// error naming the operation, the remote (without credentials) and the wait.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VcsError, clone, fetch, push, remoteBranchHead } from '../../src/vcs/index.js';
import { advertisedBranchHead } from '../../src/vcs/quick-check.js';
import { rejectedWith } from '../helpers/errors.js';
import { commitToUpstream, createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';

const CREDENTIALS = { username: 'bot', password: 'pa55-w0rd!' };

let root: string;
let upstream: string;
let server: GitServer;
let n = 0;

beforeAll(async () => {
  root = await tempDir('tms-silent-');
  upstream = path.join(root, 'served', 'up.git');
  await createUpstream({ dir: upstream, files: { 'po/de.po': 'msgid "a"\nmsgstr "b"\n' } });
  server = await startGitServer({ root: path.join(root, 'served'), auth: CREDENTIALS });
});
afterEach(() => {
  server.delay = undefined;
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

const url = () => server.url('up.git', CREDENTIALS);

/** A working copy cloned while the server answers at once. */
async function workingCopy(): Promise<string> {
  const dir = path.join(root, `work-${++n}`);
  await clone({ dir, url: url(), branch: 'main' });
  return dir;
}

/** A commit of the working copy's own, to push. */
async function commitIn(dir: string): Promise<string> {
  await writeFile(path.join(dir, 'po', 'de.po'), `msgid "a"\nmsgstr "b${n}"\n`);
  await gitCli(dir, ['commit', '-q', '-am', 'translated']);
  return gitCli(dir, ['rev-parse', 'HEAD']);
}

const failure = (promise: Promise<unknown>) => rejectedWith(VcsError, promise);

describe('a remote that stays silent', () => {
  it('is waited for through 6 s of silence when the limit is 20 s: fetch and push', async () => {
    const reader = await workingCopy();
    const writer = await workingCopy();
    const mine = await commitIn(writer);
    const moved = await commitToUpstream(upstream, { 'po/fr.po': 'msgid "a"\nmsgstr "c"\n' });
    server.delay = { ms: 6_000 };
    const [fetched] = await Promise.all([
      fetch({ dir: reader, url: url(), branch: 'main', timeoutMs: 20_000 }),
      push({ dir: writer, url: url(), branch: 'main', remoteBranch: 'tms', timeoutMs: 20_000 }),
    ]);
    expect(fetched).toBe(moved);
    expect(await gitCli(upstream, ['rev-parse', 'tms'])).toBe(mine);
  }, 30_000);

  it('is waited for while it keeps sending: 3 silences of 1.2 s each, 3.6 s in all, against a 2 s limit', async () => {
    const reader = await workingCopy();
    const moved = await commitToUpstream(upstream, { 'po/it.po': 'msgid "a"\nmsgstr "d"\n' });
    server.delay = { ms: 1_200, pieces: 2 };
    const started = performance.now();
    expect(await fetch({ dir: reader, url: url(), branch: 'main', timeoutMs: 2_000 })).toBe(moved);
    // the exchange outlasted the limit: the limit is on silence, not on the whole
    expect(performance.now() - started).toBeGreaterThan(2_000);
  }, 30_000);

  it('is given up at the limit (2 s, the server answering after 4 s): kind timeout naming operation, remote and wait', async () => {
    const reader = await workingCopy();
    const writer = await workingCopy();
    await commitIn(writer);
    await commitToUpstream(upstream, { 'po/es.po': 'msgid "a"\nmsgstr "e"\n' });
    server.delay = { ms: 4_000 };
    const failures = await Promise.all([
      failure(fetch({ dir: reader, url: url(), branch: 'main', timeoutMs: 2_000 })),
      failure(push({ dir: writer, url: url(), branch: 'main', remoteBranch: 'late', timeoutMs: 2_000 })),
      failure(remoteBranchHead({ dir: reader, url: url(), branch: 'main', timeoutMs: 2_000 })),
      // the first clone, made by the git CLI, with the same limit
      failure(clone({ dir: path.join(root, `work-${++n}`), url: url(), branch: 'main', timeoutMs: 2_000 })),
    ]);
    expect(failures.map((e) => e.data.operation)).toEqual(['fetch', 'push', 'ls-remote', 'clone']);
    for (const err of failures) {
      expect(err.code).toBe('VcsError');
      expect(err.data).toMatchObject({ kind: 'timeout', url: server.url('up.git'), waitedMs: 2_000 });
      expect(err.message).toContain(err.data.operation);
      expect(err.message).toContain('2 s');
      expect(err.message).toContain(server.url('up.git'));
      expect(`${err.message}\n${JSON.stringify(err.data)}`).not.toContain(CREDENTIALS.password);
    }
    // nothing of the push reached the remote
    await expect(gitCli(upstream, ['rev-parse', '--verify', '--quiet', 'late'])).rejects.toThrow();
  }, 30_000);

  it('is given up at the limit by the quick ref check too (a GET of the ref advertisement), not asked again', async () => {
    const served = path.join(root, 'served');
    const silent = await startGitServer({
      root: served,
      auth: CREDENTIALS,
      gate: (method) => (method === 'GET' ? new Promise((resolve) => setTimeout(resolve, 4_000)) : undefined),
    });
    try {
      const err = await failure(advertisedBranchHead(silent.url('up.git', CREDENTIALS), 'main', undefined, 2_000));
      expect(err.data).toMatchObject({ kind: 'timeout', operation: 'ls-remote', url: silent.url('up.git'), waitedMs: 2_000 });
      // one without credentials (401, as isomorphic-git asks first), one with them, held: none after the limit
      expect(silent.requests).toHaveLength(2);
    } finally {
      await silent.close();
    }
  }, 30_000);
});
