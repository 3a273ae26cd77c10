// What handlers and serializers receive: the app's services (built once) and the per-request context.
import type { Principal } from '../auth/check.js';
import type { GitRunner } from '../component/handle.js';
import type { Config } from '../config/config.js';
import type { Machinery, Tasks } from '../machinery/index.js';
import type { AccountRow, Catalog, Store } from '../store/index.js';
import type { Access } from './access.js';
import type { MemoContext } from './serializer.js';
import type { Urls } from './urls.js';

/** Everything built once per app: the store, the configuration, cached snapshots. */
export interface ApiServices {
  /** The store (handlers call repository functions through it; they run no SQL themselves). */
  store: Store;
  config: Config;
  /** The tms version the OpenAPI document states. */
  version: string;
  /** The catalog snapshot, reloaded when the database changed. */
  catalog(): Promise<Catalog>;
  /** The principal of a user, rebuilt when the database changed. */
  principal(user: AccountRow): Promise<Principal>;
  /** Where a component's working copy lives (translation files are served from it). */
  workingCopy(projectSlug: string, componentSlug: string): string;
  /**
   * The machine translation engines of the configuration in force (built again when it changes): a project's (the
   * site's, less those it excludes, with its own), or the site's.
   */
  machinery(projectSlug?: string): Machinery;
  /** Where repository operations' git work runs (`tms serve`'s git worker); undefined: the serving thread. */
  git: GitRunner | undefined;
  /** This process's background tasks (automatic translation), followed at `/api/tasks/<uuid>/`. */
  tasks: Tasks;
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

/** A request's header reader for `RequestContext.header`: the first value of a lower-case name. */
export function headerReader(req: { headers: Record<string, string | string[] | undefined> }): (name: string) => string | undefined {
  return (name) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
}
