// git's blob id of some bytes, apart from the working copy's module so that a parse worker hashes without loading git.
import { createHash } from 'node:crypto';

/** git's blob id of some bytes (`git hash-object`). */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
