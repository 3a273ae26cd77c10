// Weblate's automatic translation add-on: configured on a component, listed by /api/addons/, run when a sync brings
// new strings (not when it brings none), filling the component's translations from the project's other components,
// every change by the automatic translation bot; its configuration checked with JSON paths.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { ConfigError } from '../../src/domain/errors.js';
import { syncProject } from '../../src/sync/index.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { thrownBy } from '../helpers/errors.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { DEMO } from '../helpers/sync-env.js';

type Unit = { id: number; source: string[]; target: string[]; state: number };
const ADDON = 'weblate.autotranslate.autotranslate';

describe('the automatic translation add-on', () => {
  let env: WriteEnv;
  const unitOf = async (component: string, source: string): Promise<Unit | undefined> =>
    ((await env.request('GET', `/api/translations/hello/${component}/de/units/`, { token: env.tokens.admin })).json.results as Unit[]).find(
      (u) => u.source[0] === source,
    );

  beforeAll(async () => {
    env = await createWriteEnv({}, {}, [
      {
        slug: 'copy',
        // no propagation: what copy gets comes from the add-on
        settings: {
          allow_translation_propagation: false,
          addons: [{ name: ADDON, configuration: { mode: 'translate', auto_source: 'others', component: 'app' } }],
        },
      },
    ]);
  }, 90_000);
  afterAll(() => env?.close());

  it('is listed by /api/addons/ with its configuration', async () => {
    const addons = (await env.request('GET', '/api/addons/', { token: env.tokens.admin })).json.results as {
      name: string;
      configuration: object;
      component: string;
    }[];
    const mine = addons.find((a) => a.name === ADDON);
    expect(mine).toMatchObject({ configuration: { mode: 'translate', auto_source: 'others', component: 'app' } });
    expect(mine!.component).toMatch(/\/api\/components\/hello\/copy\/$/);
  });

  it('runs when a sync brings new strings, and fills them from the other component', async () => {
    const quit = (await unitOf('app', 'Quit'))!;
    expect((await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Beenden'], state: 20 } })).status).toBe(200);
    // a sync without new strings does not run it
    await syncProject(env.store, env.config, 'hello');
    expect((await unitOf('copy', 'Quit'))!.state).toBe(0);

    // upstream adds a string to every language
    const file = (lang: string) => `translations/app_${lang}.ts`;
    const withSave = (lang: string) =>
      readFileSync(path.join(DEMO, 'app', file(lang)), 'utf8').replace(
        '</context>',
        '    <message>\n        <source>Save</source>\n        <translation type="unfinished"></translation>\n    </message>\n</context>',
      );
    await commitToUpstream(env.upstream('app'), { [file('de')]: withSave('de'), [file('cs')]: withSave('cs') });
    const results = await syncProject(env.store, env.config, 'hello');
    const copy = results.find((r) => r.component === 'copy')!;
    expect(copy.added).toBeGreaterThan(0);
    expect(copy.warnings).toContain('automatic translation of de: Automatic translation completed, 1 string was updated.');
    expect(await unitOf('copy', 'Quit')).toMatchObject({ target: ['Beenden'], state: 20 });
    // the new string has no translation anywhere yet
    expect((await unitOf('copy', 'Save'))!.state).toBe(0);
    const changes = (await env.request('GET', '/api/translations/hello/copy/de/changes/?action=6', { token: env.tokens.admin })).json.results as {
      author: string;
      user: string | null;
    }[];
    expect(changes).toHaveLength(1);
    expect(changes[0]!.author).toMatch(/\/users\/automatic-translation\/$/);
    expect(changes[0]!.user).toBeNull();
  });
});

describe('its configuration', () => {
  const config = (configuration: Record<string, unknown>, machinery: Record<string, unknown> = {}) =>
    JSON.stringify({
      machinery,
      projects: [
        {
          name: 'H',
          slug: 'h',
          components: [
            { name: 'A', slug: 'a', repo: 'https://example.org/a.git', filemask: '*.ts', file_format: 'ts', addons: [{ name: ADDON, configuration }] },
          ],
        },
      ],
    });
  const problems = (configuration: Record<string, unknown>, machinery?: Record<string, unknown>) =>
    thrownBy(ConfigError, () => parseConfig(config(configuration, machinery), '/srv/tms.config.json')).data.problems;

  it('names each bad setting by its JSON path', () => {
    const at = 'projects[0].components[0].addons[0].configuration';
    expect(problems({ mode: 'overwrite', threshold: 0, colour: 'red' })).toEqual([
      `${at}.mode: must be one of "suggest", "translate", "fuzzy"`,
      `${at}.colour: is not a setting of ${ADDON}`,
      `${at}.threshold: must be an integer from 1 to 100`,
    ]);
    expect(problems({ auto_source: 'mt', engines: ['deepl'] })).toEqual([`${at}.engines: "deepl" is not a configured engine`]);
    expect(problems({ auto_source: 'mt' })).toEqual([`${at}.engines: machine translation needs at least one engine`]);
  });

  it('takes engines the site configures and tms own ones', () => {
    expect(() =>
      parseConfig(
        config({ auto_source: 'mt', engines: ['apertium-apy', 'weblate'] }, { 'apertium-apy': { url: 'http://127.0.0.1:2737' } }),
        '/x/tms.config.json',
      ),
    ).not.toThrow();
  });
});
