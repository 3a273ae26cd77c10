// Credential-free forms of repository URLs, for everything shown to people.

const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i;

/**
 * The URL without its `user:password@` part, for errors, logs, API output and returned values.
 * `redactUrl('https://bot:s3cret@example.com/repo.git')` → `'https://example.com/repo.git'`.
 */
export function redactUrl(url: string): string {
  return url.replace(USERINFO, '$1');
}

/** True when the URL carries a `user[:password]@` part. */
export function hasUserInfo(url: string): boolean {
  return USERINFO.test(url);
}
