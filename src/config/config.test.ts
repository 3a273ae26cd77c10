import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../test/helpers/errors.js';
import { ConfigError } from '../domain/errors.js';
import { FORMAT_IDS } from '../formats/format.js';
import { configPath, loadConfig, parseConfig, projectMachinery } from './config.js';

const FILE = '/srv/tms/tms.config.json';

function problemsOf(value: unknown): string[] {
  try {
    parseConfig(JSON.stringify(value), FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).data.problems;
  }
  throw new Error('expected a ConfigError');
}

const component = (extra: Record<string, unknown> = {}) => ({
  name: 'App',
  slug: 'app',
  repo: 'https://example.org/app.git',
  filemask: 'po/*.ts',
  file_format: 'ts',
  ...extra,
});

describe('parseConfig', () => {
  it('fills Weblate defaults and resolves paths against the file folder', () => {
    const config = parseConfig(JSON.stringify({ projects: [{ name: 'Hello', slug: 'hello', components: [component({ repo: '../upstream/app' })] }] }), FILE);
    expect(config.database).toBe('/srv/tms/tms.sqlite');
    expect(config.repos_dir).toBe('/srv/tms/repos');
    expect(config.committer).toEqual({ name: 'tms', email: 'tms@localhost' });
    expect(config.hooks).toEqual({ enabled: true, secret: '' });
    const project = config.projects[0];
    expect(project).toMatchObject({ enable_hooks: true, set_language_team: true, translation_review: false, instructions: '' });
    const c = project!.components[0];
    expect(c).toMatchObject({
      vcs: 'git',
      branch: '',
      edit_template: true,
      new_lang: 'add',
      merge_style: 'rebase',
      priority: 100,
      language_regex: '^[^.]+$',
      glossary_color: 'silver',
      commit_pending_age: 24,
      source_language: 'en',
      push_on_commit: true,
      manage_units: false,
      enable_suggestions: true,
      is_glossary: false,
    });
    expect(c!.commit_message).toContain('{{ language_name }}');
    expect(c!.repoResolved).toBe('/srv/upstream/app');
  });

  it('keeps http URLs and makes file:// URLs absolute paths', () => {
    const config = parseConfig(
      JSON.stringify({
        projects: [
          {
            name: 'H',
            slug: 'h',
            components: [component(), component({ slug: 'b', repo: 'file:///srv/git/b.git' }), component({ slug: 'c', vcs: 'local', repo: 'local:' })],
          },
        ],
      }),
      FILE,
    );
    expect(config.projects[0]!.components.map((c) => c.repoResolved)).toEqual(['https://example.org/app.git', '/srv/git/b.git', 'local:']);
  });

  it('reports every problem with its JSON path', () => {
    const problems = problemsOf({
      database: 5,
      projects: [
        {
          name: 'H',
          slug: 'h',
          components: [component(), component({ slug: 'b' }), component({ slug: 'c', filemask: 'po/de.ts', file_format: 'xlsx', colour: 'red' })],
        },
        { slug: 'bad slug' },
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'database: must be string',
        'projects[0].components[2].filemask: must contain "*"',
        `projects[0].components[2].file_format: must be one of ${FORMAT_IDS.map((id) => `"${id}"`).join(', ')}`,
        'projects[0].components[2].colour: is not a known key',
        'projects[1].name: is required',
        'projects[1].slug: must be a slug (letters, digits, "-" and "_")',
      ]),
    );
    expect(problems).toHaveLength(6);
  });

  it('takes only http(s) URLs for links (web, license_url, repoweb, site_url), naming the JSON path of each other one', () => {
    const problems = problemsOf({
      site_url: 'javascript:alert(1)//',
      projects: [
        {
          name: 'H',
          slug: 'h',
          web: 'JavaScript:alert(document.cookie)',
          components: [component({ license_url: 'data:text/html,<script>alert(1)</script>', repoweb: ' javascript:alert(1)' })],
        },
      ],
    });
    const message = 'must be an http:// or https:// URL (or empty)';
    expect(problems).toEqual([
      `site_url: ${message}`,
      `projects[0].web: ${message}`,
      `projects[0].components[0].license_url: ${message}`,
      `projects[0].components[0].repoweb: ${message}`,
    ]);
    const fine = parseConfig(
      JSON.stringify({
        site_url: 'https://tms.example.org',
        projects: [
          {
            name: 'H',
            slug: 'h',
            web: 'HTTPS://example.org/',
            components: [component({ license_url: 'http://example.org/license', repoweb: 'https://git.example.org/{{ branch }}/{{filename}}#L{{line}}' })],
          },
        ],
      }),
      FILE,
    );
    expect(fine.projects[0]!.web).toBe('HTTPS://example.org/');
    expect(parseConfig(JSON.stringify({ projects: [{ name: 'H', slug: 'h', components: [component()] }] }), FILE).projects[0]!.web).toBe('');
  });

  it('reports semantic problems after the schema passes', () => {
    const problems = problemsOf({
      projects: [
        {
          name: 'H',
          slug: 'h',
          components: [
            component(),
            component(),
            component({ slug: 'g', file_format: 'tbx', filemask: '*.tbx', template: 'en.tbx' }),
            component({ slug: 'l', vcs: 'local', repo: 'https://x/y.git' }),
            component({ slug: 'r', language_regex: '(' }),
            component({ slug: 'e', filemask: '../*.ts' }),
            component({ slug: 'w', file_format: 'webextension', filemask: '*/messages.json' }),
            component({ slug: 'p', file_format: 'po', filemask: 'po/*.po', template: 'po/app.pot' }),
            component({ slug: 'm', file_format: 'po-mono', filemask: 'po/*.po' }),
          ],
        },
      ],
    });
    expect(problems).toEqual([
      'projects[0].components[1].slug: duplicate component slug "app" in project "h"',
      'projects[0].components[2].template: must be empty for the tbx format (always bilingual)',
      'projects[0].components[3].repo: must be "local:" when vcs is "local"',
      expect.stringMatching(/^projects\[0\]\.components\[4\]\.language_regex: is not a valid regular expression/),
      'projects[0].components[5].filemask: must be a path inside the repository',
      'projects[0].components[6].template: is required for the webextension format',
      'projects[0].components[7].template: must be empty for the po format (bilingual; the POT is new_base; po-mono takes a template)',
      'projects[0].components[8].template: is required for the po-mono format',
    ]);
  });

  it('says when the text is not JSON', () => {
    expect(thrownBy(ConfigError, () => parseConfig('{"projects": [', FILE)).data.problems).toEqual([expect.stringMatching(/^1:\d+: not valid JSON/)]);
  });
});

describe('loadConfig / configPath', () => {
  it('says a missing file is missing', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-config-')), 'nope.json');
    expect(() => loadConfig(file)).toThrow(`${file}: file not found`);
    // the CLI adds where the name came from (--config, TMS_CONFIG or the default)
    expect(thrownBy(ConfigError, () => loadConfig(file)).data).toEqual({ file, problems: ['file not found'], missing: true });
  });

  it('reads a file', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-config-')), 'tms.config.json');
    writeFileSync(file, JSON.stringify({ projects: [{ name: 'H', slug: 'h' }] }));
    expect(loadConfig(file).projects[0]!.components).toEqual([]);
  });

  it('takes --config over TMS_CONFIG over the default', () => {
    expect(configPath('/a/b.json', { TMS_CONFIG: '/c/d.json' })).toBe('/a/b.json');
    expect(configPath(undefined, { TMS_CONFIG: '/c/d.json' })).toBe('/c/d.json');
    expect(configPath(undefined, {})).toBe(path.resolve('tms.config.json'));
  });
});

describe('machinery', () => {
  it('takes engines by Weblate id with their defaults, and reads a secret from the environment', () => {
    const config = parseConfig(
      JSON.stringify({ machinery: { 'apertium-apy': { url: 'http://127.0.0.1:2737' }, deepl: { key: { env: 'DEEPL_KEY' } } } }),
      FILE,
      { DEEPL_KEY: 'k-123:fx' },
    );
    expect(config.machinery['apertium-apy']).toEqual({ url: 'http://127.0.0.1:2737', timeout_ms: 10_000, max_in_flight: 4 });
    expect(config.machinery.deepl).toMatchObject({ key: 'k-123:fx', url: 'https://api.deepl.com/v2/', formality: 'default' });
    expect(parseConfig('{}', FILE).machinery).toEqual({});
  });

  it('names an unknown engine, a missing URL and an environment variable that is not set', () => {
    expect(problemsOf({ machinery: { google: {} } })).toEqual(['machinery.google: is not a known key']);
    expect(problemsOf({ machinery: { libretranslate: {} } })).toEqual(['machinery.libretranslate.url: is required']);
    const e = thrownBy(ConfigError, () => parseConfig(JSON.stringify({ machinery: { deepl: { key: { env: 'NO_SUCH_VAR' } } } }), FILE, {}));
    expect(e.data.problems).toEqual(['machinery.deepl.key: the environment variable NO_SUCH_VAR is not set']);
  });
});

describe('machinery of a project', () => {
  const text = JSON.stringify({
    machinery: { 'apertium-apy': { url: 'http://127.0.0.1:2737' }, deepl: { key: 'site-key' } },
    projects: [
      {
        name: 'H',
        slug: 'h',
        machinery: { libretranslate: { url: 'http://127.0.0.1:5000', key: { env: 'LT_KEY' } } },
        machinery_exclude: ['deepl'],
        components: [
          {
            name: 'A',
            slug: 'a',
            repo: 'https://example.org/a.git',
            filemask: '*.ts',
            file_format: 'ts',
            addons: [{ name: 'weblate.autotranslate.autotranslate', configuration: { auto_source: 'mt', engines: ['libretranslate'] } }],
          },
        ],
      },
      { name: 'O', slug: 'o' },
    ],
  });

  it("is the site's engines less those it excludes, with its own (secrets from the environment too)", () => {
    const config = parseConfig(text, FILE, { LT_KEY: 'lt-123' });
    expect(Object.keys(projectMachinery(config, config.projects[0]))).toEqual(['apertium-apy', 'libretranslate']);
    expect(projectMachinery(config, config.projects[0]).libretranslate).toMatchObject({ key: 'lt-123', timeout_ms: 10_000 });
    expect(Object.keys(projectMachinery(config, config.projects[1]))).toEqual(['apertium-apy', 'deepl']);
  });

  it("checks an add-on's engines against its project's engines", () => {
    const other = text.replace('"engines":["libretranslate"]', '"engines":["deepl"]');
    const e = thrownBy(ConfigError, () => parseConfig(other, FILE, { LT_KEY: 'x' }));
    expect(e.data.problems).toEqual(['projects[0].components[0].addons[0].configuration.engines: "deepl" is not a configured engine']);
    expect(thrownBy(ConfigError, () => parseConfig(text, FILE, {})).data.problems).toEqual([
      'projects[0].machinery.libretranslate.key: the environment variable LT_KEY is not set',
    ]);
  });
});
