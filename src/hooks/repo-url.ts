// Comparable forms of repository URLs: https, ssh, git://, scp-like git@host:path, credentials, ports, `.git` and slashes.

/**
 * The host and path of a repository URL, lower-cased, without scheme, credentials, port, trailing `/` or `.git`;
 * null for what is not a remote URL (a local path, `local:`, an empty string).
 * `normalizeRepoUrl('git@GitHub.com:Org/App.git')` → `'github.com/org/app'`, the same as for
 * `https://bot:token@github.com/org/app/` and `ssh://git@github.com:22/org/app`.
 */
export function normalizeRepoUrl(url: string): string | null {
  let text = url.trim();
  if (text.startsWith('hg::')) text = text.slice(4);
  let host: string;
  let rest: string;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(text);
  if (scheme) {
    if (scheme[1]!.toLowerCase() === 'file') return null;
    host = scheme[2] ?? '';
    rest = scheme[3] ?? '';
  } else {
    // scp-like: [user@]host:path (a drive letter or an absolute path is not a host)
    const scp = /^([^/@:\s]+@)?([^/@:\s]{2,}):(?!\/\/)(.+)$/.exec(text);
    if (!scp) return null;
    host = scp[2]!;
    rest = `/${scp[3]}`;
  }
  host = host.slice(host.lastIndexOf('@') + 1);
  // [v6]:port or host:port — ports differ between the ssh and https forms of one repository
  host = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  if (host === '') return null;
  let path = rest.replace(/[?#].*$/, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the text as written
  }
  path = path
    .replace(/\/+/g, '/')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '')
    .replace(/^\/+/, '');
  return `${host}/${path}`.toLowerCase();
}

/** The repository name `owner/repo` from a payload's full name, lower-cased, without `.git` and outer slashes. */
export function normalizeFullName(fullName: string): string {
  return fullName
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}
