import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { GitHttpRequest, HttpClient } from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstream, tempDir } from '../../test/helpers/git-repo.js';
import { localTransportUrl, withLocalTransport } from './local-transport.js';

let root: string;
let repo: string;
let head: string;

beforeAll(async () => {
  root = await tempDir();
  repo = path.join(root, 'a repo with spaces ü.git');
  head = await createUpstream({ dir: repo, files: { 'x.txt': 'x\n' } });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const passthrough: string[] = [];
const fake: HttpClient = {
  request: async (req: GitHttpRequest) => {
    passthrough.push(req.url);
    return { url: req.url, statusCode: 418, statusMessage: 'teapot', headers: {} };
  },
};
const http = withLocalTransport(fake);

async function bodyText(body: AsyncIterableIterator<Uint8Array> | undefined): Promise<string> {
  const chunks: Buffer[] = [];
  if (body) for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('latin1');
}

describe('withLocalTransport', () => {
  it('advertises refs the way smart HTTP does, for paths with spaces and non-ASCII', async () => {
    const res = await http.request({ url: `${localTransportUrl(repo)}/info/refs?service=git-upload-pack`, method: 'GET' });
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['content-type']).toBe('application/x-git-upload-pack-advertisement');
    const text = await bodyText(res.body);
    expect(text.startsWith('001e# service=git-upload-pack\n0000')).toBe(true);
    expect(text).toContain(`${head} refs/heads/main`);
  });

  it('answers 404 for a path that is not a repository', async () => {
    const url = `${localTransportUrl(path.join(root, 'missing'))}/info/refs?service=git-upload-pack`;
    expect((await http.request({ url, method: 'GET' })).statusCode).toBe(404);
  });

  it('refuses dumb HTTP and unknown services', async () => {
    expect((await http.request({ url: `${localTransportUrl(repo)}/info/refs`, method: 'GET' })).statusCode).toBe(403);
    expect((await http.request({ url: `${localTransportUrl(repo)}/git-upload-archive`, method: 'POST' })).statusCode).toBe(404);
  });

  it('passes every other URL to the wrapped client', async () => {
    const res = await http.request({ url: 'https://example.com/r.git/info/refs?service=git-upload-pack' });
    expect(res.statusCode).toBe(418);
    expect(passthrough).toEqual(['https://example.com/r.git/info/refs?service=git-upload-pack']);
  });
});
