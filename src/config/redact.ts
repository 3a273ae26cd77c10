// Removes credentials from repository URLs before they are shown anywhere.

/** `https://user:secret@host/repo.git` → `https://host/repo.git`; other strings unchanged. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}
