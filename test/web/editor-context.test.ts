// The editor around its string, over HTTP: nearby strings of the file and other occurrences of the source in the
// project (each a link to its editor), locations linked to the repository browser, the source's age and the last
// change with its author, Suggest and Skip beside Save, the notice of a locked component, and the keyboard help.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebSession, type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';

const DE = '/api/translations/hello/app/de/';
const REPOWEB = 'https://git.example.org/hello/app/blob/{{branch}}/{{filename}}#L{{line}}';

interface Unit {
  id: number;
  source: string[];
  position: number;
  web_url: string;
}

describe('the editor around its string', () => {
  let env: WriteEnv;
  let jane: WebSession;
  let units: Unit[];

  const page = (path: string) => env.request('GET', path, { headers: { Cookie: jane.cookie } });
  const editorOf = (u: Unit) => page(new URL(u.web_url).pathname + new URL(u.web_url).search);
  const unit = (source: string) => units.find((u) => u.source[0] === source)!;

  beforeAll(async () => {
    // a second component from the same repository: every string of app occurs there too
    env = await createWriteEnv({}, { app: { repoweb: REPOWEB } }, [{ slug: 'app-copy', settings: { name: 'App copy' } }]);
    jane = await env.signIn('jane', 'jane-password-1');
    units = (await env.request('GET', `${DE}units/`, { token: env.tokens.jane })).json.results as Unit[];
    units.sort((a, b) => a.position - b.position);
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('lists the nearby strings of the file in order, each linked to its editor, the edited one marked', async () => {
    const middle = units[2]!;
    const text = (await editorOf(middle)).text;
    const section = text.slice(text.indexOf('id="nearby-h"'), text.indexOf('id="occurrences-h"'));
    const positions = [...section.matchAll(/data-position="(\d+)"/g)].map((m) => Number(m[1]));
    expect(positions).toEqual(units.filter((u) => u !== middle && Math.abs(units.indexOf(u) - 2) <= 5).map((u) => u.position));
    expect(section).toMatch(/aria-current="true"/);
    for (const u of units.filter((x) => x !== middle)) {
      expect(section).toContain(`href="/translate/hello/app/de/?checksum=${new URL(u.web_url).searchParams.get('checksum')}"`);
    }
  });

  it('lists other occurrences of the string in the project (its source and context elsewhere), linked to their editor', async () => {
    const quit = unit('Quit');
    const text = (await editorOf(quit)).text;
    const section = text.slice(text.indexOf('id="occurrences-h"'), text.indexOf('</section>', text.indexOf('id="occurrences-h"')));
    const checksum = new URL(quit.web_url).searchParams.get('checksum');
    expect(section).toContain('App copy:');
    expect(section).toContain(`href="/translate/hello/app-copy/de/?checksum=${checksum}"`);
    // web's menu.quit has the text "Quit" under another key: another string, as in Weblate
    expect(section).not.toContain('/translate/hello/web/');
    const web = (await env.request('GET', `/api/translations/hello/web/de/units/?q=${encodeURIComponent('source:Quit')}`, { token: env.tokens.jane })).json
      .results[0] as Unit;
    expect((await editorOf(web)).text).toContain('The string occurs nowhere else in this project.');
  });

  it('links locations to the repository browser (relative paths resolved against the file), and says the age and the last change', async () => {
    const withLocation = units.find((u) => (u as unknown as { location: string }).location)!;
    const location = (withLocation as unknown as { location: string }).location;
    const m = /^\.\.\/(.+):(\d+)$/.exec(location);
    expect(m, location).not.toBeNull();
    const saved = await env.request('PATCH', `/api/units/${withLocation.id}/`, { token: env.tokens.jane, json: { target: ['Neu'], state: 20 } });
    expect(saved.status).toBe(200);
    const text = (await editorOf(withLocation)).text;
    expect(text).toContain(`href="https://git.example.org/hello/app/blob/main/${m![1]}#L${m![2]}"`);
    expect(text).toMatch(/data-source-age="true"><time datetime="[^"]+">today<\/time>/);
    expect(text).toMatch(/data-last-change="true">\d{4}-\d\d-\d\d \d\d:\d\d UTC by jane</);
  });

  it('offers Suggest and Skip beside Save to a translator, and the keyboard help', async () => {
    const text = (await editorOf(units[0]!)).text;
    for (const name of ['save', 'save_next', 'suggest']) expect(text).toContain(`name="${name}"`);
    expect(text).toMatch(/<a href="[^"]*offset=2" class="button secondary" data-nav="skip"/);
    expect(text).toContain('<details class="keys" id="keys">');
    // a suggestion by someone who may also save: stored as a suggestion, the string unchanged
    const before = (await env.request('GET', `/api/units/${units[0]!.id}/`, { token: env.tokens.jane })).json.target;
    const posted = await env.postForm(jane, '/translate/hello/app/de/', { unit: String(units[0]!.id), target_0: 'Vorschlag', suggest: '1' });
    expect(posted.status).toBe(303);
    expect((await env.request('GET', `/api/units/${units[0]!.id}/`, { token: env.tokens.jane })).json.target).toEqual(before);
    expect((await editorOf(units[0]!)).text).toMatch(/data-suggestion="\d+">\s*<span[^>]*>Vorschlag</);
  });

  it('tells why nothing can be saved while the component is locked', async () => {
    const lock = (value: boolean) => env.request('POST', '/api/components/hello/app/lock/', { token: env.tokens.admin, json: { lock: value } });
    expect((await lock(true)).status).toBe(200);
    try {
      const text = (await editorOf(units[0]!)).text;
      expect(text).toContain('data-readonly="locked"');
      expect(text).toContain('The component is locked');
      expect(text).not.toContain('name="save"');
    } finally {
      expect((await lock(false)).status).toBe(200);
    }
  });
});
