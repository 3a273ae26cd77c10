// "Did upstream move?" without isomorphic-git: the same answers as git itself, against each kind of upstream, and
// `undefined` (take the full path) whenever the answer is not plain.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clone, fastForward, fetch } from '../../src/vcs/index.js';
import { advertisedBranchHead, advertisedOid, askEarly, headBranch, refOid, upToDateHead } from '../../src/vcs/quick-check.js';
import { commitToUpstream, createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';

const FILES = { 'po/de.po': 'msgid "Hello"\nmsgstr "Hallo"\n' };
const CREDENTIALS = { username: 'bot', password: 'pa:ss@w/rd' };

let root: string;
let server: GitServer;

beforeAll(async () => {
  root = await tempDir('tms-quick-');
  server = await startGitServer({ root: path.join(root, 'served'), auth: CREDENTIALS });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

const transports = [
  { name: 'smart HTTP, credentials in the URL', bare: true, url: (_dir: string, name: string) => server.url(name, CREDENTIALS) },
  { name: 'smart HTTP, credentials as options', bare: true, url: (_dir: string, name: string) => server.url(name), auth: CREDENTIALS },
  { name: 'local bare repository by path', bare: true, url: (dir: string) => dir },
  { name: 'local bare repository by file:// URL', bare: true, url: (dir: string) => pathToFileURL(dir).href },
  { name: 'local non-bare repository', bare: false, url: (dir: string) => dir },
];

let counter = 0;

describe.each(transports)('$name', (transport) => {
  let upstream: string;
  let url: string;
  let work: string;

  beforeEach(async () => {
    const name = `repo-${++counter}.git`;
    upstream = path.join(root, 'served', name);
    await createUpstream({ dir: upstream, files: FILES, bare: transport.bare });
    url = transport.url(upstream, name);
    work = path.join(root, `work-${counter}`);
    await clone({ dir: work, url, branch: 'main', auth: transport.auth });
  });

  it('says up to date with the commit git has, and not once upstream moves, until the fetch and fast-forward', async () => {
    const head = await gitCli(work, ['rev-parse', 'HEAD']);
    expect(await upToDateHead(work, url, transport.auth)).toBe(head);
    const moved = await commitToUpstream(upstream, { 'po/fr.po': 'msgid "Hello"\nmsgstr "Bonjour"\n' });
    expect(await advertisedBranchHead(url, 'main', transport.auth)).toBe(moved);
    expect(await upToDateHead(work, url, transport.auth)).toBeUndefined();
    await fetch({ dir: work, url, auth: transport.auth });
    // tracking ref moved, branch not yet
    expect(await upToDateHead(work, url, transport.auth)).toBeUndefined();
    await fastForward({ dir: work });
    expect(await upToDateHead(work, url, transport.auth)).toBe(moved);
  });

  it('hands an answer asked for early to the next question, once', async () => {
    const head = await gitCli(work, ['rev-parse', 'HEAD']);
    await askEarly(work, url, transport.auth);
    const moved = await commitToUpstream(upstream, { 'po/fr.po': 'msgid "Hello"\nmsgstr "Bonjour"\n' });
    // asked before upstream moved: the answer of that moment
    expect(await advertisedBranchHead(url, 'main', transport.auth)).toBe(head);
    expect(await advertisedBranchHead(url, 'main', transport.auth)).toBe(moved);
  });

  it('answers nothing for a branch upstream does not have', async () => {
    expect(await advertisedBranchHead(url, 'no-such-branch', transport.auth)).toBeUndefined();
  });
});

describe('the working copy read from its files', () => {
  let upstream: string;
  let work: string;

  beforeEach(async () => {
    upstream = path.join(root, `plain-${++counter}.git`);
    await createUpstream({ dir: upstream, files: FILES });
    work = path.join(root, `plain-work-${counter}`);
    await clone({ dir: work, url: upstream, branch: 'main' });
  });

  it('resolves loose and packed refs as git does', async () => {
    const head = await gitCli(work, ['rev-parse', 'HEAD']);
    expect(await headBranch(work)).toBe('main');
    expect(await refOid(work, 'refs/heads/main')).toBe(head);
    await gitCli(work, ['pack-refs', '--all']);
    expect(await refOid(work, 'refs/heads/main')).toBe(head);
    expect(await refOid(work, 'refs/remotes/origin/main')).toBe(await gitCli(work, ['rev-parse', 'refs/remotes/origin/main']));
    expect(await refOid(work, 'refs/heads/other')).toBeNull();
    expect(await upToDateHead(work, upstream)).toBe(head);
  });

  it('is unsure of a detached HEAD', async () => {
    await gitCli(work, ['checkout', '-q', '--detach']);
    expect(await headBranch(work)).toBeUndefined();
    expect(await upToDateHead(work, upstream)).toBeUndefined();
  });

  it('is unsure without a working copy, with wrong credentials, or with a URL it does not take', async () => {
    expect(await upToDateHead(path.join(root, 'nothing-here'), upstream)).toBeUndefined();
    const name = `auth-${++counter}.git`;
    const served = path.join(root, 'served', name);
    await createUpstream({ dir: served, files: FILES });
    expect(await advertisedBranchHead(server.url(name, CREDENTIALS), 'main')).toBe(await gitCli(served, ['rev-parse', 'main']));
    expect(await advertisedBranchHead(server.url(name, { username: 'bot', password: 'wrong' }), 'main')).toBeUndefined();
    expect(await advertisedBranchHead(server.url(name), 'main')).toBeUndefined();
    expect(await advertisedBranchHead('ssh://example.test/repo.git', 'main')).toBeUndefined();
  });
});

describe('advertisedOid', () => {
  const pkt = (text: string) => `${(Buffer.byteLength(text) + 4).toString(16).padStart(4, '0')}${text}`;
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);

  it('finds the branch in a v0 advertisement, and says null when the whole list lacks it', () => {
    const body = Buffer.from(
      `${pkt('# service=git-upload-pack\n')}0000${pkt(`${a} HEAD\0multi_ack side-band-64k\n`)}${pkt(`${b} refs/heads/main\n`)}${pkt(`${a} refs/heads/mainline\n`)}0000`,
    );
    expect(advertisedOid(body, 'main')).toBe(b);
    expect(advertisedOid(body, 'mainline')).toBe(a);
    expect(advertisedOid(body, 'dev')).toBeNull();
  });

  it('is unsure of what is not a complete advertisement', () => {
    expect(advertisedOid(Buffer.from('<html>sign in</html>'), 'main')).toBeUndefined();
    expect(advertisedOid(Buffer.from(`${pkt('# service=git-upload-pack\n')}0000${pkt(`${b} refs/heads/dev\n`)}`), 'main')).toBeUndefined();
    expect(advertisedOid(Buffer.from(`${pkt('# service=git-receive-pack\n')}0000${pkt(`${b} refs/heads/main\n`)}0000`), 'main')).toBeUndefined();
  });
});
