// What web page handlers receive (the API's request context plus the browser's session and form) and what they answer.
import type { IncomingMessage } from 'node:http';
import { Access } from '../api/access.js';
import type { AppServices } from '../api/app.js';
import type { RequestBody } from '../api/body.js';
import type { RequestContext } from '../api/context.js';
import type { Assets } from './assets.js';

export interface WebContext extends RequestContext {
  req: IncomingMessage;
  assets: Assets;
  /** The CSRF token this visitor's forms carry (the session's, or the sign-in cookie's). */
  csrf: string;
  /** The signed-in session's cookie token, when signed in. */
  sessionToken?: string;
  /** The parsed body of a POST (form fields and files). */
  body?: RequestBody;
  /** `Set-Cookie` values to send with the answer. */
  cookies: string[];
}

/** A page (HTML with a status), a redirect, or a file the site keeps (a screenshot's image). */
export type WebAnswer =
  | { status?: number; html: string; headers?: Record<string, string> }
  | { redirect: string; status?: 301 | 302 | 303 }
  | { status?: number; bytes: Uint8Array; contentType: string; headers?: Record<string, string> };

/** The first value of a form field, or undefined. */
export function formValue(ctx: WebContext, name: string): string | undefined {
  return ctx.body?.form.get(name)?.[0];
}

/** Whether the visitor is a signed-in user (not the anonymous one). */
export function signedIn(ctx: RequestContext): boolean {
  return ctx.user.is_anonymous === 0;
}

/** A redirect to the sign-in page that comes back to `next` afterwards. */
export function toSignIn(next: string): WebAnswer {
  return { redirect: `/accounts/login/?next=${encodeURIComponent(next)}`, status: 302 };
}

/** The context over the database as it is after a write (the catalog and visibility re-read). */
export async function refreshed(ctx: WebContext): Promise<WebContext> {
  await (ctx.services as AppServices).refresh();
  const catalog = await ctx.services.catalog();
  return { ...ctx, catalog, memo: new Map(), access: Access.of(ctx.access.principal, catalog) };
}
