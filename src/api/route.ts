// The shape of the API's route table: what a path serves, its write operations and what the OpenAPI document says of them.
import type { Answer } from './answer.js';
import type { BodyTypes } from './body.js';
import type { RequestContext } from './context.js';
import type { PageKind } from './pagination.js';
import type { Serializer } from './serializer.js';
import type { WriteContext } from './write.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Methods in the order Weblate's `Allow` lists them. */
export const METHOD_ORDER: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

// biome-ignore lint/suspicious/noExplicitAny: serializers of any row type
export type AnySerializer = Serializer<any, any>;

/** What a GET answers, for the OpenAPI document. */
export type ResponseShape =
  | { kind: 'record'; serializer: AnySerializer }
  | { kind: 'page'; serializer: AnySerializer; page: PageKind }
  | { kind: 'array'; serializer: AnySerializer }
  | { kind: 'file' }
  | { kind: 'root' }
  | { kind: 'schema' };

/** A documented query parameter besides `format`, `page` and `page_size`. */
export interface QueryParameter {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  repeatable?: boolean;
}

export type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One write operation of a path: its handler and what the OpenAPI document says about it. */
export interface WriteOperation {
  handler: (ctx: WriteContext) => Answer | Promise<Answer>;
  summary: string;
  /** Body types taken: `form` for uploads (multipart or form-urlencoded), else JSON too. Default `any`. */
  body?: BodyTypes;
  /** JSON schema of the request body's fields. */
  request?: Record<string, unknown>;
  /** The success status and its body's schema (a serializer name or a schema); none for 204. */
  status: number;
  answer?: string | Record<string, unknown>;
}

export interface Route {
  /** Template with `{param}` segments; always ends in `/`. */
  path: string;
  /** View name (OPTIONS `name`, OpenAPI summary). */
  name: string;
  description: string;
  /** What `Allow` lists, in Weblate's order; a listed write method without an operation answers 405. */
  allow: readonly Method[];
  get: (ctx: RequestContext) => Answer | Promise<Answer>;
  /** The write methods served. */
  write?: Partial<Record<WriteMethod, WriteOperation>>;
  /** The answer follows more than the database (the git repository): never cached. */
  live?: boolean;
  response: ResponseShape;
  query?: readonly QueryParameter[];
  /** `?format=` belongs to the handler (a file conversion), not to content negotiation. */
  ownFormat?: boolean;
  /** OpenAPI tag (the resource). */
  tags: string;
}
