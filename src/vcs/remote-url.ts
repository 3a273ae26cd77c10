// Remote URLs: which transport a URL needs, the credentials inside it, and the credential-free form shown to people.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ValidationError } from '../domain/errors.js';
import { hasUserInfo, redactUrl } from '../domain/url.js';

export { redactUrl };

/** A username and password (or token) for an http(s) remote. */
export interface Credentials {
  username: string;
  password: string;
}

/** A remote as the vcs layer reaches it. `display` is always credential-free. */
export type Remote =
  | { transport: 'http'; url: string; display: string; credentials: Credentials | null }
  | { transport: 'local'; path: string; display: string };

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const SCP_LIKE = /^[^/@:]+@[^/@:]+:/;

/**
 * Classifies a remote URL: `http(s)://…` (credentials taken out of it), or a local repository given as
 * `file://…`, an absolute path or a path relative to `cwd`. Other transports (ssh, git://) are refused.
 * `parseRemote('file:///srv/up.git')` → `{ transport: 'local', path: '/srv/up.git', display: 'file:///srv/up.git' }`.
 */
export function parseRemote(url: string, cwd: string = process.cwd()): Remote {
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    const display = redactUrl(url);
    return { transport: 'http', url: display, display, credentials: credentialsOf(url) };
  }
  if (scheme === 'file') {
    return { transport: 'local', path: fileURLToPath(url), display: url };
  }
  if (scheme !== undefined || SCP_LIKE.test(url)) {
    throw new ValidationError(`unsupported remote transport (use http(s), file:// or a path): ${redactUrl(url)}`, {
      field: 'url',
    });
  }
  const absolute = path.resolve(cwd, url);
  return { transport: 'local', path: absolute, display: absolute };
}

/** The `user:password` of an http(s) URL, percent-decoded; null when the URL carries none. */
export function credentialsOf(url: string): Credentials | null {
  if (!hasUserInfo(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!parsed.username && !parsed.password) return null;
  return { username: safeDecode(parsed.username), password: safeDecode(parsed.password) };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
