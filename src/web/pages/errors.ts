// Error pages: a 4xx or 5xx answered as HTML (the API keeps its JSON errors).
import type { WebAnswer } from '../context.js';
import { html } from '../html.js';
import { type Frame, page } from './layout.js';

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
  503: 'Unavailable',
};

/**
 * Where a refused request leads back to: the translation a search, an upload or a save was made on, the component of
 * a repository operation or a new language, else the dashboard (a page that was not found may have no such place).
 */
function backOf(path: string, status: number): { href: string; label: string } {
  if (status !== 404 && status < 500) {
    const translation = /^\/(?:translate|upload)\/([^/]+)\/([^/]+)\/([^/]+)\/$/.exec(path);
    if (translation) return { href: `/projects/${translation[1]}/${translation[2]}/${translation[3]}/`, label: 'Back to the translation' };
    const component = /^\/(?:repository|new-lang)\/([^/]+)\/([^/]+)\/$/.exec(path);
    if (component) return { href: `/projects/${component[1]}/${component[2]}/`, label: 'Back to the component' };
  }
  return { href: '/', label: 'Back to the dashboard' };
}

/** An HTML error page in the site's frame, with the answer's headers (`Retry-After` …). */
export function errorPage(frame: Frame, status: number, detail?: string, headers?: Record<string, string>): WebAnswer {
  const title = TITLES[status] ?? (status >= 500 ? 'Server error' : 'Request refused');
  const text =
    detail ??
    (status === 404 ? 'There is no such page, or you may not see it.' : status >= 500 ? 'Something went wrong on the server; it has been logged.' : '');
  const back = backOf(frame.path, status);
  const body = html`<h1>${title}</h1>
    <p class="error-detail">${text}</p>
    <p><a href=${back.href}>${back.label}</a></p>`;
  return { status, html: page(frame, { title, body }), headers };
}
