// Talking to the remote: clone, fetch and push, over http(s) or to a local repository, with errors mapped once.
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import { ValidationError } from '../domain/errors.js';
import { REMOTE, type RemoteOptions, type ResolvedRemote, currentBranch, fsOf, resolveOrNull, resolveRemote } from './context.js';
import { gitClone } from './git-clone.js';
import { parseRemote } from './remote-url.js';
import { DEFAULT_REMOTE_TIMEOUT_MS, VcsError, toVcsError } from './vcs-error.js';

/**
 * Clones one branch of `url` into `dir` (which must not hold a repository yet; no `branch`: the remote's default)
 * and returns the branch name; `depth` makes it shallow. The git CLI clones (git-clone.ts), unless the caller brings
 * its own `http`, `onAuth` or `fs` (then isomorphic-git does, in this process).
 * The remote URL is stored without credentials, so later calls pass `auth` (or a credentialed `url`) again.
 * `await clone({ dir, url: 'https://git.example.com/app.git', branch: 'main', depth: 1 })`.
 */
export async function clone(opts: RemoteOptions & { url: string; branch?: string; depth?: number }): Promise<string> {
  const remote = await resolveRemote(opts, 'clone');
  // isomorphic-git deletes the git directory when a clone fails: never let it near an existing one.
  if (existsSync(path.join(opts.dir, '.git'))) {
    throw new ValidationError(`clone: ${opts.dir} already holds a repository`, { field: 'dir' });
  }
  try {
    if (opts.http === undefined && opts.onAuth === undefined && opts.fs === undefined) {
      // the usual case: git indexes and checks out in its own process (see git-clone.ts)
      const parsed = parseRemote(opts.url);
      await gitClone({
        dir: opts.dir,
        url: parsed.transport === 'local' ? parsed.path : parsed.url,
        local: parsed.transport === 'local',
        display: remote.display,
        branch: opts.branch,
        depth: opts.depth,
        credentials: parsed.transport === 'local' ? null : (opts.auth ?? parsed.credentials),
        timeoutMs: opts.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS,
      });
    } else
      await git.clone({
        fs: fsOf(opts),
        http: remote.http,
        dir: opts.dir,
        url: remote.url,
        ref: opts.branch,
        singleBranch: true,
        noTags: true,
        depth: opts.depth,
        onAuth: remote.onAuth,
        onProgress: opts.onProgress,
        cache: opts.cache,
      });
    const branch = opts.branch ?? (await git.currentBranch({ fs: fsOf(opts), dir: opts.dir })) ?? 'main';
    await git.setConfig({ fs: fsOf(opts), dir: opts.dir, path: `remote.${REMOTE}.url`, value: remote.display });
    await git.setConfig({ fs: fsOf(opts), dir: opts.dir, path: `branch.${branch}.remote`, value: REMOTE });
    await git.setConfig({
      fs: fsOf(opts),
      dir: opts.dir,
      path: `branch.${branch}.merge`,
      value: `refs/heads/${branch}`,
    });
    if (!(await resolveOrNull(opts, `refs/heads/${branch}`))) {
      // An empty remote clones to a repository without commits: leave HEAD on the branch the first commit will create.
      await git.writeRef({ fs: fsOf(opts), dir: opts.dir, ref: 'HEAD', value: `refs/heads/${branch}`, symbolic: true, force: true });
    }
    return branch;
  } catch (err) {
    throw remote.timedOut() ?? toVcsError(err, { operation: 'clone', url: remote.display, secrets: remote.secrets });
  }
}

/** A kept-alive connection the server had already closed: the request never reached it, so it may be sent again. */
function isStaleConnection(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === 'ECONNRESET' || e?.cause?.code === 'ECONNRESET';
}

/**
 * Runs a read from the remote, once more when it failed on a stale kept-alive connection: a server closes idle
 * connections, and a process busy for a while (a long store transaction) may reuse one before it sees the close.
 * A remote that went silent is not asked again: it had its time.
 */
async function retryingStale<T>(remote: ResolvedRemote, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!isStaleConnection(err) || remote.timedOut()) throw err;
    return read();
  }
}

/**
 * Fetches a branch (default: the current one) into `refs/remotes/origin/<branch>` and returns the remote's commit,
 * or null when the remote has no such branch yet. `url` defaults to the working copy's `remote.origin.url`.
 */
export async function fetch(opts: RemoteOptions & { url?: string; branch?: string }): Promise<string | null> {
  const branch = opts.branch ?? (await currentBranch(opts, 'fetch'));
  const remote = await resolveRemote(opts, 'fetch');
  // The one commit isomorphic-git tells the remote we have is `ref`'s: the local branch carries tms's unpushed
  // commits, which the remote does not know, so it would answer with its whole history (every file at the tip, each
  // time). The remote-tracking branch is what the remote last had: told that, an unmoved remote sends nothing and a
  // moved one only its new commits.
  const tracking = `refs/remotes/${REMOTE}/${branch}`;
  const have = (await resolveOrNull(opts, tracking)) === null ? branch : tracking;
  try {
    const result = await retryingStale(remote, () =>
      git.fetch({
        fs: fsOf(opts),
        http: remote.http,
        dir: opts.dir,
        url: remote.url,
        remote: REMOTE,
        ref: have,
        remoteRef: branch,
        singleBranch: true,
        tags: false,
        onAuth: remote.onAuth,
        onProgress: opts.onProgress,
        cache: opts.cache,
      }),
    );
    if (result.fetchHead === null && (await resolveOrNull(opts, `refs/remotes/${REMOTE}/${branch}`)) !== null) {
      // The remote no longer has the branch it had: saying "up to date" from the stale tracking ref would hide it.
      throw new VcsError(`fetch: branch "${branch}" not found on the remote (deleted or renamed upstream?)`, {
        kind: 'not-found',
        operation: 'fetch',
        url: remote.display,
      });
    }
    await moveShallowBoundary(opts);
    return result.fetchHead;
  } catch (err) {
    throw remote.timedOut() ?? toVcsError(err, { operation: 'fetch', url: remote.display, secrets: remote.secrets });
  }
}

/**
 * Takes out of `.git/shallow` the commits whose parents the repository now has. A shallow working copy's fetch
 * brings upstream's new history down to the commits the working copy has; when upstream rewrote its branch below
 * the shallow boundary (a force-push onto an older commit), that history reaches below the boundary and the server
 * sends it whole, merge base included. The boundary commit is then shallow no more: left in the file, isomorphic-git
 * would still treat it as having no parents and find no merge base for a merge (git's own fetch moves the boundary
 * the same way). The server sends a commit's history with it or marks the commit shallow, so a present parent has
 * its ancestry, or is a boundary itself.
 */
async function moveShallowBoundary(opts: RemoteOptions): Promise<void> {
  const file = path.join(opts.dir, '.git', 'shallow');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return;
  }
  const boundary = text.split('\n').filter((l) => /^[0-9a-f]{40}$/.test(l));
  const kept: string[] = [];
  for (const oid of boundary) {
    const parents = await git
      .readCommit({ fs: fsOf(opts), dir: opts.dir, oid, cache: opts.cache })
      .then((c) => c.commit.parent)
      .catch(() => null);
    const present = parents !== null && parents.length > 0 && (await Promise.all(parents.map((p) => hasCommit(opts, p)))).every(Boolean);
    if (!present) kept.push(oid);
  }
  if (kept.length === boundary.length) return;
  if (kept.length === 0) await rm(file, { force: true });
  else {
    await writeFile(`${file}.tms-${process.pid}.tmp`, `${kept.join('\n')}\n`);
    await rename(`${file}.tms-${process.pid}.tmp`, file);
  }
}

async function hasCommit(opts: RemoteOptions, oid: string): Promise<boolean> {
  try {
    await git.readCommit({ fs: fsOf(opts), dir: opts.dir, oid, cache: opts.cache });
    return true;
  } catch {
    return false;
  }
}

/**
 * Pushes a local branch (default: the current one) to `remoteBranch` (default: the same name).
 * A remote that moved on meanwhile rejects the push: VcsError kind `rejected`.
 * `await push({ dir, branch: 'main' })`.
 */
export async function push(opts: RemoteOptions & { url?: string; branch?: string; remoteBranch?: string; force?: boolean }): Promise<void> {
  const branch = opts.branch ?? (await currentBranch(opts, 'push'));
  const remote = await resolveRemote(opts, 'push');
  try {
    await git.push({
      fs: fsOf(opts),
      http: remote.http,
      dir: opts.dir,
      url: remote.url,
      remote: REMOTE,
      ref: branch,
      remoteRef: opts.remoteBranch ?? branch,
      force: opts.force ?? false,
      onAuth: remote.onAuth,
      onProgress: opts.onProgress,
      cache: opts.cache,
    });
  } catch (err) {
    throw remote.timedOut() ?? toVcsError(err, { operation: 'push', url: remote.display, secrets: remote.secrets });
  }
}

/**
 * The commit a remote branch points at, from one ref advertisement (no negotiation, no pack), or null when the
 * remote has no such branch. Lets a re-sync skip the fetch when nothing moved upstream.
 * `await remoteBranchHead({ dir, branch: 'main' })` → `'3b18e5…'`.
 */
export async function remoteBranchHead(opts: RemoteOptions & { url?: string; branch?: string }): Promise<string | null> {
  const branch = opts.branch ?? (await currentBranch(opts, 'ls-remote'));
  const remote = await resolveRemote(opts, 'ls-remote');
  try {
    const refs = await retryingStale(remote, () =>
      git.listServerRefs({
        http: remote.http,
        url: remote.url,
        prefix: `refs/heads/${branch}`,
        onAuth: remote.onAuth,
      }),
    );
    return refs.find((r) => r.ref === `refs/heads/${branch}`)?.oid ?? null;
  } catch (err) {
    throw remote.timedOut() ?? toVcsError(err, { operation: 'ls-remote', url: remote.display, secrets: remote.secrets });
  }
}
