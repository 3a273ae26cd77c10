// multipart/form-data bodies (uploads) read with busboy: text fields, and files as bytes.
import busboy from 'busboy';
import { ValidationError } from '../domain/errors.js';

/** One file part of a multipart body. */
export interface UploadedFile {
  /** The part's `filename` parameter ('' when the client sent none). */
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface MultipartBody {
  /** Text fields in body order; a repeated name repeats. */
  fields: [string, string][];
  /** File parts by field name (the first one wins). */
  files: Map<string, UploadedFile>;
}

/** A body that is not well-formed multipart/form-data (the API answers 400). */
export class MultipartError extends ValidationError {
  constructor(message: string) {
    super(message, { field: null });
  }
}

/** The `boundary` parameter of a multipart Content-Type, or null. */
export function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match ? (match[1] ?? match[2]) : null;
  return boundary && boundary.length <= 70 ? boundary : null;
}

/**
 * Splits a complete multipart/form-data body into text fields and files (parts with a `filename` are files).
 * Rejects with MultipartError for a malformed body (no closing boundary, a part without a form-data name).
 * @example (await parseMultipart(body, req.headers['content-type'])).files.get('file')
 */
export function parseMultipart(body: Uint8Array, contentType: string, maxFieldBytes = 1024 * 1024): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    const out: MultipartBody = { fields: [], files: new Map() };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { fieldSize: maxFieldBytes } });
    } catch (e) {
      reject(new MultipartError((e as Error).message));
      return;
    }
    let failed = false;
    const fail = (message: string) => {
      if (failed) return;
      failed = true;
      reject(new MultipartError(message));
    };
    const reads: Promise<void>[] = [];
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(`the field "${name}" is larger than ${maxFieldBytes} bytes`);
      out.fields.push([name, value]);
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      reads.push(
        new Promise<void>((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          // A part cut short errors on its own stream ("Unexpected end of form"): unhandled, it would end the process.
          stream.on('error', (e: Error) => {
            fail(e.message);
            done();
          });
          stream.on('end', () => {
            if (!out.files.has(name)) {
              out.files.set(name, { filename: info.filename ?? '', contentType: info.mimeType, bytes: new Uint8Array(Buffer.concat(chunks)) });
            }
            done();
          });
        }),
      );
    });
    parser.on('error', (e: Error) => fail(e.message));
    parser.on('close', () => {
      void Promise.all(reads).then(() => {
        if (!failed) resolve(out);
      });
    });
    parser.end(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  });
}
