// Values as PostgreSQL's text protocol takes them: one parameter, or one element of an array parameter.
import { invalid } from '../../domain/errors.js';

/** A statement parameter as libpq takes it: text (bytes as bytea's hex form), or null (U+0000, which libpq would cut, refused as bad input). */
export function toParam(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    // libpq would cut the text there: refused as bad input (the API answers 400), nothing stored
    if (value.includes('\0')) throw invalid(null, 'text with a NUL character (U+0000) cannot be stored in PostgreSQL');
    return value;
  }
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  // bytea in its hex text form, as SQLite takes a Buffer for a BLOB
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  throw new TypeError(`a statement parameter cannot be a ${typeof value}`);
}
