// Malformed and oversized uploads from a signed-in user: each answered with a 4xx JSON error, none ends the server.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';

const CRLF = '\r\n';
const FILE_PATH = '/api/translations/hello/app/de/file/';

describe('hostile uploads to …/file/', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv({ upload_max_bytes: 64 * 1024 });
  });
  afterAll(() => env.close());

  const upload = (body: Buffer | string, type: string) =>
    env.request('POST', FILE_PATH, { token: env.tokens.jane, body: typeof body === 'string' ? Buffer.from(body) : body, headers: { 'Content-Type': type } });

  /** The server still serves: a plain read answers 200. */
  const alive = async () => expect((await env.request('GET', '/api/projects/hello/')).status).toBe(200);

  const filePart = (boundary: string, content: string) =>
    `--${boundary}${CRLF}Content-Disposition: form-data; name="file"; filename="de.ts"${CRLF}Content-Type: application/xml${CRLF}${CRLF}${content}`;

  const cases: [string, Buffer | string, string][] = [
    [
      'a file part cut short (no closing boundary)',
      filePart('b', '<?xml version="1.0"?><TS version="2.1" language="de"><context><name>x'),
      'multipart/form-data; boundary=b',
    ],
    ['100 bytes of a file part', filePart('b', 'x'.repeat(200)).slice(0, 100), 'multipart/form-data; boundary=b'],
    ['a text field cut short', `--b${CRLF}Content-Disposition: form-data; name="method"${CRLF}${CRLF}transl`, 'multipart/form-data; boundary=b'],
    ['no boundary parameter', filePart('b', 'x'), 'multipart/form-data'],
    ['a boundary that the body does not use', `${filePart('b', 'x')}${CRLF}--b--${CRLF}`, 'multipart/form-data; boundary=zzz'],
    ['a part without a form-data name', `--b${CRLF}Content-Disposition: attachment${CRLF}${CRLF}x${CRLF}--b--${CRLF}`, 'multipart/form-data; boundary=b'],
    [
      'headers that never end',
      `--b${CRLF}Content-Disposition: form-data; name="file"; filename="a"${CRLF}X: ${'y'.repeat(1000)}`,
      'multipart/form-data; boundary=b',
    ],
    ['garbage bytes', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), 'multipart/form-data; boundary=b'],
    ['an empty body', '', 'multipart/form-data; boundary=b'],
  ];

  for (const [name, body, type] of cases) {
    it(`answers 400 for ${name}, and keeps serving`, async () => {
      const r = await upload(body, type);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ errors: [expect.objectContaining({ code: expect.any(String), detail: expect.any(String) })] });
      await alive();
    });
  }

  it('answers 413 for a file over the upload limit, and keeps serving', async () => {
    const big = `${filePart('b', 'x'.repeat(100 * 1024))}${CRLF}--b--${CRLF}`;
    const r = await upload(big, 'multipart/form-data; boundary=b');
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ type: 'client_error', errors: [{ code: 'payload_too_large' }] });
    await alive();
  });

  it('survives a client that aborts mid-body', async () => {
    const { port } = new URL(env.origin);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST ${FILE_PATH} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}Authorization: Token ${env.tokens.jane}${CRLF}` +
            `Content-Type: multipart/form-data; boundary=b${CRLF}Content-Length: 100000${CRLF}${CRLF}${filePart('b', 'partial')}`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 50));
    await alive();
  });

  it('still takes a well-formed upload after all of that', async () => {
    const form = new FormData();
    form.append('method', 'translate');
    form.append('file', new Blob(['<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de"></TS>\n']), 'de.ts');
    const r = await env.request('POST', FILE_PATH, { token: env.tokens.jane, body: form });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: false, total: 0 });
  });
});
