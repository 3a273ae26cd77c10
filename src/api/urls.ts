// Absolute URLs in API answers: API links from the request's origin, web links from site_url, `format` carried along.

/** One path segment, percent-encoded as Django's reverse() does (keeping `@`, `:` and friends readable). */
export function seg(value: string | number): string {
  return encodeURIComponent(String(value)).replace(/%(40|3A|2C|24|26|2B|3D)/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Python's `quote_plus`: everything but letters, digits and `_.-~` percent-encoded, spaces as `+`. */
export function quotePlus(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Query pairs encoded as DRF re-encodes them: sorted by key, repeated keys kept in order. */
export function encodeQuery(pairs: readonly (readonly [string, string])[]): string {
  const sorted = [...pairs].map((pair, index) => ({ pair, index }));
  sorted.sort((a, b) => (a.pair[0] < b.pair[0] ? -1 : a.pair[0] > b.pair[0] ? 1 : a.index - b.index));
  return sorted.map(({ pair }) => `${quotePlus(pair[0])}=${quotePlus(pair[1])}`).join('&');
}

/** Builds every URL one answer contains. */
export class Urls {
  /** `<origin>/api/` */
  readonly apiBase: string;
  /** site_url without a trailing slash. */
  readonly siteBase: string;
  /** `format=…` to append, or ''. */
  private readonly format: string;

  /**
   * @param origin scheme://host[:port] of the request (API links must stay on the caller's origin)
   * @param siteUrl configured site_url, or '' for the request's origin
   * @param format the request's `format` value (api or json) to carry into every URL, or null
   */
  constructor(
    readonly origin: string,
    siteUrl: string,
    format: string | null,
  ) {
    this.apiBase = `${origin}/api/`;
    this.siteBase = (siteUrl || origin).replace(/\/+$/, '');
    this.format = format === null ? '' : `format=${quotePlus(format)}`;
  }

  /** `api('projects/hello/')` → `http://host/api/projects/hello/` (+ `?format=api`). */
  api(path: string): string {
    return this.format ? `${this.apiBase}${path}?${this.format}` : this.apiBase + path;
  }

  /** `web('projects/hello/')` → `<site_url>/projects/hello/`; `query` is already encoded. */
  web(path: string, query?: string): string {
    const q = query ? (this.format ? `${query}&${this.format}` : query) : this.format;
    return q ? `${this.siteBase}/${path}?${q}` : `${this.siteBase}/${path}`;
  }

  /** The request's own URL with these query pairs (pagination links). */
  self(path: string, pairs: readonly (readonly [string, string])[]): string {
    const query = encodeQuery(pairs);
    return query ? `${this.origin}${path}?${query}` : `${this.origin}${path}`;
  }
}
