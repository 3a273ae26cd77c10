// /api/schema/: an OpenAPI 3.1 document generated from the route table, against which every real answer validates.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/routes.js';
import { createComponentList, setComponentListMember } from '../../src/store/component-lists.repo.js';
import { createScreenshot, setScreenshotUnit } from '../../src/store/screenshots.repo.js';
import { type ApiHarness, type Json, startApi } from '../helpers/api-client.js';
import { httpRequest } from '../helpers/http.js';
import { png } from '../helpers/images.js';

let api: ApiHarness;
let doc: Json;

beforeAll(async () => {
  // tms's memory as an engine: the machinery path answers
  api = await startApi({ settings: { machinery: { 'weblate-translation-memory': { timeout_ms: 10_000, max_in_flight: 4 } } } });
  doc = (await api.get('/api/schema/')).json;
  // a component list to read through /api/component-lists/<slug>/
  const list = await api.fixture.store.write((tx) => createComponentList(tx, { name: 'All', slug: 'lists-all', showDashboard: true }));
  await api.fixture.store.write((tx) => setComponentListMember(tx, list!.id, 1, true));
  // a screenshot of hello/app's source strings, showing one of them
  const source = (await api.get('/api/translations/hello/app/en/units/')).json.results[0];
  const translation = (await api.get('/api/translations/hello/app/en/')).json.id;
  await api.fixture.store.write(async (tx) => {
    const image = { image: png(2, 2), mediaType: 'image/png', width: 2, height: 2 };
    const id = await createScreenshot(tx, { translationId: translation, name: 'Main window', ...image, userId: null, timestamp: new Date().toISOString() });
    await setScreenshotUnit(tx, id, source.id, true);
  });
});
afterAll(() => api.close());

/** A concrete path for a route template, with objects that exist in the fixture. */
async function concrete(template: string): Promise<string> {
  // Objects anonymous callers may see too.
  const first = async (list: string) => (await api.get(list)).json.results[0].id;
  const ids: Record<string, () => Promise<number>> = {
    '/api/units/{id}/': () => first('/api/units/'),
    '/api/units/{id}/machinery/{engine}/': async () => (await api.get('/api/translations/hello/app/de/units/')).json.results[0].id,
    '/api/changes/{id}/': () => first('/api/changes/'),
    '/api/groups/{id}/': () => first('/api/groups/'),
    '/api/roles/{id}/': () => first('/api/roles/'),
    '/api/addons/{id}/': () => first('/api/addons/'),
    '/api/screenshots/{id}/': () => first('/api/screenshots/'),
    '/api/memory/{id}/': async () => (await api.get('/api/memory/', api.fixture.tokens.admin)).json.results[0].id,
  };
  const id = ids[template] ? await ids[template]() : 0;
  if (template === '/api/tasks/{uuid}/') {
    const started = await httpRequest(api.origin, '/api/translations/hello/app/de/autotranslate/', {
      method: 'POST',
      token: api.fixture.tokens.admin,
      json: {},
    });
    return new URL(started.json.task_url).pathname;
  }
  return template
    .replace('{engine}', 'weblate-translation-memory')
    .replace('{project}', 'hello')
    .replace('{component}', 'app')
    .replace('{language}', 'de')
    .replace('{username}', 'jane')
    .replace('{slug}', 'lists-all')
    .replace('{id}', String(id));
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with one GET per served path, from the route table', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(ROUTES.map((r) => r.path));
    for (const route of ROUTES) {
      const op = doc.paths[route.path].get;
      expect(op.summary).toBe(route.name);
      expect(op.responses['200']).toBeDefined();
      const pathParams = op.parameters.filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
      expect(pathParams).toEqual([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
    }
    expect(doc.components.securitySchemes.tokenAuth).toMatchObject({ type: 'apiKey', name: 'Authorization' });
  });

  it("describes records field by field, in the serializers' order", () => {
    expect(Object.keys(doc.components.schemas.Unit.properties).slice(0, 5)).toEqual(['translation', 'source', 'previous_source', 'target', 'id_hash']);
    expect(doc.components.schemas.Unit.properties.id_hash).toEqual({ type: 'integer', format: 'int64' });
    expect(doc.components.schemas.Translation.properties.component).toEqual({ $ref: '#/components/schemas/Component' });
    expect(doc.components.schemas.ComponentTranslation.properties.component).toBeUndefined();
    expect(doc.components.schemas.TranslationStatistics.required).toContain('last_author');
    expect(doc.components.schemas.Statistics.required).not.toContain('code');
    expect(doc.components.schemas.PaginatedUnitList.required).toEqual(['count', 'next', 'previous', 'results']);
  });

  it('validates every real answer against its schema', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('uri', (s: string) => /^https?:\/\/[^\s]+$/.test(s));
    ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+(Z|[+-]\d\d:\d\d)$/.test(s));
    ajv.addFormat('int64', true);
    ajv.addSchema({ ...doc, $id: 'tms' });
    let checked = 0;
    for (const route of ROUTES) {
      const ok = doc.paths[route.path].get.responses['200'];
      const schema = ok.content['application/json']?.schema;
      if (!schema || route.response.kind === 'schema' || !route.allow.includes('GET')) continue;
      const path = await concrete(route.path);
      const resolved = schema.$ref ? { $ref: `tms${schema.$ref}` } : JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"tms#/components'));
      const validate = ajv.compile(resolved);
      // Repository status needs a VCS permission, the memory a superuser, metrics a signed-in user: the admin.
      // … and machinery a translator, a task its starter
      const adminOnly =
        route.path.endsWith('/repository/') ||
        route.path.startsWith('/api/memory/') ||
        route.path === '/api/metrics/' ||
        route.path.includes('/machinery/') ||
        route.path.startsWith('/api/tasks/');
      const tokens = adminOnly ? [api.fixture.tokens.admin] : [undefined, api.fixture.tokens.admin];
      for (const token of tokens) {
        for (const suffix of ['', route.response.kind === 'page' ? '?page_size=2' : '']) {
          const r = await api.get(path + suffix, token);
          expect(r.status, `${path}: ${r.text}`).toBe(200);
          expect(validate(r.json), `${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(70);
  });
});
