import { rm } from 'node:fs/promises';
// A read from the remote that meets a connection the server had already closed (a kept-alive socket reused after a
// long pause of the process) is sent once more instead of failing the sync.
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clone, fetch, remoteBranchHead } from '../../src/vcs/index.js';
import { commitToUpstream, createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';

/**
 * A TCP proxy to `port`: `reset(n)` closes the connections open now (as a server closes idle kept-alive ones) and
 * resets the next `n` it accepts; the others pass through.
 */
async function resettingProxy(port: number): Promise<{ url(name: string): string; reset(count: number): void; resets(): number; close(): Promise<void> }> {
  let pending = 0;
  let done = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (pending > 0) {
      pending--;
      done++;
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const own = (server.address() as net.AddressInfo).port;
  return {
    url: (name) => `http://127.0.0.1:${own}/${name}`,
    reset: (count) => {
      pending = count;
      for (const s of sockets) s.destroy();
    },
    resets: () => done,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('a connection reset before the request reached the server', () => {
  let root: string;
  let git: GitServer;
  let proxy: Awaited<ReturnType<typeof resettingProxy>>;
  beforeAll(async () => {
    root = await tempDir();
    await createUpstream({ dir: path.join(root, 'served', 'up.git'), files: { 'po/de.po': 'msgid "a"\nmsgstr "b"\n' } });
    git = await startGitServer({ root: path.join(root, 'served') });
    proxy = await resettingProxy(Number(new URL(git.url('up.git')).port));
  });
  afterAll(async () => {
    await proxy.close();
    await git.close();
    await rm(root, { recursive: true, force: true });
  });

  it('is retried once by the ref check and by the fetch; a second reset fails with a network error', async () => {
    const dir = path.join(root, 'work');
    await clone({ dir, url: proxy.url('up.git') });
    const head = await gitCli(path.join(root, 'served', 'up.git'), ['rev-parse', 'main']);
    proxy.reset(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await remoteBranchHead({ dir, url: proxy.url('up.git'), branch: 'main' })).toBe(head);
    expect(proxy.resets()).toBe(1);

    const moved = await commitToUpstream(path.join(root, 'served', 'up.git'), { 'po/de.po': 'msgid "a"\nmsgstr "c"\n' });
    proxy.reset(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await fetch({ dir, url: proxy.url('up.git'), branch: 'main' })).toBe(moved);
    expect(proxy.resets()).toBe(2);

    proxy.reset(2);
    await new Promise((r) => setTimeout(r, 20));
    await expect(remoteBranchHead({ dir, url: proxy.url('up.git'), branch: 'main' })).rejects.toMatchObject({ code: 'VcsError', data: { kind: 'network' } });
  });
});
