// Weblate's identities: SipHash-2-4 keyed "Weblate Sip Hash", shifted into the signed 64-bit range.
import siphash24 from 'siphash24';
import { joinPlural } from './unit.js';

const KEY = new TextEncoder().encode('Weblate Sip Hash');
const OFFSET = 1n << 63n;
const encoder = new TextEncoder();
// siphash24 runs in WebAssembly; reusing the input and output buffers (and a view of the input per length) keeps
// hashing allocation-free
let input = new Uint8Array(4096);
let views: Uint8Array[] = [];
const output = new Uint8Array(8);
const outputView = new DataView(output.buffer);

/** SipHash-2-4 of the UTF-8 text, minus 2^63. */
function signedHash(text: string): bigint {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit
  if (text.length * 3 > input.length) {
    input = new Uint8Array(text.length * 3 + 1024);
    views = [];
  }
  const { written } = encoder.encodeInto(text, input);
  siphash24((views[written] ??= input.subarray(0, written)), KEY, output, true);
  // the unsigned value minus 2^63 is its top bit flipped, read as signed
  output[7]! ^= 0x80;
  return outputView.getBigInt64(0, true);
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
  return calculateHash(joinPlural(source), context);
}
