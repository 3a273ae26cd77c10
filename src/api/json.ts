// JSON text for API answers: exact 64-bit integers (BigInt), one-decimal percentages, DRF-style compact output.

/** A number that must be written with exactly one decimal (`100.0`, `33.3`), as Weblate's percentages. */
export class OneDecimal {
  constructor(readonly value: number) {}
}

/** JSON text spliced in as is (already serialized, e.g. a cached record). */
export class RawJson {
  constructor(readonly text: string) {}
}

// DRF's JSONRenderer escapes U+2028/U+2029 (ensure_ascii off, but these two always).
const LINE_SEPARATORS = /[\u2028\u2029]/g;
// Anything JSON.stringify would escape (or DRF does): quotes, backslashes, controls, surrogates, U+2028/9.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/** A JSON string literal, with U+2028/U+2029 escaped as DRF does. */
export function jsonString(value: string): string {
  // Most API strings (URLs, slugs, plain text) need no escaping: skip the native call for them.
  if (!NEEDS_ESCAPE.test(value)) return `"${value}"`;
  return JSON.stringify(value).replace(LINE_SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

/**
 * Writes any API value as compact JSON: BigInt as its exact digits, OneDecimal with one decimal,
 * RawJson spliced in, undefined properties left out. Non-finite numbers become null.
 * @example toJson({ id_hash: -4101198283576545269n }) === '{"id_hash":-4101198283576545269}'
 */
export function toJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          out += toJson(value[i]);
        }
        return out + ']';
      }
      if (value instanceof OneDecimal) return Number.isFinite(value.value) ? value.value.toFixed(1) : 'null';
      if (value instanceof RawJson) return value.text;
      let out = '{';
      let first = true;
      for (const key in value) {
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined) continue;
        if (!first) out += ',';
        first = false;
        out += jsonString(key) + ':' + toJson(v);
      }
      return out + '}';
    }
    default:
      return 'null';
  }
}

// The buffer answers are written into while nothing else writes one (an answer is written from start to end without
// awaiting): each answer is then one copy at its exact size, no buffer of a guessed size allocated and dropped per page.
// A writer given up before `bytes()` (a record that failed to serialize) keeps it: the next writers allocate their own.
let scratch: Buffer | undefined = Buffer.allocUnsafe(256 * 1024);
const SCRATCH_MAX = 4 * 1024 * 1024;

/**
 * JSON text written straight into UTF-8 bytes, in a buffer that grows by doubling: a long answer (a page of records)
 * is encoded piece by piece as it is written, never held as one long string to flatten and encode again. Written into
 * the shared scratch buffer when it is free (given back by `bytes()`), else into its own.
 * @example const w = new JsonBytes(); w.text('{"results":['); w.text(record); w.text(']}'); send(w.bytes())
 */
export class JsonBytes {
  private buffer: Buffer;
  private length = 0;
  private readonly shared: boolean;

  constructor(sizeHint = 4096) {
    this.shared = scratch !== undefined;
    this.buffer = scratch ?? Buffer.allocUnsafe(sizeHint);
    scratch = undefined;
  }

  /** Appends JSON text (already serialized). */
  text(value: string): void {
    // a UTF-16 code unit takes at most 3 bytes of UTF-8
    const room = this.length + value.length * 3;
    if (room > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(room, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(value, this.length);
  }

  /**
   * The bytes written, in a buffer of their own at their exact size (an answer kept in the response cache holds no
   * more memory than it counts); the writer is done after it.
   */
  bytes(): Buffer {
    const written = Buffer.from(this.buffer.subarray(0, this.length));
    if (this.shared) scratch = this.buffer.length <= SCRATCH_MAX ? this.buffer : Buffer.allocUnsafe(256 * 1024);
    // given back: nothing written after this may land in another answer
    this.buffer = Buffer.alloc(0);
    this.length = 0;
    return written;
  }
}
