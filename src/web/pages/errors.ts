// Error pages: a 4xx or 5xx answered as HTML (the API keeps its JSON errors).
import type { WebAnswer, WebContext } from '../context.js';
import { html, renderDocument } from '../html.js';
import { page } from './layout.js';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Permission denied',
  404: 'Page not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Too large',
  415: 'Unsupported upload',
  429: 'Too many attempts',
  500: 'Server error',
};

/** An HTML error page; without a context (the request failed before one existed) a bare page. */
export function errorPage(ctx: WebContext | undefined, status: number, detail?: string): WebAnswer {
  const title = TITLES[status] ?? (status >= 500 ? 'Server error' : 'Request refused');
  const text =
    detail ??
    (status === 404 ? 'There is no such page, or you may not see it.' : status >= 500 ? 'Something went wrong on the server; it has been logged.' : '');
  const body = html`<h1>${title}</h1>
    <p class="error-detail">${text}</p>
    <p><a href="/">Back to the dashboard</a></p>`;
  if (!ctx) {
    return {
      status,
      html: renderDocument(html`<html lang="en"><head><meta charset="utf-8" /><title>${title} — tms</title></head><body><main>${body}</main></body></html>`),
    };
  }
  return { status, html: page(ctx, { title, body }) };
}
