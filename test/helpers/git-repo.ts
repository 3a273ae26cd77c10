// Builds upstream repositories for tests with the git CLI: from a map of files or a fixture folder, then more commits.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { clone } from '../../src/vcs/index.js';

const run = promisify(execFile);

/** File contents by repository-relative path; `null` deletes the file in `commitToUpstream`. */
export type FileMap = Record<string, string | Uint8Array | null>;

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

export const UPSTREAM_AUTHOR: Signature = { name: 'Upstream Dev', email: 'dev@upstream.test', timestamp: 1_700_000_000 };

/** An environment that ignores the machine's git configuration and fixes names and dates. */
function gitEnv(who: Signature = UPSTREAM_AUTHOR): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('GIT_')) delete env[name];
  return {
    ...env,
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: who.name,
    GIT_AUTHOR_EMAIL: who.email,
    GIT_AUTHOR_DATE: `@${who.timestamp} +0000`,
    GIT_COMMITTER_NAME: who.name,
    GIT_COMMITTER_EMAIL: who.email,
    GIT_COMMITTER_DATE: `@${who.timestamp} +0000`,
  };
}

/** Runs the git CLI and returns its trimmed standard output. */
export async function gitCli(cwd: string, args: string[], who?: Signature): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: gitEnv(who), maxBuffer: 256 * 1024 * 1024 });
  return stdout.trimEnd();
}

/** A fresh temporary folder; remove it with `rm(dir, { recursive: true })`. */
export function tempDir(prefix = 'tms-vcs-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

async function writeFiles(dir: string, files: FileMap): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const target = path.join(dir, name);
    if (content === null) {
      await rm(target, { force: true });
    } else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
    }
  }
}

export interface UpstreamOptions {
  /** Where the repository goes (created). */
  dir: string;
  files?: FileMap;
  /** A folder whose files are copied in at `into` (default: the root), read at run time. */
  fixture?: string;
  into?: string;
  branch?: string;
  /** A bare repository (default) or one with a checked-out working tree. */
  bare?: boolean;
  message?: string;
  who?: Signature;
}

/** Creates an upstream repository with one commit and returns the commit id. */
export async function createUpstream(opts: UpstreamOptions): Promise<string> {
  const branch = opts.branch ?? 'main';
  const work = opts.bare === false ? opts.dir : await tempDir('tms-upstream-work-');
  await mkdir(work, { recursive: true });
  await gitCli(work, ['init', '-q', '-b', branch]);
  if (opts.fixture) {
    const target = path.join(work, opts.into ?? '');
    await mkdir(target, { recursive: true });
    for (const name of await readdir(opts.fixture)) {
      await cp(path.join(opts.fixture, name), path.join(target, name), { recursive: true });
    }
  }
  await writeFiles(work, opts.files ?? {});
  await gitCli(work, ['add', '-A']);
  await gitCli(work, ['commit', '-q', '--allow-empty', '-m', opts.message ?? 'Initial commit'], opts.who);
  const head = await gitCli(work, ['rev-parse', 'HEAD']);
  if (opts.bare !== false) {
    await gitCli(os.tmpdir(), ['clone', '-q', '--bare', work, opts.dir]);
    await rm(work, { recursive: true, force: true });
  }
  return head;
}

/** Creates an empty bare repository (no commits). */
export async function createEmptyUpstream(dir: string, branch = 'main'): Promise<void> {
  await mkdir(dir, { recursive: true });
  await gitCli(dir, ['init', '-q', '--bare', '-b', branch]);
}

/**
 * Commits `files` (null deletes) to `branch` of an upstream repository through a temporary clone and returns the
 * new commit id. For a non-bare upstream the commit is made in place.
 */
/**
 * The files of an upstream commit: a map, or a function of the files as they stand on the commit the new one is made
 * on — what a developer does who edits a file that others push to: read it from their own clone, not from before it.
 */
export type UpstreamEdit = FileMap | ((current: (file: string) => Promise<string>) => FileMap | Promise<FileMap>);

export async function commitToUpstream(
  upstream: string,
  edit: UpstreamEdit,
  opts: { branch?: string; message?: string; who?: Signature } = {},
): Promise<string> {
  const branch = opts.branch ?? 'main';
  const isBare = (await gitCli(upstream, ['rev-parse', '--is-bare-repository'])) === 'true';
  const filesIn = async (dir: string) => (typeof edit === 'function' ? edit((file) => readFile(path.join(dir, file), 'utf8')) : edit);
  if (!isBare) {
    await writeFiles(upstream, await filesIn(upstream));
    await gitCli(upstream, ['add', '-A']);
    await gitCli(upstream, ['commit', '-q', '-m', opts.message ?? 'Upstream change'], opts.who);
    return gitCli(upstream, ['rev-parse', 'HEAD']);
  }
  const work = await tempDir('tms-upstream-edit-');
  try {
    await gitCli(os.tmpdir(), ['clone', '-q', '-b', branch, upstream, work]);
    await writeFiles(work, await filesIn(work));
    await gitCli(work, ['add', '-A']);
    await gitCli(work, ['commit', '-q', '-m', opts.message ?? 'Upstream change'], opts.who);
    await gitCli(work, ['push', '-q', 'origin', branch]);
    return await gitCli(work, ['rev-parse', 'HEAD']);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The bytes of `file` at `ref` in a repository, or null when it does not exist there. */
export async function readUpstreamFile(repo: string, ref: string, file: string): Promise<Buffer | null> {
  try {
    const { stdout } = await run('git', ['show', `${ref}:${file}`], {
      cwd: repo,
      env: gitEnv(),
      encoding: 'buffer',
      maxBuffer: 256 * 1024 * 1024,
    });
    return stdout;
  } catch {
    return null;
  }
}

/** `git ls-tree -r` of a ref as a map path → blob id. */
export async function lsTree(repo: string, ref: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const text = await gitCli(repo, ['ls-tree', '-r', '-z', ref]);
  for (const record of text.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [, type, oid] = record.slice(0, tab).split(' ');
    if (type === 'blob') out.set(record.slice(tab + 1), oid!);
  }
  return out;
}

export interface FreshClone {
  /** Temporary folder of the whole test file. */
  root: string;
  /** A new bare upstream holding `files`, one per test. */
  upstream: string;
  /** A new clone of it made by tms, one per test. */
  work: string;
  /** The test's number (1, 2, …), for more unique names. */
  n: number;
}

/**
 * Registers hooks giving every test of the file a new bare upstream with `files` and a tms clone of it;
 * `use` receives the paths before each test.
 */
export function useFreshClone(files: FileMap, use: (clone: FreshClone) => void): void {
  let root = '';
  let n = 0;
  beforeAll(async () => {
    root = await tempDir();
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    n++;
    const upstream = path.join(root, `up-${n}.git`);
    const work = path.join(root, `work-${n}`);
    await createUpstream({ dir: upstream, files });
    await clone({ dir: work, url: upstream, branch: 'main' });
    use({ root, upstream, work, n });
  });
}
