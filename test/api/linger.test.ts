// An answer given before a request's body was read still reaches the client (found by campaign:fuzz, 10,000 runs).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { multipartFile, uploadWhole } from '../helpers/http.js';

interface RawAnswer {
  /** The answer's bytes as received. */
  text: string;
  /** The socket's error, when the connection was reset under the client. */
  error: string | null;
}

/**
 * Sends a request whose body comes in two halves with a pause between them, on a connection the client asks to
 * close, and reads what comes back (once everything is sent) until the server closes.
 */
function sendInHalves(origin: string, path: string, body: Buffer, pauseMs: number, extra = '', method = 'POST'): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let error: string | null = null;
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (e) => {
      error = (e as NodeJS.ErrnoException).code ?? e.message;
    });
    socket.on('close', () => resolve({ text: Buffer.concat(received).toString('latin1'), error }));
    // The answer is read only after the whole body was sent, as a client busy uploading does.
    socket.pause();
    socket.on('connect', () => {
      const head = `${method} ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n${extra}\r\n`;
      const half = Math.floor(body.length / 2);
      socket.write(head);
      socket.write(body.subarray(0, half));
      setTimeout(() => {
        if (!socket.destroyed) socket.write(body.subarray(half));
        setTimeout(() => socket.resume(), 200);
      }, pauseMs);
    });
  });
}

describe('answers before the body is read (lingering close)', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
  });
  afterAll(() => env.close());

  const body = Buffer.from(JSON.stringify({ target: ['x'.repeat(600_000)] }));

  it('a 404 to a 600 KB body on a closing connection arrives whole, and the connection is not reset', async () => {
    const answer = await sendInHalves(env.origin, '/api/no-such-route/', body, 300);
    expect(answer.error).toBeNull();
    expect(answer.text).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer.text).toContain('"type":"client_error"');
  });

  it('a 401 (bad token) and a web page 404 do too', async () => {
    const unauthorized = await sendInHalves(env.origin, '/api/units/1/', body, 300, 'Authorization: Token wlu_wrong\r\n');
    expect(unauthorized.error).toBeNull();
    expect(unauthorized.text).toMatch(/^HTTP\/1\.1 401 /);
    const web = await sendInHalves(env.origin, '/no/such/page/', body, 300);
    expect(web.error).toBeNull();
    expect(web.text).toMatch(/^HTTP\/1\.1 (404|403|405) /);
  });

  it('a 400 for a request node:http cannot parse (an unknown method) arrives too', async () => {
    const bad = await sendInHalves(env.origin, '/api/projects/', body, 300, '', 'FOO');
    expect(bad.error).toBeNull();
    expect(bad.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(bad.text).toContain('Malformed request');
  });

  it('the server goes on serving afterwards', async () => {
    expect((await env.request('GET', '/api/projects/')).status).toBe(200);
  });
});

describe('a client that half-closes after its request', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
  });
  afterAll(() => env.close());

  it('still gets the answer of a handler that takes a moment (a sign-in hashes the password) (found by campaign:fuzz)', async () => {
    const { hostname, port } = new URL(env.origin);
    const form = 'csrfmiddlewaretoken=aaaaaaaaaaaaaaaaaaaaaaaa&username=nobody&password=wrong';
    const request =
      `POST /accounts/login/ HTTP/1.1\r\nHost: ${hostname}\r\nCookie: tms_csrf=aaaaaaaaaaaaaaaaaaaaaaaa\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`;
    const text = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), hostname);
      const received: Buffer[] = [];
      socket.on('data', (chunk) => received.push(chunk));
      socket.on('error', () => {});
      socket.on('close', () => resolve(Buffer.concat(received).toString('utf8')));
      // everything sent, then the client's side of the connection is closed (FIN): it only reads from now on
      socket.write(request, () => socket.end());
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('The username or password is not correct.');
  });
});

/**
 * Sends a request whole and only then reads its answer (as Python's requests does, under `wlc upload`): bytes sent
 * while the server has closed its side are lost and the connection reset.
 */
function sendThenRead(origin: string, head: string, body: Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let error: string | null = null;
    socket.pause();
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (e) => {
      error = (e as NodeJS.ErrnoException).code ?? e.message;
    });
    socket.on('close', () => resolve({ text: Buffer.concat(received).toString('utf8'), error }));
    socket.write(head);
    socket.write(body, () => socket.resume());
  });
}

describe('an upload over upload_max_bytes (50 MiB)', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
  });
  afterAll(() => env.close());

  const FILE = '/api/translations/hello/app/de/file/';
  const upload = multipartFile(Buffer.alloc(60 * 1000 * 1000, 'x'));

  it('sent whole by node:http (60 MB, no Expect) is answered 413 in the error shape, not a reset', async () => {
    const answer = await uploadWhole(env.origin + FILE, env.tokens.jane, upload);
    expect(answer.error).toBeNull();
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ type: 'client_error', errors: [{ code: 'payload_too_large' }] });
  });

  it('sent whole by a client that reads only once it has sent is answered 413 too', async () => {
    const { hostname } = new URL(env.origin);
    const head =
      `POST ${FILE} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Token ${env.tokens.jane}\r\n` +
      `Content-Type: ${upload.type}\r\nContent-Length: ${upload.body.length}\r\n\r\n`;
    const answer = await sendThenRead(env.origin, head, upload.body);
    expect(answer.error).toBeNull();
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4))).toMatchObject({ errors: [{ code: 'payload_too_large' }] });
  });

  it('with Expect: 100-continue is answered 413 before the body is sent', async () => {
    const answer = await uploadWhole(env.origin + FILE, env.tokens.jane, upload, true);
    expect(answer.continued).toBe(false);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ type: 'client_error', errors: [{ code: 'payload_too_large' }] });
  });

  it('with Expect: 100-continue within the limit gets 100 Continue, and its upload is read', async () => {
    const file = '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de"></TS>\n';
    const answer = await uploadWhole(env.origin + FILE, env.tokens.jane, multipartFile(file), true);
    expect(answer.continued).toBe(true);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ result: false, total: 0 });
  });

  it('the server goes on serving afterwards', async () => {
    expect((await env.request('GET', '/api/projects/')).status).toBe(200);
  });
});
