// Weblate's identities: SipHash-2-4 keyed "Weblate Sip Hash", shifted into the signed 64-bit range.
import createSiphash from 'siphash24/siphash24.js';
import { joinPlural } from './unit.js';

const KEY = new TextEncoder().encode('Weblate Sip Hash');
const OFFSET = 1n << 63n;
const encoder = new TextEncoder();

// The siphash24 package's WebAssembly module, called directly: its wrapper copies the key, the input and the output
// on every call; here the key is written once and the text is encoded straight into the module's memory (hash at
// 0, key at 8, input from 24).
const KEY_AT = 8;
const INPUT_AT = 24;
const wasm = createSiphash();
let memory = new Uint8Array(wasm.memory.buffer);
let view = new DataView(wasm.memory.buffer);
memory.set(KEY, KEY_AT);

/** SipHash-2-4 of the UTF-8 of `text`, minus 2^63 (Weblate's signed 64-bit value). */
function shiftedHash(text: string): bigint {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit
  const need = INPUT_AT + text.length * 3;
  if (need > memory.length) {
    wasm.memory.grow(Math.ceil((need - memory.length) / 65536));
    memory = new Uint8Array(wasm.memory.buffer);
    view = new DataView(wasm.memory.buffer);
  }
  const { written } = encoder.encodeInto(text, memory.subarray(INPUT_AT));
  wasm.siphash(INPUT_AT, written);
  // h - 2^63 as a signed 64-bit number is h with its top bit flipped
  memory[7]! ^= 0x80;
  return view.getBigInt64(0, true);
}

/** Hash of the plain concatenation of `parts`, minus 2^63: `calculateHash('Message') === 8445691827737211251n`. */
export function calculateHash(...parts: string[]): bigint {
  return shiftedHash(parts.length === 1 ? parts[0]! : parts.length === 2 ? parts[0]! + parts[1]! : parts.join(''));
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
