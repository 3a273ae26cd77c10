// Loads the webhook payload fixtures (fixtures/hooks/<service>/<name>.json) and signs or re-addresses them for tests.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/corpus.js';

export interface HookFixture {
  note: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export function loadFixture(service: string, name: string): HookFixture {
  return JSON.parse(readFileSync(path.join(repoRoot, 'fixtures', 'hooks', service, `${name}.json`), 'utf8')) as HookFixture;
}

/** Hex HMAC-SHA256 of a body. */
export function hmacHex(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** A fixture's body with every occurrence of one string replaced (e.g. the forge URL by a loopback server's). */
export function readdress<T>(value: T, from: string, to: string): T {
  return JSON.parse(JSON.stringify(value).split(from).join(to)) as T;
}
