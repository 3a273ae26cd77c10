// The multipart/form-data parser against bodies built by hand and by a real client (undici's FormData).
import { describe, expect, it } from 'vitest';
import { parseBody } from './body.js';
import { ApiError } from './errors.js';
import { MultipartError, boundaryOf, parseMultipart } from './multipart.js';

const CRLF = '\r\n';

describe('parseMultipart', () => {
  it('splits text fields and files, keeping binary bytes and CRLFs inside a file', async () => {
    const binary = Buffer.from([0, 13, 10, 45, 45, 255, 13, 10]);
    const body = Buffer.concat([
      Buffer.from(`--XyZ${CRLF}Content-Disposition: form-data; name="method"${CRLF}${CRLF}translate${CRLF}`),
      Buffer.from(`--XyZ${CRLF}Content-Disposition: form-data; name="file"; filename="a \\"b\\".po"${CRLF}Content-Type: text/x-gettext${CRLF}${CRLF}`),
      binary,
      Buffer.from(`${CRLF}--XyZ${CRLF}Content-Disposition: form-data; name="method"${CRLF}${CRLF}ünïcode${CRLF}--XyZ--${CRLF}`),
    ]);
    const parsed = await parseMultipart(body, 'multipart/form-data; boundary=XyZ');
    expect(parsed.fields).toEqual([
      ['method', 'translate'],
      ['method', 'ünïcode'],
    ]);
    const file = parsed.files.get('file')!;
    expect(file.filename).toBe('a "b".po');
    expect(file.contentType).toBe('text/x-gettext');
    expect(Buffer.from(file.bytes).equals(binary)).toBe(true);
  });

  it('refuses a body without its closing boundary, or without a boundary', async () => {
    const type = 'multipart/form-data; boundary=b';
    await expect(parseMultipart(Buffer.from(`--b${CRLF}Content-Disposition: form-data; name="x"${CRLF}${CRLF}value`), type)).rejects.toBeInstanceOf(
      MultipartError,
    );
    await expect(parseMultipart(Buffer.from('no boundary here'), 'multipart/form-data')).rejects.toBeInstanceOf(MultipartError);
  });

  it('reads what a real client sends', async () => {
    const form = new FormData();
    form.append('conflicts', 'replace-translated');
    form.append('file', new Blob([Buffer.from('{"a": "b"}\r\n--x')], { type: 'application/json' }), 'de.json');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const type = request.headers.get('content-type')!;
    const body = await parseBody(Buffer.from(await request.arrayBuffer()), type, 'form');
    expect(body.kind).toBe('multipart');
    expect(body.form.get('conflicts')).toEqual(['replace-translated']);
    expect(Buffer.from(body.files.get('file')!.bytes).toString()).toBe('{"a": "b"}\r\n--x');
    expect(body.files.get('file')!.filename).toBe('de.json');
    expect(boundaryOf(type)).not.toBeNull();
  });
});

describe('parseBody', () => {
  const status = async (f: () => Promise<unknown>) => {
    try {
      await f();
    } catch (e) {
      return e instanceof ApiError ? e.status : -1;
    }
    return 0;
  };

  it('takes JSON, form-urlencoded (repeated fields as lists) and an empty body', async () => {
    expect((await parseBody(Buffer.from('{"lock":true}'), 'application/json; charset=utf-8', 'any')).json).toEqual({ lock: true });
    expect((await parseBody(Buffer.from('target=a&target=b&state=20'), 'application/x-www-form-urlencoded', 'any')).form.get('target')).toEqual(['a', 'b']);
    expect((await parseBody(Buffer.alloc(0), undefined, 'any')).kind).toBe('empty');
  });

  it('answers 415 for other types (and JSON on form-only uploads), 400 for bodies that do not parse', async () => {
    expect(await status(() => parseBody(Buffer.from('x'), 'text/plain', 'any'))).toBe(415);
    expect(await status(() => parseBody(Buffer.from('{}'), 'application/json', 'form'))).toBe(415);
    expect(await status(() => parseBody(Buffer.from('{'), 'application/json', 'any'))).toBe(400);
    expect(await status(() => parseBody(Buffer.from('[1]'), 'application/json', 'any'))).toBe(400);
    expect(await status(() => parseBody(Buffer.from('x'), 'multipart/form-data', 'form'))).toBe(400);
    expect(await status(() => parseBody(Buffer.from('x'), 'multipart/form-data; boundary=b', 'form'))).toBe(400);
  });
});
