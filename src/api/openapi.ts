// The OpenAPI 3.1 document of what tms serves, generated from the route table and the serializers' field lists.
import { PAGE_SIZES } from './pagination.js';
import type { Route, WriteMethod, WriteOperation } from './route.js';
import type { Serializer } from './serializer.js';

// biome-ignore lint/suspicious/noExplicitAny: serializers of any row type
type AnySerializer = Serializer<any, any>;

const ERROR_SCHEMA = {
  type: 'object',
  description: 'Every error: one body shape.',
  properties: {
    type: { type: 'string', enum: ['validation_error', 'client_error', 'server_error'] },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { code: { type: 'string' }, detail: { type: 'string' }, attr: { type: ['string', 'null'] } },
        required: ['code', 'detail', 'attr'],
        additionalProperties: false,
      },
    },
  },
  required: ['type', 'errors'],
  additionalProperties: false,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });

function pageSchema(serializer: AnySerializer): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 0 },
      next: { type: ['string', 'null'], format: 'uri' },
      previous: { type: ['string', 'null'], format: 'uri' },
      results: { type: 'array', items: ref(serializer.name) },
    },
    required: ['count', 'next', 'previous', 'results'],
    additionalProperties: false,
  };
}

function operationId(route: Route): string {
  const words = route.path
    .split('/')
    .filter((s) => s !== '' && s !== 'api')
    .map((s) => s.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')));
  const name = words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
  return `${name || 'root'}Retrieve`;
}

function parameters(route: Route): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) {
    out.push({
      name,
      in: 'path',
      required: true,
      schema: name === 'id' ? { type: 'integer', minimum: 0 } : { type: 'string' },
    });
  }
  out.push(
    route.ownFormat
      ? { name: 'format', in: 'query', description: 'File conversion (not offered: any value is a 400).', schema: { type: 'string' } }
      : {
          name: 'format',
          in: 'query',
          description: 'api or json: answer JSON, and carry format into every URL of the answer.',
          schema: { type: 'string', enum: ['api', 'json'] },
        },
  );
  if (route.response.kind === 'page') {
    const { size, max } = PAGE_SIZES[route.response.page];
    out.push(
      { name: 'page', in: 'query', description: 'Page number (1-based) or "last".', schema: { type: 'string' } },
      {
        name: 'page_size',
        in: 'query',
        description: `Records per page (default ${size}, at most ${max}).`,
        schema: { type: 'integer', minimum: 1, maximum: max, default: size },
      },
    );
  }
  for (const q of route.query ?? []) {
    out.push({
      name: q.name,
      in: 'query',
      description: q.description,
      schema: q.repeatable ? { type: 'array', items: q.schema } : q.schema,
      ...(q.repeatable ? { style: 'form', explode: true } : {}),
    });
  }
  return out;
}

function okResponse(route: Route, lists: readonly string[]): Record<string, unknown> {
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  switch (route.response.kind) {
    case 'record':
      return { description: 'The record.', ...json(ref(route.response.serializer.name)) };
    case 'page':
      return { description: 'One page of the list.', ...json(ref(`Paginated${route.response.serializer.name}List`)) };
    case 'array':
      return { description: 'Every record (not paginated).', ...json({ type: 'array', items: ref(route.response.serializer.name) }) };
    case 'file':
      return {
        description: 'The file, with its own media type.',
        content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
      };
    case 'root':
      return {
        description: 'Links to the lists.',
        ...json({
          type: 'object',
          properties: Object.fromEntries(lists.map((name) => [name, { type: 'string', format: 'uri' }])),
          required: [...lists],
          additionalProperties: false,
        }),
      };
    case 'schema':
      return { description: 'This document.', ...json({ type: 'object' }) };
  }
}

function writeOperation(route: Route, method: WriteMethod, op: WriteOperation): Record<string, unknown> {
  const pathParameters = parameters(route).filter((p) => p.in === 'path');
  const responses: Record<string, unknown> = {};
  if (op.status === 204) responses['204'] = { description: 'Done; no body.' };
  else {
    const schema = typeof op.answer === 'string' ? ref(op.answer) : (op.answer ?? { type: 'object' });
    responses[String(op.status)] = { description: 'Done.', content: { 'application/json': { schema } } };
  }
  responses['400'] = error('The body is invalid (the field is in attr).');
  responses['401'] = error('No credentials, or credentials that do not authenticate.');
  responses['403'] = error('Not permitted, or the component refuses the action (locked, read-only, …).');
  responses['404'] = error('No such (visible) object.');
  if (op.request || op.body) responses['415'] = error('A body type the operation does not take.');
  if (route.path.endsWith('/repository/') || route.path.endsWith('/file/') || route.path.endsWith('/translations/')) {
    responses['423'] = error('The repository lock could not be obtained in time.');
  }
  const out: Record<string, unknown> = {
    operationId: operationId(route).replace(/Retrieve$/, method[0] + method.slice(1).toLowerCase()),
    summary: op.summary,
    tags: [route.tags],
    parameters: pathParameters,
    security: [{ tokenAuth: [] }, { bearerAuth: [] }],
    responses,
  };
  if (op.request) {
    const types =
      op.body === 'form'
        ? ['multipart/form-data', 'application/x-www-form-urlencoded']
        : ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];
    out.requestBody = { required: method !== 'DELETE', content: Object.fromEntries(types.map((t) => [t, { schema: op.request }])) };
  }
  return out;
}

/**
 * The OpenAPI document for these routes; every schema comes from a serializer's field list.
 * @example openApiDocument(ROUTES, ROOT_LISTS.map(([n]) => n), 'http://127.0.0.1:8000', '0.1.0')
 */
export function openApiDocument(routes: readonly Route[], rootLists: readonly string[], origin: string, version: string): Record<string, unknown> {
  const serializers = new Map<string, AnySerializer>();
  const pages = new Map<string, AnySerializer>();
  for (const route of routes) {
    const r = route.response;
    if (r.kind === 'record' || r.kind === 'page' || r.kind === 'array') r.serializer.collect(serializers);
    if (r.kind === 'page') pages.set(`Paginated${r.serializer.name}List`, r.serializer);
  }
  const schemas: Record<string, unknown> = { Error: ERROR_SCHEMA };
  for (const [name, serializer] of [...serializers].sort(([a], [b]) => a.localeCompare(b))) schemas[name] = serializer.schema();
  for (const [name, serializer] of [...pages].sort(([a], [b]) => a.localeCompare(b))) schemas[name] = pageSchema(serializer);

  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = { '200': okResponse(route, rootLists) };
    if (route.response.kind === 'file') responses['304'] = { description: 'Not modified since If-Modified-Since.' };
    if (route.query?.length || route.ownFormat) responses['400'] = error('A filter or parameter is invalid.');
    responses['401'] = error('The credentials do not authenticate.');
    if (route.response.kind === 'file' || route.path.endsWith('/repository/')) responses['403'] = error('Not permitted.');
    responses['404'] = error('No such (visible) object, or an invalid page.');
    paths[route.path] = {
      get: {
        operationId: operationId(route),
        summary: route.name,
        description: route.description,
        tags: [route.tags],
        parameters: parameters(route),
        responses,
      },
    };
    const item = paths[route.path] as Record<string, unknown>;
    for (const [method, op] of Object.entries(route.write ?? {}) as [WriteMethod, WriteOperation][]) {
      item[method.toLowerCase()] = writeOperation(route, method, op);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'tms',
      version,
      description:
        "REST API of tms, wire-compatible with Weblate's. Every path also answers HEAD and OPTIONS; a write method listed in Allow but not documented here answers 405 (401 without credentials).",
    },
    servers: [{ url: origin }],
    security: [{}, { tokenAuth: [] }, { bearerAuth: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <key>' },
        bearerAuth: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
