// What handlers and serializers receive: the app's services (built once) and the per-request context.
import type { Principal } from '../auth/check.js';
import type { Config } from '../config/config.js';
import type { AccountQueries, AccountRow } from '../store/accounts.query.js';
import type { RepositoryQueries } from '../store/repository.query.js';
import type { Catalog } from '../store/catalog.query.js';
import type { ChangeQueries } from '../store/changes.query.js';
import type { Db } from '../store/db.js';
import type { UnitQueries } from '../store/units.query.js';
import type { Access } from './access.js';
import type { MemoContext } from './serializer.js';
import type { Urls } from './urls.js';

/** Everything built once per app: prepared queries, the configuration, cached snapshots. */
export interface ApiServices {
  /** The store, for the write path (handlers pass it on; they run no SQL themselves). */
  db: Db;
  config: Config;
  /** The tms version the OpenAPI document states. */
  version: string;
  units: UnitQueries;
  changes: ChangeQueries;
  accounts: AccountQueries;
  repository: RepositoryQueries;
  /** The catalog snapshot, reloaded when the database changed. */
  catalog(): Catalog;
  /** The principal of a user, rebuilt when the database changed. */
  principal(user: AccountRow): Principal;
  /** Where a component's working copy lives (translation files are served from it). */
  workingCopy(projectSlug: string, componentSlug: string): string;
}

/** One request as handlers and serializers see it. */
export interface RequestContext extends MemoContext {
  services: ApiServices;
  catalog: Catalog;
  urls: Urls;
  user: AccountRow;
  access: Access;
  /** Path parameters of the matched route, decoded. */
  params: Record<string, string>;
  /** Query parameters in request order (repeated keys repeat). */
  query: readonly (readonly [string, string])[];
  /** The request path as received (for pagination links). */
  path: string;
  /** A request header (lower-case name). */
  header(name: string): string | undefined;
}

/** The first value of a query parameter, or undefined. */
export function queryValue(ctx: RequestContext, name: string): string | undefined {
  for (const [key, value] of ctx.query) if (key === name) return value;
  return undefined;
}

/** Every value of a repeatable query parameter. */
export function queryValues(ctx: RequestContext, name: string): string[] {
  const values: string[] = [];
  for (const [key, value] of ctx.query) if (key === name) values.push(value);
  return values;
}
