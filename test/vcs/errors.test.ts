// Failures map to VcsError kinds (auth, not-found, rejected, network) and never show credentials.
import { rm, stat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VcsError, clone, fetch, push } from '../../src/vcs/index.js';
import { createUpstream, tempDir } from '../helpers/git-repo.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';

const CREDENTIALS = { username: 'bot', password: 'correct-horse' };
const WRONG = 'Wr0ng-S3cret!';

let root: string;
let server: GitServer;
let n = 0;
const fresh = () => path.join(root, `work-${++n}`);

beforeAll(async () => {
  root = await tempDir();
  await createUpstream({ dir: path.join(root, 'served', 'app.git'), files: { 'po/de.po': 'x\n' } });
  server = await startGitServer({ root: path.join(root, 'served'), auth: CREDENTIALS });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<VcsError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VcsError);
  return err as VcsError;
}

/** Everything an error could show: message, stack, data and its JSON form. */
function everything(err: VcsError): string {
  return [err.message, err.stack ?? '', JSON.stringify(err), JSON.stringify(err.data), String(err)].join('\n');
}

describe('authentication', () => {
  it('a wrong password in the URL is kind auth, and the password is nowhere in the error', async () => {
    const dir = fresh();
    const err = await failure(clone({ dir, url: server.url('app.git', { username: 'bot', password: WRONG }), branch: 'main' }));
    expect(err.code).toBe('VcsError');
    expect(err.data.kind).toBe('auth');
    expect(err.data.url).toBe(server.url('app.git'));
    expect(everything(err)).not.toContain(WRONG);
    expect(everything(err)).not.toContain(encodeURIComponent(WRONG));
  });

  it('a wrong password given as an option is kind auth and not shown', async () => {
    const err = await failure(clone({ dir: fresh(), url: server.url('app.git'), branch: 'main', auth: { username: 'bot', password: WRONG } }));
    expect(err.data.kind).toBe('auth');
    expect(everything(err)).not.toContain(WRONG);
  });

  it('no credentials at all is kind auth', async () => {
    const err = await failure(clone({ dir: fresh(), url: server.url('app.git'), branch: 'main' }));
    expect(err.data.kind).toBe('auth');
  });

  it('a failed clone leaves no repository behind', async () => {
    const dir = fresh();
    await failure(clone({ dir, url: server.url('app.git'), branch: 'main' }));
    await expect(stat(path.join(dir, '.git'))).rejects.toThrow();
  });

  it("uses the caller's onAuth when the server asks for credentials", async () => {
    const asked: string[] = [];
    const dir = fresh();
    await clone({
      dir,
      url: server.url('app.git'),
      branch: 'main',
      onAuth: (url) => {
        asked.push(url);
        return CREDENTIALS;
      },
    });
    expect(asked).toEqual([server.url('app.git')]);
  });

  it('fetch and push with a wrong password later are kind auth too', async () => {
    const dir = fresh();
    await clone({ dir, url: server.url('app.git'), branch: 'main', auth: CREDENTIALS });
    const wrong = { username: 'bot', password: WRONG };
    const fetchErr = await failure(fetch({ dir, auth: wrong }));
    const pushErr = await failure(push({ dir, auth: wrong }));
    for (const err of [fetchErr, pushErr]) {
      expect(err.data.kind).toBe('auth');
      expect(everything(err)).not.toContain(WRONG);
    }
    expect(fetchErr.data.operation).toBe('fetch');
    expect(pushErr.data.operation).toBe('push');
  });
});

describe('not found', () => {
  it('a repository the server does not have is kind not-found', async () => {
    const err = await failure(clone({ dir: fresh(), url: server.url('missing.git'), branch: 'main', auth: CREDENTIALS }));
    expect(err.data.kind).toBe('not-found');
  });

  it('a local path that is not a repository is kind not-found', async () => {
    const err = await failure(clone({ dir: fresh(), url: path.join(root, 'nothing-here.git'), branch: 'main' }));
    expect(err.data.kind).toBe('not-found');
    expect(err.data.url).toBe(path.join(root, 'nothing-here.git'));
  });

  it('a branch the remote does not have is kind not-found', async () => {
    const err = await failure(clone({ dir: fresh(), url: path.join(root, 'served', 'app.git'), branch: 'no-such-branch' }));
    expect(err.data.kind).toBe('not-found');
  });
});

describe('network', () => {
  it('a closed port is kind network, with the URL shown without credentials', async () => {
    const port = await closedPort();
    const url = `http://bot:${WRONG}@127.0.0.1:${port}/app.git`;
    const err = await failure(clone({ dir: fresh(), url, branch: 'main' }));
    expect(err.data.kind).toBe('network');
    expect(err.data.url).toBe(`http://127.0.0.1:${port}/app.git`);
    expect(everything(err)).not.toContain(WRONG);
  });
});

describe('unsupported transports', () => {
  it('refuses ssh URLs with a validation error that hides nothing secret', async () => {
    const err = await clone({ dir: fresh(), url: 'git@example.com:org/repo.git', branch: 'main' }).catch((e: unknown) => e);
    expect((err as { code: string }).code).toBe('ValidationError');
  });
});

/** A port that was just free: listen on 0, note the port, close. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
