// Screenshots through the real server: every endpoint of /api/screenshots/ and a component's list, images judged by their
// bytes (bad ones a 400 on `image`), Weblate's permissions, another project's screenshots never seen, and a restored
// `tms backup` still serving the image.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackup, runRestore } from '../../src/cli/backup.js';
import type { CliIo } from '../../src/cli/io.js';
import { Action } from '../../src/domain/actions.js';
import { IMAGE_MAX_BYTES } from '../../src/domain/image.js';
import { startServer } from '../../src/server/server.js';
import { joinTeams } from '../../src/store/auth.repo.js';
import { openStore } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { type ApiHarness, type Json, startApi } from '../helpers/api-client.js';
import { httpRequest } from '../helpers/http.js';
import { SVG_WITH_SCRIPT, gifHeader, jpegHeader, png, pngHeader, webpHeader } from '../helpers/images.js';
import { onPostgres } from '../helpers/store.js';

/** A multipart body: text fields, and `image` when given. */
function form(fields: Record<string, string>, image?: { bytes: Buffer; filename?: string; type?: string }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (image) f.append('image', new Blob([image.bytes], { type: image.type ?? 'image/png' }), image.filename ?? 'shot.png');
  return f;
}

const APP = { project_slug: 'hello', component_slug: 'app', language_code: 'en' };
const TOOLS = { project_slug: 'internal', component_slug: 'tools', language_code: 'en' };

describe('the screenshots API', () => {
  let api: ApiHarness;
  let manager: string;
  let jane: string;
  let admin: string;
  /** An English (source) unit and a German one of hello/app, and an English one of internal/tools. */
  let sourceUnit: Json;
  let germanUnit: Json;
  let toolsUnit: Json;
  const first = png(4, 3, [200, 30, 30]);

  const post = (p: string, token: string | undefined, body: FormData | Record<string, unknown>, method = 'POST') =>
    body instanceof FormData ? httpRequest(api.origin, p, { method, token, body }) : httpRequest(api.origin, p, { method, token, json: body });
  const create = (token: string | undefined, fields: Record<string, string>, bytes: Buffer = first) =>
    post('/api/screenshots/', token, form(fields, { bytes }));
  const count = async () => (await api.get('/api/screenshots/', admin)).json.count as number;

  beforeAll(async () => {
    api = await startApi();
    ({ jane, admin } = api.fixture.tokens);
    const mike = await api.fixture.store.write(async (tx) => {
      const created = await createUser(tx, { username: 'mike', fullName: 'Mike Manager', email: 'mike@example.org' });
      await joinTeams(tx, created.user.id, ['Managers']);
      return created;
    });
    manager = mike.token;
    sourceUnit = (await api.get('/api/translations/hello/app/en/units/', admin)).json.results[0];
    germanUnit = (await api.get('/api/translations/hello/app/de/units/', admin)).json.results[0];
    toolsUnit = (await api.get('/api/translations/internal/tools/en/units/', admin)).json.results[0];
  });
  afterAll(() => api?.close());

  it('lists screenshots at the API root, after units as Weblate does', async () => {
    const root = await api.get('/api/');
    const names = Object.keys(root.json);
    expect(root.json.screenshots).toBe(`${api.origin}/api/screenshots/`);
    expect(names.indexOf('screenshots')).toBe(names.indexOf('units') + 1);
  });

  it('creates a screenshot from a multipart image, serves the image as uploaded and records the change', async () => {
    const r = await create(manager, { ...APP, name: 'Main window' });
    expect(r.status).toBe(201);
    expect(Object.keys(r.json)).toEqual(['id', 'name', 'repository_filename', 'translation', 'file_url', 'units', 'url']);
    const { id } = r.json;
    expect(r.json).toEqual({
      id,
      name: 'Main window',
      repository_filename: '',
      translation: `${api.origin}/api/translations/hello/app/en/`,
      file_url: `${api.origin}/api/screenshots/${id}/file/`,
      units: [],
      url: `${api.origin}/api/screenshots/${id}/`,
    });
    expect(r.headers.get('location')).toBe(r.json.url);
    expect((await api.get(`/api/screenshots/${id}/`)).json).toEqual(r.json);
    const file = await api.get(`/api/screenshots/${id}/file/`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.bytes.equals(first)).toBe(true);
    const changes = await api.get(`/api/components/hello/app/changes/?action=${Action.SCREENSHOT_ADDED}`, admin);
    expect(changes.json.results.map((c: Json) => c.target)).toContain('Main window');
  });

  it("lists and adds a component's screenshots (the source language's unless language_code names another)", async () => {
    const r = await post('/api/components/hello/app/screenshots/', admin, form({ name: 'About box' }, { bytes: jpegHeader(640, 480), type: 'image/jpeg' }));
    expect(r.status).toBe(201);
    expect(r.json.translation).toBe(`${api.origin}/api/translations/hello/app/en/`);
    expect((await api.get(`/api/screenshots/${r.json.id}/file/`)).headers.get('content-type')).toBe('image/jpeg');
    const de = await post('/api/components/hello/app/screenshots/', admin, form({ name: 'German dialog', language_code: 'de' }, { bytes: png(2, 2) }));
    expect(de.json.translation).toBe(`${api.origin}/api/translations/hello/app/de/`);
    const list = await api.get('/api/components/hello/app/screenshots/');
    expect(list.status).toBe(200);
    expect(list.json.results.map((s: Json) => s.name)).toEqual(expect.arrayContaining(['Main window', 'About box', 'German dialog']));
    expect(list.json.results.every((s: Json) => s.translation.includes('/hello/app/'))).toBe(true);
    const unknown = await post('/api/components/hello/app/screenshots/', admin, form({ name: 'x', language_code: 'xx' }, { bytes: png(2, 2) }));
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0].attr).toBe('language_code');
  });

  it('renames by PATCH and PUT (PUT needs the name)', async () => {
    const { id } = (await create(admin, { ...APP, name: 'Old name' })).json;
    const patched = await post(`/api/screenshots/${id}/`, admin, { name: 'New name' }, 'PATCH');
    expect(patched.status).toBe(200);
    expect(patched.json.name).toBe('New name');
    const empty = await post(`/api/screenshots/${id}/`, admin, {}, 'PUT');
    expect(empty.status).toBe(400);
    expect(empty.json.errors[0]).toEqual({ code: 'required', detail: 'This field is required.', attr: 'name' });
    const put = await post(`/api/screenshots/${id}/`, admin, { name: 'Put name' }, 'PUT');
    expect(put.json.name).toBe('Put name');
    const long = await post(`/api/screenshots/${id}/`, admin, { name: 'x'.repeat(201) }, 'PATCH');
    expect(long.status).toBe(400);
    expect(long.json.errors[0].attr).toBe('name');
  });

  it("links and unlinks strings of the screenshot's translation only", async () => {
    const { id } = (await create(admin, { ...APP, name: 'Links' })).json;
    const linked = await post(`/api/screenshots/${id}/units/`, admin, { unit_id: sourceUnit.id });
    expect(linked.status).toBe(200);
    expect(linked.json.units).toEqual([sourceUnit.url]);
    // has:screenshot finds the string in its source language and in its translations
    const combined = encodeURIComponent(`has:screenshot AND context:"${sourceUnit.context}"`);
    for (const lang of ['en', 'de']) {
      const found = await api.get(`/api/translations/hello/app/${lang}/units/?q=has:screenshot`, admin);
      expect(
        found.json.results.map((u: Json) => u.id_hash),
        lang,
      ).toEqual([sourceUnit.id_hash]);
    }
    expect((await api.get(`/api/translations/hello/app/de/units/?q=${combined}`, admin)).json.count).toBe(1);
    // form-encoded too, and linking twice keeps one link
    const again = await post(`/api/screenshots/${id}/units/`, admin, form({ unit_id: String(sourceUnit.id) }));
    expect(again.json.units).toEqual([sourceUnit.url]);
    for (const [body, attr, code] of [
      [{ unit_id: germanUnit.id }, 'unit_id', 'invalid'],
      [{ unit_id: 'seven' }, 'unit_id', 'invalid'],
      [{ unit_id: 99_999_999 }, 'unit_id', 'invalid'],
      [{}, 'unit_id', 'required'],
    ] as const) {
      const r = await post(`/api/screenshots/${id}/units/`, admin, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.errors[0]).toMatchObject({ attr, code });
    }
    expect((await httpRequest(api.origin, `/api/screenshots/${id}/units/${germanUnit.id}/`, { method: 'DELETE', token: admin })).status).toBe(404);
    const unlinked = await httpRequest(api.origin, `/api/screenshots/${id}/units/${sourceUnit.id}/`, { method: 'DELETE', token: admin });
    expect(unlinked.status).toBe(204);
    expect((await api.get(`/api/screenshots/${id}/`)).json.units).toEqual([]);
    expect((await api.get('/api/translations/hello/app/de/units/?q=has:screenshot', admin)).json.count).toBe(0);
  });

  it('replaces the image through /file/, keeping the old one when the new one is refused', async () => {
    const { id } = (await create(admin, { ...APP, name: 'Replaced' })).json;
    const next = webpHeader(1280, 800);
    const r = await post(`/api/screenshots/${id}/file/`, admin, form({}, { bytes: next, type: 'image/webp', filename: 'x.webp' }));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: true });
    const file = await api.get(`/api/screenshots/${id}/file/`);
    expect(file.headers.get('content-type')).toBe('image/webp');
    expect(file.bytes.equals(next)).toBe(true);
    const bad = await post(`/api/screenshots/${id}/file/`, admin, form({}, { bytes: SVG_WITH_SCRIPT, type: 'image/png', filename: 'x.png' }));
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].attr).toBe('image');
    expect((await api.get(`/api/screenshots/${id}/file/`)).bytes.equals(next)).toBe(true);
  });

  it.each([
    ['an SVG with a script, sent as image/png', SVG_WITH_SCRIPT],
    ['a GIF', gifHeader(10, 10)],
    ['text', Buffer.from('not an image')],
    ['an empty file', Buffer.alloc(0)],
    ['a truncated PNG', pngHeader(10, 10).subarray(0, 12)],
    ['a PNG over the size limit', Buffer.concat([pngHeader(10, 10), Buffer.alloc(IMAGE_MAX_BYTES)])],
    ['a PNG of 20000×20000 pixels', pngHeader(20_000, 20_000)],
  ])('refuses %s with a 400 on image, storing nothing', async (_, bytes) => {
    const before = await count();
    const r = await create(admin, { ...APP, name: 'Bad' }, bytes);
    expect(r.status).toBe(400);
    expect(r.json.type).toBe('validation_error');
    expect(r.json.errors).toHaveLength(1);
    expect(r.json.errors[0].attr).toBe('image');
    expect(await count()).toBe(before);
  });

  it('says which field is missing or wrong when creating', async () => {
    const missing = await create(admin, { component_slug: 'app', language_code: 'en', name: 'x' });
    expect(missing.json.errors[0]).toEqual({ code: 'required', detail: 'This field is required.', attr: 'project_slug' });
    const unknown = await create(admin, { ...APP, component_slug: 'nope', name: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors.map((e: Json) => e.attr)).toEqual(['project_slug', 'component_slug', 'language_code']);
    const noName = await create(admin, { ...APP });
    expect(noName.json.errors[0]).toMatchObject({ attr: 'name', code: 'required' });
    const noImage = await post('/api/screenshots/', admin, form({ ...APP, name: 'x' }));
    expect(noImage.json.errors[0]).toEqual({ code: 'required', detail: 'No file was submitted.', attr: 'image' });
    const textImage = await post('/api/screenshots/', admin, form({ ...APP, name: 'x', image: 'a text, not a file' }));
    expect(textImage.json.errors[0].attr).toBe('image');
  });

  it("follows Weblate's permissions: a translator reads but may not add, edit or delete; anonymous writes are 401", async () => {
    const { id } = (await create(manager, { ...APP, name: 'Guarded' })).json;
    expect((await api.get(`/api/screenshots/${id}/`, jane)).status).toBe(200);
    const denied = async (r: Promise<{ status: number; json: Json }>, detail?: string) => {
      const answer = await r;
      expect(answer.status).toBe(403);
      if (detail) expect(answer.json.errors[0].detail).toBe(detail);
    };
    await denied(create(jane, { ...APP, name: 'x' }), 'Can not add screenshot.');
    await denied(post(`/api/screenshots/${id}/`, jane, { name: 'x' }, 'PATCH'), 'Can not edit screenshot.');
    await denied(httpRequest(api.origin, `/api/screenshots/${id}/`, { method: 'DELETE', token: jane }), 'Can not delete screenshot.');
    await denied(post(`/api/screenshots/${id}/file/`, jane, form({}, { bytes: png(1, 1) })));
    await denied(post(`/api/screenshots/${id}/units/`, jane, { unit_id: sourceUnit.id }));
    await denied(httpRequest(api.origin, `/api/screenshots/${id}/units/${sourceUnit.id}/`, { method: 'DELETE', token: jane }));
    await denied(post('/api/components/hello/app/screenshots/', jane, form({ name: 'x' }, { bytes: png(1, 1) })), 'Can not add screenshot.');
    expect((await create(undefined, { ...APP, name: 'x' })).status).toBe(401);
    expect((await api.get(`/api/screenshots/${id}/`)).json.name).toBe('Guarded');
  });

  it("never shows another project's screenshot to someone who cannot see that project", async () => {
    const created = await create(admin, { ...TOOLS, name: 'Internal secret' });
    expect(created.status).toBe(201);
    const { id } = created.json;
    expect((await post(`/api/screenshots/${id}/units/`, admin, { unit_id: toolsUnit.id })).status).toBe(200);
    for (const token of [jane, undefined]) {
      const who = token ? 'jane' : 'anonymous';
      expect((await api.get(`/api/screenshots/${id}/`, token)).status, who).toBe(404);
      expect((await api.get(`/api/screenshots/${id}/file/`, token)).status, who).toBe(404);
      expect((await api.get('/api/components/internal/tools/screenshots/', token)).status, who).toBe(404);
      const list = await api.get('/api/screenshots/?page_size=1000', token);
      expect(list.json.results.map((s: Json) => s.id)).not.toContain(id);
      expect(list.json.count).toBe(list.json.results.length);
      expect(list.json.results.every((s: Json) => s.translation.includes('/hello/'))).toBe(true);
    }
    // nor do the web pages show it to an anonymous visitor (who sees hello's)
    expect((await api.get(`/screenshot/${id}/`)).status).toBe(404);
    expect((await api.get(`/screenshot/${id}/image/`)).status).toBe(404);
    expect((await api.get('/screenshots/internal/tools/')).status).toBe(404);
    expect((await api.get('/screenshots/hello/app/')).status).toBe(200);
    // jane's writes meet the same 404 (not a 403 that would say it exists), and creating there names no translation
    expect((await post(`/api/screenshots/${id}/`, jane, { name: 'x' }, 'PATCH')).status).toBe(404);
    expect((await httpRequest(api.origin, `/api/screenshots/${id}/`, { method: 'DELETE', token: jane })).status).toBe(404);
    expect((await post(`/api/screenshots/${id}/units/`, jane, { unit_id: toolsUnit.id })).status).toBe(404);
    expect((await post(`/api/screenshots/${id}/file/`, jane, form({}, { bytes: png(1, 1) }))).status).toBe(404);
    const there = await create(jane, { ...TOOLS, name: 'x' });
    expect(there.status).toBe(400);
    expect(there.json.errors.map((e: Json) => e.attr)).toEqual(['project_slug', 'component_slug', 'language_code']);
    // whoever may see the project sees it
    expect((await api.get(`/api/screenshots/${id}/`, admin)).json.units).toEqual([toolsUnit.url]);
    expect((await api.get(`/api/screenshots/${id}/`, manager)).status).toBe(200);
  });

  it('deletes a screenshot with its links and image', async () => {
    const { id } = (await create(admin, { ...APP, name: 'Doomed' })).json;
    await post(`/api/screenshots/${id}/units/`, admin, { unit_id: sourceUnit.id });
    const r = await httpRequest(api.origin, `/api/screenshots/${id}/`, { method: 'DELETE', token: manager });
    expect(r.status).toBe(204);
    expect((await api.get(`/api/screenshots/${id}/`, admin)).status).toBe(404);
    expect((await api.get(`/api/screenshots/${id}/file/`, admin)).status).toBe(404);
    const changes = await api.get(`/api/components/hello/app/changes/?action=${Action.SCREENSHOT_REMOVED}`, admin);
    expect(changes.json.results.map((c: Json) => c.target)).toContain('Doomed');
  });

  it('documents the screenshot paths in the OpenAPI description', async () => {
    const doc = (await api.get('/api/schema/')).json;
    expect(Object.keys(doc.paths['/api/screenshots/'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths['/api/screenshots/{id}/file/'].post.requestBody.content['multipart/form-data']).toBeDefined();
    expect(doc.paths['/api/screenshots/{id}/units/{unit_id}/'].delete).toBeDefined();
    expect(doc.components.schemas.Screenshot).toBeDefined();
  });
});

describe('screenshots in a backup', () => {
  it.skipIf(onPostgres)('are served again from a restored `tms backup`', async () => {
    const api = await startApi();
    const { config, dir } = api.fixture;
    const io: CliIo = { out: () => {}, err: () => {}, isTty: false };
    const image = png(5, 5, [10, 200, 10]);
    try {
      const created = await httpRequest(api.origin, '/api/screenshots/', {
        method: 'POST',
        token: api.fixture.tokens.admin,
        body: form({ ...APP, name: 'Kept' }, { bytes: image }),
      });
      expect(created.status).toBe(201);
      const backup = path.join(dir, 'backup.sqlite');
      expect(await runBackup(config, io, backup)).toBe(0);
      // gone from the live database, then the backup put back
      expect((await httpRequest(api.origin, `/api/screenshots/${created.json.id}/`, { method: 'DELETE', token: api.fixture.tokens.admin })).status).toBe(204);
      await api.server.close();
      await api.fixture.store.close();
      expect(await runRestore(config, io, backup)).toBe(0);
      const store = await openStore(config.database);
      const server = await startServer({ store, config: { ...config, rate_limit: { anonymous: '', user: '' } }, host: '127.0.0.1', port: 0, log: () => {} });
      try {
        const file = await httpRequest(server.url, `/api/screenshots/${created.json.id}/file/`);
        expect(file.status).toBe(200);
        expect(file.bytes.equals(image)).toBe(true);
        expect((await httpRequest(server.url, `/api/screenshots/${created.json.id}/`)).json.name).toBe('Kept');
      } finally {
        await server.close();
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
