// End to end with Weblate's own client: the Debian `wlc` against the real server (skips where wlc is not installed).
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from '../helpers/api-client.js';

const run = promisify(execFile);
const probe = spawnSync('wlc', ['--version'], { encoding: 'utf8' });
const wlcVersion = probe.status === 0 ? probe.stdout.trim() : null;

if (!wlcVersion) console.warn('[skip] wlc end-to-end tests: the `wlc` client is not installed (Debian package wlc; .ci/run installs it)');

(wlcVersion ? describe : describe.skip)(`wlc (${wlcVersion ?? 'not installed'}) against tms`, () => {
  let api: ApiHarness;
  let env: NodeJS.ProcessEnv;
  const errors: string[] = [];

  beforeAll(async () => {
    api = await startApi({ errors });
    const dir = api.fixture.dir;
    // wlc reads ~/.config/weblate and ./.weblate: give it an empty home and its own config.
    writeFileSync(path.join(dir, '.weblate'), `[weblate]\nurl = ${api.origin}/api/\n`);
    env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir, XDG_CONFIG_DIRS: dir };
  });
  afterAll(async () => {
    await api.close();
    expect(errors).toEqual([]);
  });

  /** Runs wlc and returns stdout; any failure (exit code, stderr) fails the test. */
  async function wlc(...args: string[]): Promise<string> {
    const { stdout, stderr } = await run('wlc', args, { cwd: api.fixture.dir, env, timeout: 60_000 });
    expect(stderr).toBe('');
    return stdout;
  }

  const values = (out: string, key: string) => [...out.matchAll(new RegExp(`^${key}: (.*)$`, 'gm'))].map((m) => m[1]);

  it('list-projects', async () => {
    const out = await wlc('list-projects');
    expect(values(out, 'slug')).toEqual(['hello']);
    expect(values(out, 'url')).toEqual([`${api.origin}/api/projects/hello/`]);
  });

  it('list-components', async () => {
    expect(values(await wlc('list-components'), 'slug')).toEqual(['app', 'glossary', 'docs']);
    expect(values(await wlc('list-components', 'hello'), 'slug')).toEqual(['app', 'glossary', 'docs']);
  });

  it('list-translations', async () => {
    const out = await wlc('list-translations');
    expect(values(out, 'language_code').sort()).toEqual(['cs', 'cs', 'de', 'de', 'en', 'en']);
    const app = (await api.get('/api/components/hello/app/translations/')).json.results.map((t: { language_code: string }) => t.language_code);
    expect(app).toHaveLength(3);
    expect(values(await wlc('list-translations', 'hello/app'), 'language_code')).toEqual(app);
  });

  it('list-languages', async () => {
    expect(values(await wlc('list-languages'), 'code').sort()).toEqual(['cs', 'de', 'en']);
  });

  it('show a project, a component and a translation', async () => {
    expect(values(await wlc('show', 'hello'), 'name')).toEqual(['Hello']);
    const component = await wlc('show', 'hello/app');
    expect(values(component, 'file_format')).toEqual(['ts']);
    expect(values(component, 'project')).toEqual(['hello']);
    const translation = await wlc('show', 'hello/app/de');
    expect(values(translation, 'last_author')).toEqual(['Jane Doe']);
    expect(values(translation, 'translated_percent')).toEqual(['80.0']);
    expect(values(translation, 'last_change')).toEqual(['2025-03-01 10:12:00+00:00']);
    const json = JSON.parse(await wlc('--format', 'json', 'show', 'hello/app/de'));
    expect(json).toMatchObject({ total: 5, translated: 4, language_code: 'de' });
  });

  it('ls a project and a component', async () => {
    expect(values(await wlc('ls', 'hello'), 'slug')).toEqual(['app', 'glossary', 'docs']);
    expect(values(await wlc('ls', 'hello/app'), 'language_code').sort()).toEqual(['cs', 'de', 'en']);
    expect(await wlc('ls', 'hello/app/de')).toBe('');
    expect(values(await wlc('ls'), 'slug')).toEqual(['hello']);
  });

  it('stats of a project, a component and a translation', async () => {
    const project = await wlc('stats', 'hello');
    expect(values(project, 'name')).toEqual(['Hello']);
    const component = await wlc('stats', 'hello/app');
    const codes = values(component, 'code');
    expect([...codes].sort()).toEqual(['cs', 'de', 'en']);
    expect(values(component, 'last_author')).toEqual(codes.map((c) => (c === 'de' ? 'Jane Doe' : '')));
    const translation = await wlc('stats', 'hello/app/de');
    expect(values(translation, 'translated')).toEqual(['4']);
    expect(values(translation, 'translated_percent')).toEqual(['80.0']);
  });

  it('changes of a project, a component and a translation', async () => {
    for (const object of ['hello', 'hello/app', 'hello/app/de']) {
      const out = await wlc('changes', object);
      expect(values(out, 'action_name')).toContain('Translation changed');
      expect(values(out, 'target')).toContain('Beenden');
    }
  });

  it('sees the private project with an API key', async () => {
    const out = await wlc('--key', api.fixture.tokens.admin, 'list-projects');
    expect(values(out, 'slug')).toEqual(['hello', 'internal']);
  });
});
