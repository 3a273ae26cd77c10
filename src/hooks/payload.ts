// A hook request's raw body as JSON: `application/json`, or a form (urlencoded or multipart) with a `payload` field.
import { HookPayloadError } from './services.js';

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function parameter(contentType: string | undefined, name: string): string | undefined {
  for (const part of (contentType ?? '').split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim().toLowerCase() === name)
      return part
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

/** The value of form field `name` in a multipart/form-data body, or undefined. */
function multipartField(body: Buffer, boundary: string, name: string): string | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(start + delimiter.length, next);
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd >= 0) {
      const head = part.subarray(0, headEnd).toString('latin1');
      const disposition = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head);
      if (disposition?.[1] === name) return part.subarray(headEnd + 4, part.length - 2).toString('utf8');
    }
    start = next;
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const reason = `JSON parse error - ${(e as Error).message}`;
    throw new HookPayloadError(reason, { field: null, service: '', reason });
  }
}

/**
 * Decodes a hook body as Weblate does: JSON for `application/json` (and any other type that is not a form),
 * else the JSON in the form field `payload`. Throws HookPayloadError (400) when there is nothing usable.
 * @example decodePayload(Buffer.from('payload=%7B%22ref%22%3A%22main%22%7D'), 'application/x-www-form-urlencoded') // { ref: 'main' }
 */
export function decodePayload(body: Buffer, contentType: string | undefined): unknown {
  const type = mediaType(contentType);
  let text: string | undefined;
  if (type === 'application/x-www-form-urlencoded') {
    text = new URLSearchParams(body.toString('utf8')).get('payload') ?? undefined;
  } else if (type === 'multipart/form-data') {
    const boundary = parameter(contentType, 'boundary');
    text = boundary ? multipartField(body, boundary, 'payload') : undefined;
  } else {
    text = body.toString('utf8');
    if (text.trim() === '') throw new HookPayloadError('Invalid data in json payload!', { field: null, service: '', reason: 'empty body' });
  }
  if (text === undefined) throw new HookPayloadError('Missing payload parameter!', { field: null, service: '', reason: 'no payload field' });
  const data = parseJson(text);
  if (data === null || data === '' || (typeof data === 'object' && Object.keys(data).length === 0)) {
    throw new HookPayloadError('Invalid data in json payload!', { field: null, service: '', reason: 'empty payload' });
  }
  return data;
}
