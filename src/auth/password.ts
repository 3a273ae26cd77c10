// Password hashing for web sign-in: scrypt from node:crypto, self-describing hashes, constant-time comparison.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

// OWASP's scrypt minimum (N=2^17, r=8, p=1) costs ~128 MiB and ~0.3 s: too much for a small server's sign-in path;
// N=2^15 keeps ~32 MiB and ~60 ms per attempt, and the sign-in limiter caps attempts.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;

function scrypt(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_BYTES, { ...params, maxmem: 256 * params.N * params.r }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** The smallest password accepted (NIST SP 800-63B asks for 8 characters). */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * A hash of `password` in the form `scrypt$N$r$p$salt$key` (base64), safe to store.
 * @example const stored = await hashPassword('correct horse'); await verifyPassword('correct horse', stored) === true
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches a stored hash; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20 || r > 32 || p > 16) return false;
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length !== KEY_BYTES) return false;
  const key = await scrypt(password, Buffer.from(parts[4]!, 'base64'), { N, r, p });
  return timingSafeEqual(key, expected);
}

/** A hash to compare against when the user does not exist, so a wrong username costs as long as a wrong password. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString('base64'));
  return decoy;
}
