// The first clone of a working copy, made by the git CLI: git indexes the pack and checks out the files in its own
// process, streaming, where isomorphic-git resolved every delta, hashed every object and inflated every blob (a
// large file several times over) in JavaScript on the calling thread. What follows the clone (fetch, commit, rebase,
// push) stays with isomorphic-git, which reads the repository git wrote.
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repositoryFreeEnv } from './local-transport.js';
import type { Credentials } from './remote-url.js';
import { VcsError, scrub, silentRemote } from './vcs-error.js';

export interface GitCloneOptions {
  dir: string;
  /** A credential-free http(s) URL, or the path of a local repository. */
  url: string;
  local: boolean;
  /** The credential-free URL shown in errors. */
  display: string;
  branch?: string;
  depth?: number;
  credentials?: Credentials | null;
  /** How long the remote may stay silent (git's `http.lowSpeedTime` at 1 byte/s); then VcsError kind `timeout`. */
  timeoutMs: number;
}

/**
 * A credential helper that answers git's `get` with the username and password from the child's environment, so the
 * password is never on a command line (visible to every user of the machine) nor written to a file.
 */
const HELPER = '!f() { test "$1" = get && printf "username=%s\\npassword=%s\\n" "$TMS_GIT_USERNAME" "$TMS_GIT_PASSWORD"; }; f';

/**
 * Clones one branch (default: the remote's default branch) of `url` into `dir`, without tags, shallow when `depth`
 * is set. An empty remote clones to a repository without commits whose HEAD names `branch`. Failures are VcsErrors
 * of the same kinds as isomorphic-git's (auth, not-found, network), credential-free; git removes the folder it made.
 */
export async function gitClone(opts: GitCloneOptions): Promise<void> {
  // a local path goes through git's pack protocol too (`file://`), as a remote would: no hard links into the
  // upstream's object store, and `--depth` is honoured
  const source = opts.local ? pathToFileURL(opts.url).href : opts.url;
  // The working tree holds the bytes git stores, as every later write of tms's does (isomorphic-git applies no
  // attributes): a repository's .gitattributes must not make this checkout convert line endings, encodings or run
  // filters. `.git/info/attributes` outranks them; it comes from the template and stays, so git's status agrees.
  const template = `${opts.dir}.template-${process.pid}`;
  const args = (branch: string | undefined) => [
    // the index stays in the version isomorphic-git reads, whatever the machine's configuration asks for
    '-c',
    'index.version=2',
    '-c',
    'feature.manyFiles=false',
    '-c',
    'core.autocrlf=false',
    // no hook of the machine's configuration runs in the working copy (the template brings none either)
    '-c',
    `core.hooksPath=${os.devNull}`,
    '-c',
    'core.askPass=',
    '-c',
    'credential.helper=',
    // git waits for a silent server as long as the connection lives: the same limit as every other request of tms
    '-c',
    'http.lowSpeedLimit=1',
    '-c',
    `http.lowSpeedTime=${Math.max(1, Math.ceil(opts.timeoutMs / 1000))}`,
    ...(opts.credentials ? ['-c', `credential.helper=${HELPER}`] : []),
    'clone',
    '--quiet',
    '--no-local',
    '--single-branch',
    '--no-tags',
    '--template',
    template,
    ...(branch ? ['--branch', branch] : []),
    ...(opts.depth ? ['--depth', String(opts.depth)] : []),
    '--',
    source,
    opts.dir,
  ];
  const env: NodeJS.ProcessEnv = {
    ...repositoryFreeEnv(),
    LC_ALL: 'C',
    LANGUAGE: '',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    TMS_GIT_USERNAME: opts.credentials?.username ?? '',
    TMS_GIT_PASSWORD: opts.credentials?.password ?? '',
  };
  const secrets = opts.credentials?.password ? [opts.credentials.password] : [];
  await mkdir(path.join(template, 'info'), { recursive: true });
  await writeFile(path.join(template, 'info', 'attributes'), UNCONVERTED);
  try {
    await cloneWith(args, env, opts, secrets);
  } finally {
    await rm(template, { recursive: true, force: true });
  }
}

/** Attributes that turn off every conversion between the object store and the working tree. */
const UNCONVERTED = '* -text -crlf -eol -filter -ident -working-tree-encoding\n';

async function cloneWith(args: (branch: string | undefined) => string[], env: NodeJS.ProcessEnv, opts: GitCloneOptions, secrets: string[]): Promise<void> {
  const first = await run(args(opts.branch), env);
  if (first.code === 0) return;
  if (opts.branch && /Remote branch .* not found in upstream/.test(first.stderr)) {
    // An empty remote has no branch at all: clone it as it is and leave HEAD on the branch the first commit makes.
    const empty = await run(args(undefined), env);
    if (empty.code === 0) {
      const head = await run(['-C', opts.dir, 'rev-parse', '--verify', '--quiet', 'HEAD'], env);
      if (head.code !== 0) {
        await run(['-C', opts.dir, 'symbolic-ref', 'HEAD', `refs/heads/${opts.branch}`], env);
        return;
      }
      await rm(opts.dir, { recursive: true, force: true });
    }
  }
  throw cloneError(first.stderr, opts.display, secrets, opts.branch, opts.timeoutMs);
}

interface Run {
  code: number;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

/** git's own words for the failures isomorphic-git reports as auth, not-found and network. */
const KINDS: [RegExp, VcsError['data']['kind'], string | ((branch: string) => string)][] = [
  [/Authentication failed|could not read (Username|Password)|returned error: 40[13]|access denied|HTTP Basic: Access denied/i, 'auth', 'authentication failed'],
  [/Remote branch .* not found in upstream/i, 'not-found', (branch) => `branch "${branch}" not found on the remote`],
  [
    /repository .* not found|does not appear to be a git repository|does not exist|returned error: 40[4]|returned error: 410/i,
    'not-found',
    'repository not found',
  ],
  [
    /unable to access|Failed to connect|Could not resolve|Connection (refused|reset|timed out)|early EOF|remote end hung up|RPC failed|transfer closed|the server closed|invalid index-pack output|SSL/i,
    'network',
    'cannot reach the remote',
  ],
];

/** curl's words for a transfer slower than `http.lowSpeedLimit` for `http.lowSpeedTime`. */
const TOO_SLOW = /curl 28|Operation too slow/i;

function cloneError(stderr: string, url: string, secrets: string[], branch: string | undefined, timeoutMs: number): Error {
  if (TOO_SLOW.test(stderr)) return silentRemote('clone', url, Math.max(1, Math.ceil(timeoutMs / 1000)) * 1000);
  const lines = scrub(stderr, secrets)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines.find((l) => l.startsWith('fatal:'))?.replace(/^fatal:\s*/, '') ?? lines.at(-1) ?? 'git clone failed';
  const detail = lines.join(' | ');
  for (const [pattern, kind, words] of KINDS) {
    if (!pattern.test(stderr)) continue;
    const named = typeof words === 'function' ? words(branch ?? '') : words;
    const reason = kind === 'network' ? `${named} (${fatal.replace(/^unable to access '[^']*':\s*/, '')})` : named;
    return new VcsError(`clone: ${reason}`, { kind, operation: 'clone', url, detail });
  }
  return new Error(`clone: git clone failed: ${fatal} (${url})`);
}
