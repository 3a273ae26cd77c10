// Weblate's identities: SipHash-2-4 keyed "Weblate Sip Hash", shifted into the signed 64-bit range.
import siphash from 'siphash';
import { joinPlural } from './unit.js';

const KEY = siphash.string16_to_key('Weblate Sip Hash');
const OFFSET = 1n << 63n;

function rawHash(text: string): bigint {
  const { h, l } = siphash.hash(KEY, text);
  return (BigInt(h >>> 0) << 32n) | BigInt(l >>> 0);
}

/** Hash of the plain concatenation of `parts`, minus 2^63: `calculateHash('Message') === 8445691827737211251n`. */
export function calculateHash(...parts: string[]): bigint {
  return rawHash(parts.join('')) - OFFSET;
}

/** Lower-case hex of the unsigned value, not zero-padded, as Weblate's `?checksum=`. */
export function hashToChecksum(hash: bigint): string {
  return (hash + OFFSET).toString(16);
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
