// An answer given before a request's body was read still reaches the client (found by campaign:fuzz, 10,000 runs).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';

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
