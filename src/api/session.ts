// Browser sessions shared by the web pages and the API: the session cookie, its user, and the CSRF token it carries.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { SessionRow, Store } from '../store/index.js';
import { now } from '../store/index.js';
import { createSession, findSession } from '../store/sessions.repo.js';

export const SESSION_COOKIE = 'tms_session';
/** The CSRF token of a visitor without a session (double-submit cookie: the sign-in form). */
export const CSRF_COOKIE = 'tms_csrf';
/** The header scripts send the CSRF token in (Django's name). */
export const CSRF_HEADER = 'x-csrftoken';
/** The form field forms send it in (Django's name). */
export const CSRF_FIELD = 'csrfmiddlewaretoken';
export const SESSION_DAYS = 14;

/** Cookies of a request by name (the first of repeated names wins). */
export function cookiesOf(req: IncomingMessage): Map<string, string> {
  const out = new Map<string, string>();
  const header = req.headers.cookie;
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (out.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      continue;
    }
    out.set(name, value);
  }
  return out;
}

/** A random URL-safe token. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A `Set-Cookie` value: HttpOnly unless a script must read it, SameSite=Lax, Secure on https sites. */
export function cookie(name: string, value: string, opts: { secure: boolean; maxAgeSeconds?: number; httpOnly?: boolean }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'SameSite=Lax'];
  if (opts.httpOnly !== false) parts.push('HttpOnly');
  if (opts.secure) parts.push('Secure');
  if (opts.maxAgeSeconds !== undefined) parts.push(`Max-Age=${opts.maxAgeSeconds}`);
  return parts.join('; ');
}

/** Whether the site is served over https (cookies are then Secure). */
export function secureSite(siteUrl: string, req: IncomingMessage): boolean {
  if (siteUrl) return siteUrl.startsWith('https:');
  return Boolean((req.socket as { encrypted?: boolean }).encrypted);
}

/** The unexpired session of the request's cookie, or undefined; `token` is the cookie value. */
export async function sessionOf(store: Store, req: IncomingMessage): Promise<(SessionRow & { token: string }) | undefined> {
  const token = cookiesOf(req).get(SESSION_COOKIE);
  if (!token || token.length > 200) return undefined;
  const session = await store.read((tx) => findSession(tx, token, now()));
  return session && { ...session, token };
}

/** Opens a session for a user; returns the cookie token and the session's CSRF token. */
export async function openSession(store: Store, userId: number): Promise<{ token: string; csrf: string }> {
  const token = randomToken();
  const csrf = randomToken();
  const created = new Date();
  const expires = new Date(created.getTime() + SESSION_DAYS * 86_400_000);
  await store.write((tx) => createSession(tx, { token, userId, csrf, created: created.toISOString(), expires: expires.toISOString() }));
  return { token, csrf };
}

/** Compares a sent CSRF token with the expected one in constant time; a missing one never matches. */
export function csrfMatches(sent: string | undefined, expected: string | undefined): boolean {
  if (!sent || !expected) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a browser's state-changing request was sent from this site (Django's origin check): its `Origin` — else
 * its `Referer` — names site_url's origin, or the host the request was sent to. A request with neither passes (no
 * browser sent it from another site; the CSRF token still applies); `Origin: null` does not.
 * @example sentFromSite(req, 'https://tms.example.org', 'http://127.0.0.1:8000')
 */
export function sentFromSite(req: IncomingMessage, siteUrl: string, requestOrigin: string): boolean {
  const origin = req.headers.origin;
  const referer = req.headers.referer;
  const claimed = typeof origin === 'string' ? origin : typeof referer === 'string' ? referer : undefined;
  if (claimed === undefined) return true;
  let from: URL;
  try {
    from = new URL(claimed);
  } catch {
    return false;
  }
  if (from.origin === 'null') return false;
  if (siteUrl) {
    try {
      if (from.origin === new URL(siteUrl).origin) return true;
    } catch {
      // a site_url that is not a URL matches nothing; the request's own host still may
    }
  }
  // the host the browser sent the request to (a TLS proxy in front may change the scheme, never the host)
  return from.host === new URL(requestOrigin).host;
}
