// The pages' text as a reader gets it (tags dropped, spaces as the browser collapses them): the progress sentence
// of the overview pages, plural strings in the change history, whose stored separator is no character to show, and
// where an error page leads, and who is signed in on one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';

/** A page's visible text: tags dropped (not replaced, so words they separate stay together), whitespace collapsed. */
function textOf(page: string): string {
  const body = page.slice(page.indexOf('<body'));
  return body
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the text of the pages', () => {
  let env: WriteEnv;
  let checksum: string;

  beforeAll(async () => {
    env = await createWriteEnv();
    // the plural string of `app` in German, both forms edited
    const units = (await env.request('GET', '/api/translations/hello/app/de/units/', { token: env.tokens.jane })).json.results as {
      id: number;
      source: string[];
      web_url: string;
    }[];
    const plural = units.find((u) => u.source.length === 2)!;
    checksum = new URL(plural.web_url).searchParams.get('checksum')!;
    const saved = await env.request('PATCH', `/api/units/${plural.id}/`, {
      token: env.tokens.jane,
      json: { target: ['Eine Datei gewählt', '%n Dateien gewählt'], state: 20 },
    });
    expect(saved.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('says "approved · N strings" with its space on every page that sums up progress', async () => {
    for (const path of ['/projects/hello/', '/projects/hello/app/', '/projects/hello/app/de/', '/projects/hello/-/de/', '/engage/hello/']) {
      const page = await env.request('GET', path);
      expect(page.status, path).toBe(200);
      expect(textOf(page.text), path).toMatch(/ approved · \d+ strings · \d+ of \d+ words translated/);
    }
  });

  it('shows a plural edit in the change history with its forms apart, never the stored separator', async () => {
    for (const path of ['/changes/?project=hello', '/projects/hello/app/', '/projects/hello/app/de/', `/translate/hello/app/de/?checksum=${checksum}`]) {
      const page = await env.request('GET', path);
      expect(page.status, path).toBe(200);
      const text = textOf(page.text);
      expect(text, path).toContain('Eine Datei gewählt | %n Dateien gewählt');
      expect(text, path).not.toContain('\x1e');
    }
  });

  it('leads a refused search back to its translation, and a page that is not there to the dashboard', async () => {
    const search = await env.request('GET', `/translate/hello/app/de/?q=${encodeURIComponent('source:(file')}`);
    expect(search.status).toBe(400);
    expect(search.text).toContain('<a href="/projects/hello/app/de/">Back to the translation</a>');
    const missing = await env.request('GET', '/translate/hello/nope/de/');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<a href="/">Back to the dashboard</a>');
  });

  it('shows a signed-in user in the header of a page not found, at an unknown address as at a known one', async () => {
    const jane = await env.signIn('jane', 'jane-password-1');
    for (const path of ['/no/such/address/', '/translate/hello/nope/de/']) {
      const page = await env.request('GET', path, { headers: { Cookie: jane.cookie } });
      expect(page.status, path).toBe(404);
      const text = textOf(page.text);
      expect(text, path).toContain('Sign out');
      expect(text, path).not.toContain('Sign in');
    }
    // without the session the same page offers to sign in
    expect(textOf((await env.request('GET', '/no/such/address/')).text)).toContain('Sign in');
  });
});
