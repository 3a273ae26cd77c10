// Weblate's identities: SipHash-2-4 keyed "Weblate Sip Hash", shifted into the signed 64-bit range.
import instantiateSiphash from 'siphash24/siphash24.js';
import { joinPlural } from './unit.js';
import { countWordsUtf8 } from './words.js';

const OFFSET = 1n << 63n;
const encoder = new TextEncoder();
// The siphash24 package's WebAssembly module, an instance of our own: its memory holds the result (bytes 0-7), the
// key (8-23, written once) and the input (from 24), which is encoded there directly. Its JavaScript wrapper copied
// the key and the input in and the result out on every call, allocating views: hashing took twice as long.
const wasm = instantiateSiphash();
let memory = new Uint8Array(wasm.memory.buffer);
let result = new DataView(wasm.memory.buffer);
let input = memory.subarray(24);
memory.set(new TextEncoder().encode('Weblate Sip Hash'), 8);

// bytes of the text last hashed (from offset 24 of the memory): by `IdHashTable.add` and `unitContentHash`, of its text
// without the context
let hashedLength = 0;
// the words of that text where the loop that wrote it counted them (a short ASCII text), else -1: counted when asked
let hashedWords = -1;

/**
 * The words of the text last hashed (countWords's rule for one form; a plural separator counts as whitespace), or
 * after `IdHashTable.add` of its text and `unitContentHash` of its source (the context left out), counted on the UTF-8
 * bytes the hash read: a reader that hashes each source counts its words without reading the string again.
 */
export function wordsOfLastHashed(): number {
  return hashedWords >= 0 ? hashedWords : countWordsUtf8(memory, 24, 24 + hashedLength);
}

/**
 * Texts up to this length that are ASCII are written into the memory by a loop (which counts their words as it
 * goes): for a short text `encodeInto`'s call, its view and its result object cost more than the loop; from about
 * 64 characters on the encoder is as fast or faster.
 */
const SHORT = 48;
// the ASCII characters countWords reads as whitespace (tab to carriage return, U+001C-U+001F, space)
const ASCII_SPACE = new Uint8Array(0x21);
for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20]) ASCII_SPACE[c] = 1;

/**
 * Writes a short ASCII `text` into the memory at 24 (one byte a character, its UTF-8) and answers its words by
 * countWords's rule, or -1 where a character is not ASCII (what was written is then written again by the encoder).
 */
function writeAsciiCountingWords(text: string): number {
  const bytes = memory;
  let words = 0;
  // whether the character before was whitespace (1) or not (0): a word starts where a non-space follows a space
  let before = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return -1;
    bytes[24 + i] = c;
    const space = c <= 0x20 ? ASCII_SPACE[c]! : 0;
    words += before & (space ^ 1);
    before = space;
  }
  return words;
}

/** Writes a short ASCII `text` into the memory at `at` and answers true, or false where a character is not ASCII. */
function writeAscii(text: string, at: number): boolean {
  const bytes = memory;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return false;
    bytes[at + i] = c;
  }
  return true;
}

/** SipHash-2-4 of the UTF-8 text, minus 2^63. */
function signedHash(text: string): bigint {
  room(text.length);
  const { written } = encoder.encodeInto(text, input);
  hashedLength = written;
  hashedWords = -1;
  return hashInput(written);
}

/**
 * The hash of `text + context + contextEnd` (a context that is not empty encoded after the text, where it can be in
 * its two parts: no joined string is made).
 */
function signedHashOfPair(text: string, context: string, contextEnd: string): bigint {
  // a short ASCII text (most sources) written by a loop that counts its words; its last unit is no surrogate
  if (text.length <= SHORT) {
    const length = text.length + context.length + contextEnd.length;
    room(length);
    const words = writeAsciiCountingWords(text);
    if (words >= 0) {
      const first = text.length;
      hashedLength = first;
      hashedWords = words;
      if (context.length <= SHORT && contextEnd.length <= SHORT && writeAscii(context, 24 + first) && writeAscii(contextEnd, 24 + first + context.length)) {
        return hashInput(length);
      }
      const rest = contextEnd === '' ? context : context + contextEnd;
      return hashInput(first + encoder.encodeInto(rest, memory.subarray(24 + first)).written);
    }
  }
  if (contextEnd !== '') context += contextEnd;
  // a lone high surrogate at the text's end would pair with the context's first unit in the joined string
  const last = text.charCodeAt(text.length - 1);
  if (context === '') return signedHash(text);
  if (last >= 0xd800 && last <= 0xdbff) {
    const hash = signedHash(text + context);
    // the text's own bytes, for wordsOfLastHashed
    hashedLength = encoder.encodeInto(text, input).written;
    return hash;
  }
  room(text.length + context.length);
  const first = encoder.encodeInto(text, input).written;
  hashedLength = first;
  hashedWords = -1;
  return hashInput(first + encoder.encodeInto(context, memory.subarray(24 + first)).written);
}

/** Memory for the UTF-8 of `length` UTF-16 code units (at most 3 bytes each). */
function room(length: number): void {
  if (length * 3 > input.length) {
    wasm.memory.grow(Math.ceil((length * 3 - input.length) / 65536));
    memory = new Uint8Array(wasm.memory.buffer);
    result = new DataView(wasm.memory.buffer);
    input = memory.subarray(24);
  }
}

function hashInput(written: number): bigint {
  wasm.siphash(24, written);
  // the unsigned value minus 2^63 is its top bit flipped, read as signed
  memory[7]! ^= 0x80;
  return result.getBigInt64(0, true);
}

/** Hash of the plain concatenation of `parts`, minus 2^63: `calculateHash('Message') === 8445691827737211251n`. */
export function calculateHash(...parts: string[]): bigint {
  if (parts.length === 1 || (parts.length === 2 && parts[1] === '')) return signedHash(parts[0]!);
  return signedHash(parts.join(''));
}

/** Weblate's `?checksum=`: the unsigned value as 16 lower-case hex digits (`format(h + 2**63, "016x")`). */
export function hashToChecksum(hash: bigint): string {
  return (hash + OFFSET).toString(16).padStart(16, '0');
}

export function checksumToHash(checksum: string): bigint {
  return BigInt(`0x${checksum}`) - OFFSET;
}

/** id_hash: `hash(source + context)` for bilingual units, `hash(context)` for monolingual ones. */
export function unitIdHash(monolingual: boolean, source: readonly string[], context: string): bigint {
  return monolingual ? calculateHash(context) : calculateHash(joinPlural(source), context);
}

/** content_hash: `hash(source + context)` for every unit. */
export function unitContentHash(source: readonly string[], context: string): bigint {
  return signedHashOfPair(joinPlural(source), context, '');
}

/**
 * The id_hash of each unit of a file as it is read, and the number (a line) kept with the first unit of each. A
 * Map keyed by the BigInt cost more than the hashing itself (V8 hashes a BigInt key, and converts one to a Number,
 * by a call out of its generated code); this table keeps the hash's two 32-bit halves, read where the hash is made.
 */
export class IdHashTable {
  /** After `add`: the number kept with an earlier unit of the same id_hash, or -1 (this one's was kept). */
  earlier = -1;
  private size = 0;
  private high: Int32Array;
  private low: Int32Array;
  // the number kept plus one (0: a free slot)
  private kept: Int32Array;

  /** A table made for about `expected` hashes (it grows past them). */
  constructor(expected = 0) {
    let slots = 1024;
    while (slots < expected * 2) slots *= 2;
    this.high = new Int32Array(slots);
    this.low = new Int32Array(slots);
    this.kept = new Int32Array(slots);
  }

  /**
   * `calculateHash(text, context + contextEnd)`, noting `value` (≥ 0) for it unless an earlier unit had the same hash
   * (a context in two parts is hashed as they are, not joined).
   */
  add(text: string, context: string, value: number, contextEnd = ''): bigint {
    const hash = signedHashOfPair(text, context, contextEnd);
    const high = result.getInt32(4, true);
    const low = result.getInt32(0, true);
    const mask = this.kept.length - 1;
    let at = high & mask;
    for (; this.kept[at] !== 0; at = (at + 1) & mask) {
      if (this.high[at] === high && this.low[at] === low) {
        this.earlier = this.kept[at]! - 1;
        return hash;
      }
    }
    this.earlier = -1;
    this.place(at, high, low, value + 1);
    if (++this.size * 2 > this.kept.length) this.grow();
    return hash;
  }

  private place(at: number, high: number, low: number, kept: number): void {
    this.high[at] = high;
    this.low[at] = low;
    this.kept[at] = kept;
  }

  private grow(): void {
    const { high, low, kept } = this;
    const slots = kept.length * 2;
    this.high = new Int32Array(slots);
    this.low = new Int32Array(slots);
    this.kept = new Int32Array(slots);
    for (let i = 0; i < kept.length; i++) {
      if (kept[i] === 0) continue;
      let at = high[i]! & (slots - 1);
      while (this.kept[at] !== 0) at = (at + 1) & (slots - 1);
      this.place(at, high[i]!, low[i]!, kept[i]!);
    }
  }
}
