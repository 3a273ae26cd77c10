// API conformance: the real server over the fixture store, every endpoint, record, header and rule of the read API spec.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksumToHash } from '../../src/domain/hash.js';
import { type ApiHarness, type Json, allPages, startApi } from '../helpers/api-client.js';
import { sqlOn } from '../helpers/store.js';

// Field lists and orders exactly as spec/api.md gives them.
const LANGUAGE = ['id', 'code', 'name', 'plural', 'aliases', 'direction', 'population', 'web_url', 'url', 'statistics_url'];
const PLURAL = ['id', 'source', 'number', 'formula', 'type'];
const PROJECT = [
  'name',
  'slug',
  'id',
  'web',
  'web_url',
  'url',
  'components_list_url',
  'repository_url',
  'statistics_url',
  'categories_url',
  'changes_list_url',
  'languages_url',
  'labels_url',
  'translation_review',
  'source_review',
  'set_language_team',
  'instructions',
  'enable_hooks',
  'language_aliases',
];
const COMPONENT = [
  'name',
  'slug',
  'id',
  'source_language',
  'project',
  'vcs',
  'repo',
  'git_export',
  'branch',
  'push_branch',
  'filemask',
  'screenshot_filemask',
  'template',
  'edit_template',
  'intermediate',
  'new_base',
  'file_format',
  'license',
  'license_url',
  'agreement',
  'web_url',
  'url',
  'repository_url',
  'translations_url',
  'statistics_url',
  'lock_url',
  'links_url',
  'changes_list_url',
  'task_url',
  'new_lang',
  'language_code_style',
  'push',
  'check_flags',
  'priority',
  'enforced_checks',
  'restricted',
  'repoweb',
  'report_source_bugs',
  'merge_style',
  'commit_message',
  'add_message',
  'delete_message',
  'merge_message',
  'addon_message',
  'pull_message',
  'allow_translation_propagation',
  'manage_units',
  'enable_suggestions',
  'suggestion_voting',
  'suggestion_autoaccept',
  'push_on_commit',
  'commit_pending_age',
  'auto_lock_error',
  'language_regex',
  'variant_regex',
  'addons',
  'is_glossary',
  'glossary_color',
  'category',
  'linked_component',
];
const TRANSLATION = [
  'language',
  'component',
  'language_code',
  'id',
  'filename',
  'revision',
  'web_url',
  'share_url',
  'translate_url',
  'url',
  'is_template',
  'is_source',
  'total',
  'total_words',
  'translated',
  'translated_words',
  'translated_percent',
  'fuzzy',
  'fuzzy_words',
  'fuzzy_percent',
  'failing_checks',
  'failing_checks_words',
  'failing_checks_percent',
  'have_suggestion',
  'have_comment',
  'last_change',
  'last_author',
  'repository_url',
  'file_url',
  'statistics_url',
  'changes_list_url',
  'units_list_url',
];
const UNIT = [
  'translation',
  'source',
  'previous_source',
  'target',
  'id_hash',
  'content_hash',
  'location',
  'context',
  'note',
  'flags',
  'labels',
  'state',
  'fuzzy',
  'translated',
  'approved',
  'position',
  'has_suggestion',
  'has_comment',
  'has_failing_check',
  'num_words',
  'source_unit',
  'priority',
  'id',
  'web_url',
  'url',
  'explanation',
  'extra_flags',
  'pending',
  'timestamp',
  // Weblate's newer versions append it (wlc does not need it)
  'automatically_translated',
];
const CHANGE = ['unit', 'component', 'translation', 'user', 'author', 'timestamp', 'action', 'target', 'id', 'action_name', 'url'];
const USER = ['id', 'full_name', 'username'];
const GROUP = [
  'id',
  'name',
  'defining_project',
  'project_selection',
  'language_selection',
  'url',
  'roles',
  'languages',
  'projects',
  'componentlists',
  'components',
];
const ROLE = ['id', 'name', 'permissions', 'url'];
const ADDON = ['component', 'project', 'name', 'id', 'configuration', 'url'];
const STATS = [
  'total',
  'total_words',
  'total_chars',
  'last_change',
  'recent_changes',
  'translated',
  'translated_words',
  'translated_percent',
  'translated_words_percent',
  'translated_chars',
  'translated_chars_percent',
  'fuzzy',
  'fuzzy_percent',
  'fuzzy_words',
  'fuzzy_words_percent',
  'fuzzy_chars',
  'fuzzy_chars_percent',
  'failing',
  'failing_percent',
  'approved',
  'approved_percent',
  'approved_words',
  'approved_words_percent',
  'approved_chars',
  'approved_chars_percent',
  'readonly',
  'readonly_percent',
  'readonly_words',
  'readonly_words_percent',
  'readonly_chars',
  'readonly_chars_percent',
  'suggestions',
  'comments',
];
const LANGUAGE_STATS = [...STATS, 'name', 'url'];
const TRANSLATION_STATS = [...STATS, 'code', 'name', 'url', 'translate_url', 'last_author'];

const READ = 'GET, HEAD, OPTIONS';
const LIST_CREATE = 'GET, POST, HEAD, OPTIONS';
const DETAIL = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+(Z|[+-]\d\d:\d\d)$/;

/** Every path the spec's table and related addresses list, with the Allow it must send. */
const ENDPOINTS: [string, string][] = [
  ['/api/', READ],
  ['/api/languages/', LIST_CREATE],
  ['/api/languages/de/', DETAIL],
  ['/api/languages/de/statistics/', READ],
  ['/api/projects/', LIST_CREATE],
  ['/api/projects/hello/', DETAIL],
  ['/api/projects/hello/components/', LIST_CREATE],
  ['/api/projects/hello/repository/', LIST_CREATE],
  ['/api/projects/hello/statistics/', READ],
  ['/api/projects/hello/categories/', READ],
  ['/api/projects/hello/changes/', READ],
  ['/api/projects/hello/languages/', READ],
  ['/api/projects/hello/labels/', LIST_CREATE],
  ['/api/components/', READ],
  ['/api/components/hello/app/', DETAIL],
  ['/api/components/hello/app/repository/', LIST_CREATE],
  ['/api/components/hello/app/translations/', LIST_CREATE],
  ['/api/components/hello/app/statistics/', READ],
  ['/api/components/hello/app/lock/', LIST_CREATE],
  ['/api/components/hello/app/links/', LIST_CREATE],
  ['/api/components/hello/app/changes/', READ],
  ['/api/translations/', READ],
  ['/api/translations/hello/app/de/', 'GET, DELETE, HEAD, OPTIONS'],
  ['/api/translations/hello/app/de/repository/', LIST_CREATE],
  ['/api/translations/hello/app/de/file/', 'GET, POST, PUT, HEAD, OPTIONS'],
  ['/api/translations/hello/app/de/statistics/', READ],
  ['/api/translations/hello/app/de/changes/', READ],
  ['/api/translations/hello/app/de/units/', LIST_CREATE],
  ['/api/units/', READ],
  ['/api/changes/', READ],
  ['/api/users/', LIST_CREATE],
  ['/api/users/jane/', DETAIL],
  ['/api/groups/', LIST_CREATE],
  ['/api/roles/', LIST_CREATE],
  ['/api/addons/', READ],
  ['/api/schema/', READ],
];

let api: ApiHarness;
const errors: string[] = [];

beforeAll(async () => {
  api = await startApi({ errors });
});
afterAll(async () => {
  await api.close();
  expect(errors).toEqual([]);
});

/** GET with a chosen Host header (fetch does not let a caller set it). */
function getWithHost(origin: string, path: string, host: string): Promise<{ status: number; json: Json }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    http
      .get({ hostname, port, path, headers: { Host: host } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}

/** Every string in a JSON value that looks like a URL on the API's origin. */
function ownUrls(value: unknown, origin: string, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.startsWith(origin)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) ownUrls(v, origin, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) ownUrls(v, origin, out);
  }
  return out;
}

describe('every endpoint', () => {
  it.each(ENDPOINTS)('GET %s answers 200 JSON with Vary and Allow %s', async (path, allow) => {
    // Repository status needs a VCS permission (403 for anonymous callers, see below).
    const r = await api.get(path, path.endsWith('/repository/') ? api.fixture.tokens.admin : undefined);
    expect(r.status, r.text).toBe(200);
    if (!path.endsWith('/file/')) {
      expect(r.headers.get('content-type')).toBe('application/json');
      expect(r.json).toBeDefined();
    }
    expect(r.headers.get('vary')).toBe('Accept');
    expect(r.headers.get('allow')).toBe(allow);
  });

  it('serves every object a record links to: each own URL in every answer resolves', async () => {
    const seen = new Set<string>();
    const queue = ENDPOINTS.map(([p]) => api.origin + p).filter((u) => !u.endsWith('/file/'));
    while (queue.length > 0) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const r = await api.get(url, api.fixture.tokens.admin);
      expect(r.status, `${url}: ${r.text}`).toBe(200);
      for (const link of ownUrls(r.json, `${api.origin}/api/`)) {
        if (!link.endsWith('/file/') && !seen.has(link) && seen.size + queue.length < 400) queue.push(link);
      }
    }
    expect(seen.size).toBeGreaterThan(60);
  });

  it('lists every served list at the API root, as absolute URLs on the request origin', async () => {
    const r = await api.get('/api/');
    expect(Object.keys(r.json)).toEqual([
      'users',
      'groups',
      'roles',
      'projects',
      'components',
      'translations',
      'memory',
      'languages',
      'component-lists',
      'changes',
      'units',
      'screenshots',
      'addons',
      'categories',
    ]);
    for (const [name, url] of Object.entries(r.json)) expect(url).toBe(`${api.origin}/api/${name}/`);
  });
});

describe('records', () => {
  it('Language and Plural', async () => {
    const r = await api.get('/api/languages/cs/');
    expect(Object.keys(r.json)).toEqual(LANGUAGE);
    expect(Object.keys(r.json.plural)).toEqual(PLURAL);
    expect(r.json).toMatchObject({ code: 'cs', name: 'Czech', direction: 'ltr', url: `${api.origin}/api/languages/cs/` });
    expect(r.json.plural).toMatchObject({ id: r.json.id, source: 0, number: 3 });
    expect(r.json.statistics_url).toBe(`${api.origin}/api/languages/cs/statistics/`);
    expect(Array.isArray(r.json.aliases)).toBe(true);
    expect(Number.isInteger(r.json.population)).toBe(true);
  });

  it('Project', async () => {
    const r = await api.get('/api/projects/hello/');
    expect(Object.keys(r.json)).toEqual(PROJECT);
    expect(r.json).toMatchObject({
      name: 'Hello',
      slug: 'hello',
      web: 'https://example.org/hello',
      web_url: `${api.origin}/projects/hello/`,
      components_list_url: `${api.origin}/api/projects/hello/components/`,
      translation_review: false,
      enable_hooks: true,
      instructions: 'Demo project.',
    });
  });

  it('Component, with source language and project nested and no credentials', async () => {
    const r = await api.get('/api/components/hello/docs/');
    expect(Object.keys(r.json)).toEqual(COMPONENT);
    expect(Object.keys(r.json.source_language)).toEqual(LANGUAGE);
    expect(Object.keys(r.json.project)).toEqual(PROJECT);
    expect(r.json.repo).toBe('https://git.example.org/hello/docs.git');
    expect(r.text).not.toContain('s3cr3t');
    expect(r.text).not.toContain('translator:');
    expect(r.json).toMatchObject({
      vcs: 'git',
      branch: 'main',
      file_format: 'json',
      template: 'docs/en.json',
      task_url: null,
      category: null,
      linked_component: null,
      priority: 100,
    });
    const app = await api.get('/api/components/hello/app/');
    expect(app.json.repo).toBe(api.fixture.config.projects[0]!.components[0]!.repo);
    expect(app.json.addons).toEqual([`${api.origin}/api/addons/1/`]);
  });

  it('Translation, with language and component nested', async () => {
    const r = await api.get('/api/translations/hello/app/de/');
    expect(Object.keys(r.json)).toEqual(TRANSLATION);
    expect(Object.keys(r.json.language)).toEqual(LANGUAGE);
    expect(Object.keys(r.json.component)).toEqual(COMPONENT);
    expect(r.json).toMatchObject({
      language_code: 'de',
      filename: 'translations/app_de.ts',
      is_source: false,
      total: 5,
      translated: 4,
      fuzzy: 1,
      last_author: 'Jane Doe',
      last_change: '2025-03-01T10:12:00.000Z',
      web_url: `${api.origin}/projects/hello/app/de/`,
      share_url: `${api.origin}/engage/hello/-/de/`,
      translate_url: `${api.origin}/translate/hello/app/de/`,
      units_list_url: `${api.origin}/api/translations/hello/app/de/units/`,
    });
    // 4 of 5: one decimal, written as such
    expect(r.text).toContain('"translated_percent":80.0,');
    expect(r.text).toContain('"fuzzy_percent":20.0,');
    const source = await api.get('/api/translations/hello/app/en/');
    expect(source.json).toMatchObject({ is_source: true, filename: '', last_author: null, last_change: null });
  });

  it('Unit, with exact 64-bit hashes, plural arrays and a source unit', async () => {
    const list = await api.get('/api/translations/hello/app/de/units/');
    const plural = list.json.results.find((u: { source: string[] }) => u.source.length > 1);
    const r = await api.get(plural.url);
    expect(Object.keys(r.json)).toEqual(UNIT);
    expect(r.json.source).toEqual(['%n file selected', '%n files selected']);
    expect(r.json.target).toEqual(['%n Datei ausgewählt', '%n Dateien ausgewählt']);
    const row = (await sqlOn(api.fixture.store).row(
      'SELECT CAST(id_hash AS TEXT) AS id_hash, CAST(content_hash AS TEXT) AS content_hash FROM units WHERE id = ?',
      r.json.id,
    )) as { id_hash: string; content_hash: string };
    expect(r.text).toContain(`"id_hash":${row.id_hash},`);
    expect(r.text).toContain(`"content_hash":${row.content_hash},`);
    // web_url carries Weblate's checksum of id_hash
    const checksum = new URL(r.json.web_url).searchParams.get('checksum')!;
    expect(checksum).toMatch(/^[0-9a-f]{16}$/);
    expect(checksumToHash(checksum).toString()).toBe(row.id_hash);
    const source = await api.get(r.json.source_unit);
    expect(source.json.translation).toBe(`${api.origin}/api/translations/hello/app/en/`);
    expect(source.json.source_unit).toBe(source.json.url);
    expect(source.json).toMatchObject({ state: 100, translated: true, fuzzy: false, approved: false });
    expect(r.json.timestamp).toMatch(TIMESTAMP);
    const cs = await api.get('/api/translations/hello/app/cs/units/');
    const csPlural = cs.json.results.find((u: { source: string[] }) => u.source.length > 1);
    expect(csPlural.target).toHaveLength(3);
  });

  it('Change, User, Group, Role, Add-on', async () => {
    const changes = await api.get('/api/changes/');
    for (const c of changes.json.results) expect(Object.keys(c)).toEqual(CHANGE);
    const edit = changes.json.results.find((c: { action: number }) => c.action === 2);
    expect(edit).toMatchObject({ action_name: 'Translation changed', user: `${api.origin}/api/users/jane/`, author: `${api.origin}/api/users/jane/` });
    expect(edit.unit).toMatch(/\/api\/units\/\d+\/$/);
    const added = changes.json.results.find((c: { action: number }) => c.action === 13);
    expect(added).toMatchObject({ action_name: 'Source string added', user: null, author: null, target: '' });
    const commit = changes.json.results.find((c: { action: number }) => c.action === 17);
    expect(commit).toMatchObject({ action_name: 'Changes committed', unit: null, translation: `${api.origin}/api/translations/hello/app/de/` });
    expect((await api.get(edit.url)).json).toEqual(edit);

    const user = await api.get('/api/users/jane/');
    expect(Object.keys(user.json)).toEqual(USER);
    expect(user.json).toMatchObject({ full_name: 'Jane Doe', username: 'jane' });

    const groups = await api.get('/api/groups/', api.fixture.tokens.admin);
    for (const g of groups.json.results) expect(Object.keys(g)).toEqual(GROUP);
    const guests = groups.json.results.find((g: { name: string }) => g.name === 'Guests');
    expect(guests).toMatchObject({ project_selection: 3, language_selection: 1, defining_project: null });
    const roles = await api.get('/api/roles/', api.fixture.tokens.admin);
    for (const role of roles.json.results) expect(Object.keys(role)).toEqual(ROLE);
    expect(guests.roles.length).toBe(2);
    const role = await api.get(guests.roles[0]);
    expect(role.status).toBe(200);
    expect(role.json.permissions.length).toBeGreaterThan(0);

    const addons = await api.get('/api/addons/');
    expect(addons.json.count).toBe(2);
    for (const a of addons.json.results) expect(Object.keys(a)).toEqual(ADDON);
    const customize = addons.json.results.find((a: { name: string }) => a.name === 'service.json.customize');
    expect(customize).toMatchObject({
      component: null,
      project: `${api.origin}/api/projects/hello/`,
      configuration: { style: 'spaces', indent: 2, sort_keys: false },
    });
  });

  it('Statistics: translation records carry code, translate_url and last_author; language records do not', async () => {
    const tr = await api.get('/api/translations/hello/app/de/statistics/');
    expect(Object.keys(tr.json)).toEqual(TRANSLATION_STATS);
    expect(tr.json).toMatchObject({ code: 'de', name: 'German', last_author: 'Jane Doe', total: 5, translated: 4, recent_changes: 2 });
    expect(tr.json.translate_url).toBe(`${api.origin}/translate/hello/app/de/`);
    expect(tr.json.url).toBe(`${api.origin}/projects/hello/app/de/`);
    expect(tr.json.last_change).toMatch(/Z$/);
    const language = await api.get('/api/languages/de/statistics/');
    expect(Object.keys(language.json)).toEqual(LANGUAGE_STATS);
    expect(language.json).toMatchObject({ name: 'German', url: `${api.origin}/languages/de/` });
    const project = await api.get('/api/projects/hello/statistics/');
    expect(Object.keys(project.json)).toEqual(LANGUAGE_STATS);
    const component = await api.get('/api/components/hello/app/statistics/');
    expect(component.json.count).toBe(3);
    for (const s of component.json.results) expect(Object.keys(s)).toEqual(TRANSLATION_STATS);
    // A source translation is read-only throughout.
    const source = component.json.results.find((s: { code: string }) => s.code === 'en');
    expect(source.readonly).toBe(source.total);
    expect(source.readonly_percent).toBe(100);
    // Sums: the project is the sum of its translations, the language of its translations.
    const all = [...component.json.results, ...(await api.get('/api/components/hello/glossary/statistics/')).json.results];
    expect(project.json.total).toBe(all.reduce((n: number, s: { total: number }) => n + s.total, 0));
    expect(project.json.translated_words).toBe(all.reduce((n: number, s: { translated_words: number }) => n + s.translated_words, 0));
    const german = all.filter((s: { code: string }) => s.code === 'de');
    expect(language.json.total).toBe(german.reduce((n: number, s: { total: number }) => n + s.total, 0));
    const languages = await api.get('/api/projects/hello/languages/');
    expect(Array.isArray(languages.json)).toBe(true);
    expect(languages.json.map((s: { code: string }) => s.code)).toEqual(['cs', 'en', 'de']);
  });

  it("writes percentages floored to one decimal (Weblate's rule)", async () => {
    const r = await api.get('/api/projects/hello/statistics/');
    const { translated, total } = r.json;
    expect(r.json.translated_percent).toBe(Math.floor((1000 * translated) / total) / 10);
    for (const [, key, value] of r.text.matchAll(/"(\w+_percent)":([0-9.]+)/g)) expect(value, key).toMatch(/^\d+\.\d$/);
  });
});

describe('hypermedia', () => {
  it('builds API URLs from the request origin (Host header) and web URLs from site_url', async () => {
    const r = await getWithHost(api.origin, '/api/projects/hello/', 'tms.example:9000');
    expect(r.json.url).toBe('http://tms.example:9000/api/projects/hello/');
    expect(r.json.web_url).toBe('http://tms.example:9000/projects/hello/');
    const site = await startApi({ siteUrl: 'https://translate.example.org/' });
    try {
      const s = await site.get('/api/translations/hello/app/de/');
      expect(s.json.url).toBe(`${site.origin}/api/translations/hello/app/de/`);
      expect(s.json.web_url).toBe('https://translate.example.org/projects/hello/app/de/');
      expect(s.json.translate_url).toBe('https://translate.example.org/translate/hello/app/de/');
      expect(s.json.component.project.web_url).toBe('https://translate.example.org/projects/hello/');
      const stats = await site.get('/api/translations/hello/app/de/statistics/');
      expect(stats.json.url).toBe('https://translate.example.org/projects/hello/app/de/');
    } finally {
      await site.close();
    }
  });

  it.each(['api', 'json'])('carries format=%s into every URL of the answer', async (format) => {
    for (const path of ['/api/', '/api/translations/hello/app/de/', '/api/translations/hello/app/de/units/?page_size=2', '/api/changes/', '/api/groups/']) {
      const sep = path.includes('?') ? '&' : '?';
      const r = await api.get(`${path}${sep}format=${format}`);
      expect(r.status).toBe(200);
      const urls = ownUrls(r.json, api.origin);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(new URL(url).searchParams.get('format'), url).toBe(format);
    }
    const plain = await api.get('/api/translations/hello/app/de/');
    for (const url of ownUrls(plain.json, api.origin)) expect(url).not.toContain('format=');
  });

  it('answers an unknown format with 404', async () => {
    const r = await api.get('/api/projects/?format=xml');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ type: 'client_error', errors: [{ code: 'not_found', detail: 'Not found.', attr: null }] });
  });
});

describe('lists', () => {
  it('fits a short list in one page: next and previous null, results = count', async () => {
    const r = await api.get('/api/components/');
    expect(Object.keys(r.json)).toEqual(['count', 'next', 'previous', 'results']);
    expect(r.json).toMatchObject({ next: null, previous: null });
    expect(r.json.results).toHaveLength(r.json.count);
    expect(r.json.results.map((c: { slug: string }) => c.slug)).toEqual(['app', 'glossary', 'docs']);
  });

  it('pages 50 records with next/previous as DRF builds them', async () => {
    const admin = api.fixture.tokens.admin;
    const first = await api.get('/api/languages/', admin);
    expect(first.json.count).toBeGreaterThan(120);
    expect(first.json.results).toHaveLength(50);
    expect(first.json.previous).toBeNull();
    expect(first.json.next).toBe(`${api.origin}/api/languages/?page=2`);
    const second = await api.get(first.json.next, admin);
    expect(second.json.previous).toBe(`${api.origin}/api/languages/`);
    expect(second.json.next).toBe(`${api.origin}/api/languages/?page=3`);
    const third = await api.get(second.json.next, admin);
    expect(third.json.previous).toBe(`${api.origin}/api/languages/?page=2`);
    const ids = [...first.json.results, ...second.json.results].map((l: { id: number }) => l.id);
    expect(new Set(ids).size).toBe(100);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const all = await allPages(api, '/api/languages/?page_size=1000', admin);
    expect(all).toHaveLength(first.json.count);
    const last = await api.get('/api/languages/?page=last', admin);
    expect(last.json.next).toBeNull();
    expect(last.json.results.at(-1).id).toBe(all.at(-1).id);
  });

  it('keeps other parameters in next, sorted by key, with format', async () => {
    const r = await api.get('/api/translations/hello/app/de/units/?q=state%3A%3E%3D0&page_size=2&format=api');
    expect(r.json.next).toBe(`${api.origin}/api/translations/hello/app/de/units/?format=api&page=2&page_size=2&q=state%3A%3E%3D0`);
    const second = await api.get(r.json.next);
    expect(second.json.previous).toBe(`${api.origin}/api/translations/hello/app/de/units/?format=api&page_size=2&q=state%3A%3E%3D0`);
  });

  it('caps page_size and falls back on invalid values', async () => {
    const admin = api.fixture.tokens.admin;
    const count = (await api.get('/api/languages/', admin)).json.count;
    expect((await api.get('/api/languages/?page_size=5000', admin)).json.results).toHaveLength(Math.min(1000, count));
    expect((await api.get('/api/languages/?page_size=0', admin)).json.results).toHaveLength(50);
    expect((await api.get('/api/languages/?page_size=abc', admin)).json.results).toHaveLength(50);
    expect((await api.get('/api/languages/?page_size=-3', admin)).json.results).toHaveLength(50);
    expect((await api.get('/api/languages/?page_size=7', admin)).json.results).toHaveLength(7);
  });

  it('uses the large page size (100) for all units and component statistics', async () => {
    const units = await api.get('/api/units/?page_size=100000');
    expect(units.json.results.length).toBe(units.json.count);
    const page = await api.get('/api/units/?page_size=3');
    expect(page.json.results).toHaveLength(3);
    const ids = (await allPages(api, '/api/units/?page_size=4')).map((u) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toHaveLength(units.json.count);
  });

  it.each(['/api/projects/?page=2', '/api/projects/?page=0', '/api/projects/?page=abc', '/api/changes/?page=99'])(
    '%s is a 404 "Invalid page."',
    async (path) => {
      const r = await api.get(path);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ type: 'client_error', errors: [{ code: 'not_found', detail: 'Invalid page.', attr: null }] });
    },
  );

  it('answers an empty list with count 0', async () => {
    const r = await api.get('/api/projects/hello/categories/');
    expect(r.json).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('lists units of a translation in position order', async () => {
    const units = await allPages(api, '/api/translations/hello/app/de/units/?page_size=2');
    expect(units.map((u) => u.position)).toEqual([1, 2, 3, 4, 5]);
    for (const u of units) expect(u.translation).toBe(`${api.origin}/api/translations/hello/app/de/`);
  });

  it('lists changes newest first, in every scope', async () => {
    for (const path of ['/api/changes/', '/api/projects/hello/changes/', '/api/components/hello/app/changes/', '/api/translations/hello/app/de/changes/']) {
      const changes = await allPages(api, path);
      expect(changes.length).toBeGreaterThan(0);
      const keys = changes.map((c) => [c.timestamp, c.id]);
      const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : b[1] - a[1]));
      expect(keys).toEqual(sorted);
    }
    const de = await allPages(api, '/api/translations/hello/app/de/changes/');
    expect(de.map((c) => c.action)).toEqual([17, 2, 2]);
  });

  it('filters changes by user, action (repeatable) and time range', async () => {
    const byUser = await allPages(api, '/api/changes/?user=jane');
    expect(byUser.map((c) => c.action).sort()).toEqual([17, 2, 2].sort());
    expect((await api.get('/api/changes/?user=nobody')).json.count).toBe(0);
    const edits = await allPages(api, '/api/changes/?action=2');
    expect(edits.every((c) => c.action === 2)).toBe(true);
    expect(edits).toHaveLength(2);
    const either = await allPages(api, '/api/changes/?action=2&action=17');
    expect(new Set(either.map((c) => c.action))).toEqual(new Set([2, 17]));
    expect(either).toHaveLength(3);
    // The sync recorded its changes "now"; the edits are dated 2025-03-01.
    const all = await allPages(api, '/api/changes/');
    const after = await allPages(api, '/api/changes/?timestamp_after=2025-03-01T10:12:00Z');
    expect(after.map((c) => c.id)).toEqual(all.filter((c) => c.timestamp >= '2025-03-01T10:12:00.000Z').map((c) => c.id));
    expect(after.length).toBeGreaterThan(2);
    const before = await allPages(api, '/api/changes/?timestamp_before=2025-03-01T10:12:00Z');
    expect(before.map((c) => c.timestamp)).toEqual(['2025-03-01T10:12:00.000Z', '2025-03-01T10:10:00.000Z']);
    const range = await allPages(api, '/api/changes/?timestamp_after=2025-03-01T10:05:00Z&timestamp_before=2025-03-01T10:12:00%2B00:00');
    expect(range.map((c) => c.timestamp)).toEqual(['2025-03-01T10:12:00.000Z', '2025-03-01T10:10:00.000Z']);
    const bad = await api.get('/api/changes/?action=999');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      type: 'validation_error',
      errors: [{ code: 'invalid_choice', detail: 'Select a valid choice. 999 is not one of the available choices.', attr: 'action' }],
    });
    const badTime = await api.get('/api/changes/?timestamp_after=yesterday');
    expect(badTime.status).toBe(400);
    expect(badTime.json.errors[0]).toMatchObject({ attr: 'timestamp_after', detail: 'Enter a valid date/time.' });
  });

  it('filters units with q and answers a bad query with 400 on q', async () => {
    const untranslated = await allPages(api, '/api/translations/hello/app/de/units/?q=state:%3Ctranslated');
    expect(untranslated.map((u) => u.state)).toEqual([10]);
    const r = await api.get('/api/translations/hello/app/de/units/?q=source:(');
    expect(r.status).toBe(400);
    expect(r.json.type).toBe('validation_error');
    expect(r.json.errors[0].attr).toBe('q');
    expect(r.json.errors[0].detail).toMatch(/^Could not parse query string: /);
  });
});

describe('HTTP behaviour', () => {
  it('answers HEAD with the GET headers and no body', async () => {
    const get = await api.get('/api/projects/hello/');
    const head = await api.request('/api/projects/hello/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    expect(head.headers.get('allow')).toBe(DETAIL);
  });

  it('answers OPTIONS with metadata', async () => {
    const r = await api.request('/api/projects/', { method: 'OPTIONS' });
    expect(r.status).toBe(200);
    expect(r.headers.get('allow')).toBe(LIST_CREATE);
    expect(r.json).toMatchObject({ name: 'Project List', renders: ['application/json'] });
    expect(r.json.parses).toContain('application/json');
  });

  it('answers a write method the path allows with 401 for anonymous callers and 405 for others', async () => {
    const anonymous = await api.request('/api/projects/', { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Token');
    expect(anonymous.json).toEqual({
      type: 'client_error',
      errors: [{ code: 'not_authenticated', detail: 'Authentication credentials were not provided.', attr: null }],
    });
    // Project edits are not served: a signed-in caller gets 405 with what the path lists.
    const jane = await api.request('/api/projects/hello/', { method: 'PATCH', token: api.fixture.tokens.jane });
    expect(jane.status).toBe(405);
    expect(jane.headers.get('allow')).toBe(DETAIL);
    expect(jane.json).toEqual({ type: 'client_error', errors: [{ code: 'method_not_allowed', detail: 'Method "PATCH" not allowed.', attr: null }] });
  });

  it.each([
    ['PUT', '/api/changes/', READ],
    ['DELETE', '/api/components/', READ],
    ['POST', '/api/units/1/', DETAIL],
    ['PATCH', '/api/', READ],
  ])('answers %s %s (not allowed there) with 405 and Allow', async (method, path, allow) => {
    const r = await api.request(path, { method });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe(allow);
    expect(r.json.errors[0]).toEqual({ code: 'method_not_allowed', detail: `Method "${method}" not allowed.`, attr: null });
  });

  it.each([
    '/api/projects/nope/',
    '/api/components/hello/nope/',
    '/api/translations/hello/app/xx/',
    '/api/translations/hello/app/de_DE/',
    '/api/units/999999/',
    '/api/units/abc/',
    '/api/changes/999999/',
    '/api/users/nobody/',
    '/api/groups/999/',
    '/api/roles/999/',
    '/api/addons/999/',
    '/api/languages/tlh/',
    '/api/nothing/',
    '/api/projects/hello/nothing/',
  ])('answers %s with a JSON 404', async (path) => {
    const r = await api.get(path);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.json).toEqual({ type: 'client_error', errors: [{ code: 'not_found', detail: 'Not found.', attr: null }] });
  });

  it('answers a path outside /api/ that no page serves with an HTML 404 (the web interface owns those)', async () => {
    const r = await api.get('/elsewhere/');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.text).toContain('Page not found');
  });

  it('serves only slash-terminated routes and redirects the slash-less form', async () => {
    const r = await api.get('/api/projects?page=1');
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/api/projects/?page=1');
    expect((await api.request('/api/projects', { method: 'POST' })).status).toBe(404);
  });

  it('answers 406 for an Accept it cannot satisfy', async () => {
    const r = await api.request('/api/projects/', { headers: { Accept: 'text/csv' } });
    expect(r.status).toBe(406);
    expect(r.json.errors[0].code).toBe('not_acceptable');
    expect((await api.request('/api/projects/', { headers: { Accept: 'text/html,*/*;q=0.8' } })).status).toBe(200);
  });

  it('serves the translation file with its type and name', async () => {
    const r = await api.get('/api/translations/hello/app/de/file/');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<TS version="2.1" language="de">');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename=hello-app-de.ts');
    expect(r.headers.get('last-modified')).toBeTruthy();
    const again = await api.request('/api/translations/hello/app/de/file/', { headers: { 'If-Modified-Since': r.headers.get('last-modified')! } });
    expect(again.status).toBe(304);
    const convert = await api.get('/api/translations/hello/app/de/file/?format=xlsx');
    expect(convert.status).toBe(400);
    expect(convert.json.errors[0]).toMatchObject({ attr: 'format', detail: 'Conversion to xlsx is not supported' });
    expect((await api.get('/api/translations/hello/app/en/file/')).status).toBe(404);
  });

  it('answers with X-Content-Type-Options: nosniff, as the pages do (JSON, errors, files, health, hooks, a malformed request)', async () => {
    const answers = [
      await api.get('/api/projects/'),
      await api.get('/api/projects/nope/'),
      await api.request('/api/projects/', { method: 'POST' }),
      await api.request('/api/projects/', { method: 'OPTIONS' }),
      await api.get('/api/translations/hello/app/de/file/'),
      await api.get('/healthz'),
      await api.request('/hooks/github/', { method: 'POST' }),
      await api.get('/projects/hello/'),
    ];
    for (const r of answers) expect(r.headers.get('x-content-type-options'), `${r.status} ${r.text.slice(0, 80)}`).toBe('nosniff');
    // what node:http cannot parse is answered by the server itself
    const { hostname, port } = new URL(api.origin);
    const raw = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), hostname, () => socket.end('FOO / HTTP/1.1\r\nHost: x\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain('\r\nX-Content-Type-Options: nosniff\r\n');
  });

  it('never leaks a stack trace: an unexpected failure is a generic 500', async () => {
    const local: string[] = [];
    const broken = await startApi({ errors: local });
    try {
      await sqlOn(broken.fixture.store).run('DROP TABLE changes');
      const r = await broken.get('/api/changes/');
      expect(r.status).toBe(500);
      expect(r.json).toEqual({ type: 'server_error', errors: [{ code: 'error', detail: 'A server error occurred.', attr: null }] });
      expect(r.text).not.toMatch(/ at |sqlite|no such table|changes/i);
      expect(local.length).toBe(1);
    } finally {
      await broken.close();
    }
  });
});

describe('authentication and visibility', () => {
  it('accepts Token and Bearer keys', async () => {
    for (const scheme of ['Token', 'Bearer', 'token']) {
      const r = await api.request('/api/projects/', { token: api.fixture.tokens.admin, scheme });
      expect(r.status).toBe(200);
      expect(r.json.results.map((p: { slug: string }) => p.slug)).toEqual(['hello', 'internal']);
    }
  });

  it.each([
    ['Token wlu_nope', 'Invalid token.'],
    ['Bearer wlu_nope', 'Invalid token.'],
    ['Token', 'Invalid token header. No credentials provided.'],
    ['Token a b', 'Invalid token header. Token string should not contain spaces.'],
  ])('answers Authorization "%s" with 401 %s', async (header, detail) => {
    const r = await api.request('/api/projects/', { headers: { Authorization: header } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Token');
    expect(r.json).toEqual({ type: 'client_error', errors: [{ code: 'authentication_failed', detail, attr: null }] });
  });

  it('shows a private project only to those who may see it', async () => {
    const paths = ['/api/projects/internal/', '/api/components/internal/tools/', '/api/translations/internal/tools/de/', '/api/projects/internal/statistics/'];
    for (const path of paths) {
      expect((await api.get(path)).status, path).toBe(404);
      expect((await api.get(path, api.fixture.tokens.jane)).status, path).toBe(404);
      expect((await api.get(path, api.fixture.tokens.admin)).status, path).toBe(200);
    }
    const anonymous = await allPages(api, '/api/translations/');
    expect(anonymous.some((t) => t.url.includes('/internal/'))).toBe(false);
    const admin = await allPages(api, '/api/translations/', api.fixture.tokens.admin);
    expect(admin.some((t) => t.url.includes('/internal/'))).toBe(true);
    const changes = await allPages(api, '/api/changes/');
    expect(changes.some((c) => c.component?.includes('/internal/'))).toBe(false);
    const units = await api.get('/api/units/?page_size=1000');
    const adminUnits = await api.get('/api/units/?page_size=1000', api.fixture.tokens.admin);
    expect(adminUnits.json.count).toBeGreaterThan(units.json.count);
    const hidden = adminUnits.json.results.find((u: { translation: string }) => u.translation.includes('/internal/'));
    expect((await api.get(hidden.url)).status).toBe(404);
    expect((await api.get('/api/addons/3/')).status).toBe(404);
    expect((await api.get('/api/addons/3/', api.fixture.tokens.admin)).status).toBe(200);
  });

  it('lists for everyone the languages with a visible translation, for language managers all', async () => {
    const codes = (await allPages(api, '/api/languages/')).map((l) => l.code);
    expect(codes.sort()).toEqual(['cs', 'de', 'en']);
    expect((await api.get('/api/languages/fr/')).status).toBe(404);
    expect((await api.get('/api/languages/fr/', api.fixture.tokens.admin)).status).toBe(200);
  });

  it('shows users their own teams and roles; admins all', async () => {
    const anonymous = await allPages(api, '/api/groups/');
    expect(anonymous.map((g) => g.name).sort()).toEqual(['Guests', 'Viewers']);
    const jane = await allPages(api, '/api/groups/', api.fixture.tokens.jane);
    expect(jane.map((g) => g.name).sort()).toEqual(['Users', 'Viewers']);
    const all = await allPages(api, '/api/groups/', api.fixture.tokens.admin);
    expect(all.length).toBeGreaterThan(jane.length);
    const roles = await allPages(api, '/api/roles/');
    expect(roles.map((r) => r.name).sort()).toEqual(['Access repository', 'Add suggestion']);
    const users = await allPages(api, '/api/users/');
    expect(users.map((u) => u.username)).toEqual(['jane', 'admin']);
    expect((await api.get('/api/users/?username=ja')).json.results.map((u: { username: string }) => u.username)).toEqual(['jane']);
    expect((await api.get('/api/users/anonymous/')).status).toBe(404);
  });

  it('reports repository status to those allowed to see it', async () => {
    expect((await api.get('/api/components/hello/app/repository/')).status).toBe(403);
    const r = await api.get('/api/components/hello/app/repository/', api.fixture.tokens.admin);
    expect(Object.keys(r.json)).toEqual(['needs_commit', 'needs_merge', 'needs_push', 'url', 'remote_commit', 'weblate_commit', 'status', 'merge_failure']);
    expect(r.json.url).toBe(`${api.origin}/api/components/hello/app/repository/`);
    const project = await api.get('/api/projects/hello/repository/', api.fixture.tokens.admin);
    expect(Object.keys(project.json)).toEqual(['needs_commit', 'needs_merge', 'needs_push', 'url']);
    expect((await api.get('/api/components/hello/app/lock/')).json).toEqual({ locked: false });
  });
});
