// Request bodies of write routes: JSON, form-urlencoded and multipart/form-data read into one shape; anything else is a 415.
import type { IncomingMessage } from 'node:http';
import { TmsError } from '../domain/errors.js';
import { bodyTooLarge, parseError, unsupportedMediaType, validationError } from './errors.js';
import { discardBody } from './linger.js';
import { MultipartError, type UploadedFile, boundaryOf, parseMultipart } from './multipart.js';

export type { UploadedFile } from './multipart.js';

/** A parsed request body. */
export interface RequestBody {
  kind: 'json' | 'form' | 'multipart' | 'empty';
  /** The JSON value of a JSON body (an object for every body a route accepts). */
  json: unknown;
  /** Form fields (form-urlencoded or multipart) by name, every value in order. */
  form: Map<string, string[]>;
  /** Files of a multipart body by field name. */
  files: Map<string, UploadedFile>;
}

/** Which body types a write operation takes: uploads only forms (DRF's MultiPartParser and FormParser). */
export type BodyTypes = 'any' | 'form';

/** JSON and form bodies larger than this are refused with 413 (uploads have their own limit, `upload_max_bytes`). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a Content-Type is multipart/form-data (an upload). */
export function isMultipart(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'multipart/form-data';
}

/** The request's stream failed (the client went away mid-body): there is nobody to answer. */
export class RequestAbortedError extends TmsError<{ reason: string }> {}

/**
 * Reads the whole body; 413 beyond `limit` (announced by Content-Length or met while reading: the rest is then
 * discarded unread, so the answer can still be sent). A stream error rejects with RequestAbortedError.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const announced = Number(req.headers['content-length']);
    if (Number.isFinite(announced) && announced > limit) {
      discardBody(req);
      reject(bodyTooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        req.resume();
        reject(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', (e) => reject(new RequestAbortedError(`request body: ${e.message}`, { reason: e.message })));
    req.on('aborted', () => reject(new RequestAbortedError('request body: the client aborted', { reason: 'aborted' })));
  });
}

/**
 * Parses a body by its Content-Type. An empty body without a type is an empty body; a type the operation does
 * not take is a 415; a body that does not parse is a 400.
 * @example (await parseBody(Buffer.from('{"lock":true}'), 'application/json', 'any')).json
 */
export async function parseBody(bytes: Buffer, contentType: string | undefined, accepted: BodyTypes): Promise<RequestBody> {
  const body: RequestBody = { kind: 'empty', json: {}, form: new Map(), files: new Map() };
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '') {
    if (bytes.length === 0) return body;
    throw unsupportedMediaType('');
  }
  if (type === 'application/json' && accepted === 'any') {
    body.kind = 'json';
    if (bytes.length === 0) return body;
    try {
      // Not UTF-8 is a parse error, as in DRF's JSONParser: decoding leniently would store U+FFFD in place of the text sent.
      body.json = JSON.parse(STRICT_UTF8.decode(bytes));
    } catch (e) {
      throw parseError(`JSON parse error - ${(e as Error).message}`);
    }
    if (typeof body.json !== 'object' || body.json === null || Array.isArray(body.json)) {
      throw validationError('non_field_errors', 'Invalid data. Expected a dictionary.', 'invalid');
    }
    return body;
  }
  if (type === 'application/x-www-form-urlencoded') {
    body.kind = 'form';
    for (const [name, value] of new URLSearchParams(bytes.toString('utf8'))) add(body.form, name, value);
    return body;
  }
  if (type === 'multipart/form-data') {
    body.kind = 'multipart';
    const boundary = boundaryOf(contentType ?? '');
    if (!boundary) throw parseError('Multipart form parse error - Invalid boundary in multipart: None');
    try {
      const parsed = await parseMultipart(bytes, contentType ?? '');
      for (const [name, value] of parsed.fields) add(body.form, name, value);
      body.files = parsed.files;
    } catch (e) {
      if (e instanceof MultipartError) throw parseError(`Multipart form parse error - ${e.message}`);
      throw e;
    }
    return body;
  }
  throw unsupportedMediaType(contentType ?? '');
}

function add(form: Map<string, string[]>, name: string, value: string): void {
  const values = form.get(name);
  if (values) values.push(value);
  else form.set(name, [value]);
}

/** A scalar field: the JSON value, or the last form value; undefined when absent. */
export function field(body: RequestBody, name: string): unknown {
  if (body.kind === 'json') return (body.json as Record<string, unknown>)[name];
  const values = body.form.get(name);
  return values === undefined ? undefined : values[values.length - 1];
}

/** A list field: the JSON value as sent (validated by the caller), or every form value (repeat the field). */
export function listField(body: RequestBody, name: string): unknown {
  if (body.kind === 'json') return (body.json as Record<string, unknown>)[name];
  return body.form.get(name);
}

/** Whether a field was sent at all. */
export function hasField(body: RequestBody, name: string): boolean {
  return body.kind === 'json' ? Object.hasOwn(body.json as object, name) : body.form.has(name);
}

const TRUE = new Set(['true', '1', 'yes', 'on', 'y', 't']);
const FALSE = new Set(['false', '0', 'no', 'off', 'n', 'f']);

/** DRF's BooleanField: JSON booleans, 1/0, and the usual words; anything else a 400 on `name`. */
export function booleanField(body: RequestBody, name: string): boolean | undefined {
  const value = field(body, name);
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const v = value.toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
  }
  throw validationError(name, 'Must be a valid boolean.');
}

/** DRF's IntegerField: a JSON integer or integer text; anything else a 400 on `name`. */
export function integerField(body: RequestBody, name: string): number | undefined {
  const value = field(body, name);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) return Number.parseInt(value, 10);
  throw validationError(name, 'A valid integer is required.');
}

/** A text field: JSON string or form value; a non-string is a 400 on `name`. */
export function stringField(body: RequestBody, name: string): string | undefined {
  const value = field(body, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw validationError(name, 'Not a valid string.');
}
