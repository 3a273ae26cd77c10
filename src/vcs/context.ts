// What every vcs function receives ({ fs, http, dir, onAuth, onProgress }, as isomorphic-git takes them) and its defaults.
import nodeFs from 'node:fs';
import path from 'node:path';
import git, { type AuthCallback, type FsClient, type HttpClient, type ProgressCallback } from 'isomorphic-git';
import { localTransportUrl, withLocalTransport } from './local-transport.js';
import { type RemoteHttp, remoteHttp } from './remote-http.js';
import { type Credentials, parseRemote } from './remote-url.js';
import { DEFAULT_REMOTE_TIMEOUT_MS, VcsError } from './vcs-error.js';

/** The name of the one remote tms keeps in each working copy. */
export const REMOTE = 'origin';

/** Options every vcs function accepts; all but `dir` have defaults (Node's fs, and remote-http.ts's client). */
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
  /**
   * How long the remote may stay silent (nothing sent, nothing received) before the operation gives up with VcsError
   * kind `timeout`; however long the whole exchange lasts. Default 600 s (`remote_timeout_s`).
   */
  timeoutMs?: number;
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
  /**
   * The timeout error once a request gave up on a silent remote: whatever isomorphic-git threw then (a reset, a pack
   * cut short) is its consequence, and the operation reports this instead.
   */
  timedOut(): VcsError | undefined;
}

let temporaries = 0;
/** Inside a working copy's `.git/`, or the objects, refs and index of a bare repository (`name.git/`). */
const REPOSITORY_FILE = /[\\/]\.git[\\/]|\.git[\\/](objects|refs|index|packed-refs|HEAD|config|shallow)/;

/**
 * Where the temporary file of a repository file's write goes: the repository's own folder (`.git/`, or a bare
 * repository's), never beside the file. A temporary file under `refs/` is a ref to git: one a killed process left
 * empty there (opened, never written) made `git fsck` fail with "invalid sha1 pointer" (found by campaign:kill).
 * Same file system, so the rename stays atomic; `removeStaleTemporaries` finds what a killed process left.
 * @example temporaryFor('repos/p/c/.git/refs/heads/main') // 'repos/p/c/.git/.tms-<pid>-<n>.tmp'
 */
export function temporaryFor(file: string): string {
  const gitDir = /^(.*\.git)[\\/]/.exec(file)?.[1] ?? path.dirname(file);
  return path.join(gitDir, `.tms-${process.pid}-${++temporaries}.tmp`);
}

/**
 * Writes a file of the repository's own (`.git/…`: objects, the index, refs) through a temporary file and a rename,
 * so that a write cut short (a full disk, a killed process) never leaves a file half written: an empty loose object
 * or index is a corrupt repository that every later operation trips over. Working-tree files are written in place.
 */
function writeFileAtomically(file: string, data: Uint8Array | string, options?: nodeFs.WriteFileOptions): void {
  if (!REPOSITORY_FILE.test(file)) {
    nodeFs.writeFileSync(file, data, options);
    return;
  }
  const temporary = temporaryFor(file);
  try {
    nodeFs.writeFileSync(temporary, data, options);
    nodeFs.renameSync(temporary, file);
  } catch (e) {
    nodeFs.rmSync(temporary, { force: true });
    throw e;
  }
}

/**
 * What `readFile` without a path answers: isomorphic-git wraps the file system it is given on every call of its API and,
 * to learn whether the methods return promises, calls `readFile()` twice with no path. Node's own error for that
 * (built with its stack trace each time) cost ~40 µs a git call; the 200 components of a shared repository make
 * hundreds of calls for one pushed file. One error, built once.
 */
const NO_FILE_GIVEN: Error = Object.freeze(Object.assign(new Error('readFile: no file given'), { code: 'ERR_INVALID_ARG_TYPE' }));

/**
 * Node's fs with every call made synchronously, behind the promise interface isomorphic-git takes. A git operation
 * makes thousands of small reads and writes that the page cache answers in microseconds; made asynchronously,
 * each waits for a turn of the event loop, and a loop busy with requests made a commit ×5 slower (30 s instead of
 * 5). Answered at once, an operation costs its own work whatever else the process serves.
 */
const syncFs: FsClient = {
  promises: {
    readFile: async (file: string | undefined, options?: { encoding?: BufferEncoding } | BufferEncoding) => {
      if (file === undefined) throw NO_FILE_GIVEN;
      return nodeFs.readFileSync(file, options);
    },
    writeFile: async (file: string, data: Uint8Array | string, options?: nodeFs.WriteFileOptions) => writeFileAtomically(file, data, options),
    mkdir: async (dir: string, options?: nodeFs.MakeDirectoryOptions) => {
      nodeFs.mkdirSync(dir, options);
    },
    rmdir: async (dir: string) => nodeFs.rmdirSync(dir),
    rm: async (file: string, options?: nodeFs.RmOptions) => nodeFs.rmSync(file, options),
    unlink: async (file: string) => nodeFs.unlinkSync(file),
    stat: async (file: string) => nodeFs.statSync(file),
    lstat: async (file: string) => nodeFs.lstatSync(file),
    readdir: async (dir: string) => nodeFs.readdirSync(dir),
    readlink: async (file: string) => nodeFs.readlinkSync(file),
    symlink: async (target: string, file: string) => nodeFs.symlinkSync(target, file),
    chmod: async (file: string, mode: number) => nodeFs.chmodSync(file, mode),
  },
} as unknown as FsClient;

export function fsOf(opts: RepoOptions): FsClient {
  return opts.fs ?? syncFs;
}

/** Resolves a remote URL (given, or the working copy's `remote.origin.url`) into what isomorphic-git needs. */
export async function resolveRemote(opts: RemoteOptions & { url?: string }, operation: string): Promise<ResolvedRemote> {
  let url = opts.url;
  if (url === undefined) {
    url = (await git.getConfig({ fs: fsOf(opts), dir: opts.dir, path: `remote.${REMOTE}.url` })) as string | undefined;
    if (!url) throw new VcsError(`${operation}: the working copy has no remote`, { kind: 'not-found', operation });
  }
  const remote = parseRemote(url);
  const own: RemoteHttp | undefined =
    opts.http === undefined ? remoteHttp({ timeoutMs: opts.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS, operation, url: remote.display }) : undefined;
  const http = withLocalTransport(own ?? (opts.http as HttpClient));
  const timedOut = () => own?.timedOut();
  if (remote.transport === 'local') {
    return { url: localTransportUrl(remote.path), display: remote.display, http, onAuth: undefined, secrets: [], timedOut };
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
    timedOut,
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
