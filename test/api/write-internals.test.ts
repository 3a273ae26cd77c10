// The edges without a server: the one error mapping (404/400/403/409/423) and the OpenAPI entries of the write operations.
import { describe, expect, it } from 'vitest';
import { type ApiError, toApiError } from '../../src/api/errors.js';
import { MultipartError } from '../../src/api/multipart.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { ROOT_LISTS, ROUTES } from '../../src/api/routes.js';
import { MutexTimeoutError, withComponentMutex } from '../../src/component/mutex.js';
import { FormatParseError, NotFoundError, forbidden, invalid } from '../../src/domain/errors.js';
import { HookPayloadError } from '../../src/hooks/services.js';
import type { Json } from '../helpers/api-client.js';

describe('toApiError', () => {
  const asApi = (e: unknown) => toApiError(e) as ApiError;

  it("maps tms's errors to statuses and the one body shape", () => {
    expect(asApi(new NotFoundError('unit', '7')).status).toBe(404);
    const bad = asApi(invalid('state', 'Invalid state'));
    expect(bad.status).toBe(400);
    expect(bad.body()).toEqual({ type: 'validation_error', errors: [{ code: 'invalid', detail: 'Invalid state', attr: 'state' }] });
    const refused = asApi(forbidden('The component is locked.'));
    expect(refused.status).toBe(403);
    expect(refused.body().errors[0]).toEqual({ code: 'permission_denied', detail: 'The component is locked.', attr: null });
    expect(asApi(new MultipartError('Unexpected end of form')).body()).toEqual({
      type: 'validation_error',
      errors: [{ code: 'invalid', detail: 'Unexpected end of form', attr: null }],
    });
    expect(asApi(new HookPayloadError('Missing payload parameter!', { field: null, service: 'github', reason: 'no payload' })).status).toBe(400);
    const broken = asApi(new FormatParseError('translations/app_de.ts', 3, 7, 'unclosed tag'));
    expect(broken.status).toBe(409);
    expect(broken.body().errors[0]).toEqual({ code: 'parse_error', detail: 'translations/app_de.ts:3:7: unclosed tag', attr: null });
    // anything else is a defect: no mapping, the edge answers a detail-free 500
    expect(toApiError(new Error('boom'))).toBeNull();
  });

  it('answers 423 repository-locked when the component lock is not had in time', async () => {
    let release!: () => void;
    const held = withComponentMutex('hello/app', () => new Promise<void>((resolve) => (release = resolve)));
    const error = await withComponentMutex('hello/app', async () => 'never', 20).catch((e: unknown) => e);
    release();
    await held;
    expect(error).toBeInstanceOf(MutexTimeoutError);
    const api = asApi(error);
    expect(api.status).toBe(423);
    expect(api.body()).toEqual({
      type: 'client_error',
      errors: [{ code: 'repository-locked', detail: 'Could not obtain the repository lock for hello/app to perform the operation.', attr: null }],
    });
  });
});

describe('OpenAPI write operations', () => {
  const doc = openApiDocument(
    ROUTES,
    ROOT_LISTS.map(([n]) => n),
    'http://127.0.0.1:8000',
    '0.0.0',
  ) as Json;

  it('documents every write operation of the route table, and only those', () => {
    for (const route of ROUTES) {
      const item = doc.paths[route.path];
      for (const method of ['post', 'put', 'patch', 'delete']) {
        expect(Boolean(item[method]), `${method} ${route.path}`).toBe(Boolean(route.write?.[method.toUpperCase() as 'POST']));
      }
    }
    expect(doc.paths['/api/units/{id}/'].delete.responses['204']).toBeDefined();
    expect(Object.keys(doc.paths['/api/translations/{project}/{component}/{language}/file/'].post.requestBody.content)).toEqual([
      'multipart/form-data',
      'application/x-www-form-urlencoded',
    ]);
    expect(doc.paths['/api/components/{project}/{component}/repository/'].post.responses['423']).toBeDefined();
    const ids = Object.values(doc.paths).flatMap((item: Json) => Object.values(item as Record<string, Json>).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
