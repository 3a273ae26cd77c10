// What every vcs function receives ({ fs, http, dir, onAuth, onProgress }, as isomorphic-git takes them) and its defaults.
import nodeFs from 'node:fs';
import git, { type AuthCallback, type FsClient, type HttpClient, type ProgressCallback } from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';
import { localTransportUrl, withLocalTransport } from './local-transport.js';
import { type Credentials, parseRemote } from './remote-url.js';
import { VcsError } from './vcs-error.js';

/** The name of the one remote tms keeps in each working copy. */
export const REMOTE = 'origin';

/** Options every vcs function accepts; all but `dir` have defaults (Node's fs and http). */
export interface RepoOptions {
  /** The working copy (its `.git` inside). */
  dir: string;
  fs?: FsClient;
  /** isomorphic-git object cache, shared across calls to speed up pack reads. */
  cache?: object;
}

/** Options of functions that talk to the remote. */
export interface RemoteOptions extends RepoOptions {
  http?: HttpClient;
  /** Credentials; they win over any `user:password@` in the URL. */
  auth?: Credentials;
  /** Supplies credentials when the server asks (401); by default answers with `auth` or the URL's credentials. */
  onAuth?: AuthCallback;
  onProgress?: ProgressCallback;
}

/** Everything isomorphic-git needs to reach one remote, plus what may be shown and what must be hidden. */
export interface ResolvedRemote {
  /** The URL given to isomorphic-git: credential-free, or a local-transport placeholder. */
  url: string;
  /** Credential-free URL for messages and `remote.origin.url`. */
  display: string;
  http: HttpClient;
  onAuth: AuthCallback | undefined;
  secrets: string[];
}

export function fsOf(opts: RepoOptions): FsClient {
  return opts.fs ?? nodeFs;
}

/** Resolves a remote URL (given, or the working copy's `remote.origin.url`) into what isomorphic-git needs. */
export async function resolveRemote(opts: RemoteOptions & { url?: string }, operation: string): Promise<ResolvedRemote> {
  let url = opts.url;
  if (url === undefined) {
    url = (await git.getConfig({ fs: fsOf(opts), dir: opts.dir, path: `remote.${REMOTE}.url` })) as string | undefined;
    if (!url) throw new VcsError(`${operation}: the working copy has no remote`, { kind: 'not-found', operation });
  }
  const remote = parseRemote(url);
  const http = withLocalTransport(opts.http ?? nodeHttp);
  if (remote.transport === 'local') {
    return { url: localTransportUrl(remote.path), display: remote.display, http, onAuth: undefined, secrets: [] };
  }
  const credentials = opts.auth ?? remote.credentials;
  const onAuth: AuthCallback | undefined =
    opts.onAuth ?? (credentials ? () => ({ username: credentials.username, password: credentials.password }) : undefined);
  return {
    url: remote.url,
    display: remote.display,
    http,
    onAuth,
    secrets: credentials?.password ? [credentials.password] : [],
  };
}

/** The current branch's short name; a detached HEAD is a conflict the caller must resolve. */
export async function currentBranch(opts: RepoOptions, operation: string): Promise<string> {
  const branch = await git.currentBranch({ fs: fsOf(opts), dir: opts.dir });
  if (!branch) throw new VcsError(`${operation}: HEAD is detached`, { kind: 'conflict', operation });
  return branch;
}

/** The commit a ref points to, or null when the ref does not exist. */
export async function resolveOrNull(opts: RepoOptions, ref: string): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: fsOf(opts), dir: opts.dir, ref });
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFoundError') return null;
    throw err;
  }
}
