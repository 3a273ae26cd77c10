// clone, fetch, fast-forward, status, commit and push against each kind of upstream: smart HTTP, bare path, file://, non-bare.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VcsError, clone, commit, fastForward, fetch, headCommit, listFilesWithBlobIds, log, push, readBlobAt, status } from '../../src/vcs/index.js';
import { commitToUpstream, createUpstream, gitCli, lsTree, readUpstreamFile, tempDir } from '../helpers/git-repo.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';

const FILES = {
  'README.md': '# demo\n',
  'po/de.po': 'msgid "Hello"\nmsgstr "Hallo"\n',
  'po/fr.po': 'msgid "Hello"\nmsgstr "Bonjour"\n',
  'src/locales/en/app.json': '{ "hello": "Hello" }\n',
};
const TMS = { name: 'tms', email: 'tms@example.test', timestamp: 1_700_000_500, timezoneOffset: 0 };
const CREDENTIALS = { username: 'bot', password: 'pa:ss@w/rd' };

let root: string;
let server: GitServer;

beforeAll(async () => {
  root = await tempDir();
  server = await startGitServer({ root: path.join(root, 'served'), auth: CREDENTIALS });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

interface Transport {
  name: string;
  bare: boolean;
  /** The URL tms is configured with, for the upstream at `dir` (named `name` under the served root). */
  url(dir: string, name: string): string;
  /** Credentials given as an option rather than in the URL. */
  auth?: typeof CREDENTIALS;
}

const transports: Transport[] = [
  { name: 'smart HTTP, credentials in the URL', bare: true, url: (_dir, name) => server.url(name, CREDENTIALS) },
  { name: 'smart HTTP, credentials as options', bare: true, url: (_dir, name) => server.url(name), auth: CREDENTIALS },
  { name: 'local bare repository by path', bare: true, url: (dir) => dir },
  { name: 'local bare repository by file:// URL', bare: true, url: (dir) => pathToFileURL(dir).href },
  { name: 'local non-bare repository', bare: false, url: (dir) => dir },
];

let counter = 0;

describe.each(transports)('$name', (transport) => {
  let upstream: string;
  let url: string;
  let work: string;
  let initial: string;

  beforeEach(async () => {
    const name = `repo-${++counter}.git`;
    upstream = path.join(root, 'served', name);
    initial = await createUpstream({ dir: upstream, files: FILES, bare: transport.bare });
    url = transport.url(upstream, name);
    work = path.join(root, `work-${counter}`);
    await clone({ dir: work, url, branch: 'main', auth: transport.auth });
  });

  it('clones the branch with its files and a credential-free remote URL', async () => {
    expect((await headCommit({ dir: work }))?.oid).toBe(initial);
    expect(await readFile(path.join(work, 'po/de.po'), 'utf8')).toBe(FILES['po/de.po']);
    const remoteUrl = await gitCli(work, ['config', 'remote.origin.url']);
    expect(remoteUrl).not.toContain(CREDENTIALS.password);
    expect(remoteUrl).not.toContain(encodeURIComponent(CREDENTIALS.password));
    expect(await gitCli(work, ['status', '--porcelain'])).toBe('');
    expect(await gitCli(work, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('main');
  });

  it('lists files with the blob ids git ls-tree reports', async () => {
    const listed = await listFilesWithBlobIds({ dir: work });
    expect(listed).toEqual(await lsTree(work, 'HEAD'));
    expect(listed.size).toBe(Object.keys(FILES).length);
  });

  it('fetches an upstream commit, reports it as behind, and fast-forwards', async () => {
    const next = await commitToUpstream(upstream, { 'po/de.po': 'msgid "Hello"\nmsgstr "Servus"\n', 'po/it.po': 'x\n' });
    expect(await fetch({ dir: work, url, auth: transport.auth })).toBe(next);
    const before = await status({ dir: work });
    expect(before).toMatchObject({ branch: 'main', ahead: 0, behind: 1, needsMerge: true, needsPush: false });
    expect(before.localCommit?.oid).toBe(initial);
    expect(before.remoteCommit?.oid).toBe(next);

    expect(await fastForward({ dir: work })).toEqual({ result: 'fast-forward', head: next });
    expect(await readFile(path.join(work, 'po/de.po'), 'utf8')).toContain('Servus');
    expect(await readFile(path.join(work, 'po/it.po'), 'utf8')).toBe('x\n');
    expect(await gitCli(work, ['status', '--porcelain'])).toBe('');
    expect(await status({ dir: work })).toMatchObject({ ahead: 0, behind: 0, needsMerge: false });
  });

  it('commits only the given files and reports them as ahead', async () => {
    await writeFile(path.join(work, 'po/de.po'), 'msgid "Hello"\nmsgstr "Guten Tag"\n');
    await writeFile(path.join(work, 'po/fr.po'), 'not part of this commit\n');
    const oid = await commit({ dir: work, files: ['po/de.po'], message: 'Translated using tms', author: TMS });
    expect(oid).toMatch(/^[0-9a-f]{40}$/);
    expect(await gitCli(work, ['show', '--name-only', '--format=%an <%ae>|%s', 'HEAD'])).toBe('tms <tms@example.test>|Translated using tms\n\npo/de.po');
    expect(await gitCli(work, ['status', '--porcelain'])).toBe(' M po/fr.po');
    expect(await status({ dir: work })).toMatchObject({ ahead: 1, behind: 0, needsPush: true });
    expect((await log({ dir: work })).map((c) => c.oid)).toEqual([oid]);
  });

  it('pushes, and the upstream has the commit (checked with the git CLI)', async () => {
    await writeFile(path.join(work, 'po/de.po'), 'msgid "Hello"\nmsgstr "Moin"\n');
    const oid = await commit({ dir: work, files: ['po/de.po'], message: 'Translated using tms', author: TMS });
    const remoteBranch = transport.bare ? 'main' : 'tms';
    await push({ dir: work, url, auth: transport.auth, remoteBranch });
    expect(await gitCli(upstream, ['rev-parse', remoteBranch])).toBe(oid);
    expect((await readUpstreamFile(upstream, remoteBranch, 'po/de.po'))?.toString()).toContain('Moin');
    expect(await gitCli(upstream, ['fsck', '--no-progress', '--no-dangling'])).toBe('');
    if (transport.bare) expect(await status({ dir: work })).toMatchObject({ ahead: 0, behind: 0, needsPush: false });
  });

  it('rejects a push when the upstream moved on, and the upstream keeps its commit', async () => {
    const theirs = await commitToUpstream(upstream, { 'README.md': '# moved on\n' });
    await writeFile(path.join(work, 'po/de.po'), 'msgid "Hello"\nmsgstr "Tach"\n');
    await commit({ dir: work, files: ['po/de.po'], message: 'Translated using tms', author: TMS });
    const err = await push({ dir: work, url, auth: transport.auth }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VcsError);
    expect((err as VcsError).data.kind).toBe('rejected');
    expect(await gitCli(upstream, ['rev-parse', 'main'])).toBe(theirs);
  });

  it('reads a file at a ref without touching the working tree', async () => {
    const next = await commitToUpstream(upstream, { 'po/de.po': 'upstream\n' });
    await fetch({ dir: work, url, auth: transport.auth });
    expect(Buffer.from((await readBlobAt({ dir: work, ref: next, path: 'po/de.po' }))!).toString()).toBe('upstream\n');
    expect(Buffer.from((await readBlobAt({ dir: work, ref: 'origin/main', path: 'po/de.po' }))!).toString()).toBe('upstream\n');
    expect(Buffer.from((await readBlobAt({ dir: work, ref: 'HEAD', path: 'po/de.po' }))!).toString()).toBe(FILES['po/de.po']);
    expect(await readBlobAt({ dir: work, ref: 'HEAD', path: 'po/xx.po' })).toBeNull();
    expect(await readFile(path.join(work, 'po/de.po'), 'utf8')).toBe(FILES['po/de.po']);
  });

  it.runIf(transport.bare)('clones shallow with depth 1', async () => {
    await commitToUpstream(upstream, { 'po/de.po': 'second\n' });
    const third = await commitToUpstream(upstream, { 'po/de.po': 'third\n' });
    const shallow = path.join(root, `shallow-${counter}`);
    await clone({ dir: shallow, url, branch: 'main', depth: 1, auth: transport.auth });
    expect(await gitCli(shallow, ['rev-list', '--count', 'HEAD'])).toBe('1');
    expect(await gitCli(shallow, ['rev-parse', 'HEAD'])).toBe(third);
    expect(await status({ dir: shallow })).toMatchObject({ ahead: 0, behind: 0 });
    await writeFile(path.join(shallow, 'po/de.po'), 'fourth\n');
    const fourth = await commit({ dir: shallow, files: ['po/de.po'], message: 'From a shallow clone', author: TMS });
    await push({ dir: shallow, url, auth: transport.auth });
    expect(await gitCli(upstream, ['rev-parse', 'main'])).toBe(fourth);
  });
});

describe('local non-bare upstream', () => {
  it('refuses a push to its checked-out branch, as git does', async () => {
    const upstream = path.join(root, 'nonbare-refuse');
    await createUpstream({ dir: upstream, files: FILES, bare: false });
    const work = path.join(root, 'nonbare-refuse-work');
    await clone({ dir: work, url: upstream, branch: 'main' });
    await writeFile(path.join(work, 'po/de.po'), 'changed\n');
    await commit({ dir: work, files: ['po/de.po'], message: 'x', author: TMS });
    const err = await push({ dir: work }).catch((e: unknown) => e);
    expect((err as VcsError).code).toBe('VcsError');
    expect((err as VcsError).data.kind).toBe('rejected');
  });
});
